import TradeportBalances
import TradeportCore

/// Where the server keeps its users, their portfolios and the portfolios' trades and transactions:
/// an SQLite file (`SQLiteStore`, the embedded default) or a PostgreSQL database many instances
/// share (`PostgresStore`). Uniqueness (a username, a portfolio name per user, a value id per
/// portfolio) is the database's unique indexes, so it holds across processes: two servers over one
/// database store an operation once.
protocol BalancesStorage: Sendable {
    /// Adds a user; `false` when the name is taken.
    func addUser(username: String, email: String, passwordHash: String) async throws -> Bool
    /// A user's id and password hash.
    func user(named username: String) async throws -> (id: Int64, passwordHash: String)?

    func portfolios(owner: Int64) async throws -> [PortfolioRecord]
    func portfolio(id: Int64, owner: Int64) async throws -> PortfolioRecord?
    func portfolio(named name: String, owner: Int64) async throws -> PortfolioRecord?
    /// Adds a portfolio, or answers the caller's one of that name with `created == false`.
    func addPortfolio(named name: String, owner: Int64) async throws -> (PortfolioRecord, created: Bool)
    /// Renames the caller's portfolio `id`; names stay unique per user.
    func renamePortfolio(id: Int64, to name: String, owner: Int64) async throws -> PortfolioRename
    /// Deletes a portfolio with its operations; `false` when the caller has none of that id.
    func deletePortfolio(id: Int64, owner: Int64) async throws -> Bool

    /// A portfolio's records of one kind, by id.
    func records<R: StoredRecord>(_: R.Type, portfolio: Int64) async throws -> [R]
    /// The value ids of those records, in the same order (nil for a record without one).
    func valueIds<R: StoredRecord>(_: R.Type, portfolio: Int64) async throws -> [String?]
    func record<R: StoredRecord>(_: R.Type, id: Int64, portfolio: Int64) async throws -> R?
    /// Stores `records` in one transaction. Each answer is the stored record and whether it was
    /// created now (`false`: the portfolio already held that value id, and nothing was stored).
    /// Without `deduplicate` (the original server's behaviour) every record is stored.
    func add<R: StoredRecord>(_ records: [R], portfolio: Int64, deduplicate: Bool) async throws -> [(R, created: Bool)]
    /// Deletes one record; `false` when the portfolio has none of that id.
    func delete<R: StoredRecord>(_: R.Type, id: Int64, portfolio: Int64) async throws -> Bool
}

enum PortfolioRename: Sendable {
    case renamed(PortfolioRecord)
    case notFound
    /// The caller has another portfolio of that name.
    case nameTaken(PortfolioRecord)
}

/// A value bound to a statement.
enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
}

/// Where a statement's parameters go, one after the other: an SQLite statement straight
/// (`SQLiteDatabase.Parameters`), or a list of values (`SQLValueList`, for PostgreSQL). Records say
/// their values once (`StoredRecord.put`), for both.
protocol StatementParameters {
    mutating func null()
    mutating func integer(_ value: Int64)
    mutating func text(_ value: String)
    /// In the canonical text the store writes (`-0.0025`).
    mutating func decimal(_ value: ExactDecimal)
    /// `yyyy-MM-ddTHH:mm:ss`, always with seconds.
    mutating func dateTime(_ value: ServerDateTime)
}

extension StatementParameters {
    mutating func text(_ value: String?) {
        if let value { text(value) } else { null() }
    }

    mutating func decimal(_ value: ExactDecimal?) {
        if let value { decimal(value) } else { null() }
    }

    mutating func value(_ value: SQLValue) {
        switch value {
        case .null: null()
        case .integer(let v): integer(v)
        case .text(let t): text(t)
        }
    }
}

/// Parameters gathered as values.
struct SQLValueList: StatementParameters {
    var values: [SQLValue] = []

    mutating func null() { values.append(.null) }
    mutating func integer(_ value: Int64) { values.append(.integer(value)) }
    mutating func text(_ value: String) { values.append(.text(value)) }
    mutating func decimal(_ value: ExactDecimal) { values.append(.text(value.description)) }
    mutating func dateTime(_ value: ServerDateTime) { values.append(.text(value.textWithSeconds)) }
}

/// A result row as both stores hand it to `StoredRecord.init(row:)`: columns by 0-based index.
protocol StoredRow {
    func integer(_ column: Int) -> Int64
    func optionalText(_ column: Int) -> String?
    /// A decimal in the canonical text the store writes (`-0.0025`); nil for NULL or other text.
    func optionalDecimal(_ column: Int) -> ExactDecimal?
}

extension StoredRow {
    func text(_ column: Int) -> String { optionalText(column) ?? "" }

    func optionalDecimal(_ column: Int) -> ExactDecimal? {
        guard var text = optionalText(column) else { return nil }
        return text.withUTF8 { utf8 -> ExactDecimal? in
            guard case .success(let value) = ExactDecimal.parse(UnsafeRawBufferPointer(utf8), style: .canonical) else { return nil }
            return value
        }
    }
}

/// A failure of the store, with a message for the log and the 500 answer.
struct StorageError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
