/// The number notations a source may use beyond `-`, digits and its separators.
public struct NumberNotation: Sendable, Equatable {
    /// Currency symbols that may stand before (or after) the digits and are dropped: `$`, `€`.
    public var symbols: [String] = []
    /// `(6.97)` is −6.97.
    public var parentheses = false
    /// `4.615E-06`: a power of ten after `E` or `e`.
    public var exponent = false
    /// Either `.` or `,` is the decimal separator, value by value (the other, or a space, groups
    /// thousands): `4,581.91`, `1 757,95` and `0,76672417` in one file.
    public var eitherDecimal = false

    public init() {}

    /// Whether any notation beyond plain digits is on.
    public var isPlain: Bool { symbols.isEmpty && !parentheses && !exponent && !eitherDecimal }
}
