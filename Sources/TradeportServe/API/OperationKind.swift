import TradeportBalances

/// Trades or transactions: the two resources share their routes and differ in their records.
protocol OperationKind: Sendable {
    associatedtype Record: Sendable
    static var name: String { get }
    static func read(_ json: JSONValue) throws(RecordError) -> Record
    static func write(_ record: Record, to w: inout JSONWriter)
    /// The records of this kind an uploaded export holds.
    static func records(of export: UploadedExport) -> [Record]
    func all(portfolio: Int64) async throws -> [Record]
    func one(id: Int64, portfolio: Int64) async throws -> Record?
    func add(_ records: [Record], portfolio: Int64, deduplicate: Bool) async throws -> [(Record, created: Bool)]
    func delete(id: Int64, portfolio: Int64) async throws -> Bool
}

struct TradeOperations: OperationKind {
    let store: BalancesStore
    static var name: String { "trade" }
    static func read(_ json: JSONValue) throws(RecordError) -> TradeRecord { try TradeRecord(json: json) }
    static func write(_ record: TradeRecord, to w: inout JSONWriter) { record.write(to: &w, secondsAlways: false) }
    static func records(of export: UploadedExport) -> [TradeRecord] { export.trades }
    func all(portfolio: Int64) async throws -> [TradeRecord] { try await store.trades(portfolio: portfolio) }
    func one(id: Int64, portfolio: Int64) async throws -> TradeRecord? { try await store.trade(id: id, portfolio: portfolio) }
    func add(_ records: [TradeRecord], portfolio: Int64, deduplicate: Bool) async throws -> [(TradeRecord, created: Bool)] {
        try await store.addTrades(records, portfolio: portfolio, deduplicate: deduplicate)
    }
    func delete(id: Int64, portfolio: Int64) async throws -> Bool { try await store.deleteTrade(id: id, portfolio: portfolio) }
}

struct TransactionOperations: OperationKind {
    let store: BalancesStore
    static var name: String { "transaction" }
    static func read(_ json: JSONValue) throws(RecordError) -> TransactionRecord { try TransactionRecord(json: json) }
    static func write(_ record: TransactionRecord, to w: inout JSONWriter) { record.write(to: &w, secondsAlways: false) }
    static func records(of export: UploadedExport) -> [TransactionRecord] { export.transactions }
    func all(portfolio: Int64) async throws -> [TransactionRecord] { try await store.transactions(portfolio: portfolio) }
    func one(id: Int64, portfolio: Int64) async throws -> TransactionRecord? { try await store.transaction(id: id, portfolio: portfolio) }
    func add(_ records: [TransactionRecord], portfolio: Int64, deduplicate: Bool) async throws -> [(TransactionRecord, created: Bool)] {
        try await store.addTransactions(records, portfolio: portfolio, deduplicate: deduplicate)
    }
    func delete(id: Int64, portfolio: Int64) async throws -> Bool { try await store.deleteTransaction(id: id, portfolio: portfolio) }
}
