#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where output goes: standard output, or a file written atomically (a temporary file beside it,
/// renamed over it on `commit()`, removed on `discard()` or an interrupt), so a failed run never
/// leaves a half-written file. A temporary file is named `.NAME.tradeport-PID-XXXXXX` and locked
/// while written; one left by a killed run is removed by the next run over the same target.
public final class OutputFile {
    /// The path written, or `-` for standard output.
    public let path: String
    private var fd: Int32
    private let temporaryPath: String?
    /// Standard output held back until `commit()`, or nil.
    private let held: Spool?
    private var buffer = OutputBuffer(capacity: OutputFile.flushSize + 65536)
    private var finished = false
    private static let flushSize = 1 << 20

    /// Whether `commit()` and `discard()` close `fd` (a device or pipe written in place).
    private let closesDescriptor: Bool

    private init(path: String, fd: Int32, temporaryPath: String?, held: Spool?, closesDescriptor: Bool = false) {
        self.path = path
        self.fd = fd
        self.temporaryPath = temporaryPath
        self.held = held
        self.closesDescriptor = closesDescriptor
    }

    /// Output to a file at `path`, atomically. A target that exists and is not a regular file
    /// (`/dev/null`, a named pipe, a terminal) is written in place: renaming a file over it would
    /// replace the device or pipe itself.
    public static func atomic(path: String) throws -> OutputFile {
        var st = stat()
        if stat(path, &st) == 0 {
            let type = st.st_mode & S_IFMT
            if type != S_IFREG && type != S_IFDIR {
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw OutputError(path: path, errno: errno) }
                return OutputFile(path: path, fd: fd, temporaryPath: nil, held: nil, closesDescriptor: true)
            }
        }
        let (fd, temp) = try makeTemporary(near: path)
        return OutputFile(path: path, fd: fd, temporaryPath: temp, held: nil)
    }

    /// Output to standard output. With `holdUntilCommit`, bytes are kept in a temporary file and
    /// copied out only on `commit()` (for `--strict`, where a failed run must print nothing).
    public static func standardOutput(holdUntilCommit: Bool) throws -> OutputFile {
        OutputFile(path: "-", fd: 1, temporaryPath: nil, held: holdUntilCommit ? Spool() : nil)
    }

    deinit {
        if !finished { discard() }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        buffer.append(bytes)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Appends through a closure writing straight into the buffer.
    @inline(__always)
    public func append(_ body: (inout OutputBuffer) -> Void) throws {
        body(&buffer)
        if buffer.count >= Self.flushSize { try flush() }
    }

    public func flush() throws {
        guard buffer.count > 0 else { return }
        if let held {
            held.append { $0.append(buffer.bytes) }
        } else {
            try writeAll(fd, buffer.bytes, path: path)
        }
        buffer.removeAll()
    }

    /// Makes the output final: renames the temporary file over the target, or copies held bytes
    /// to standard output.
    public func commit() throws {
        try flush()
        finished = true
        if let temp = temporaryPath {
            defer { PendingOutputs.shared.remove(temp) }
            // New files get the usual permissions (mkstemp makes them 0600).
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
            if close(fd) != 0 {
                let code = errno
                unlink(temp)
                throw OutputError(path: path, errno: code)
            }
            if rename(temp, path) != 0 {
                let code = errno
                unlink(temp)
                throw OutputError(path: path, errno: code)
            }
        } else if let held {
            try held.forEachChunk { try writeAll(1, $0, path: "-") }
        } else if closesDescriptor {
            close(fd)
        }
    }

    /// Abandons the output: the temporary file is removed and the target left as it was.
    public func discard() {
        guard !finished else { return }
        finished = true
        buffer.removeAll()
        if let temp = temporaryPath {
            close(fd)
            unlink(temp)
            PendingOutputs.shared.remove(temp)
        } else if closesDescriptor {
            close(fd)
        }
    }

    private static func makeTemporary(near path: String) throws -> (Int32, String) {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        if name.isEmpty { throw OutputError(.wrongKindOfPath, path: path, message: "is a directory") }
        var st = stat()
        if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            throw OutputError(.wrongKindOfPath, path: path, message: "is a directory")
        }
        let prefix = ".\(name).tradeport-"
        removeStaleTemporaries(in: dir.isEmpty ? "." : dir, prefix: prefix)
        let (fd, temp) = try createTemporaryFile("\(dir)\(prefix)\(getpid())-", errorPath: path)
        // Held until the file is renamed or removed: the lock is what tells a later run that this
        // writer is alive (the kernel drops it when the process dies, SIGKILL included).
        _ = flock(fd, LOCK_EX | LOCK_NB)
        PendingOutputs.shared.add(temp)
        return (fd, temp)
    }

    /// Removes the temporary files `.NAME.tradeport-PID-XXXXXX` that earlier runs over the same
    /// target left behind when they were killed. A file goes only when its writer is provably dead:
    /// the process of its name is gone and nobody holds its lock. Anything else is left.
    static func removeStaleTemporaries(in directory: String, prefix: String) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        let prefixBytes = Array(prefix.utf8)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(dir) {
            // The name is read where it is, up to its NUL: a record is only as long as its name
            // (`d_reclen`), so the 256 bytes of `d_name` may run past the end of readdir's buffer
            // (copying the field out crashed on a /tmp of many entries). Only a name that starts
            // with the prefix is copied (a directory may hold many thousands of other entries).
            let start = UnsafeRawPointer(entry) + nameOffset
            let raw = UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)))
            guard raw.count > prefixBytes.count, raw.starts(with: prefixBytes) else { continue }
            let name = Array(raw)
            let rest = name[prefixBytes.count...]
            guard let dash = rest.firstIndex(of: UInt8(ascii: "-")), dash > rest.startIndex,
                rest[rest.startIndex..<dash].allSatisfy({ $0 >= 48 && $0 <= 57 }),
                let pid = Int32(String(decoding: rest[rest.startIndex..<dash], as: UTF8.self)), pid > 0,
                rest.count - (dash - rest.startIndex) == 7
            else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = directory + "/" + String(decoding: name, as: UTF8.self)
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { continue }
            var st = stat()
            if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid(), flock(fd, LOCK_EX | LOCK_NB) == 0 {
                unlink(path)
            }
            close(fd)
        }
    }
}

/// A file descriptor for scratch data: created in `$TMPDIR` (or /tmp) and unlinked at once, so
/// nothing is left behind whatever happens to the process.
func anonymousTemporaryFile(in directory: String? = nil) throws -> Int32 {
    let dir = directory ?? getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    let (fd, path) = try createTemporaryFile("\(dir)/tradeport-spool-", errorPath: dir)
    unlink(path)
    return fd
}

/// A new file named `prefix` and six random characters (mkstemp), open for reading and writing,
/// closed on exec.
private func createTemporaryFile(_ prefix: String, errorPath: String) throws -> (Int32, String) {
    var template = Array((prefix + "XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw OutputError(path: errorPath, errno: errno) }
    // Not handed to a program this process starts, as every other descriptor it opens
    // (mkostemp, which would set it at once, is outside what the Glibc module declares).
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    return (fd, String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
}

func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
    var offset = 0
    while offset < bytes.count {
        let n = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            throw OutputError(path: path, errno: errno)
        }
        offset += n
    }
}

/// Output that cannot be written: what kind of failure, the path, and why.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure (new kinds may be added).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// The system refused to create, write, sync or rename the file (`code` says why).
        public static let system = Kind(name: "system error")
        /// The output path is a directory where a file is wanted, or a file where a writer of
        /// several files wants a directory, or the directory cannot be made.
        public static let wrongKindOfPath = Kind(name: "wrong kind of path")
        /// The target cannot hold what this conversion has (a sheet's rows, an operation's size).
        public static let beyondTarget = Kind(name: "beyond the target")
        /// The options ask for something the target refuses (a Beancount account outside its five roots).
        public static let refusedByTarget = Kind(name: "refused by the target")
    }

    public let kind: Kind
    public let path: String
    public let message: String
    /// The system's error number, for `.system`.
    public let code: Int32?

    public init(_ kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
        self.code = nil
    }

    init(path: String, errno code: Int32) {
        self.kind = .system
        self.path = path
        self.message = describeErrno(code)
        self.code = code
    }

    public var description: String { "\(path): \(message)" }
}

/// Temporary output files not yet committed, removed by `removeAllNow()` from a signal handler.
public final class PendingOutputs: @unchecked Sendable {
    public static let shared = PendingOutputs()
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    /// C strings in fixed slots, so that a signal handler can unlink them without allocating,
    /// locking or touching a Swift collection.
    private let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private static let slotCount = 64

    private init() {
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: nil, count: Self.slotCount)
    }

    func add(_ path: String) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        for i in 0..<Self.slotCount where slots[i] == nil {
            slots[i] = strdup(path)
            return
        }
        // More pending outputs than slots: the extra one is not removed on a signal (only
        // one output exists per run of the command line).
    }

    func remove(_ path: String) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        for i in 0..<Self.slotCount {
            if let p = slots[i], String(cString: p) == path {
                slots[i] = nil
                free(p)
                return
            }
        }
    }

    /// Unlinks every pending temporary file. Async-signal-safe: it only reads the slots and
    /// calls unlink(2).
    public func removeAllNow() {
        for i in 0..<Self.slotCount {
            if let p = slots[i] { unlink(p) }
        }
    }
}

@inline(__always)
func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
