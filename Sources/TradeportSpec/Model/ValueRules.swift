/// How values are written in the source.
public struct ValueRules: Sendable, Equatable {
    public enum Thousands: Sendable, Equatable {
        case byte(UInt8)
        /// A space: plain, no-break (U+00A0) or narrow no-break (U+202F).
        case space
    }
    public var decimal: UInt8
    public var thousands: Thousands?
    /// An IANA zone name for the source's local times.
    public var timeZone: String
    /// A column naming each row's zone (an IANA name), where the source says it row by row
    /// (`values.zone-column`): the row's times are read in it; `timeZone` where it is empty.
    public var zoneColumn: String?
    /// How numbers are written beyond digits and separators (symbols, parentheses, exponents,
    /// either decimal separator); nothing by default.
    public var notation = NumberNotation()
    /// Texts that stand for an empty cell in every column (`-`, `N/A`).
    public var empty: [String] = []
    /// The character a writer put before a text a spreadsheet would run as a formula (`'=1+2`,
    /// OWASP's guidance on CSV injection): one at the start of a text or id value is taken off.
    public var formulaQuote: UInt8?
    /// Whether texts carry OOXML's `_xHHHH_` escapes for characters the file cannot hold (a NUL
    /// in a CSV; `values.escapes: ooxml`): each is read back as its character, `_x005F_` as `_`.
    public var ooxmlEscapes = false

    public init(decimal: UInt8, thousands: Thousands?, timeZone: String) {
        self.decimal = decimal
        self.thousands = thousands
        self.timeZone = timeZone
    }
}
