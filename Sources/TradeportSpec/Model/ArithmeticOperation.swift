/// `add`, `sub`, `mul`, `div` (two or more operands, left to right) and `neg` (one).
public enum ArithmeticOperation: String, Sendable, Equatable, CaseIterable {
    case add, sub, mul, div, neg
    /// Written `{abs: …}` (of a column, or of any value).
    case abs
}
