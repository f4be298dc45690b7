#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes set aside while a conversion runs — what must come out later, or in another order, or be
/// read again — so that memory does not grow with the input: the one scratch storage of
/// tradeport (the writers' held operations and rows, the ledger's operation log, the Tinkoff
/// reader's held rows, standard output held until a run commits).
///
/// Appended bytes wait in memory up to a mebibyte, then go to a scratch file made on first need
/// in `$TMPDIR` and unlinked at once (closed on exec, closed with the spool). Where no scratch file
/// can be made or written, the bytes stay in memory: the spool keeps working, only its memory
/// grows. Read back by range (`read`, `bytes(from:count:)`, a `Cursor` for ranges that come in
/// order), or all in order (`forEachChunk`, `copy(to:)`). Used by one thread at a time.
public final class Spool: @unchecked Sendable {
    /// The scratch file; -1 before it is needed, -2 when none can be made or written.
    private var fd: Int32 = -1
    /// What is not in the file: everything appended after `flushed`.
    private var buffer = OutputBuffer(capacity: 4096)
    /// Bytes appended so far (in the file or the buffer).
    public private(set) var count = 0
    /// Bytes in the file.
    private var flushed = 0
    static let flushSize = 1 << 20

    /// Where the scratch file is made: nil for `$TMPDIR` (else `/tmp`).
    private let directory: String?

    public init() { directory = nil }

    /// A spool whose scratch file is made in `directory` (for tests: one that cannot hold it).
    init(directory: String) { self.directory = directory }

    deinit {
        let descriptor = readDescriptor
        if descriptor >= 0 { close(descriptor) }
    }

    /// Appends through a closure writing into the buffer; returns the offset it starts at.
    @discardableResult
    public func append(_ body: (inout OutputBuffer) -> Void) -> Int {
        let start = count
        let before = buffer.count
        body(&buffer)
        count += buffer.count - before
        if buffer.count >= Self.flushSize { flush() }
        return start
    }

    /// Appends `bytes`; returns the offset they start at.
    @discardableResult
    public func append(contentsOf bytes: UnsafeRawBufferPointer) -> Int {
        append { $0.append(bytes) }
    }

    /// Appends one byte.
    public func append(_ byte: UInt8) {
        buffer.append(byte)
        count += 1
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Moves the buffer to the file, unless there is none (the bytes then stay in memory).
    private func flush() {
        if fd == -1 { fd = (try? anonymousTemporaryFile(in: directory)) ?? -2 }
        guard fd >= 0 else { return }
        let bytes = buffer.bytes
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(flushed + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                // What was written of this buffer is never read: from here on the spool holds
                // what comes in memory, and reads only what was flushed before from the file.
                fd = fd >= 0 ? -3 - fd : fd
                return
            }
            done += n
        }
        flushed += bytes.count
        buffer.removeAll()
    }

    /// The descriptor to read flushed bytes from (also after writing stopped).
    private var readDescriptor: Int32 { fd >= 0 ? fd : (fd <= -3 ? -3 - fd : -1) }

    /// Reads `count` bytes at `offset` into `out` (replacing its contents): from the file for
    /// what was flushed, from memory for the rest.
    public func read(offset: Int, count: Int, into out: inout [UInt8]) throws {
        precondition(offset >= 0 && count >= 0 && offset + count <= self.count, "a range past the spool's end")
        out.removeAll(keepingCapacity: true)
        let fromDisk = max(0, min(count, flushed - offset))
        if fromDisk > 0 {
            out.append(contentsOf: repeatElement(0, count: fromDisk))
            let fd = readDescriptor
            var done = 0
            while done < fromDisk {
                let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, fromDisk - done, off_t(offset + done)) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw InputError(path: "(a scratch file)", message: "cannot be read back: \(describeErrno(errno))")
                }
                if n == 0 { throw InputError(path: "(a scratch file)", message: "cannot be read back: it ends early") }
                done += n
            }
        }
        if count > fromDisk {
            let start = offset + fromDisk - flushed
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer.bytes[start..<(start + count - fromDisk)]))
        }
    }

    /// The `count` bytes from `start`.
    public func bytes(from start: Int, count: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        try read(offset: start, count: count, into: &out)
        return out
    }

    /// Calls `body` with everything appended, in order, a mebibyte at a time.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var chunk: [UInt8] = []
        var offset = 0
        while offset < count {
            let n = min(1 << 20, count - offset)
            try read(offset: offset, count: n, into: &chunk)
            try chunk.withUnsafeBytes { try body($0) }
            offset += n
        }
    }

    /// Copies everything appended, in order, to `output`.
    public func copy(to output: OutputFile) throws {
        try forEachChunk { try output.write($0) }
    }

    /// Reads ranges that come in order a mebibyte of the file at a time (one read for many
    /// ranges, not one each); a range in memory is read where it is, and one across two of the
    /// file's mebibytes as `bytes(from:count:)` reads it.
    public struct Cursor {
        static let chunkSize = 1 << 20
        /// Where `cache` begins in the spool (-1: nothing cached).
        private var cacheStart = -1
        private var cache: [UInt8] = []

        /// Where the scratch file is made: nil for `$TMPDIR` (else `/tmp`).
        private let directory: String?

        public init() { directory = nil }

        /// A spool whose scratch file is made in `directory` (for tests: one that cannot hold it).
        init(directory: String) { self.directory = directory }

        /// Calls `body` with the `count` bytes from `start` of `spool`.
        public mutating func withBytes<R>(
            of spool: Spool, from start: Int, count: Int, _ body: (UnsafeRawBufferPointer) throws -> R
        ) throws -> R {
            if start >= spool.flushed {
                let at = start - spool.flushed
                return try body(UnsafeRawBufferPointer(rebasing: spool.buffer.bytes[at..<(at + count)]))
            }
            let chunk = start / Self.chunkSize * Self.chunkSize
            if start + count <= min(chunk + Self.chunkSize, spool.flushed) {
                if cacheStart != chunk || start + count > chunk + cache.count {
                    try spool.read(offset: chunk, count: min(Self.chunkSize, spool.flushed - chunk), into: &cache)
                    cacheStart = chunk
                }
                return try cache.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[(start - chunk)..<(start - chunk + count)])) }
            }
            return try spool.bytes(from: start, count: count).withUnsafeBytes(body)
        }
    }
}
