#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A scratch file that bytes too many to keep in memory go to (through `SpilledBlocks`):
/// unlinked as soon as it is made, closed with the last value that uses it. Copies of a value
/// holding one share it; each write goes past its end, so they never overlap.
public final class SpillFile: @unchecked Sendable {
    // Written by one conversion's thread at a time.
    private var fd: Int32
    private var end: Int64 = 0

    public init() { fd = (try? anonymousTemporaryFile()) ?? -1 }

    deinit { if fd >= 0 { close(fd) } }

    /// Writes `bytes` at the end; where, or nil when they cannot be written (the file is then
    /// given up, and later blocks stay in memory too).
    public func append(_ bytes: [UInt8]) -> Int64? {
        guard fd >= 0 else { return nil }
        let offset = end
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                close(fd)
                fd = -1
                return nil
            }
            done += n
        }
        end += Int64(bytes.count)
        return offset
    }

    /// The `count` bytes written at `offset`.
    public func read(_ count: Int, at offset: Int64) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw InputError(path: "(a scratch file)", message: "cannot be read back: \(n < 0 ? String(cString: strerror(errno)) : "it ends early")")
            }
            done += n
        }
        return bytes
    }
}

/// Blocks of bytes numbered in the order added: each goes to a `SpillFile` as it is added (kept in
/// memory where the file cannot be written) and is read back by number. What `OperationLog` and
/// `SpooledBytes` keep their full blocks in.
public struct SpilledBlocks {
    private enum Block {
        case memory([UInt8])
        case file(offset: Int64, count: Int)
    }

    private var blocks: [Block] = []
    /// Made with the first block; copies share it, each writing past its end.
    private var file: SpillFile?

    public init() {}

    public var count: Int { blocks.count }

    /// Adds `bytes` as the next block and leaves it empty (its capacity kept when it went to the
    /// file, for the next block).
    public mutating func add(_ bytes: inout [UInt8]) {
        if file == nil { file = SpillFile() }
        if let offset = file?.append(bytes) {
            blocks.append(.file(offset: offset, count: bytes.count))
            bytes.removeAll(keepingCapacity: true)
        } else {
            blocks.append(.memory(bytes))
            bytes = []
        }
    }

    /// The bytes of block `b` within `range` (the whole block when nil).
    public func bytes(ofBlock b: Int, _ range: Range<Int>? = nil) throws -> [UInt8] {
        switch blocks[b] {
        case .memory(let bytes): return range.map { Array(bytes[$0]) } ?? bytes
        case .file(let offset, let count):
            let range = range ?? 0..<count
            return try file!.read(range.count, at: offset + Int64(range.lowerBound))
        }
    }
}

/// Bytes appended one after another and read back by range, in chunks of 1 MiB of which all but
/// the last are `SpilledBlocks`: what is held for the rare case it is read again costs no memory
/// as it grows.
public struct SpooledBytes {
    static let chunkSize = 1 << 20
    private var chunks = SpilledBlocks()
    private var current: [UInt8] = []
    public private(set) var count = 0

    public init() {}

    public mutating func append(_ byte: UInt8) {
        if current.count == Self.chunkSize { chunks.add(&current) }
        current.append(byte)
        count += 1
    }

    public mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        var i = 0
        while i < bytes.count {
            if current.count == Self.chunkSize { chunks.add(&current) }
            if current.capacity == 0 { current.reserveCapacity(Self.chunkSize) }
            let n = min(bytes.count - i, Self.chunkSize - current.count)
            current.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[i..<(i + n)]))
            i += n
        }
        count += bytes.count
    }

    /// The `count` bytes from `start`.
    public func bytes(from start: Int, count: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var i = start
        let end = start + count
        while i < end {
            let c = i / Self.chunkSize
            let offset = i % Self.chunkSize
            let n = min(end - i, Self.chunkSize - offset)
            if c == chunks.count {
                out.append(contentsOf: current[offset..<(offset + n)])
            } else {
                out.append(contentsOf: try chunks.bytes(ofBlock: c, offset..<(offset + n)))
            }
            i += n
        }
        return out
    }
}

extension SpooledBytes {
    /// Reads ranges that come in order a chunk at a time (one read of the file for each 1 MiB,
    /// not one for each range); a range across two chunks is read as `bytes(from:count:)` reads it.
    public struct Cursor {
        private var chunk = -1
        private var cache: [UInt8] = []

        public init() {}

        /// Calls `body` with the `count` bytes from `start` of `spool`.
        public mutating func withBytes<R>(
            of spool: SpooledBytes, from start: Int, count: Int,
            _ body: (UnsafeRawBufferPointer) throws -> R
        ) throws -> R {
            let c = start / SpooledBytes.chunkSize
            let offset = start % SpooledBytes.chunkSize
            guard offset + count <= SpooledBytes.chunkSize else {
                return try spool.bytes(from: start, count: count).withUnsafeBytes(body)
            }
            if c == spool.chunks.count {
                return try spool.current.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
            }
            if c != chunk {
                cache = try spool.chunks.bytes(ofBlock: c)
                chunk = c
            }
            return try cache.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
        }
    }
}
