import Foundation

/// The forms in which a sink can take an operation a reader made ready on its own threads
/// (`ConversionSink.preparedForm`).
public enum PreparedForm: Sendable {
    /// The operation as one JSON Lines line: `{"kind":…,"portfolio":…,` its canonical fields `}` and
    /// a line break (`CanonicalJSON.appendLine`).
    case jsonLine
    /// The operation as the canonical document lists it: `{` its canonical fields `}`
    /// (`CanonicalJSON.appendOperationFields`).
    case documentObject
    /// The bytes a sink outside Core renders from the operation's model value, with its id given
    /// (`OperationRenderer`): what only that sink reads back. A reader that writes canonical
    /// fields itself (`writesCanonicalFields`) makes the model value for it instead.
    case rendered(any OperationRenderer)

    /// Whether the bytes are canonical fields, which a reader may write without a model value
    /// (`OperationPreparation.appendBytes`).
    public var writesCanonicalFields: Bool {
        switch self {
        case .jsonLine, .documentObject: true
        case .rendered: false
        }
    }
}

/// How a sink outside Core has each operation written on the reader's threads
/// (`PreparedForm.rendered`): from the operation, its id set, and the portfolio it goes to.
/// Called on several threads at once: it keeps no state of its own.
public protocol OperationRenderer: Sendable {
    func append(_ operation: PortfolioOperation, portfolio: String, to out: inout OutputBuffer)
}

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

/// One asset's change of balance by an operation (nil: beyond 38 digits).
public struct BalanceChange: Sendable {
    public var asset: AssetCode
    public var change: ExactDecimal?
}

/// What a reader's thread prepares from one stretch of its source (a piece), one operation after
/// another: the bytes for the sink, the ids' texts and the balance changes. Kept on that thread
/// while it is written (a value: no access checks), then sealed into its `PreparedStore`.
public struct PreparedParts: ~Copyable {
    var bytes: OutputBuffer
    var ids: [UInt8] = []
    var changes: [BalanceChange] = []

    public init(capacity: Int = 1 << 16) {
        bytes = OutputBuffer(capacity: capacity)
    }

    init(bytes: consuming OutputBuffer) {
        self.bytes = bytes
    }
}

/// Where the operations prepared from one stretch of a source keep their bytes, ids and changes:
/// made before them, sealed once by the thread that prepared them (`seal`), then only read. When
/// the conversion is done with its operations, it gives its bytes' memory back to `memory`.
public final class PreparedStore: @unchecked Sendable {
    /// Where the operations were read, without a row.
    public let origin: SourceLocation
    private var sealed: PreparedParts?
    private let memory: PreparedMemory?

    public init(origin: SourceLocation, memory: PreparedMemory? = nil) {
        self.origin = origin.atRow(0)
        self.memory = memory
    }

    /// Takes what was prepared for it, before any of its operations is handed on.
    public func seal(_ parts: consuming PreparedParts) {
        sealed = consume parts
    }

    var parts: PreparedParts {
        _read { yield sealed! }
    }

    deinit {
        if let memory, let parts = sealed.take() { memory.give(parts.bytes.takeMemory()) }
    }
}

/// Memory for the bytes of prepared operations, given back by the stores the conversion is done
/// with and taken again for the next pieces, so that each piece's bytes (about a megabyte) are not
/// mapped fresh from the system and faulted in page by page (measured on 1M DSX trades: 1.3 s of
/// system time against 0.6 without preparation). Owned by one reading; freed with it.
public final class PreparedMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [(memory: UnsafeMutablePointer<UInt8>, capacity: Int)] = []
    /// At most this many kept: what the pieces in flight and the hand-over between threads hold.
    private let keep: Int

    public init(keep: Int = 32) {
        self.keep = keep
    }

    /// Parts for a piece, over memory given back when there is some of at least `capacity` bytes.
    public func parts(capacity: Int) -> PreparedParts {
        lock.lock()
        let i = free.lastIndex { $0.capacity >= capacity }
        let taken = i.map { free.remove(at: $0) }
        lock.unlock()
        guard let taken else { return PreparedParts(capacity: capacity) }
        return PreparedParts(bytes: OutputBuffer(memory: taken.memory, capacity: taken.capacity))
    }

    func give(_ memory: (memory: UnsafeMutablePointer<UInt8>, capacity: Int)) {
        lock.lock()
        if free.count < keep {
            free.append(memory)
            lock.unlock()
        } else {
            lock.unlock()
            memory.memory.deallocate()
        }
    }

    deinit {
        for m in free { m.memory.deallocate() }
    }
}

/// An operation a reader made ready for the conversion (`OperationPreparation.prepare`): what the
/// conversion needs of it in order, and where its bytes, id and changes are kept.
public struct PreparedOperation: Sendable {
    let store: PreparedStore
    public let kind: OperationKind
    public let row: Int
    /// Its time: seconds since 1970 in UTC, and the fraction of the second.
    public let time: Int64
    public let nanoseconds: UInt32
    let idKey: UInt64
    let content: UInt64
    public let portfolio: String
    let id: Range<Int32>
    let bytes: Range<Int32>
    let changes: Range<Int32>

    /// The operation's id.
    public var idText: String {
        store.parts.ids.withUnsafeBytes { String(decoding: $0[Int(id.lowerBound)..<Int(id.upperBound)], as: UTF8.self) }
    }

    /// Where the operation was read.
    public var source: SourceLocation { store.origin.atRow(row) }

    /// The bytes its sink writes for it, in the sink's `preparedForm`.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: store.parts.bytes.bytes[Int(bytes.lowerBound)..<Int(bytes.upperBound)]))
    }

    /// Each asset whose balance it changes, with the change.
    func forEachBalanceChange(_ body: (AssetCode, ExactDecimal?) -> Void) {
        for i in Int(changes.lowerBound)..<Int(changes.upperBound) {
            let c = store.parts.changes[i]
            body(c.asset, c.change)
        }
    }
}
