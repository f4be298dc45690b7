import CXLSXSupport
import Foundation
import ZIPFoundation

/// The ZIP container of a workbook: entries by name (ZIPFoundation reads the central directory),
/// each read here from exactly its bytes and inflated by zlib in chunks within the limits, its CRC
/// checked with zlib's (ZIPFoundation's own CRC is a slow Swift loop on Linux).
final class XLSXPackage {
    private let archive: Archive
    let limits: XLSXLimits
    private var totalInflated = 0
    /// The entries by normalized name, each with where its local header is.
    private let entries: [String: PlacedEntry]

    /// An entry, and where its local header is: from the central directory record at the entry's
    /// place, which ZIPFoundation reads but keeps internal.
    private struct PlacedEntry {
        enum LocalHeader {
            case at(UInt32)
            /// In a ZIP64 extra field, past the first 4 GiB.
            case beyond4GiB
            /// The record at its place does not agree with it (checksum or sizes).
            case unknown
        }

        let entry: Entry
        let localHeader: LocalHeader
    }

    static let chunkSize = 256 * 1024

    /// The archive file, which entries' bytes are read from, and its size: no entry's data may run past it.
    private let file: Int32
    private let fileSize: UInt64

    init(path: String, limits: XLSXLimits) throws {
        self.limits = limits
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        var st = stat()
        guard fd >= 0, fstat(fd, &st) == 0 else {
            if fd >= 0 { close(fd) }
            throw XLSXError(.notAWorkbook, "cannot open the file")
        }
        // Until every property is set, a throw does not run `deinit`: the file is closed here.
        var head = [UInt8](repeating: 0, count: 8)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, 8, 0) }
        if let problem = Self.signatureProblem(head: Array(head.prefix(max(n, 0))), path: path) {
            close(fd)
            throw problem
        }
        file = fd
        fileSize = UInt64(clamping: st.st_size)
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            close(fd)
            throw XLSXError(.corruptArchive, "truncated or corrupt ZIP archive (its central directory cannot be read)")
        }
        // The central directory again, for each entry's local header: ZIPFoundation lists the
        // entries in the directory's order, and each must agree with its record here.
        let records = Self.centralDirectory(fd, size: UInt64(clamping: st.st_size))
        var entries: [String: PlacedEntry] = [:]
        for (i, entry) in archive.enumerated() {
            var localHeader = PlacedEntry.LocalHeader.unknown
            if let records, i < records.count, records[i].crc == entry.checksum,
                UInt64(records[i].compressedSize) == entry.compressedSize || records[i].compressedSize == .max,
                UInt64(records[i].uncompressedSize) == entry.uncompressedSize || records[i].uncompressedSize == .max
            {
                localHeader = records[i].localHeader == .max ? .beyond4GiB : .at(records[i].localHeader)
            }
            entries[Self.normalize(entry.path)] = PlacedEntry(entry: entry, localHeader: localHeader)
        }
        self.entries = entries
    }

    /// A central directory record's fields that place an entry's data.
    struct DirectoryRecord: Equatable {
        var crc: UInt32
        var compressedSize: UInt32
        var uncompressedSize: UInt32
        var localHeader: UInt32
    }

    /// The records of the central directory of the archive in `fd`, in order; nil when it cannot be
    /// found or runs past the file (ZIPFoundation, which read it first, then refused the archive).
    static func centralDirectory(_ fd: Int32, size: UInt64) -> [DirectoryRecord]? {
        // The end-of-directory record: 22 bytes and a comment of at most 65,535, at the end.
        let tail = Int(min(size, 22 + 65_535))
        guard tail >= 22 else { return nil }
        var end = [UInt8](repeating: 0, count: tail)
        guard end.withUnsafeMutableBytes({ pread(fd, $0.baseAddress!, tail, off_t(size) - off_t(tail)) }) == tail else { return nil }
        func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
        func u32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24 }
        var at = tail - 22
        // The last signature whose comment fits before the end (bytes after it are let be, as
        // ZIPFoundation lets them be).
        while at >= 0, !(end[at] == 0x50 && end[at + 1] == 0x4B && end[at + 2] == 0x05 && end[at + 3] == 0x06 && at + 22 + u16(end, at + 20) <= tail) {
            at -= 1
        }
        guard at >= 0 else { return nil }
        let count = u16(end, at + 10)
        let length = Int(u32(end, at + 12))
        let start = UInt64(u32(end, at + 16))
        guard start != UInt64(UInt32.max), start + UInt64(length) <= size else { return nil }
        var directory = [UInt8](repeating: 0, count: length)
        guard length == 0 || directory.withUnsafeMutableBytes({ pread(fd, $0.baseAddress!, length, off_t(start)) }) == length else { return nil }
        var records: [DirectoryRecord] = []
        records.reserveCapacity(count)
        var p = 0
        while p + 46 <= length, u32(directory, p) == 0x0201_4B50 {
            records.append(
                DirectoryRecord(
                    crc: u32(directory, p + 16), compressedSize: u32(directory, p + 20),
                    uncompressedSize: u32(directory, p + 24), localHeader: u32(directory, p + 42)))
            p += 46 + u16(directory, p + 28) + u16(directory, p + 30) + u16(directory, p + 32)
        }
        return records
    }

    deinit { close(file) }

    /// Why a file starting with `head` (8 bytes are enough) is not an XLSX workbook (what tells a
    /// workbook from an old `.xls`, an encrypted workbook and everything else), or nil when it
    /// starts as a ZIP archive. An OLE compound file is told apart as an encrypted workbook or an
    /// old `.xls` by reading the file at `path`; without one, it is called either.
    static func signatureProblem(head: [UInt8], path: String?) -> XLSXError? {
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return nil }
        if head.starts(with: oleSignature) {
            guard let path else {
                return XLSXError(
                    .legacyExcel, "an old binary Excel workbook (.xls) or an encrypted one, not .xlsx; save it as .xlsx (Excel Workbook), without a password")
            }
            if holdsEncryptedPackage(path) {
                return XLSXError(.encrypted, "the workbook is encrypted (password-protected); save it without a password as .xlsx")
            }
            return XLSXError(.legacyExcel, "an old binary Excel workbook (.xls), not .xlsx; save it as .xlsx (Excel Workbook)")
        }
        if head.isEmpty { return XLSXError(.notAWorkbook, "the file is empty, not an XLSX workbook") }
        return XLSXError(
            .notAWorkbook,
            "not an XLSX workbook (an XLSX file is a ZIP archive; this one starts with \(head.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")))"
        )
    }

    private static let oleSignature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// Whether the OLE compound file at `path` holds an `EncryptedPackage` stream: a
    /// password-protected OOXML workbook rather than a BIFF `.xls`.
    private static func holdsEncryptedPackage(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        let marker = Array("EncryptedPackage".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        var window: [UInt8] = []
        while let chunk = try? file.read(upToCount: 1 << 20), !chunk.isEmpty {
            window = Array(window.suffix(marker.count)) + chunk
            if window.firstRange(of: marker) != nil { return true }
        }
        return false
    }

    private static func normalize(_ name: String) -> String {
        var n = name
        while n.hasPrefix("/") { n.removeFirst() }
        return n.lowercased()
    }

    func has(_ name: String) -> Bool { entries[Self.normalize(name)] != nil }

    /// The inflated size entry `name` declares (which inflating holds it to), nil when missing.
    func declaredSize(of name: String) -> Int? { entries[Self.normalize(name)].map { Int(clamping: $0.entry.uncompressedSize) } }

    /// Inflates entry `name` in chunks, handing each to `body`; throws when the entry is missing,
    /// damaged or over the limits. `body` may throw to stop early (then the CRC is not checked).
    func stream(_ name: String, limit: Int? = nil, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try streamChunks(name, limit: limit) { try $0.withUnsafeBytes(body) }
    }

    /// `stream`, each chunk handed over as the buffer it was inflated into (at most `chunkSize`
    /// bytes), to keep without copying.
    ///
    /// The entry's bytes are read here, exactly those its headers give it, and inflated by zlib:
    /// ZIPFoundation's reading on Linux goes on past an entry's compressed size and, when the file
    /// ends before the deflate stream does, reads again for ever (a hang the workbook fuzzer found).
    func streamChunks(_ name: String, limit: Int? = nil, _ body: (Data) throws -> Void) throws {
        guard let placed = entries[Self.normalize(name)] else {
            throw XLSXError(.notAWorkbook, "the archive has no part \(name)")
        }
        let entry = placed.entry
        let part = entry.path
        let maxBytes = min(limit ?? limits.maxEntryBytes, limits.maxEntryBytes)
        let compressed = max(Int(clamping: entry.compressedSize), 1)
        let declared = Int(clamping: entry.uncompressedSize)
        if declared > maxBytes {
            throw XLSXError(.unsafe, "declares \(declared) bytes inflated, over the limit of \(maxBytes)", part: part)
        }
        if declared > limits.ratioGrace && declared / compressed > limits.maxRatio {
            throw XLSXError(.unsafe, "inflates \(declared / compressed) times its compressed size (a ZIP bomb?); the limit is \(limits.maxRatio)", part: part)
        }
        if totalInflated + declared > limits.maxTotalBytes {
            throw XLSXError(.unsafe, "the workbook inflates to more than \(limits.maxTotalBytes) bytes in all", part: part)
        }
        let data = try dataRange(of: placed, part: part)
        // A part smaller than a chunk gets a buffer of its own size, not 256 KiB.
        let bufferSize = min(Self.chunkSize, max(4096, declared, compressed))
        var inflated = 0
        var crc: UInt32 = 0
        func deliver(_ chunk: Data) throws {
            inflated += chunk.count
            if inflated > declared {
                throw XLSXError(.corruptArchive, "inflates to more bytes than its header declares (\(declared))", part: part)
            }
            if inflated > limits.ratioGrace && inflated / compressed > limits.maxRatio {
                throw XLSXError(.unsafe, "inflates more than \(limits.maxRatio) times its compressed size (a ZIP bomb?)", part: part)
            }
            chunk.withUnsafeBytes { raw in
                crc = cx_crc32(crc, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
            }
            try body(chunk)
        }
        var position = data.start
        var remaining = data.count
        /// The next bytes of the entry's data, as many as fit in `buffer`; throws when the file ends first.
        func readInput(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let n = pread(file, buffer.baseAddress!, min(buffer.count, remaining), off_t(position))
            guard n > 0 else {
                throw XLSXError(.corruptArchive, "ends \(remaining) bytes short of its data: the archive is truncated or damaged", part: part)
            }
            position += n
            remaining -= n
            return n
        }
        func newChunk() -> (Data, UnsafeMutableRawBufferPointer) {
            // Not zeroed: every byte handed over is one written.
            let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
            return (Data(bytesNoCopy: raw.baseAddress!, count: bufferSize, deallocator: .custom { p, _ in p.deallocate() }), raw)
        }
        if data.stored {
            while remaining > 0 {
                var (chunk, raw) = newChunk()
                let n = try readInput(into: raw)
                chunk.count = n
                try deliver(chunk)
            }
        } else {
            guard let inflater = cx_inflater_new() else { throw XLSXError(.unsafe, "no memory to inflate", part: part) }
            defer { cx_inflater_free(inflater) }
            let input = UnsafeMutableRawBufferPointer.allocate(byteCount: min(bufferSize, max(data.count, 1)), alignment: 16)
            defer { input.deallocate() }
            var inputStart = 0
            var inputEnd = 0
            var ended = false
            while !ended {
                if inputStart == inputEnd && remaining > 0 {
                    inputEnd = try readInput(into: input)
                    inputStart = 0
                }
                var (chunk, raw) = newChunk()
                var used = 0
                var made = 0
                let rc = cx_inflate(
                    inflater, input.baseAddress!.assumingMemoryBound(to: UInt8.self) + inputStart, inputEnd - inputStart, &used,
                    raw.baseAddress!.assumingMemoryBound(to: UInt8.self), bufferSize, &made)
                inputStart += used
                guard rc >= 0 else {
                    throw XLSXError(.corruptArchive, "cannot be inflated: its data is not deflate data (the archive is damaged)", part: part)
                }
                ended = rc == 1
                if made > 0 {
                    chunk.count = made
                    try deliver(chunk)
                } else if !ended && used == 0 && inputStart == inputEnd && remaining == 0 {
                    throw XLSXError(.corruptArchive, "its deflate data ends before its stream does: the archive is truncated or damaged", part: part)
                }
            }
        }
        totalInflated += inflated
        if inflated != declared {
            throw XLSXError(.corruptArchive, "inflated to \(inflated) bytes, its header declares \(declared): the archive is truncated or damaged", part: part)
        }
        if crc != entry.checksum {
            throw XLSXError(.corruptArchive, "fails its CRC check: the archive is damaged", part: part)
        }
    }

    /// Where an entry's data is in the file: after its local header, as many bytes as its
    /// compressed size (its size, when stored); refused when that runs past the file's end.
    private func dataRange(of placed: PlacedEntry, part: String) throws -> (start: Int, count: Int, stored: Bool) {
        let entry = placed.entry
        let offset: UInt32
        switch placed.localHeader {
        case .at(let at): offset = at
        case .beyond4GiB: throw XLSXError(.unsafe, "lies past the first 4 GiB of the file (ZIP64), which is not read", part: part)
        case .unknown:
            throw XLSXError(
                .corruptArchive, "has no record in the central directory that agrees with its entry (its checksum or sizes differ): the archive is damaged",
                part: part)
        }
        var header = [UInt8](repeating: 0, count: 30)
        let n = header.withUnsafeMutableBytes { pread(file, $0.baseAddress!, 30, off_t(offset)) }
        func u16(_ at: Int) -> Int { Int(header[at]) | Int(header[at + 1]) << 8 }
        guard n == 30, header[0] == 0x50, header[1] == 0x4B, header[2] == 0x03, header[3] == 0x04 else {
            throw XLSXError(.corruptArchive, "has no local header where the central directory puts it (byte \(offset)): the archive is damaged", part: part)
        }
        let method = u16(8)
        guard method == 0 || method == 8 else {
            throw XLSXError(.corruptArchive, "is compressed by method \(method), not deflate (8) or stored (0)", part: part)
        }
        let start = Int(offset) + 30 + u16(26) + u16(28)
        let count = Int(clamping: method == 0 ? entry.uncompressedSize : entry.compressedSize)
        if UInt64(start) + UInt64(count) > fileSize {
            throw XLSXError(
                .corruptArchive,
                "its data runs past the end of the file (byte \(UInt64(start) + UInt64(count)) of \(fileSize)): the archive is truncated or damaged", part: part
            )
        }
        return (start, count, method == 0)
    }
}
