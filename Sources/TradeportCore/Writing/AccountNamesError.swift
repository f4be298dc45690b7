/// An account template, a role or a line of an accounts file that cannot be taken: what kind of
/// problem, where it was given, and the text refused.
public struct AccountNamesError: Error, Sendable, CustomStringConvertible {
    /// The kind of problem (new kinds may be added).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// A template that is not an account name: a `{` without `}`, a placeholder other than
        /// `{portfolio}` and `{asset}`, fewer than two parts or an empty part.
        public static let template = Kind(name: "bad template")
        /// A role name that is not one of `AccountNames.Role`.
        public static let unknownRole = Kind(name: "unknown role")
        /// A line of an accounts file, or an `--account` value, that is not `ROLE: TEMPLATE`.
        public static let malformedLine = Kind(name: "malformed line")
        /// The accounts file cannot be read.
        public static let unreadable = Kind(name: "unreadable file")
    }

    public let kind: Kind
    /// What is wrong, without the place (`cash: 'Assets' is not an account …`).
    public let message: String
    /// The text refused: the template, the role name or the line.
    public let text: String
    /// Where it was given: the accounts file's path or the option (`--account cash=X`), when known.
    public var source: String?
    /// The 1-based line in `source`, for an accounts file.
    public var line: Int?

    public init(_ kind: Kind, _ message: String, text: String, source: String? = nil, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.text = text
        self.source = source
        self.line = line
    }

    public var description: String {
        guard let source else { return message }
        return line.map { "\(source):\($0): \(message)" } ?? "\(source): \(message)"
    }
}
