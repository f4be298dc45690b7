/// `add`, `sub`, `mul`, `div` (two or more operands, left to right), `max` and `min` (the largest
/// or smallest of two or more: `{max: ['0', …]}` keeps a derived fee from going below zero) and
/// `neg` (one).
public enum ArithmeticOperation: String, Sendable, Equatable, CaseIterable {
    case add, sub, mul, div, neg, max, min
    /// Written `{abs: …}` (of a column, or of any value).
    case abs
}
