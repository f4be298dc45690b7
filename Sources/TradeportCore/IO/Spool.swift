#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes set aside on disk while a conversion runs (records that must come out later, or
/// sorted), so that memory does not grow with the input.
final class Spool {
    private let fd: Int32
    private var buffer = ByteBuffer(capacity: Spool.flushSize + 65536)
    /// Bytes appended so far (written or buffered).
    private(set) var size = 0
    private var flushed = 0
    private static let flushSize = 1 << 20

    init() throws {
        fd = try anonymousTemporaryFile()
    }

    deinit {
        close(fd)
        buffer.deallocate()
    }

    /// Appends through a closure writing into the buffer; returns the offset it starts at.
    @discardableResult
    func append(_ body: (inout ByteBuffer) -> Void) throws -> Int {
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

    /// Reads `count` bytes at `offset` into `out` (replacing its contents).
    func read(offset: Int, count: Int, into out: inout [UInt8]) throws {
        out.removeAll(keepingCapacity: true)
        if offset >= flushed {
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer.bytes[(offset - flushed)..<(offset - flushed + count)]))
            return
        }
        out.reserveCapacity(count)
        let fromDisk = min(count, flushed - offset)
        let fd = self.fd
        var chunk = [UInt8](repeating: 0, count: fromDisk)
        var done = 0
        while done < fromDisk {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, fromDisk - done, off_t(offset + done)) }
            if n < 0 { if errno == EINTR { continue }; throw OutputError(path: "spool", errno: errno) }
            if n == 0 { throw OutputError(path: "spool", message: "unexpected end of spool file") }
            done += n
        }
        out.append(contentsOf: chunk)
        if count > fromDisk {
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<(count - fromDisk)]))
        }
    }

    /// Copies everything appended, in order, to `output`.
    func copy(to output: OutputFile) throws {
        var chunk: [UInt8] = []
        var offset = 0
        while offset < size {
            let n = min(1 << 20, size - offset)
            try read(offset: offset, count: n, into: &chunk)
            try chunk.withUnsafeBytes { try output.write($0) }
            offset += n
        }
    }
}
