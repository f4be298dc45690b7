import TradeportCore

/// Writes an hledger journal (`--to hledger`) with the content of the Beancount ledger: a
/// transaction per operation in date order, a trade's security at its total cost (`@@`) in the
/// quote currency, fees, income and the cash leg; the canonical id as a tag (`tradeport-id:`);
/// opening balances and balance assertions where a source prints balances and tradeport reconciled
/// them; `commodity` and `account` declarations, so `hledger check --strict` passes.
public final class HledgerSink: ConversionSink, WriterNotes {
    private let output: OutputFile
    private let operations: OrderedOperations
    private var book: LedgerBook
    public private(set) var notes: [String] = []

    public init(output: OutputFile, options: WriteOptions) throws {
        self.output = output
        operations = try OrderedOperations()
        book = LedgerBook(accounts: options.accounts, dates: options.dates, atCost: false, part: Hledger.accountPart)
    }

    public func write(_ operation: PortfolioOperation, portfolio: String) throws {
        book.note(operation, portfolio: portfolio)
        try operations.append(operation, portfolio: portfolio)
    }

    public func write(_ skipped: SkippedRow) throws {}
    public func write(_ rejected: RejectedRow) throws {}

    public func finish(_ report: ConversionReport) throws {
        var body = OutputBuffer(capacity: 1 << 16)
        let statements = book.statements(report.reconciliation)
        // decimal-mark before any amount; the declarations at the end, when every account and
        // commodity is known (hledger reads them wherever they are).
        try output.append { out in
            Hledger.raw("; Written by tradeport from \(Hledger.clean(report.sources.map(\.path).joined(separator: ", ")))\n", to: &out)
            for line in statements.notAsserted { Hledger.raw("; not asserted: \(Hledger.clean(line))\n", to: &out) }
            Hledger.raw("decimal-mark .\n\n", to: &out)
        }
        // Opening entries and assertions go among the operations by date (hledger check ordereddates).
        try book.write(operations, dated: statements.dated, into: &body, output: output) { item, out in
            switch item {
            case .entry(let e): Hledger.append(e, to: &out)
            case .assertion(let a): Hledger.append(a, to: &out)
            }
        }
        var assets = book.assets
        for check in report.reconciliation { if let a = AssetCode(check.asset) { assets.insert(a) } }
        for asset in assets.sorted() { Hledger.raw("commodity \(Hledger.symbol(asset))\n", to: &body) }
        Hledger.raw("\n", to: &body)
        for account in book.opened.keys.sorted() { Hledger.raw("account \(account)\n", to: &body) }
        try output.append { $0.append(body.bytes) }
        try output.flush()
        notes = book.notes
    }
}

enum Hledger {
    /// A commodity symbol: letters only stand bare; anything else is quoted.
    static func symbol(_ asset: AssetCode) -> String {
        let text = asset.description
        if text.allSatisfy({ $0.isLetter }) { return text }
        return "\"" + text.filter { $0 != "\"" && $0 != "\n" } + "\""
    }

    /// A part of an account name: no ':' (which separates parts), no runs of spaces (two spaces
    /// end an account name), no ';' or line breaks.
    static func accountPart(_ text: String) -> String {
        var out = ""
        for c in text {
            let d: Character = c == ":" || c == ";" ? "-" : (c.isWhitespace ? " " : c)
            if d == " " && (out.isEmpty || out.last == " ") { continue }
            out.append(d)
        }
        while out.last == " " { out.removeLast() }
        return out.isEmpty ? "-" : out
    }

    /// Text for a description or a comment: one line.
    static func clean(_ text: String) -> String { String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : $0 }) }

    static func raw(_ text: String, to out: inout OutputBuffer) {
        var t = text
        t.withUTF8 { out.append(UnsafeRawBufferPointer($0)) }
    }

    static func amount(_ a: LedgerAmount, to out: inout OutputBuffer) {
        a.number.appendText(to: &out)
        raw(" " + symbol(a.asset), to: &out)
    }

    static func append(_ a: LedgerAssertion, to out: inout OutputBuffer) {
        raw("\(a.date) Balance assertion\n    ; \(clean(a.comment))\n    \(a.account)  0 \(symbol(a.amount.asset)) = ", to: &out)
        amount(a.amount, to: &out)
        raw("\n\n", to: &out)
    }

    static func append(_ entry: LedgerEntry, to out: inout OutputBuffer) {
        // A description ends at ';' (a comment) and a '|' splits payee from note.
        raw("\(entry.date) \(clean(entry.narration).replacingOccurrences(of: ";", with: ",").replacingOccurrences(of: "|", with: "/"))\n", to: &out)
        for (key, value) in entry.meta {
            // A tag's value ends at a comma.
            raw("    ; \(key): \(clean(value).replacingOccurrences(of: ",", with: " "))\n", to: &out)
        }
        for p in entry.postings {
            guard let a = p.amount else { continue }
            raw("    \(p.account)  ", to: &out)
            amount(a, to: &out)
            if case .totalPrice(let t) = p.cost {
                raw(" @@ ", to: &out)
                amount(t, to: &out)
            }
            raw("\n", to: &out)
        }
        raw("\n", to: &out)
    }
}

/// Journal in hledger's language (`--to hledger`).
public struct HledgerWriter: FormatWriter {
    public let id = "hledger"
    public let summary = "an hledger journal: securities at their total cost, fees, income, opening balances and balance assertions where a source prints them (hledger check accepts it)"
    public let fileExtension = "journal"
    public init() {}
    public func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink { try HledgerSink(output: output, options: options) }
}
