import TradeportCore

/// Writes the canonical JSON document. Operations are serialized as they arrive into a spool on
/// disk with a small index entry each; at the end the index is sorted (portfolio, kind, time,
/// input order) and the document written from the spool, so memory holds 32 bytes an operation,
/// not the operations.
public final class JSONDocumentSink: PreparedOperationSink {
    /// 24 bytes an operation: what sorting needs, and where its JSON is in the spool.
    private struct Entry {
        var time: Int64
        /// The spool offset (40 bits, up to 1 TiB) and the length (24 bits, up to 16 MiB).
        var place: UInt64
        /// The portfolio's number, with the kind's rank in the top two bits (0 a trade, 1 a
        /// transaction, 2 a movement).
        var portfolioAndKind: UInt32
        var sequence: UInt32
        /// The fraction of the second (most sources have none).
        var nanoseconds: UInt32

        var offset: Int { Int(place >> 24) }
        var length: Int { Int(place & 0xFF_FFFF) }
        var portfolio: UInt32 { portfolioAndKind & 0x3FFF_FFFF }
        var kind: UInt32 { portfolioAndKind >> 30 }
    }

    private let output: OutputFile
    private let operations: Spool
    private let skipped: Spool
    private let rejected: Spool
    private var entries: [Entry] = []
    private var portfolios = PortfolioNumbering()
    private var skippedCount = 0
    private var rejectedCount = 0

    public init(output: OutputFile) throws {
        self.output = output
        operations = Spool()
        skipped = Spool()
        rejected = Spool()
    }

    public func write(_ operation: PortfolioOperation, portfolio: String) throws {
        try add(operation.kind, portfolio: portfolio, time: operation.time.secondsSinceEpoch, nanoseconds: operation.time.nanoseconds) {
            out in
            out.append(UInt8(ascii: "{"))
            CanonicalJSON.appendOperationFields(operation, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Objects a reader made on its threads (`OperationPreparation.appendBytes`, as `write` makes them).
    public var preparedForm: PreparedForm { .documentObject }

    public func write(prepared operation: PreparedOperation) throws {
        try add(operation.kind, portfolio: operation.portfolio, time: operation.time, nanoseconds: operation.nanoseconds) { out in
            operation.withBytes { out.append($0) }
        }
    }

    /// An operation's object into the spool, by `body`, and its entry.
    private func add(_ kind: OperationKind, portfolio: String, time: Int64, nanoseconds: UInt32, _ body: (inout OutputBuffer) -> Void) throws {
        let before = operations.count
        let offset = operations.append(body)
        let length = operations.count - before
        guard length <= 0xFF_FFFF, offset < 1 << 40 else {
            throw OutputError(.beyondTarget, path: "spool", message: "an operation of \(length) bytes is beyond what the document writer holds")
        }
        entries.append(
            Entry(
                time: time, place: UInt64(offset) << 24 | UInt64(length),
                portfolioAndKind: portfolios.number(portfolio) | kind.bits, sequence: UInt32(truncatingIfNeeded: entries.count),
                nanoseconds: nanoseconds))
    }

    public func write(_ row: SkippedRow) throws {
        skipped.append { out in
            CanonicalJSON.appendRaw(skippedCount == 0 ? "\n    {" : ",\n    {", to: &out)
            CanonicalJSON.appendSkippedFields(row, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        skippedCount += 1
    }

    public func write(_ row: RejectedRow) throws {
        rejected.append { out in
            CanonicalJSON.appendRaw(rejectedCount == 0 ? "\n    {" : ",\n    {", to: &out)
            CanonicalJSON.appendRejectedFields(row, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        rejectedCount += 1
    }

    public func finish(_ report: ConversionReport) throws {
        // Portfolios by name; within one, trades, transactions, then movements, each by time then input order.
        let rank = portfolios.names.enumerated().sorted { $0.element < $1.element }
        var position = [UInt32](repeating: 0, count: portfolios.names.count)
        for (r, item) in rank.enumerated() { position[item.offset] = UInt32(r) }
        entries.sort { a, b in
            if a.portfolio != b.portfolio { return position[Int(a.portfolio)] < position[Int(b.portfolio)] }
            if a.kind != b.kind { return a.kind < b.kind }
            if a.time != b.time { return a.time < b.time }
            if a.nanoseconds != b.nanoseconds { return a.nanoseconds < b.nanoseconds }
            return a.sequence < b.sequence
        }
        try output.append { out in
            CanonicalJSON.appendRaw("{\n  \"tradeport\": 1,\n  \"sources\": [", to: &out)
            for (i, source) in report.sources.enumerated() {
                CanonicalJSON.appendRaw(i == 0 ? "\n    " : ",\n    ", to: &out)
                CanonicalJSON.appendSourceSummary(source, to: &out)
            }
            CanonicalJSON.appendRaw(report.sources.isEmpty ? "],\n  \"portfolios\": [" : "\n  ],\n  \"portfolios\": [", to: &out)
        }
        var cursor = 0
        var chunk: [UInt8] = []
        for (r, item) in rank.enumerated() {
            try output.append { out in
                CanonicalJSON.appendRaw(r == 0 ? "\n    {\"name\": " : ",\n    {\"name\": ", to: &out)
                CanonicalJSON.appendString(item.element, to: &out)
                CanonicalJSON.appendRaw(", \"trades\": [", to: &out)
            }
            let number = UInt32(item.offset)
            var first = true
            // The list being written: 0 trades, 1 transactions, 2 movements (written only when
            // the portfolio has some).
            var list: UInt32 = 0
            while cursor < entries.count, entries[cursor].portfolio == number {
                while list < entries[cursor].kind {
                    list += 1
                    let opening: StaticString
                    switch (list, first) {
                    case (1, true): opening = "], \"transactions\": ["
                    case (1, false): opening = "\n      ], \"transactions\": ["
                    case (_, true): opening = "], \"movements\": ["
                    case (_, false): opening = "\n      ], \"movements\": ["
                    }
                    try output.append { CanonicalJSON.appendRaw(opening, to: &$0) }
                    first = true
                }
                // Read a run of entries that lie next to each other in the spool in one go.
                let runStart = cursor
                var low = entries[cursor].offset
                var high = low + entries[cursor].length
                var next = cursor + 1
                while next < entries.count, next - runStart < 4096, entries[next].portfolio == number,
                    entries[next].kind == entries[cursor].kind
                {
                    let e = entries[next]
                    if e.offset == high { high += e.length } else if e.offset + e.length == low { low = e.offset } else { break }
                    next += 1
                }
                try operations.read(offset: low, count: high - low, into: &chunk)
                for k in runStart..<next {
                    let e = entries[k]
                    let start = e.offset - low
                    try output.append { out in
                        CanonicalJSON.appendRaw(first ? "\n      " : ",\n      ", to: &out)
                        chunk.withUnsafeBytes { out.append(UnsafeRawBufferPointer(rebasing: $0[start..<(start + e.length)])) }
                    }
                    first = false
                }
                cursor = next
            }
            try output.append { out in
                if list == 0 {
                    CanonicalJSON.appendRaw(first ? "], \"transactions\": []}" : "\n      ], \"transactions\": []}", to: &out)
                } else {
                    CanonicalJSON.appendRaw(first ? "]}" : "\n      ]}", to: &out)
                }
            }
        }
        try output.append { CanonicalJSON.appendRaw(rank.isEmpty ? "],\n  \"skipped\": [" : "\n  ],\n  \"skipped\": [", to: &$0) }
        try skipped.copy(to: output)
        try output.append { CanonicalJSON.appendRaw(skippedCount == 0 ? "],\n  \"rejected\": [" : "\n  ],\n  \"rejected\": [", to: &$0) }
        try rejected.copy(to: output)
        try output.append { out in
            CanonicalJSON.appendRaw(rejectedCount == 0 ? "],\n  \"warnings\": [" : "\n  ],\n  \"warnings\": [", to: &out)
            for (i, warning) in report.warnings.enumerated() {
                CanonicalJSON.appendRaw(i == 0 ? "\n    {" : ",\n    {", to: &out)
                CanonicalJSON.appendWarningFields(warning, to: &out)
                out.append(UInt8(ascii: "}"))
            }
            CanonicalJSON.appendRaw(report.warnings.isEmpty ? "]" : "\n  ]", to: &out)
            // Only when a source prints its balances.
            if !report.reconciliation.isEmpty {
                CanonicalJSON.appendRaw(",\n  \"reconciliation\": [", to: &out)
                for (i, check) in report.reconciliation.enumerated() {
                    CanonicalJSON.appendRaw(i == 0 ? "\n    {" : ",\n    {", to: &out)
                    CanonicalJSON.appendBalanceCheckFields(check, to: &out)
                    out.append(UInt8(ascii: "}"))
                }
                CanonicalJSON.appendRaw("\n  ]", to: &out)
            }
            CanonicalJSON.appendRaw("\n}\n", to: &out)
        }
        try output.flush()
    }
}

/// The canonical JSON document (`--to json`, the default): the contract of `canonical-model.md`.
public struct CanonicalJSONWriter: FormatWriter {
    public let id = "json"
    public let summary = "the canonical JSON document: sources, portfolios with their trades, transactions and movements, skipped, rejected, warnings"
    public let fileExtension = "json"
    public init() {}
    public func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink { try JSONDocumentSink(output: output) }
}
