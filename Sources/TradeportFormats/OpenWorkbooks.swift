import Foundation
import TradeportXLSX

/// A workbook kept from detecting an input's format for the read that follows. Detection reads a
/// workbook's first rows, which loads its shared strings (the whole table) and its styles; the
/// read then uses the same workbook instead of opening it and loading them again.
///
/// One workbook is kept: the last one handed back with `keep: true`. A use takes it out, so two
/// threads never share one (a second use of the same file meanwhile opens its own). A file that
/// changed since (its size, modification time or inode) is opened anew.
final class OpenWorkbooks: @unchecked Sendable {
    static let shared = OpenWorkbooks()

    private let lock = NSLock()
    private var kept: (file: FileIdentity, workbook: XLSXWorkbook)?

    /// Runs `body` with the workbook at `path`: the one kept, if it is this file's, else one opened
    /// now (which throws an `XLSXError` when the file is not a workbook). With `keep` (detection),
    /// the workbook is kept afterwards in place of any other; without it (a read), it is let go,
    /// as it is when `body` throws.
    func use<R>(_ path: String, keep: Bool, _ body: (XLSXWorkbook) throws -> R) throws -> R {
        let file = FileIdentity(path)
        let workbook = try file.flatMap { take($0) } ?? XLSXWorkbook(path: path)
        let result = try body(workbook)
        if keep, let file {
            lock.lock()
            kept = (file, workbook)
            lock.unlock()
        }
        return result
    }

    private func take(_ file: FileIdentity) -> XLSXWorkbook? {
        lock.lock()
        defer { lock.unlock() }
        guard let kept, kept.file == file else { return nil }
        self.kept = nil
        return kept.workbook
    }

    /// A file as it is now: a file rewritten or replaced since differs.
    private struct FileIdentity: Equatable {
        let path: String
        let size: UInt64
        let modified: Date
        let inode: UInt64

        init?(_ path: String) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let size = (attributes[.size] as? NSNumber)?.uint64Value,
                  let modified = attributes[.modificationDate] as? Date,
                  let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
            else { return nil }
            self.path = path
            self.size = size
            self.modified = modified
            self.inode = inode
        }
    }
}
