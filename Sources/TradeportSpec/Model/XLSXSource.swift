public struct XLSXSource: Sendable, Equatable {
    public enum Sheet: Sendable, Equatable {
        case name(String)
        /// 1-based.
        case index(Int)
    }
    public var sheet: Sheet
    public var header: HeaderRule
}
