import TradeportCore

/// Writes a Beancount ledger (`--to beancount`), checked by `bean-check`: a transaction per
/// operation, the security bought at cost in its quote currency and sold out of its lots first in
/// first out (the gain to `gains`), fees to `fees`, the cash leg; a `commodity` per asset, its name
/// made to fit Beancount's rules and the original kept in metadata; the canonical id in each
/// transaction's metadata (`tradeport-id`), so that re-imports can be deduplicated; an opening
/// entry and a `balance` assertion for each balance a source prints and tradeport reconciled.
///
/// The operations are kept on disk and written in time order at the end, as lots are booked.
public final class BeancountSink: ConversionSink, WriterNotes {
    private let output: OutputFile
    private let operations: OrderedOperations
    private var book: LedgerBook
    /// Each asset's commodity, decided at the end when every asset is known.
    private var commodities: [AssetCode: String] = [:]
    public private(set) var notes: [String] = []

    public init(output: OutputFile, options: WriteOptions) throws {
        for role in AccountNames.Role.allCases {
            let root = options.accounts.template(role).prefix { $0 != ":" }
            guard ["Assets", "Liabilities", "Equity", "Income", "Expenses"].contains(root) else {
                throw OutputError(
                    .refusedByTarget, path: output.path,
                    message:
                        "the \(role.rawValue) account '\(options.accounts.template(role))' does not start with Assets, Liabilities, Equity, Income or Expenses, as Beancount requires"
                )
            }
        }
        self.output = output
        operations = try OrderedOperations()
        book = LedgerBook(
            accounts: options.accounts, dates: options.dates, atCost: true, part: Beancount.accountPart, digits: Beancount.digits, target: "Beancount")
    }

    public func write(_ operation: PortfolioOperation, portfolio: String) throws {
        book.note(operation, portfolio: portfolio)
        try operations.append(operation, portfolio: portfolio)
    }

    public func write(_ skipped: SkippedRow) throws {}
    public func write(_ rejected: RejectedRow) throws {}

    public func finish(_ report: ConversionReport) throws {
        // Commodity names are decided for every asset at once, in order of their codes, so that
        // two codes that make the same name are told apart the same way on every run.
        var all = book.assets
        for check in report.reconciliation { if let a = AssetCode(check.asset) { all.insert(a) } }
        commodities = Beancount.commodityNames(all.sorted())
        book.assetNames = commodities

        var body = OutputBuffer(capacity: 1 << 16)
        let statements = book.statements(report.reconciliation)
        try output.append { out in
            Beancount.header(report, notAsserted: statements.notAsserted, to: &out)
        }
        // Opening entries and assertions go among the operations by date, as a reader expects.
        try book.write(operations, dated: statements.dated, into: &body, output: output) { item, out in
            switch item {
            case .entry(let e): Beancount.append(e, commodities, to: &out)
            case .assertion(let a): Beancount.append(a, commodities, to: &out)
            }
        }
        // Declarations last: every account and commodity is known now, and Beancount reads a
        // file in any order.
        let first = book.opened.values.min() ?? CalendarDate(year: 1970, month: 1, day: 1)!
        for asset in all.sorted() {
            guard let name = commodities[asset] else { continue }
            body.append(utf8: "\(first) commodity \(name)\n  tradeport-asset: ")
            Beancount.string(asset.description, to: &body)
            body.append(utf8: "\n")
        }
        body.append(utf8: "\n")
        for (account, date) in book.opened.sorted(by: { $0.key < $1.key }) {
            // Lots are closed first in, first out; an account holding no lots is not affected.
            body.append(utf8: "\(date) open \(account)\(account.hasPrefix("Assets:") ? " \"FIFO\"" : "")\n")
        }
        try output.append { $0.append(body.bytes) }
        try output.flush()
        notes = book.counts.notes("Beancount")
    }
}

enum Beancount {
    /// The significant digits Beancount's arithmetic keeps (Python's decimal context, 28): a
    /// transaction needing more is rounded and then does not balance.
    static let digits = 28

    /// A commodity per asset code, decided for all at once in the order of the codes, so that two
    /// codes that make the same name are told apart (`-2`, `-3`, …) the same way on every run.
    static func commodityNames(_ assets: [AssetCode]) -> [AssetCode: String] {
        var names: [AssetCode: String] = [:]
        var taken: Set<String> = []
        for asset in assets {
            let base = commodity(asset.description)
            var name = base
            var n = 2
            while taken.contains(name) {
                name = "\(base)-\(n)"
                n += 1
            }
            taken.insert(name)
            names[asset] = name
        }
        return names
    }

    /// An asset code as a Beancount commodity: capitals and digits, every other character as
    /// `-` (`BRK.B` → `BRK-B`, `TGLD@` → `TGLD`, `XETR:SAP` → `XETR-SAP`), a capital first, a
    /// capital or digit last, at most 24 characters (what Beancount 2 allows too). Beancount's
    /// commodities may hold `'._` as well, but its account names may not, and the commodity is also
    /// the last part of the account that holds it; `commodityNames` tells apart codes that make
    /// the same name, and the commodity's `tradeport-asset` keeps the code.
    static func commodity(_ code: String) -> String {
        var chars: [Character] = []
        for c in code.uppercased() {
            if c.isASCII && (c.isLetter || c.isNumber) { chars.append(c) } else { chars.append("-") }
        }
        if chars.first.map({ !($0.isASCII && $0.isLetter) }) ?? true { chars.insert("X", at: 0) }
        if chars.count > 24 { chars = Array(chars.prefix(24)) }
        while let last = chars.last, !(last.isASCII && (last.isLetter || last.isNumber)) { chars.removeLast() }
        return String(chars)
    }

    /// A portfolio's or asset's name as a part of an account: letters, digits and '-', starting
    /// with a capital or a digit.
    static func accountPart(_ text: String) -> String {
        var chars: [Character] = []
        for c in text {
            if c.isLetter || c.isNumber { chars.append(c) } else if chars.last != "-" { chars.append("-") }
        }
        while chars.last == "-" { chars.removeLast() }
        guard let first = chars.first else { return "X" }
        if first.isLowercase { chars[0] = Character(first.uppercased()) } else if !(first.isUppercase || first.isNumber) { chars.insert("X", at: 0) }
        return String(chars)
    }

    /// A string in double quotes, on one line as `TargetText` has it; quotes and backslashes escaped.
    static func string(_ text: String, to out: inout OutputBuffer) {
        out.append(UInt8(ascii: "\""))
        for b in text.utf8 {
            guard let m = TargetText.map(b) else { continue }
            if m == UInt8(ascii: "\"") || m == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
            out.append(m)
        }
        out.append(UInt8(ascii: "\""))
    }

    static func amount(_ a: LedgerAmount, _ names: [AssetCode: String], to out: inout OutputBuffer) {
        a.number.appendText(to: &out)
        out.append(utf8: " " + (names[a.asset] ?? commodity(a.asset.description)))
    }

    static func header(_ report: ConversionReport, notAsserted: [String], to out: inout OutputBuffer) {
        out.append(utf8: "; Written by tradeport from ")
        out.append(utf8: report.sources.map(\.path).joined(separator: ", ").oneLine)
        out.append(utf8: "\n; Cost per unit and total cost are exact; a total cost's share per unit may need the tolerance below.\n")
        out.append(utf8: "option \"inferred_tolerance_default\" \"*:0.000000001\"\n")
        for line in notAsserted { out.append(utf8: "; not asserted: \(line.oneLine)\n") }
        out.append(utf8: "\n")
    }

    static func append(_ a: LedgerAssertion, _ names: [AssetCode: String], to out: inout OutputBuffer) {
        out.append(utf8: "\(a.date) balance \(a.account)  ")
        amount(a.amount, names, to: &out)
        out.append(utf8: "\n  note: ")
        string(a.comment, to: &out)
        out.append(utf8: "\n\n")
    }

    static func append(_ entry: LedgerEntry, _ names: [AssetCode: String], to out: inout OutputBuffer) {
        out.append(utf8: "\(entry.date) * ")
        string(entry.narration, to: &out)
        out.append(utf8: "\n")
        for (key, value) in entry.meta {
            out.append(utf8: "  \(key): ")
            string(value, to: &out)
            out.append(utf8: "\n")
        }
        for p in entry.postings {
            out.append(utf8: "  \(p.account)")
            if let a = p.amount {
                out.append(utf8: "  ")
                amount(a, names, to: &out)
                switch p.cost {
                case .none, .totalPrice: break
                case .lot(let c):
                    out.append(utf8: " {")
                    amount(c, names, to: &out)
                    out.append(utf8: "}")
                case .lotTotal(let c):
                    out.append(utf8: " {{")
                    amount(c, names, to: &out)
                    out.append(utf8: "}}")
                case .closing(let price):
                    out.append(utf8: " {} @ ")
                    amount(price, names, to: &out)
                case .closingCostIn(let currency):
                    out.append(utf8: " {" + (names[currency] ?? commodity(currency.description)) + "}")
                }
                if case .totalPrice(let t) = p.cost {
                    out.append(utf8: " @@ ")
                    amount(t, names, to: &out)
                }
            }
            out.append(utf8: "\n")
        }
        out.append(utf8: "\n")
    }
}

/// Ledger in Beancount's language (`--to beancount`).
public struct BeancountWriter: FormatWriter {
    public let id = "beancount"
    public let summary =
        "a Beancount ledger: securities at cost in lots, fees, income, opening balances and balance assertions where a source prints them (bean-check accepts it)"
    public let fileExtension = "beancount"
    public init() {}
    public func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink { try BeancountSink(output: output, options: options) }
}
