import TradeportCore
import TradeportXLSX

/// A workbook opened to detect an input's format, kept in the input's probe for the read that
/// follows: detection reads a workbook's first rows, which loads its shared strings (the whole
/// table) and its styles, and the read then uses the same workbook instead of loading them again.
extension FormatProbe {
    private static let workbookKey = "xlsx-workbook"

    /// Runs `body` with the workbook at `path` (the one an earlier detection of this input opened,
    /// or one opened now), and keeps it for the read. Throws an `XLSXError` when the file is not a
    /// workbook.
    func withWorkbook<R>(at path: String, _ body: (XLSXWorkbook) throws -> R) throws -> R {
        let workbook = try takeWorkbook(at: path) ?? XLSXWorkbook(path: path)
        let result = try body(workbook)
        opened.keep((path, workbook), as: Self.workbookKey)
        return result
    }

    /// The workbook detection opened at `path`, taken out (the read lets it go when done).
    func takeWorkbook(at path: String) -> XLSXWorkbook? {
        guard let (keptPath, workbook) = opened.take(Self.workbookKey, as: (String, XLSXWorkbook).self), keptPath == path else { return nil }
        return workbook
    }
}

extension SourceInput {
    /// Runs `body` with the workbook at `path`: the one detection kept, or one opened now.
    func withWorkbook<R>(at path: String, _ body: (XLSXWorkbook) throws -> R) throws -> R {
        try body(try probe.takeWorkbook(at: path) ?? XLSXWorkbook(path: path))
    }
}
