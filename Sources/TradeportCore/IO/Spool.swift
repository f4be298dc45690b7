#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes set aside on disk while a conversion runs (records that must come out later, or
/// sorted), so that memory does not grow with the input.
public final class Spool {
    private let fd: Int32
    private var buffer = OutputBuffer(capacity: Spool.flushSize + 65536)
    /// Bytes appended so far (written or buffered).
    public private(set) var size = 0
    private var flushed = 0
    private static let flushSize = 1 << 20

    public init() throws {
        fd = try anonymousTemporaryFile()
    }

    deinit {
        close(fd)
    }

    /// Appends through a closure writing into the buffer; returns the offset it starts at.
    @discardableResult
    public func append(_ body: (inout OutputBuffer) -> Void) throws -> Int {
        let start = size
        let before = buffer.count
        body(&buffer)
        size += buffer.count - before
        if buffer.count >= Self.flushSize { try flush() }
        return start
    }

    private func flush() throws {
        try writeAll(fd, buffer.bytes, path: "spool")
        flushed += buffer.count
        buffer.removeAll()
    }

    /// Reads `count` bytes at `offset` into `out` (replacing its contents): from the file for
    /// what was flushed, from the buffer for the rest.
    public func read(offset: Int, count: Int, into out: inout [UInt8]) throws {
        out.removeAll(keepingCapacity: true)
        let fromDisk = max(0, min(count, flushed - offset))
        if fromDisk > 0 {
            out.append(contentsOf: repeatElement(0, count: fromDisk))
            let fd = self.fd
            var done = 0
            while done < fromDisk {
                let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, fromDisk - done, off_t(offset + done)) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw OutputError(path: "spool", errno: errno)
                }
                if n == 0 { throw OutputError(path: "spool", message: "unexpected end of spool file") }
                done += n
            }
        }
        if count > fromDisk {
            let start = offset + fromDisk - flushed
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer.bytes[start..<(start + count - fromDisk)]))
        }
    }

    /// Calls `body` with everything appended, in order, a mebibyte at a time.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var chunk: [UInt8] = []
        var offset = 0
        while offset < size {
            let n = min(1 << 20, size - offset)
            try read(offset: offset, count: n, into: &chunk)
            try chunk.withUnsafeBytes { try body($0) }
            offset += n
        }
    }

    /// Copies everything appended, in order, to `output`.
    public func copy(to output: OutputFile) throws {
        try forEachChunk { try output.write($0) }
    }
}
