/// What tradeport does with the lines of one section of an Activity Statement. A section is named
/// by its first cell; localised statements translate the names (German: `Transaktionen` for
/// `Trades`), so a name is first turned into IBKR's English one (`canonicalName`). A name not
/// listed here is rejected by name: a section tradeport has never seen may carry money.
enum ActivitySection: Sendable, Hashable {
    /// Order (or Trade) lines become trades.
    case trades
    /// Each Data line is a cash transaction of this kind.
    case cash(ActivityCashKind)
    /// Each Data line moves units in a way only its description tells (a split, a merger, a
    /// spin-off): rejected naming it, never guessed.
    case corporateActions
    /// A section known to move money or units that tradeport does not read yet: its Data lines are
    /// rejected, saying so, so that nothing it moves is lost without a word.
    case unread
    /// A summary, metadata or detail section: its lines are skipped with this description.
    case summary(String)

    /// The section a first cell names (English or German), or nil for an unknown one.
    static func named(_ name: String) -> ActivitySection? {
        guard let english = canonicalName(name) else { return nil }
        switch english {
        case "Trades": return .trades
        case "Deposits & Withdrawals": return .cash(.depositsWithdrawals)
        case "Dividends", "Payment In Lieu Of Dividends": return .cash(.dividends)
        case "Withholding Tax": return .cash(.withholdingTax)
        case "Fees", "Commission Adjustments": return .cash(.fees)
        case "Interest": return .cash(.interest)
        case "Corporate Actions": return .corporateActions
        case "Transfers", "Transaction Fees", "Grant Activity", "Sales Tax Details": return .unread
        default: return summaries[english].map { ActivitySection.summary($0) }
        }
    }

    /// IBKR's English name of a section named `name` (itself when it is English), or nil.
    static func canonicalName(_ name: String) -> String? {
        if let english = german[name] { return english }
        if summaries[name] != nil || operationSections.contains(name) { return name }
        return nil
    }

    /// The sections whose lines carry money or units (read, or rejected as unread).
    static let operationSections: Set<String> = [
        "Trades", "Deposits & Withdrawals", "Dividends", "Payment In Lieu Of Dividends", "Withholding Tax", "Fees",
        "Commission Adjustments", "Interest", "Corporate Actions", "Transfers", "Transaction Fees", "Grant Activity",
        "Sales Tax Details"
    ]

    /// The sections skipped, and why: what each is, and where its content is read instead.
    static let summaries: [String: String] = [
        "Statement": "the statement's title block (broker, title, period)",
        "Account Information": "the account's details (its base currency is read from it)",
        "Net Asset Value": "the account's value by asset class",
        "Change in NAV": "the change of the account's value over the period",
        "Mark-to-Market Performance Summary": "performance by symbol (its prior and current quantities are the positions the trades are checked against)",
        "Realized & Unrealized Performance Summary": "realized and unrealized profit by symbol",
        "Cash Report": "cash by currency (its starting and ending cash are the balances the operations are checked against)",
        "Open Positions": "the positions held at the end",
        "Forex Balances": "the currency balances held at the end",
        "Net Stock Position Summary": "the stock positions held at the end",
        "Financial Instrument Information": "the instruments' details (their ISINs and multipliers are read from it)",
        "Codes": "the meanings of the codes",
        "Notes/Legal Notes": "notes",
        "Base Currency Exchange Rate": "exchange rates to the base currency",
        "Change in Dividend Accruals": "dividend accruals, not cash (the dividend paid is a line of Dividends)",
        "Interest Accruals": "interest accruals, not cash (the interest paid is a line of Interest)",
        "Change in Broker Fee Accruals": "fee accruals, not cash (the fee charged is a line of Fees)",
        "Credit Interest Details": "daily interest accrual details (the interest paid is a line of Interest)",
        "Total P/L for Statement Period": "the profit and loss of the period",
        "Statement of Funds": "a ledger of the cash movements the other sections list",
        "Location of Customer Assets, Positions and Money": "where the account's assets are held",
        "Option Exercises, Assignments and Expirations": "exercises, assignments and expirations (each is a line of Trades)"
    ]

    /// German statements' section names (a real statement of 2021) and IBKR's English ones.
    static let german: [String: String] = [
        "Kontoinformation": "Account Information",
        "Nettovermögenswert": "Net Asset Value",
        "Veränderung des NAV": "Change in NAV",
        "Mark-to-Market-Performance-Überblick": "Mark-to-Market Performance Summary",
        // Two spaces, as IBKR writes it.
        "Übersicht  zur realisierten und unrealisierten Performance": "Realized & Unrealized Performance Summary",
        "Cash-Bericht": "Cash Report",
        "Offene Positionen": "Open Positions",
        "Devisenpositionen": "Forex Balances",
        "Transaktionen": "Trades",
        "Einzahlungen & Auszahlungen": "Deposits & Withdrawals",
        "Gebühren": "Fees",
        "Dividenden": "Dividends",
        "Quellensteuer": "Withholding Tax",
        "Zinsen": "Interest",
        "Informationen zum Finanzinstrument": "Financial Instrument Information",
        "Hinweise/Rechtshinweise": "Notes/Legal Notes",
        "Gesamt-G&V des Kontoauszugszeitraums": "Total P/L for Statement Period"
    ]

    /// Lines that start with one of these (a section and a comma) make a file an Activity
    /// Statement rather than another IBKR report that opens with `Statement,Header,…` (the
    /// Transaction History has none of them).
    static let detectionMarkers: [[UInt8]] =
        ([
            "Trades", "Transaktionen", "Dividends", "Dividenden", "Deposits & Withdrawals", "Einzahlungen & Auszahlungen",
            "Withholding Tax", "Quellensteuer", "Fees", "Gebühren", "Interest", "Zinsen", "Cash Report", "Cash-Bericht"
        ] as [String]).map { Array(($0 + ",").utf8) }
}

/// The cash sections, each mapped by the sign of its Amount as `ibkr-cash` maps IBKR's Flex types.
enum ActivityCashKind: Sendable, Hashable {
    case depositsWithdrawals, dividends, withholdingTax, fees, interest
}

/// A column tradeport reads, by the names IBKR gives it (English, then German).
enum ActivityColumn: Sendable, Hashable {
    case discriminator, assetCategory, currency, account, symbol, dateTime, quantity, tradePrice, proceeds, commission
    case exchange, date, settleDate, description, amount, fieldName, fieldValue, currencySummary, total
    case securityID, multiplier, priorQuantity, currentQuantity, reportDate

    /// The header texts that name the column.
    var names: [String] {
        switch self {
        case .discriminator: return ["DataDiscriminator"]
        case .assetCategory: return ["Asset Category", "Vermögenswertkategorie"]
        case .currency: return ["Currency", "Währung"]
        case .account: return ["Account", "Konto"]
        case .symbol: return ["Symbol"]
        case .dateTime: return ["Date/Time", "Datum/Zeit"]
        case .quantity: return ["Quantity", "Menge"]
        case .tradePrice: return ["T. Price", "T.-Kurs"]
        case .proceeds: return ["Proceeds", "Erträge"]
        case .commission: return ["Comm/Fee", "Prov./Gebühr"]
        case .exchange: return ["Exchange", "Börse"]
        case .date: return ["Date", "Datum"]
        case .settleDate: return ["Settle Date", "Abwicklungsdatum"]
        case .description: return ["Description", "Beschreibung"]
        case .amount: return ["Amount", "Betrag"]
        case .fieldName: return ["Field Name", "Feldname"]
        case .fieldValue: return ["Field Value", "Feldwert"]
        case .currencySummary: return ["Currency Summary", "Währungsübersicht"]
        case .total: return ["Total", "Gesamt"]
        case .securityID: return ["Security ID", "Wertpapier-ID"]
        case .multiplier: return ["Multiplier", "Multiplikator"]
        case .priorQuantity: return ["Prior Quantity", "Vorher Menge"]
        case .currentQuantity: return ["Current Quantity", "Aktuell Menge"]
        case .reportDate: return ["Report Date"]
        }
    }
}

/// A section's columns, as its latest Header line names them: each Header applies to the Data
/// lines after it until the next one of that section (Trades has one per asset category, and
/// Forex's names some columns with nothing and its commission after the base currency).
struct ActivityLayout: Sendable {
    /// The names after the section and the row kind, trimmed.
    let names: [String]

    init(_ fields: [String]) { names = fields.map(\.activityTrimmed) }

    /// The first field named as `column` is, or nil.
    func index(_ column: ActivityColumn) -> Int? {
        let wanted = column.names
        return names.firstIndex { wanted.contains($0) }
    }

    /// The text of `column` in `fields`, trimmed; nil when there is no such column or it is empty.
    func value(_ column: ActivityColumn, in fields: [String]) -> String? {
        guard let i = index(column), i < fields.count else { return nil }
        let text = fields[i].activityTrimmed
        return text.isEmpty ? nil : text
    }

    /// Forex's commission column and the currency its name gives: `Comm in EUR` (German
    /// `Provisionseink. EUR`), in the account's base currency.
    var commissionInCurrency: (index: Int, currency: String)? {
        for (i, name) in names.enumerated() {
            for prefix in ["Comm in ", "Provisionseink. "] where name.hasPrefix(prefix) {
                return (i, String(name.dropFirst(prefix.count)).activityTrimmed)
            }
        }
        return nil
    }

    /// Whether `text` (a Data line's first field) marks a line of totals: IBKR writes the totals of
    /// cash sections as Data lines (`Total`, `Total in EUR`, `Total Dividends in EUR`, German `Gesamt`).
    static func isTotal(_ text: String) -> Bool {
        text.hasPrefix("Total") || text.hasPrefix("Gesamt")
    }
}
