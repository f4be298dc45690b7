#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A scratch file that bytes too many to keep in memory go to (a ledger's full blocks, a report's
/// held raw texts): unlinked as soon as it is made, closed with the last value that uses it.
/// Copies of a value holding one share it; each write goes past its end, so they never overlap.
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

/// Bytes appended one after another and read back by range, in chunks of 1 MiB of which all but
/// the last go to a `SpillFile` (kept in memory where it cannot be written): what is held for the
/// rare case it is read again costs no memory as it grows.
public struct SpooledBytes {
    static let chunkSize = 1 << 20
    private var chunks: [Chunk] = []
    private var current: [UInt8] = []
    private var spill: SpillFile?
    public private(set) var count = 0

    private enum Chunk {
        case memory([UInt8])
        case file(offset: Int64)
    }

    public init() {}

    public mutating func append(_ byte: UInt8) {
        if current.count == Self.chunkSize { finishChunk() }
        current.append(byte)
        count += 1
    }

    public mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        var i = 0
        while i < bytes.count {
            if current.count == Self.chunkSize { finishChunk() }
            if current.capacity == 0 { current.reserveCapacity(Self.chunkSize) }
            let n = min(bytes.count - i, Self.chunkSize - current.count)
            current.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[i..<(i + n)]))
            i += n
        }
        count += bytes.count
    }

    private mutating func finishChunk() {
        if spill == nil { spill = SpillFile() }
        if let offset = spill?.append(current) {
            chunks.append(.file(offset: offset))
            current.removeAll(keepingCapacity: true)
        } else {
            chunks.append(.memory(current))
            current = []
        }
    }

    /// The `count` bytes from `start` (each whole chunk of them read back at once).
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
                switch chunks[c] {
                case .memory(let bytes): out.append(contentsOf: bytes[offset..<(offset + n)])
                case .file(let at): out.append(contentsOf: try spill!.read(n, at: at + Int64(offset)))
                }
            }
            i += n
        }
        return out
    }
}
