/// Where a value came from: the input as given on the command line, the 1-based line (CSV) or
/// row (XLSX), and the sheet for workbooks.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var row: Int
    public var sheet: String?

    public init(path: String, row: Int, sheet: String? = nil) {
        self.path = path
        self.row = row
        self.sheet = sheet
    }

    /// An empty location, for comparing operations regardless of where they were read.
    public static let nowhere = SourceLocation(path: "", row: 0)

    /// A location in the same input (and sheet) as `self`, at another row.
    @inlinable
    public func atRow(_ row: Int) -> SourceLocation {
        var copy = self
        copy.row = row
        return copy
    }

    /// `file:row` or `file[sheet]:row`.
    public var description: String {
        if let sheet { return "\(path)[\(sheet)]:\(row)" }
        return "\(path):\(row)"
    }
}

extension SourceLocation: Decodable {
    private enum CodingKeys: String, CodingKey { case path, row, sheet }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            path: try c.decode(String.self, forKey: .path), row: try c.decode(Int.self, forKey: .row),
            sheet: try c.decodeIfPresent(String.self, forKey: .sheet))
    }
}
