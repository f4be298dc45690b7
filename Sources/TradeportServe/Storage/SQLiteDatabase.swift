import CSQLite
import Foundation
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

    /// Opens (creating when missing) the database file at `path`.
    init(path: String) throws {
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

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let s = statements[sql] { return s }
        var s: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &s, nil)
        guard rc == SQLITE_OK, let statement = s else { throw error(rc) }
        statements[sql] = statement
        return statement
    }

    /// Runs one statement with `bindings`, handing each result row to `row`.
    func query(_ sql: String, _ bindings: [SQLValue] = [], row: (Row) throws -> Void = { _ in }) throws {
        let s = try prepared(sql)
        defer {
            sqlite3_reset(s)
            sqlite3_clear_bindings(s)
        }
        for (i, value) in bindings.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(s, index)
            case .integer(let v): rc = sqlite3_bind_int64(s, index, v)
            case .text(let t):
                // Bound with its length: a NUL inside the text is kept, not taken for its end.
                var text = t
                rc = text.withUTF8 { utf8 in
                    guard let base = utf8.baseAddress, utf8.count > 0 else { return sqlite3_bind_text(s, index, "", 0, SQLITE_TRANSIENT_VALUE) }
                    return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                        sqlite3_bind_text(s, index, $0, Int32(utf8.count), SQLITE_TRANSIENT_VALUE)
                    }
                }
            }
            guard rc == SQLITE_OK else { throw error(rc) }
        }
        while true {
            let rc = sqlite3_step(s)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else { throw error(rc) }
            try row(Row(statement: s))
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
