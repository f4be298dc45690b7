/// A failure to start or run the server: a kind, the file or option it is about, and a message
/// for the user.
public struct ServeError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure (new kinds may be added).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// An option's value cannot be taken (`--database` that is not a PostgreSQL URL).
        public static let badOption = Kind(name: "bad option")
        /// The data directory cannot be made.
        public static let dataDirectory = Kind(name: "data directory")
        /// The database cannot be opened or prepared.
        public static let database = Kind(name: "database")
        /// The token secret cannot be read or written.
        public static let tokenSecret = Kind(name: "token secret")
        /// An upload names a format no reader reads.
        public static let unknownFormat = Kind(name: "unknown format")
    }

    public let kind: Kind
    public let message: String
    /// The file, directory or option the failure is about, when there is one.
    public let subject: String?

    public init(_ kind: Kind, subject: String? = nil, _ message: String) {
        self.kind = kind
        self.message = message
        self.subject = subject
    }

    public var description: String { message }
}
