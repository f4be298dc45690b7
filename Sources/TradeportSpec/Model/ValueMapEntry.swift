public struct ValueMapEntry: Sendable, Equatable {
    public var from: String
    public var to: String
}
