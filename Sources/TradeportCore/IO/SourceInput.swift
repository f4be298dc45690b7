import Crypto
import TradeportPrimitives

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An input being read: its path as given, and its bytes as a stream, hashed as they pass.
///
/// Opening reads the first bytes for detection; reading starts again from the first byte
/// (standard input included, which cannot seek).
public final class SourceInput {
    /// The path as given on the command line; `-` for standard input.
    public let path: String
    /// The first bytes, for detection.
    public let probe: FormatProbe

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let isRegularFile: Bool
    private var head: [UInt8]
    private var headOffset = 0
    private var hasher = SHA256()
    private var atEnd: Bool
    public private(set) var bytesRead = 0

    /// Opens a file (or `-` for standard input) and reads its first bytes.
    public init(path: String) throws {
        self.path = path
        let fd: Int32
        var isRegular = false
        if path == "-" {
            fd = 0
            ownsDescriptor = false
        } else {
            var st = stat()
            guard stat(path, &st) == 0 else { throw InputError(path: path, errno: errno) }
            let type = st.st_mode & S_IFMT
            if type == S_IFDIR { throw InputError(path: path, message: "is a directory") }
            isRegular = type == S_IFREG
            // A named pipe, socket or device would hang in open() or read without end; one the
            // shell opened for this run (`<(cmd)`, /dev/stdin) is a stream that is meant.
            if !isRegular && !Self.isOpenDescriptor(path) {
                throw InputError(
                    path: path, message: "is not a regular file (\(Self.describe(type))); to read a stream, give `-` and pipe it to standard input")
            }
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw InputError(path: path, errno: errno) }
            ownsDescriptor = true
        }
        self.fd = fd
        isRegularFile = isRegular
        var buffer = [UInt8](uninitializedBytes: FormatProbe.size)
        var filled = 0
        var eof = false
        while filled < buffer.count {
            let n = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                if path != "-" { close(fd) }
                throw InputError(path: path, errno: code)
            }
            if n == 0 {
                eof = true
                break
            }
            filled += n
        }
        buffer.removeSubrange(filled...)
        head = buffer
        atEnd = eof
        hasher.update(data: buffer)
        bytesRead = filled
        probe = FormatProbe(name: path, head: buffer, isWholeInput: eof, filePath: isRegular ? path : nil)
    }

    /// Whether `path` names a descriptor already open in this process (`/dev/fd/N`, `/proc/self/fd/N`,
    /// `/dev/stdin`): what a shell's process substitution hands over.
    static func isOpenDescriptor(_ path: String) -> Bool {
        path == "/dev/stdin" || path.hasPrefix("/dev/fd/") || path.hasPrefix("/proc/self/fd/")
    }

    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a file"
        }
    }

    /// An input held in memory (an upload), named `name` in locations and messages.
    public init(bytes: [UInt8], name: String) {
        path = name
        fd = -1
        ownsDescriptor = false
        isRegularFile = false
        head = bytes
        atEnd = true
        hasher.update(data: bytes)
        bytesRead = bytes.count
        probe = FormatProbe(name: name, head: Array(bytes.prefix(FormatProbe.size)), isWholeInput: bytes.count <= FormatProbe.size)
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    /// About how many rows a text input holds, from its size and the line length of its first
    /// bytes (0 when that cannot be told): for sizing tables before reading.
    public var estimatedRows: Int {
        let head = probe.head
        let lines = head.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        guard lines > 0, let size = fileSize else { return 0 }
        return size / max(head.count / lines, 1) + 1
    }

    /// The size of a regular file, else nil.
    private var fileSize: Int? {
        guard isRegularFile else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        return Int(st.st_size)
    }

    /// Whether the input holds no bytes at all.
    public var isEmpty: Bool { probe.isWholeInput && probe.head.isEmpty }

    /// Reads the next bytes into `buffer`; 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if headOffset < head.count {
            let n = min(buffer.count, head.count - headOffset)
            head.withUnsafeBytes { src in
                buffer.baseAddress!.copyMemory(from: src.baseAddress! + headOffset, byteCount: n)
            }
            headOffset += n
            if headOffset == head.count {
                head = []
                headOffset = 0
            }
            return n
        }
        if atEnd { return 0 }
        while true {
            let n = systemRead(fd, buffer.baseAddress!, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(path: path, errno: errno)
            }
            if n == 0 {
                atEnd = true
                return 0
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            bytesRead += n
            return n
        }
    }

    /// Runs `body` with the path of the whole input as a file that can be read at random, which a
    /// ZIP-based format needs. The input is first read to its end, so its hash is complete; standard
    /// input and pipes are copied to an unlinked scratch file on the way.
    public func withSeekableFile<R>(_ body: (String) throws -> R) throws -> R {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        if isRegularFile {
            while try read(into: buffer) > 0 {}
            return try body(path)
        }
        let scratch = try anonymousTemporaryFile()
        defer { close(scratch) }
        while true {
            let n = try read(into: buffer)
            if n == 0 { break }
            do {
                try writeAll(scratch, UnsafeRawBufferPointer(rebasing: buffer[0..<n]), path: "a scratch file")
            } catch let error as OutputError {
                throw InputError(path: path, message: "cannot copy standard input to a scratch file: \(error.message)")
            }
        }
        return try body("/dev/fd/\(scratch)")
    }

    /// The SHA-256 of every byte read so far, in lower-case hex (of the whole input once read to the end).
    public func sha256Hex() -> String {
        OutputBuffer.hex(hasher.finalize())
    }
}

/// An input that cannot be converted: one that cannot be opened or read, is empty, or whose
/// format is unknown or not recognized; its kind, the input's path and what is wrong.
public struct InputError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The file cannot be opened or read (I/O), or not as its format (a reader's refusal of
        /// the source as a whole).
        case unreadable
        /// The file holds nothing to convert.
        case empty
        /// `--format` names no format (`path` is empty).
        case unknownFormat
        /// No format claims the file; `message` lists each one's reason.
        case notRecognized
        /// Several formats claim the file.
        case ambiguous
        /// `--timezone` names no zone (`path` is empty).
        case unknownTimeZone
        /// `--param` names a parameter no input's format takes, or is not NAME=VALUE (`path` is empty).
        case unknownParameter
    }

    public let kind: Kind
    /// The input's path; empty for an option that names nothing known.
    public let path: String
    public let message: String

    public init(_ kind: Kind = .unreadable, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    init(path: String, errno code: Int32) {
        self.init(path: path, message: describeErrno(code))
    }

    public var description: String {
        switch kind {
        case .unreadable: "cannot read \(path): \(message)"
        case .unknownFormat, .unknownTimeZone, .unknownParameter: message
        case .empty, .notRecognized, .ambiguous: "\(path): \(message)"
        }
    }
}

/// The system's message for an `errno` value, in lower case (`no such file or directory`).
func describeErrno(_ code: Int32) -> String {
    String(cString: strerror(code)).lowercased()
}

/// `read(2)`, named apart from the methods called `read`.
@inline(__always)
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
