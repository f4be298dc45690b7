import Foundation
import TradeportPrimitives

/// The reading half of a conversion, run on a thread of its own: the reader's records become
/// decisions (an operation with its portfolio, a skip, a reject), with ids assigned, failed
/// transactions skipped and duplicates dropped, handed over in batches.
final class IdentityStage: @unchecked Sendable {
    enum Decision {
        /// An operation to output, with the id to give it when it has none yet (given on the
        /// converting thread, which has time to spare: the reading one is the slower).
        case operation(PortfolioOperation, id: String?, portfolio: String)
        case skipped(SkippedRow)
        case rejected(RejectedRow)
        /// An operation the reader prepared, new to the index (its id and portfolio inside).
        case prepared(PreparedOperation)
    }

    private let input: SourceInput
    private let reader: any FormatReader
    private let options: ConversionOptions
    private let sourceIndex: Int
    private let earlierPaths: [String]
    // Read by the converting thread only after the channel is closed.
    private(set) var index: OperationIndex
    private(set) var summary: SourceSummary
    private(set) var failure: (any Error)?
    /// The source's balances checked against its operations (empty unless it prints balances).
    private(set) var checks: [BalanceCheck] = []
    /// The balances the source prints, in its order (empty unless it prints balances).
    private(set) var statements: [StatedBalance] = []
    /// What the reader said of the source as a whole (`SourceRecord.warning`).
    private(set) var warnings: [ConversionWarning] = []

    private static let batchSize = 1024

    /// What the reader is asked to do on its threads (nil: nothing; never for a source that prints
    /// its balances, whose operations the reconciliation reads).
    private let preparation: OperationPreparation?

    init(
        input: SourceInput, reader: any FormatReader, options: ConversionOptions, sourceIndex: Int,
        earlierPaths: [String], index: OperationIndex, preparedForm: PreparedForm? = nil
    ) {
        preparation =
            reader is any PreparingReader && !reader.printsBalances
            ? preparedForm.map { OperationPreparation(format: reader.id, options: options, form: $0) } : nil
        self.input = input
        self.reader = reader
        self.options = options
        self.sourceIndex = sourceIndex
        self.earlierPaths = earlierPaths
        self.index = index
        self.summary = SourceSummary(path: input.path, format: reader.id)
    }

    struct Cancelled: Error {}

    func run(into channel: BatchChannel<Decision>) {
        defer { channel.close() }
        var batch: [Decision] = []
        batch.reserveCapacity(Self.batchSize)
        var index = self.index
        self.index = OperationIndex()
        var summary = self.summary
        defer {
            self.index = index
            self.summary = summary
        }
        var occurrences: [String: Int] = [:]
        let format = reader.id
        let keepFailed = options.keepFailed
        let splitAccounts = options.splitAccounts
        let defaultPortfolio = options.portfolio
        let sourceIndex = self.sourceIndex
        let path = input.path
        let earlierPaths = self.earlierPaths
        var reconciliation = reader.printsBalances ? Reconciliation() : nil
        defer { checks = reconciliation?.checks(path: path) ?? [] }

        func hand(_ decision: Decision) throws {
            batch.append(decision)
            if batch.count == Self.batchSize {
                guard channel.send(batch) else { throw Cancelled() }
                batch.removeAll(keepingCapacity: true)
            }
        }

        /// An operation read: a failed transaction skipped, or its id assigned and deduplicated.
        func accept(_ operation: PortfolioOperation, placedIn: String?, _ rawText: () -> String) throws {
            if case .transaction(let t) = operation, t.status != .complete, !keepFailed {
                summary.skipped += 1
                try hand(
                    .skipped(
                        SkippedRow(
                            source: t.source,
                            reason: "\(t.status.rawValue) transaction: it moved no money (--keep-failed outputs it)")))
                return
            }
            let content = OperationIdentity.contentHash(operation)
            let carried = operation.id
            let newId = carried.isEmpty ? OperationIdentity.id(for: operation, format: format, occurrences: &occurrences) : nil
            let id = newId ?? carried
            let source = operation.source
            try file(index.insert(id: id, content: content, source: sourceIndex, row: source.row), source, id: { id }, rawText) {
                let portfolio = placedIn ?? (splitAccounts ? (operation.account ?? defaultPortfolio) : defaultPortfolio)
                return .operation(operation, id: newId, portfolio: portfolio)
            }
        }

        /// What the index says of an operation read at `source`: a duplicate counted, a conflict
        /// rejected, a new one counted and handed on (`new`).
        func file(
            _ outcome: OperationIndex.Outcome, _ source: SourceLocation, id: () -> String, _ rawText: () -> String,
            new: () -> Decision
        ) throws {
            switch outcome {
            case .duplicate:
                summary.duplicates += 1
            case .conflict(let first):
                summary.rejected += 1
                let firstRead =
                    first.map { "row \($0.row) of \($0.source == sourceIndex ? path : earlierPaths[$0.source])" }
                    ?? "an operation read earlier"
                try hand(
                    .rejected(
                        RejectedRow(
                            source: source, raw: rawText(),
                            errors: [
                                FieldError(
                                    column: nil, field: "id",
                                    message: "conflicts with \(firstRead): same id \(id()), different content")
                            ])))
            case .new:
                summary.operations += 1
                try hand(new())
            }
        }

        /// Whether the model allows `operation`; if not, its row is rejected with every rule it
        /// breaks (whatever reader or spec made it: a derived fee that came out negative).
        func lawful(_ operation: PortfolioOperation, _ rawText: () -> String) throws -> Bool {
            let violations = operation.violations
            guard !violations.isEmpty else { return true }
            summary.rejected += 1
            try hand(.rejected(RejectedRow(source: operation.source, raw: rawText(), errors: violations)))
            return false
        }

        /// A record the reader handed on.
        func take(_ record: SourceRecord, _ rawText: () -> String) throws {
            switch record {
            case .skipped(let row):
                summary.rows += 1
                summary.skipped += 1
                try hand(.skipped(row))
            case .rejected(let row):
                summary.rows += 1
                summary.rejected += 1
                try hand(.rejected(row))
            case .operation(let operation):
                summary.rows += 1
                guard try lawful(operation, rawText) else { return }
                reconciliation?.record(operation)
                try accept(operation, placedIn: nil, rawText)
            case .placed(let operation, let portfolio):
                summary.rows += 1
                guard try lawful(operation, rawText) else { return }
                reconciliation?.record(operation)
                try accept(operation, placedIn: portfolio, rawText)
            case .additional(let operation, let portfolio):
                // Not a row of its own: the row that gave it was counted.
                summary.extra += 1
                guard try lawful(operation, rawText) else { return }
                reconciliation?.record(operation)
                try accept(operation, placedIn: portfolio, rawText)
            case .merged:
                summary.rows += 1
                summary.merged += 1
            case .statement(let balance):
                // Not a row: what the rows are checked against.
                reconciliation?.state(balance)
                statements.append(balance)
            case .warning(let warning):
                warnings.append(warning)
            }
        }

        /// An operation the reader prepared (a row).
        func take(prepared operation: PreparedOperation, _ rawText: () -> String) throws {
            summary.rows += 1
            let outcome = index.insert(key: operation.idKey, content: operation.content, source: sourceIndex, row: operation.row)
            try file(outcome, operation.source, id: { operation.idText }, rawText) { .prepared(operation) }
        }

        do {
            if let preparation, let preparing = reader as? any PreparingReader {
                try preparing.read(input, options: options.read, preparation: preparation, emit: take, emitPrepared: take(prepared:_:))
            } else {
                try reader.read(input, options: options.read, emit: take)
            }
            if !batch.isEmpty { _ = channel.send(batch) }
        } catch is Cancelled {
            // The converting side stopped; it has its own error to report.
        } catch {
            if !batch.isEmpty { _ = channel.send(batch) }
            failure = error
        }
    }
}

/// The hand-over of decision batches from the reading thread to the converting one: it ends
/// without an error (the reader keeps its own failure, read once the channel is closed).
typealias BatchChannel<Element> = Handoff<[Element], Never>
