/// Something true of the whole conversion that a user should look at.
public struct ConversionWarning: Sendable, Hashable, Decodable {
    public var code: String
    public var message: String
    public var source: SourceLocation?

    public init(code: String, message: String, source: SourceLocation?) {
        self.code = code
        self.message = message
        self.source = source
    }
}
