import TradeportCore

/// A value the server's API cannot take or an answer the client cannot read: what kind of problem,
/// which field, the text found, and why.
public struct RecordError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem (new kinds may be added).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// A required field is absent.
        public static let missing = Kind(name: "missing")
        /// A field of the wrong JSON type (a string where a number goes), or the whole value is.
        public static let wrongType = Kind(name: "wrong type")
        /// A field of the right type whose value is not one the API takes.
        public static let invalidValue = Kind(name: "invalid value")
        /// The body is not JSON.
        public static let malformed = Kind(name: "malformed")
    }

    public let kind: Kind
    /// The field (`tradeType`), or nil for the whole value.
    public let field: String?
    /// What is wrong, without the field's name.
    public let message: String
    /// The text found, when the field held one.
    public let text: String?

    public init(_ kind: Kind, field: String? = nil, _ message: String, text: String? = nil) {
        self.kind = kind
        self.field = field
        self.message = message
        self.text = text
    }

    public var description: String { field.map { "\($0): \(message)" } ?? message }
}
