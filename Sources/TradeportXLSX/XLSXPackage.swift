import CXLSXSupport
import Foundation
import ZIPFoundation

/// The ZIP container of a workbook: entries by name, each inflated in chunks within the limits,
/// its CRC checked with zlib's (ZIPFoundation's own CRC is a slow Swift loop on Linux).
final class XLSXPackage {
    private let archive: Archive
    let limits: XLSXLimits
    private var totalInflated = 0
    private let entries: [String: Entry]

    static let chunkSize = 256 * 1024

    init(path: String, limits: XLSXLimits) throws {
        self.limits = limits
        try Self.checkSignature(path)
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw XLSXError(.corruptArchive, "truncated or corrupt ZIP archive (its central directory cannot be read)")
        }
        var entries: [String: Entry] = [:]
        for entry in archive {
            entries[Self.normalize(entry.path)] = entry
        }
        self.entries = entries
    }

    /// Tells a workbook from an old `.xls`, an encrypted workbook and everything else, by the first bytes.
    private static func checkSignature(_ path: String) throws {
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw XLSXError(.notAWorkbook, "cannot open the file")
        }
        let head = [UInt8]((try? file.read(upToCount: 8)) ?? Data())
        try? file.close()
        if let problem = signatureProblem(head: head, path: path) { throw problem }
    }

    /// Why a file starting with `head` (8 bytes are enough) is not an XLSX workbook, or nil when it
    /// starts as a ZIP archive. An OLE compound file is told apart as an encrypted workbook or an
    /// old `.xls` by reading the file at `path`; without one, it is called either.
    static func signatureProblem(head: [UInt8], path: String?) -> XLSXError? {
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return nil }
        if head.starts(with: oleSignature) {
            guard let path else {
                return XLSXError(.legacyExcel, "an old binary Excel workbook (.xls) or an encrypted one, not .xlsx; save it as .xlsx (Excel Workbook), without a password")
            }
            if holdsEncryptedPackage(path) {
                return XLSXError(.encrypted, "the workbook is encrypted (password-protected); save it without a password as .xlsx")
            }
            return XLSXError(.legacyExcel, "an old binary Excel workbook (.xls), not .xlsx; save it as .xlsx (Excel Workbook)")
        }
        if head.isEmpty { return XLSXError(.notAWorkbook, "the file is empty, not an XLSX workbook") }
        return XLSXError(.notAWorkbook, "not an XLSX workbook (an XLSX file is a ZIP archive; this one starts with \(head.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")))")
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

    /// Inflates entry `name` in chunks, handing each to `body`; throws when the entry is missing,
    /// damaged or over the limits. `body` may throw to stop early (then the CRC is not checked).
    func stream(_ name: String, limit: Int? = nil, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try streamChunks(name, limit: limit) { try $0.withUnsafeBytes(body) }
    }

    /// `stream`, each chunk handed over as the buffer it was inflated into (at most `chunkSize`
    /// bytes), to keep without copying.
    func streamChunks(_ name: String, limit: Int? = nil, _ body: (Data) throws -> Void) throws {
        guard let entry = entries[Self.normalize(name)] else {
            throw XLSXError(.notAWorkbook, "the archive has no part \(name)")
        }
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
        // ZIPFoundation allocates and zeroes a buffer of this size for every chunk it inflates: a
        // part smaller than a chunk gets one of its own size, not 256 KiB.
        let bufferSize = min(Self.chunkSize, max(4096, declared, compressed))
        var inflated = 0
        var crc: UInt32 = 0
        var bodyError: Error?
        do {
            _ = try archive.extract(entry, bufferSize: bufferSize, skipCRC32: true) { (data: Data) in
                inflated += data.count
                if inflated > declared {
                    throw XLSXError(.corruptArchive, "inflates to more bytes than its header declares (\(declared))", part: part)
                }
                if inflated > limits.ratioGrace && inflated / compressed > limits.maxRatio {
                    throw XLSXError(.unsafe, "inflates more than \(limits.maxRatio) times its compressed size (a ZIP bomb?)", part: part)
                }
                data.withUnsafeBytes { raw in
                    crc = cx_crc32(crc, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
                }
                do { try body(data) } catch { bodyError = error; throw error }
            }
        } catch {
            if let bodyError { throw bodyError }
            if let error = error as? XLSXError { throw error }
            throw XLSXError(.corruptArchive, "cannot be inflated: the archive is truncated or damaged (\(error))", part: part)
        }
        totalInflated += inflated
        if inflated != declared {
            throw XLSXError(.corruptArchive, "inflated to \(inflated) bytes, its header declares \(declared): the archive is truncated or damaged", part: part)
        }
        if crc != entry.checksum {
            throw XLSXError(.corruptArchive, "fails its CRC check: the archive is damaged", part: part)
        }
    }
}
