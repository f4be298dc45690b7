import Foundation

/// What the conversion asks of a reader that reads on several threads (`ReadOptions.preparation`):
/// to do there, for each operation, what does not depend on the order of the rows — its id, the
/// key the duplicate index files that id under, its content hash, its balance changes and the
/// bytes the sink writes for it — so that the conversion takes it in order without its model value.
///
/// What cannot be prepared is handed on as before (`prepare` answers nil): an operation without a
/// venue id (its content id numbers its occurrences in the source's order), a failed transaction
/// the conversion skips.
public struct OperationPreparation: Sendable {
    /// The reader's format: ids are `<format>:<venue id>`.
    public let format: String
    public let portfolio: String
    public let splitAccounts: Bool
    public let keepFailed: Bool
    public let form: PreparedForm

    public init(format: String, options: ConversionOptions, form: PreparedForm) {
        self.format = format
        portfolio = options.portfolio
        splitAccounts = options.splitAccounts
        keepFailed = options.keepFailed
        self.form = form
    }

    /// `operation` made ready in `parts`, which go to `store` (read from `store`'s source), or nil
    /// when the conversion must take it as it is. `placedIn`: the portfolio the source names for it.
    public func prepare(
        _ operation: PortfolioOperation, placedIn: String?, into parts: inout PreparedParts,
        of store: PreparedStore
    ) -> PreparedOperation? {
        if case .transaction(let t) = operation, t.status != .complete, !keepFailed { return nil }
        return prepare(
            kind: operation.kind, carried: operation.id, externalId: operation.externalId, account: operation.account,
            placedIn: placedIn, row: operation.source.row, time: operation.time.secondsSinceEpoch,
            content: { OperationIdentity.contentHash(operation) },
            nanoseconds: operation.time.nanoseconds,
            render: { id, portfolio, out in render(operation, id: id, portfolio: portfolio, to: &out) },
            changes: { operation.forEachBalanceChange($0) }, into: &parts, of: store)
    }

    /// `operation`'s bytes in the sink's form; `id`: the id to write when it carries none.
    @inline(__always)
    public func render(_ operation: PortfolioOperation, id: UnsafeRawBufferPointer?, portfolio: String, to out: inout OutputBuffer) {
        if case .rendered(let renderer) = form {
            var operation = operation
            if let id { operation.id = String(decoding: id, as: UTF8.self) }
            renderer.append(operation, portfolio: portfolio, to: &out)
            return
        }
        appendBytes(operation.kind, portfolio: portfolio, to: &out) { CanonicalJSON.appendOperationFields(operation, id: id, to: &$0) }
    }

    /// The bytes of an operation of `kind` in `portfolio` in the sink's form, around its fields as
    /// `fields` writes them (`CanonicalJSON.appendFields`): what a reader's `render` writes, for a
    /// form that `writesCanonicalFields`.
    @inline(__always)
    public func appendBytes(_ kind: OperationKind, portfolio: String, to out: inout OutputBuffer, fields: (inout OutputBuffer) -> Void) {
        switch form {
        case .jsonLine: CanonicalJSON.appendLine(kind, portfolio: portfolio, to: &out, fields: fields)
        case .documentObject:
            out.append(UInt8(ascii: "{"))
            fields(&out)
            out.append(UInt8(ascii: "}"))
        case .rendered:
            preconditionFailure("a rendered form is written from the model value (render), not from canonical fields")
        }
    }

    /// An operation made ready from what a reader read of it: its kind, the id it carries (empty:
    /// none), its venue id and sub-account, the portfolio its source names, its row and time, its
    /// content hash, and how to write its bytes (given the id to write, when it carries none, and
    /// the portfolio) and its balance changes. Nil when it has neither id (see `prepare`).
    @inline(__always)
    public func prepare(
        kind: OperationKind, carried: String, externalId: String?, account: String?, placedIn: String?, row: Int, time: Int64,
        content: () -> UInt64, nanoseconds: UInt32 = 0, render: (UnsafeRawBufferPointer?, String, inout OutputBuffer) -> Void,
        changes: ((AssetCode, ExactDecimal?, Bool) -> Void) -> Void, into parts: inout PreparedParts, of store: PreparedStore
    ) -> PreparedOperation? {
        let idStart = parts.ids.count
        if !carried.isEmpty {
            parts.ids.append(contentsOf: carried.utf8)
        } else if let externalId {
            parts.ids.append(contentsOf: format.utf8)
            parts.ids.append(UInt8(ascii: ":"))
            parts.ids.append(contentsOf: externalId.utf8)
        } else {
            return nil
        }
        let idEnd = parts.ids.count
        let portfolio = placedIn ?? (splitAccounts ? (account ?? self.portfolio) : self.portfolio)
        let bytesStart = parts.bytes.count
        let key = parts.ids.withUnsafeBytes { ids in
            let id = UnsafeRawBufferPointer(rebasing: ids[idStart..<idEnd])
            render(carried.isEmpty ? id : nil, portfolio, &parts.bytes)
            return OperationIndex.key(for: id)
        }
        let changesStart = parts.changes.count
        changes { asset, change, _ in parts.changes.append(BalanceChange(asset: asset, change: change)) }
        return PreparedOperation(
            store: store, kind: kind, row: row, time: time, nanoseconds: nanoseconds, idKey: key, content: content(), portfolio: portfolio,
            id: Int32(idStart)..<Int32(idEnd), bytes: Int32(bytesStart)..<Int32(parts.bytes.count),
            changes: Int32(changesStart)..<Int32(parts.changes.count))
    }
}
