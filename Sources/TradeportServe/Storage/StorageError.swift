/// A database that holds what this server cannot read, or lost a row between two statements: a
/// kind, the table and what is wrong.
struct StorageError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure (new kinds may be added).
    struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String
        var description: String { name }

        /// A stored row in a form this server cannot read (written by another version, or edited).
        static let unreadableRow = Kind(name: "unreadable row")
        /// A row that was neither inserted nor found: another writer removed it in between.
        static let vanished = Kind(name: "vanished row")
    }

    let kind: Kind
    /// The table (`trades`, `portfolios`, `settings`).
    let table: String
    let message: String

    init(_ kind: Kind, table: String, _ message: String) {
        self.kind = kind
        self.table = table
        self.message = message
    }

    var description: String { message }
}
