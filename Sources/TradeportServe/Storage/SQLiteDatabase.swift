import CSQLite
import Foundation
import TradeportBalances
import TradeportCore

/// An SQLite failure, with SQLite's own message.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var description: String { "SQLite error \(code): \(message)" }
    /// A UNIQUE (or other) constraint refused the statement.
    var isConstraintViolation: Bool { code & 0xFF == SQLITE_CONSTRAINT }
}

/// One SQLite connection with its prepared statements, kept by text. Not thread-safe: the store
/// (an actor) is its only user.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// The text parameters of the statement being run, kept from call to call (see `Parameters`).
    private var texts = Parameters.Texts()

    /// Before the first connection: SQLite keeps no memory statistics (each of its allocations
    /// took a global mutex: 4% of a server's time inserting a batch, measured with perf). Refused
    /// harmlessly when SQLite was initialized before.
    private static let configured: Void = { _ = tradeport_sqlite3_memstatus_off() }()

    /// Opens (creating when missing) the database file at `path`.
    init(path: String) throws {
        _ = Self.configured
        // The file holds the users' password hashes: readable by the owner only. SQLite gives its
        // -wal and -shm files the database's mode.
        if path != ":memory:" {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw SQLiteError(code: rc, message: "\(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 5000)
    }

    deinit {
        for s in statements.values { sqlite3_finalize(s) }
        sqlite3_close(handle)
    }

    private func error(_ rc: Int32) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs SQL without parameters or results (schema, pragmas, transactions).
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "failed"
            sqlite3_free(message)
            throw SQLiteError(code: rc, message: text)
        }
    }

    /// A statement prepared once and kept with the connection.
    struct Statement {
        fileprivate let handle: OpaquePointer
    }

    /// The statement of `sql`, prepared the first time it is asked for. Looking it up hashes the
    /// whole text: a caller running it many times asks once.
    func statement(_ sql: String) throws -> Statement {
        if let s = statements[sql] { return Statement(handle: s) }
        var s: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &s, nil)
        guard rc == SQLITE_OK, let statement = s else { throw error(rc) }
        statements[sql] = statement
        return Statement(handle: statement)
    }

    /// Runs one statement with `bindings`, handing each result row to `row`.
    func query(_ sql: String, _ bindings: [SQLValue] = [], row: (Row) throws -> Void = { _ in }) throws {
        try query(sql, { p in for value in bindings { p.value(value) } }, row: row)
    }

    /// Runs a statement that answers no rows (an insert, update or delete), its parameters put by
    /// `put` straight from the values; returns how many rows it changed.
    func change(_ statement: Statement, _ put: (inout Parameters) -> Void) throws -> Int {
        try query(statement, put)
        return changes
    }

    private func query(_ sql: String, _ put: (inout Parameters) -> Void, row: (Row) throws -> Void) throws {
        try query(try statement(sql), put, row: row)
    }

    private func query(_ statement: Statement, _ put: (inout Parameters) -> Void, row: (Row) throws -> Void = { _ in }) throws {
        let s = statement.handle
        var parameters = Parameters(statement: s, texts: texts)
        texts = Parameters.Texts()
        defer {
            // Before the texts' bytes are reused: the statement must not point into them.
            sqlite3_reset(s)
            sqlite3_clear_bindings(s)
            texts = parameters.texts
            texts.removeAll()
        }
        put(&parameters)
        if parameters.failure != SQLITE_OK { throw error(parameters.failure) }
        // The texts are bound where they are (no copy: SQLITE_STATIC), so the statement runs while
        // their bytes are held.
        try parameters.texts.bytes.withUnsafeBytes { bytes in
            for text in parameters.texts.slots {
                let start = bytes.baseAddress!.advanced(by: text.start).assumingMemoryBound(to: CChar.self)
                let rc = sqlite3_bind_text(s, text.index, start, Int32(text.count), SQLITE_STATIC_VALUE)
                guard rc == SQLITE_OK else { throw error(rc) }
            }
            while true {
                let rc = sqlite3_step(s)
                if rc == SQLITE_DONE { return }
                guard rc == SQLITE_ROW else { throw error(rc) }
                try row(Row(statement: s))
            }
        }
    }

    /// Every result row, made into a value by `make`.
    func rows<T>(_ sql: String, _ bindings: [SQLValue] = [], _ make: (Row) throws -> T) throws -> [T] {
        var result: [T] = []
        try query(sql, bindings) { result.append(try make($0)) }
        return result
    }

    /// The first result row, made into a value by `make`.
    func first<T>(_ sql: String, _ bindings: [SQLValue] = [], _ make: (Row) throws -> T) throws -> T? {
        var result: T?
        try query(sql, bindings) { row in
            if result == nil { result = try make(row) }
        }
        return result
    }

    var lastInsertedRowId: Int64 { sqlite3_last_insert_rowid(handle) }
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A statement's parameters, numbered as they are put (1, 2, …): integers and nulls bound at
    /// once, texts copied into one buffer and bound from it when the statement runs (see `query`;
    /// SQLite copied each text into an allocation of its own, 9% of a batch insert). The first
    /// failure is kept, and the statement is not run.
    struct Parameters: StatementParameters {
        /// The texts put: their bytes one after another, and where each is bound.
        struct Texts {
            var bytes: [UInt8] = []
            var slots: [(index: Int32, start: Int, count: Int)] = []

            mutating func removeAll() {
                bytes.removeAll(keepingCapacity: true)
                slots.removeAll(keepingCapacity: true)
            }
        }

        let statement: OpaquePointer
        private var index: Int32 = 0
        private(set) var failure = SQLITE_OK
        fileprivate(set) var texts: Texts

        init(statement: OpaquePointer, texts: Texts) {
            self.statement = statement
            self.texts = texts
        }

        private mutating func next(_ bind: (OpaquePointer, Int32) -> Int32) {
            index += 1
            guard failure == SQLITE_OK else { return }
            let rc = bind(statement, index)
            if rc != SQLITE_OK { failure = rc }
        }

        mutating func null() { next { sqlite3_bind_null($0, $1) } }

        mutating func integer(_ value: Int64) { next { sqlite3_bind_int64($0, $1, value) } }

        /// Bound with its length: a NUL inside the text is kept, not taken for its end. An empty
        /// text is bound at once (a copy of nothing); the others when the statement runs.
        mutating func text(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count > 0 else {
                next { s, i in sqlite3_bind_text(s, i, "", 0, SQLITE_TRANSIENT_VALUE) }
                return
            }
            guard bytes.count <= Int(Int32.max) else {
                next { _, _ in SQLITE_TOOBIG }
                return
            }
            index += 1
            texts.slots.append((index: index, start: texts.bytes.count, count: bytes.count))
            texts.bytes.append(contentsOf: bytes)
        }

        mutating func text(_ value: String) {
            var value = value
            value.withUTF8 { text(UnsafeRawBufferPointer($0)) }
        }

        mutating func decimal(_ value: ExactDecimal) {
            var buffer = OutputBuffer(capacity: 48)
            value.appendText(to: &buffer)
            text(buffer.bytes)
        }

        mutating func dateTime(_ value: ServerDateTime) {
            var buffer = OutputBuffer(capacity: 19)
            value.local.appendISO(to: &buffer)
            text(buffer.bytes)
        }
    }

    /// A result row, valid only inside the `row` closure.
    struct Row: StoredRow {
        let statement: OpaquePointer

        func integer(_ column: Int) -> Int64 { sqlite3_column_int64(statement, Int32(column)) }

        func optionalText(_ column: Int) -> String? {
            let column = Int32(column)
            guard sqlite3_column_type(statement, column) != SQLITE_NULL, let p = sqlite3_column_text(statement, column) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        }

        /// Read from the column's bytes, without a string in between.
        func optionalDecimal(_ column: Int) -> ExactDecimal? {
            let column = Int32(column)
            guard sqlite3_column_type(statement, column) != SQLITE_NULL, let p = sqlite3_column_text(statement, column) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            guard case .success(let value) = ExactDecimal.parse(UnsafeRawBufferPointer(start: p, count: count), style: .canonical) else {
                return nil
            }
            return value
        }
    }
}

/// SQLite's "copy the bytes now" destructor, which Swift cannot import as a constant.
private let SQLITE_TRANSIENT_VALUE = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
/// SQLite's "the bytes stay where they are until the statement is reset" destructor (0).
private let SQLITE_STATIC_VALUE: sqlite3_destructor_type? = nil
