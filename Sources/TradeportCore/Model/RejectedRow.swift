/// One thing wrong with a row: which column (1-based) or field, and what was expected.
public struct FieldError: Sendable, Hashable, Decodable, Error {
    public var column: Int?
    public var field: String?
    public var message: String

    public init(column: Int?, field: String?, message: String) {
        self.column = column
        self.field = field
        self.message = message
    }
}

/// A row that could not be read, with its raw text and every error found in it.
public struct RejectedRow: Sendable, Hashable, Decodable {
    public var source: SourceLocation
    public var raw: String
    public var errors: [FieldError]

    /// `raw` is kept up to `rawLimit` bytes: a row of megabytes is named, not copied into every
    /// output that lists rejects.
    public init(source: SourceLocation, raw: String, errors: [FieldError]) {
        self.source = source
        self.raw = Self.capped(raw)
        self.errors = errors
    }

    /// The most bytes of a row's raw text a reject carries.
    public static let rawLimit = 4096

    /// `raw` cut at `rawLimit` bytes (at a character's start), marked with its whole length.
    public static func capped(_ raw: String) -> String {
        let utf8 = raw.utf8
        guard utf8.count > rawLimit else { return raw }
        var end = utf8.index(utf8.startIndex, offsetBy: rawLimit)
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(decoding: utf8[utf8.startIndex..<end], as: UTF8.self) + " … [cut: \(utf8.count) bytes in all]"
    }
}
