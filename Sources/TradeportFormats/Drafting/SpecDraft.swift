import TradeportSpec

/// A spec drafted from an export by `SpecDrafter`: its YAML text, and what the drafter saw and
/// decided, each guess marked as one and each open question listed.
public struct SpecDraft: Sendable {
    /// The source as the draft reads it.
    public enum Kind: String, Sendable { case csv, xlsx }

    /// One column of the export, as the draft reads it.
    public struct Column: Sendable, Equatable {
        /// The header's text ("" for an unnamed column) and the column's 1-based position.
        public var header: String
        public var position: Int
        /// The name the draft gives it (camel case of the header, or `columnN`).
        public var name: String
        /// `text`, `id`, `asset`, `decimal`, `date`, `datetime` or `time`.
        public var type: String
        /// The date/time pattern of a date, datetime or time column.
        public var format: String?
        /// What the column most likely means, by its header.
        var role: HeaderRole?
        /// Whether some rows leave it empty.
        public var optional: Bool
        /// Its distinct values, most frequent first, with their counts (a type column's).
        public var values: [(text: String, count: Int)]
        /// A sample value, for messages.
        public var example: String?
        /// A regular expression taking the date from the start of the cell (`09/27/2023 as of 09/26/2023`).
        public var match: String?
        /// A workbook column of date cells (its `format` is only for any value written as text).
        public var dateCells = false

        public static func == (a: Column, b: Column) -> Bool {
            a.header == b.header && a.position == b.position && a.name == b.name && a.type == b.type && a.format == b.format
                && a.optional == b.optional
        }
    }

    public var id: String
    public var kind: Kind
    /// The sheet read (a workbook).
    public var sheet: String?
    public var encoding: TextEncoding
    /// The delimiter (`,`, `;`, tab, `|`).
    public var delimiter: String
    /// The line (a sheet's row) the header is on, 1-based, and the lines before it.
    public var headerLine: Int
    /// Lines after the last row of data that are not rows (a total, a note).
    public var trailerLines: [Int]
    /// The first cell of each trailer line.
    public var trailerTexts: [String] = []
    /// `.`, `,` or `either`; `none`, `,`, `.`, `space` or `'`.
    public var decimal: String
    public var thousands: String
    /// Number notations beyond digits: currency symbols, `(1.00)`, `1E-5`.
    public var symbols: [String]
    public var parentheses: Bool
    public var exponent: Bool
    /// Texts that stand for an empty cell (`-`, `N/A`).
    public var emptyMarkers: [String]
    public var columns: [Column]
    /// The rows of data read.
    public var rows: Int
    /// What the draft guessed, one line each (the YAML marks them too).
    public var guesses: [String]
    /// What it could not decide: each a `TODO` in the YAML that `formats check` refuses.
    public var questions: [String]
    /// The spec's YAML.
    public var text: String
}
