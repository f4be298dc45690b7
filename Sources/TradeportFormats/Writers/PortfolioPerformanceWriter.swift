import TradeportCore

/// Writes the two CSV files of Portfolio Performance's import (`--to portfolio-performance -o DIR`):
/// `portfolio-transactions.csv` (its "Portfolio Transactions": Buy, Sell, Delivery (Inbound),
/// Delivery (Outbound)) and `account-transactions.csv` (its "Account Transactions": Deposit,
/// Removal, Dividend, Interest, Fees, Fees Refund, Taxes, Tax Refund), under its English column
/// names, comma separated, dates `yyyy-MM-dd`, numbers with a point and no thousands separator.
///
/// A portfolio is a securities account of its name; its money in each currency a deposit account
/// named `<portfolio> <currency>` (one currency each, as Portfolio Performance's are). A buy's
/// Value is what left the deposit account (the deal, accrued interest and the fees in its
/// currency); a sell's what reached it. Both files are written and put in place together.
public final class PortfolioPerformanceSink: ConversionSink, WriterNotes {
    public static let files = ["portfolio-transactions.csv", "account-transactions.csv"]
    public static let portfolioColumns = [
        "Date", "Time", "Type", "Value", "Transaction Currency", "Fees", "Taxes", "Shares",
        "ISIN", "Ticker Symbol", "Security Name", "Note", "Securities Account", "Cash Account"
    ]
    public static let accountColumns = [
        "Date", "Time", "Type", "Value", "Transaction Currency", "Fees", "Taxes", "Shares",
        "ISIN", "Ticker Symbol", "Security Name", "Note", "Cash Account", "Securities Account"
    ]

    private let portfolio: OutputFile
    private let account: OutputFile
    private let dates: SourceTimeZone
    private var finder: SymbolMap.Finder
    private var counts = WriterNoteCounts()
    public private(set) var notes: [String] = []

    public init(outputs: [OutputFile], options: WriteOptions) throws {
        portfolio = outputs[0]
        account = outputs[1]
        dates = options.dates
        finder = SymbolMap.Finder(options.symbols, target: "portfolio-performance")
        try portfolio.append { Self.row(Self.portfolioColumns.map { Optional($0) }, to: &$0) }
        try account.append { Self.row(Self.accountColumns.map { Optional($0) }, to: &$0) }
    }

    static func row(_ fields: [String?], to out: inout OutputBuffer) {
        for (i, field) in fields.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            // Another tool's file: its text on one line, without control characters (`TargetText`).
            // and a text a spreadsheet would run quoted (`SpreadsheetText`).
            if let field { CSVSink.appendField(SpreadsheetText.guarded(TargetText.oneLine(field)), to: &out) }
        }
        out.append(UInt8(ascii: "\n"))
    }

    private func dateAndTime(_ t: Timestamp) -> (String, String) {
        let (date, second) = dates.local(t)
        let hh = second / 3600
        let mm = second / 60 % 60
        return (date.description, (hh < 10 ? "0" : "") + "\(hh):" + (mm < 10 ? "0" : "") + "\(mm)")
    }

    /// A security's Ticker Symbol: the symbol map's (`--symbols`), else the source's code, which
    /// the summary then lists.
    private func ticker(_ code: String, isin: String?, venue: String?) -> String {
        finder.find(code: code, isin: isin, venue: venue).entry?.symbol ?? code
    }

    private static func text(_ d: ExactDecimal?) -> String? { d.map { "\($0)" } }

    /// The currencies Portfolio Performance knows (its `currencies.properties`: ISO 4217 codes in
    /// use, the ones the euro replaced, GBX and ILA). Its CSV import takes any other code in
    /// Transaction Currency (BTC, USDT, ETH) as the file's base currency, without a word, so an
    /// amount in one is not written but counted as not carried.
    public static let currencies = Set(
        """
        AED AFN ALL AMD ANG AOA ARS ATS AUD AWG AZN BAM BBD BDT BEF BGN BHD BIF BMD BND BOB BRL BSD BTN
        BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DEM DJF DKK DOP DZD EGP ERN ESP ETB EUR
        FIM FJD FKP FRF GBP GBX GEL GHS GIP GMD GNF GRD GTQ GYD HKD HNL HRK HTG HUF IDR IEP ILA ILS INR
        IQD IRR ISK ITL JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LUF LVL LYD
        MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NLG NOK NPR NZD OMR PAB PEN
        PGK PHP PKR PLN PTE PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLL SOS SRD SSP STN SVC
        SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VEF VES VND VUV WST YER ZAR ZMW
        ZWL
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    static func knows(_ currency: AssetCode) -> Bool { currencies.contains(currency.description) }

    private static func unknown(_ what: String, _ currency: AssetCode) -> String {
        "\(what) in \(currency), a currency Portfolio Performance does not know (its import would take it as the base currency)"
    }

    public func write(_ operation: PortfolioOperation, portfolio name: String) throws {
        let (date, time) = dateAndTime(operation.time)
        let note = "tradeport " + operation.id
        switch operation {
        case .trade(let t):
            guard var value = t.amount ?? t.quantity.multiplied(by: t.price) else {
                counts.notCarried("trades whose value is beyond 38 digits")
                return
            }
            guard Self.knows(t.quote) else {
                counts.notCarried(Self.unknown("trades quoted", t.quote))
                return
            }
            // Money bought with money is no security: Portfolio Performance books it as a
            // transfer between two deposit accounts, which its CSV import cannot make.
            if Self.knows(t.base) {
                counts.notCarried("currency exchanges (a transfer between two deposit accounts, which the CSV import cannot make)")
                return
            }
            let buy = t.side == .buy
            let money = [value, t.accruedInterest ?? .zero] + t.fees.map(\.amount)
            if let beyond = TargetNumbers.PortfolioPerformance.beyondRange(money: money, shares: [t.quantity]) {
                counts.notCarried(beyond)
                return
            }
            if TargetNumbers.PortfolioPerformance.rounds(money: money, shares: [t.quantity]) {
                counts.writtenAs(TargetNumbers.PortfolioPerformance.roundedNote)
            }
            if let interest = t.accruedInterest, !interest.isZero {
                value = value.adding(interest) ?? value
                counts.writtenAs("bond trades, their accrued interest in Value")
            }
            let ticker = self.ticker(t.base.description, isin: t.isin, venue: t.venue)
            var fees = ExactDecimal.zero
            for f in t.fees where !f.amount.isZero {
                if f.currency == t.quote, let sum = fees.adding(f.amount) {
                    fees = sum
                } else if !Self.knows(f.currency) {
                    counts.notCarried(Self.unknown("trade fees", f.currency))
                } else {
                    counts.writtenAs("trade fees in another currency than the trade's, as Fees of their own")
                    try account.append {
                        Self.row(
                            [
                                date, time, "Fees", "\(f.amount)", f.currency.description, nil, nil, nil, t.isin, ticker,
                                t.name ?? t.base.description, note + " fee", "\(name) \(f.currency)", name
                            ], to: &$0)
                    }
                }
            }
            let booked = (buy ? value.adding(fees) : value.subtracting(fees)) ?? value
            let shownValue = booked.isNegative ? booked.negated : booked
            if booked.isNegative { counts.writtenAs("sells whose fees exceed their value, Value as the amount paid") }
            try portfolio.append {
                Self.row(
                    [
                        date, time, buy ? "Buy" : "Sell", "\(shownValue)", t.quote.description, fees.isZero ? nil : "\(fees)", nil,
                        "\(t.quantity)", t.isin, ticker, t.name ?? t.base.description, note, name, "\(name) \(t.quote)"
                    ], to: &$0)
            }
        case .movement(let m):
            if let beyond = TargetNumbers.PortfolioPerformance.beyondRange(money: [], shares: [m.quantity]) {
                counts.notCarried(beyond)
                return
            }
            if TargetNumbers.PortfolioPerformance.rounds(money: [], shares: [m.quantity]) {
                counts.writtenAs(TargetNumbers.PortfolioPerformance.roundedNote)
            }
            try portfolio.append {
                Self.row(
                    [
                        date, time, m.direction == .in ? "Delivery (Inbound)" : "Delivery (Outbound)", "0", nil, nil, nil,
                        "\(m.quantity)", m.isin, m.asset.description, m.name ?? m.asset.description, note + " (\(m.reason.rawValue))", name, nil
                    ], to: &$0)
            }
        case .transaction(let t):
            guard t.status == .complete else {
                counts.notCarried("\(t.status.rawValue) transactions (no money moved)")
                return
            }
            let type: String
            switch t.type {
            case .deposit: type = "Deposit"
            case .withdrawal: type = "Removal"
            case .dividend: type = "Dividend"
            case .coupon:
                type = "Dividend"
                counts.writtenAs("coupons, as Dividend of their bond")
            case .interest: type = "Interest"
            case .otherIncome:
                type = "Interest"
                counts.writtenAs("other income, as Interest")
            case .tax: type = "Taxes"
            case .taxRefund: type = "Tax Refund"
            case .fee: type = "Fees"
            case .feeRefund: type = "Fees Refund"
            case .otherCharge, .dividendCharge:
                type = "Fees"
                counts.writtenAs("\(t.type == .otherCharge ? "other charges" : "dividends charged"), as Fees")
            case .redemption:
                type = "Deposit"
                counts.writtenAs("redemptions, as Deposit (the bond leaves by its Delivery (Outbound), when the source says so)")
            }
            if (t.type == .dividend || t.type == .coupon) && t.security == nil {
                counts.notCarried("\(t.type.rawValue)s that name no security (Portfolio Performance needs one)")
                return
            }
            guard Self.knows(t.asset) else {
                counts.notCarried(Self.unknown("\(t.type.rawValue)s", t.asset))
                return
            }
            let money = [t.amount] + (t.fee.map { [$0.amount] } ?? [])
            if let beyond = TargetNumbers.PortfolioPerformance.beyondRange(money: money, shares: []) {
                counts.notCarried(beyond)
                return
            }
            if TargetNumbers.PortfolioPerformance.rounds(money: money, shares: []) {
                counts.writtenAs(TargetNumbers.PortfolioPerformance.roundedNote)
            }
            let noteText = note + (t.note.map { ": \($0)" } ?? "")
            // A security named only by text: as its ISIN when it is one, else its ticker.
            let isISIN = t.security.map(ISIN.looksLike) ?? false
            let ticker = t.security.map { self.ticker($0, isin: isISIN ? $0 : nil, venue: nil) }
            try account.append {
                Self.row(
                    [
                        date, time, type, "\(t.amount)", t.asset.description, nil, nil, nil,
                        isISIN ? t.security : nil, isISIN && ticker == t.security ? nil : ticker, nil, noteText, "\(name) \(t.asset)",
                        t.security == nil ? nil : name
                    ], to: &$0)
            }
            if let f = t.fee, !f.amount.isZero {
                if Self.knows(f.currency) {
                    try account.append {
                        Self.row(
                            [
                                date, time, "Fees", "\(f.amount)", f.currency.description, nil, nil, nil, nil, nil, nil,
                                note + " fee", "\(name) \(f.currency)", nil
                            ], to: &$0)
                    }
                } else {
                    counts.notCarried(Self.unknown("transaction fees", f.currency))
                }
            }
        }
    }

    public func write(_ skipped: SkippedRow) throws {}
    public func write(_ rejected: RejectedRow) throws {}

    public func finish(_ report: ConversionReport) throws {
        try portfolio.flush()
        try account.flush()
        notes = counts.notes("Portfolio Performance") + [finder.unmapped.note("with their code as Ticker Symbol")].compactMap { $0 }
    }
}

/// Portfolio Performance's CSV import (`--to portfolio-performance -o DIR`).
public struct PortfolioPerformanceWriter: FormatWriter {
    public let id = "portfolio-performance"
    public let summary = "Portfolio Performance's CSV import: portfolio-transactions.csv and account-transactions.csv in the directory -o names"
    public let fileExtension = "csv"
    public var files: [String] { PortfolioPerformanceSink.files }
    public init() {}
    public func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink {
        throw OutputError(.wrongKindOfPath, path: output.path, message: "portfolio-performance writes two files: give a directory with -o")
    }
    public func makeSink(outputs: [OutputFile], options: WriteOptions) throws -> any ConversionSink {
        try PortfolioPerformanceSink(outputs: outputs, options: options)
    }
}
