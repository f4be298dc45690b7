import TradeportCore

/// One instrument as Financial Instrument Information describes it.
struct ActivityInstrument: Sendable {
    var isin: String?
    /// Units of the underlying per contract (100 for most equity options; odd after an adjustment).
    var multiplier: ExactDecimal?
    var name: String?
}

/// The asset categories of Trades tradeport reads. Others (Futures, whose lines give a Notional
/// Value instead of Proceeds; Bonds, whose prices are percentages of the face value) are rejected
/// naming their category rather than read with the wrong value.
enum ActivityAssetCategory: Sendable, Hashable {
    case stocks, options, forex

    init?(_ text: String) {
        switch text {
        case "Stocks", "Aktien": self = .stocks
        case "Equity and Index Options", "Aktien- und Indexoptionen": self = .options
        case "Forex", "Devisen": self = .forex
        default: return nil
        }
    }
}

/// What an Activity Statement says of itself that its operations need, read in a first pass over
/// its lines: the base currency (Forex commissions are charged in it), each symbol's ISIN and
/// multiplier (Financial Instrument Information comes after Trades), which Trades blocks list
/// executions, and the balances the operations are checked against (the Cash Report's starting
/// and ending cash per currency, the Mark-to-Market summary's prior and current quantities).
struct IBKRActivityStatement {
    let lines: [IBKRActivityLine]
    private(set) var baseCurrency: AssetCode?
    /// By symbol, as Trades and Mark-to-Market name them.
    private(set) var instruments: [String: ActivityInstrument] = [:]
    /// The Header lines of the Trades blocks that have `Trade` (execution) lines: their `Order`
    /// lines add those up and are skipped, never read with them.
    private(set) var executionBlocks: Set<Int> = []
    private(set) var balances: [StatedBalance] = []
    private(set) var warnings: [ConversionWarning] = []

    init(lines: [IBKRActivityLine], path: String) {
        self.lines = lines
        var layouts: [String: ActivityLayout] = [:]
        var tradeBlock: Int?
        var cashLines: [(line: IBKRActivityLine, layout: ActivityLayout)] = []
        var markLines: [(line: IBKRActivityLine, layout: ActivityLayout)] = []
        for line in lines where line.malformation == nil {
            guard let section = ActivitySection.canonicalName(line.section) else { continue }
            if line.kind == "Header" || line.kind == "Headers" {
                layouts[line.section] = ActivityLayout(line.fields)
                if section == "Trades" { tradeBlock = line.number }
                continue
            }
            guard line.kind == "Data", let layout = layouts[line.section] else { continue }
            switch section {
            case "Account Information":
                if let name = layout.value(.fieldName, in: line.fields), name == "Base Currency" || name == "Basiswährung",
                    let value = layout.value(.fieldValue, in: line.fields)
                {
                    baseCurrency = AssetCode(value)
                }
            case "Financial Instrument Information":
                noteInstrument(line.fields, layout)
            case "Trades":
                if layout.value(.discriminator, in: line.fields) == "Trade", let tradeBlock { executionBlocks.insert(tradeBlock) }
            case "Cash Report":
                cashLines.append((line, layout))
            case "Mark-to-Market Performance Summary":
                markLines.append((line, layout))
            default:
                break
            }
        }
        stateCash(cashLines, path: path, printsPositions: !markLines.isEmpty)
        statePositions(markLines, path: path)
    }

    private mutating func noteInstrument(_ fields: [String], _ layout: ActivityLayout) {
        guard let symbols = layout.value(.symbol, in: fields) else { return }
        var instrument = ActivityInstrument()
        // Before 2020 Security ID is empty, or a CUSIP: only an ISIN names the asset.
        if let id = layout.value(.securityID, in: fields), ISIN.looksLike(id) { instrument.isin = id }
        if let text = layout.value(.multiplier, in: fields), case .success(let value) = ExactDecimal.parse(text, style: ActivityValues.numberStyle),
            value.isPositive
        {
            instrument.multiplier = value
        }
        instrument.name = layout.value(.description, in: fields)
        // After a rename IBKR lists both symbols in one cell: `ABC, ABC.OLD`.
        for part in symbols.split(separator: ",") {
            let symbol = String(part).activityTrimmed
            if !symbol.isEmpty { instruments[symbol] = instrument }
        }
    }

    /// The asset a line of `category` names by `symbol`: the ISIN Financial Instrument Information
    /// gives (as the Flex readers name securities), else an option's OCC code (`TLRY210820C00018000`,
    /// as `ibkr-confirms` writes it), else the symbol; a Forex pair's base currency (`EUR.USD`: EUR).
    func asset(symbol: String, category: ActivityAssetCategory) -> AssetCode? {
        switch category {
        case .forex:
            guard let base = symbol.split(separator: ".").first else { return nil }
            return AssetCode(base)
        case .stocks:
            return AssetCode(instruments[symbol]?.isin ?? symbol)
        case .options:
            if let isin = instruments[symbol]?.isin { return AssetCode(isin) }
            if let occ = Self.occCode(symbol) { return AssetCode(occ) }
            return AssetCode(symbol)
        }
    }

    /// The OCC code of an option IBKR's statement names `TLRY 20AUG21 18.0 C`: root, expiry
    /// yyMMdd, C or P, strike × 1000 in eight digits (`TLRY210820C00018000`); nil for another form.
    static func occCode(_ symbol: String) -> String? {
        let parts = symbol.split(separator: " ")
        guard parts.count == 4, parts[3] == "C" || parts[3] == "P" else { return nil }
        let expiry = Array(parts[1].utf8)
        let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        guard expiry.count == 7, let month = months.firstIndex(of: String(decoding: expiry[2..<5], as: UTF8.self)),
            expiry[0..<2].allSatisfy({ $0 &- 48 < 10 }), expiry[5..<7].allSatisfy({ $0 &- 48 < 10 })
        else { return nil }
        guard case .success(let strike) = ExactDecimal.parse(String(parts[2]), style: .canonical), !strike.isNegative,
            let thousandths = strike.multiplied(by: ExactDecimal(1000)), thousandths.scale == 0, thousandths.mantissa < 100_000_000
        else { return nil }
        let digits = String(thousandths.mantissa)
        let strikeText = String(repeating: "0", count: 8 - digits.count) + digits
        let day = String(decoding: expiry[0..<2], as: UTF8.self)
        let year = String(decoding: expiry[5..<7], as: UTF8.self)
        let monthText = month + 1 < 10 ? "0\(month + 1)" : "\(month + 1)"
        return "\(parts[0])\(year)\(monthText)\(day)\(parts[3])\(strikeText)"
    }

    /// The Cash Report's Starting and Ending Cash per currency. A one-currency account prints only
    /// the Base Currency Summary: those lines are then the base currency's; otherwise the summary
    /// is every currency converted to the base, which no operation moves, and is not stated.
    private mutating func stateCash(_ rows: [(line: IBKRActivityLine, layout: ActivityLayout)], path: String, printsPositions: Bool) {
        var openings: [String: (amount: ExactDecimal, row: Int)] = [:]
        var closings: [String: ExactDecimal] = [:]
        var order: [String] = []
        for (line, layout) in rows {
            guard let what = layout.value(.currencySummary, in: line.fields), let currency = layout.value(.currency, in: line.fields) else { continue }
            let opening = what == "Starting Cash" || what == "Anfangsbarsaldo"
            guard opening || what == "Ending Cash" || what == "Endbarsaldo" else { continue }
            guard let amount = number(.total, line, layout, path: path, what: "\(what) of \(currency)") else { continue }
            if openings[currency] == nil && closings[currency] == nil { order.append(currency) }
            if opening { openings[currency] = (amount, line.number) } else { closings[currency] = amount }
        }
        let summaries: Set<String> = ["Base Currency Summary", "Basiswährungsübersicht"]
        var stated: [(printed: String, code: AssetCode?)] = order.filter { !summaries.contains($0) }.map { (printed: $0, code: AssetCode($0)) }
        if stated.isEmpty, let summary = order.first(where: { summaries.contains($0) }), let base = baseCurrency {
            stated = [(printed: summary, code: Optional(base))]
        }
        for (printed, code) in stated {
            guard let code, let opening = openings[printed], let closing = closings[printed] else { continue }
            var balance = StatedBalance(
                asset: code, kind: .cash, opening: opening.amount, closing: closing, source: SourceLocation(path: path, row: opening.row))
            // An older statement (or one whose user left the summary out) prints no positions.
            balance.printsNoPositions = !printsPositions
            balances.append(balance)
        }
    }

    /// The Mark-to-Market summary's Prior and Current Quantity per security (Forex lines are
    /// currencies, stated by the Cash Report; categories Trades does not read are not stated).
    private mutating func statePositions(_ rows: [(line: IBKRActivityLine, layout: ActivityLayout)], path: String) {
        for (line, layout) in rows {
            guard let categoryText = layout.value(.assetCategory, in: line.fields), !ActivityLayout.isTotal(categoryText),
                let category = ActivityAssetCategory(categoryText), category != .forex,
                let symbol = layout.value(.symbol, in: line.fields), let asset = asset(symbol: symbol, category: category),
                let prior = number(.priorQuantity, line, layout, path: path, what: "Prior Quantity of \(symbol)"),
                let current = number(.currentQuantity, line, layout, path: path, what: "Current Quantity of \(symbol)")
            else { continue }
            balances.append(
                StatedBalance(asset: asset, kind: .position, opening: prior, closing: current, source: SourceLocation(path: path, row: line.number)))
        }
    }

    /// The number in `column` of a summary line, or nil with a warning that the balance it
    /// belongs to goes unchecked.
    private mutating func number(_ column: ActivityColumn, _ line: IBKRActivityLine, _ layout: ActivityLayout, path: String, what: String) -> ExactDecimal? {
        let text = layout.value(column, in: line.fields) ?? ""
        if case .success(let value) = ExactDecimal.parse(text, style: ActivityValues.numberStyle) { return value }
        warnings.append(
            ConversionWarning(
                code: "unread-balance",
                message: "\(path):\(line.number): the \(what) '\(text)' is not a number: the reading is not checked against that balance",
                source: SourceLocation(path: path, row: line.number)))
        return nil
    }
}
