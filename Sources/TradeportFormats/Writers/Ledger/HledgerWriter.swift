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
            out.append(utf8: "; Written by tradeport from \(report.sources.map(\.path).joined(separator: ", ").oneLine)\n")
            for line in statements.notAsserted { out.append(utf8: "; not asserted: \(line.oneLine)\n") }
            out.append(utf8: "decimal-mark .\n\n")
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
        for asset in assets.sorted() { body.append(utf8: "commodity \(Hledger.symbol(asset))\n") }
        body.append(utf8: "\n")
        for account in book.opened.keys.sorted() { body.append(utf8: "account \(account)\n") }
        try output.append { $0.append(body.bytes) }
        try output.flush()
        notes = book.counts.notes("hledger")
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
        for c in TargetText.oneLine(text) {
            let d: Character = c == ":" || c == ";" ? "-" : (c.isWhitespace ? " " : c)
            if d == " " && (out.isEmpty || out.last == " ") { continue }
            out.append(d)
        }
        while out.last == " " { out.removeLast() }
        return out.isEmpty ? "-" : out
    }

    static func amount(_ a: LedgerAmount, to out: inout OutputBuffer) {
        a.number.appendText(to: &out)
        out.append(utf8: " " + symbol(a.asset))
    }

    /// `text` on one line as `TargetText` has it (breaks and tabs as spaces, NUL, BEL, ESC and the
    /// other controls dropped), each byte put through `replace`: one pass, no intermediate strings.
    static func appendOneLine(_ text: String, to out: inout OutputBuffer, _ replace: (UInt8) -> UInt8) {
        TargetText.append(text, to: &out, replace)
    }

    static func append(_ a: LedgerAssertion, to out: inout OutputBuffer) {
        out.append(utf8: "\(a.date) Balance assertion\n    ; \(a.comment.oneLine)\n    \(a.account)  0 \(symbol(a.amount.asset)) = ")
        amount(a.amount, to: &out)
        out.append(utf8: "\n\n")
    }

    static func append(_ entry: LedgerEntry, to out: inout OutputBuffer) {
        out.append(utf8: "\(entry.date) ")
        // A description ends at ';' (a comment) and a '|' splits payee from note.
        appendOneLine(entry.narration, to: &out) { $0 == UInt8(ascii: ";") ? UInt8(ascii: ",") : $0 == UInt8(ascii: "|") ? UInt8(ascii: "/") : $0 }
        out.append(UInt8(ascii: "\n"))
        for (key, value) in entry.meta {
            // A tag's value ends at a comma.
            out.append(utf8: "    ; \(key): ")
            appendOneLine(value, to: &out) { $0 == UInt8(ascii: ",") ? UInt8(ascii: " ") : $0 }
            out.append(UInt8(ascii: "\n"))
        }
        for p in entry.postings {
            guard let a = p.amount else { continue }
            out.append(utf8: "    \(p.account)  ")
            amount(a, to: &out)
            if case .totalPrice(let t) = p.cost {
                out.append(utf8: " @@ ")
                amount(t, to: &out)
            }
            out.append(utf8: "\n")
        }
        out.append(utf8: "\n")
    }
}

/// Journal in hledger's language (`--to hledger`).
public struct HledgerWriter: FormatWriter {
    public let id = "hledger"
    public let summary =
        "an hledger journal: securities at their total cost, fees, income, opening balances and balance assertions where a source prints them (hledger check accepts it)"
    public let fileExtension = "journal"
    public init() {}
    public func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink { try HledgerSink(output: output, options: options) }
}
