/// Where a value came from: the input as given on the command line, the 1-based line (CSV) or
/// row (XLSX), and the sheet for workbooks.
public struct SourceLocation: Sendable, Hashable, Decodable, CustomStringConvertible {
    public var path: String
    public var row: Int
    public var sheet: String?

    public init(path: String, row: Int, sheet: String? = nil) {
        self.path = path
        self.row = row
        self.sheet = sheet
    }

    /// `file:row` or `file[sheet]:row`.
    public var description: String {
        if let sheet { return "\(path)[\(sheet)]:\(row)" }
        return "\(path):\(row)"
    }
}
