import Foundation
import TradeportCore

/// One activity of Ghostfolio's import (`CreateOrderDto`), with tradeport's numbers as they were
/// read: what `--to ghostfolio` writes and the Ghostfolio push target sends.
public struct GhostfolioActivity: Sendable, Equatable {
    public enum Kind: String, Sendable { case BUY, SELL, DIVIDEND, FEE, INTEREST }

    public var accountId: String
    /// `tradeport <operation id>` (with ` fee` for a fee split off a trade): what Ghostfolio's
    /// duplicate check compares first, and what tells tradeport which of its operations an
    /// instance holds.
    public var comment: String
    public var currency: String
    public var dataSource: String
    public var date: Timestamp
    public var fee: ExactDecimal
    public var quantity: ExactDecimal
    public var symbol: String
    public var type: Kind
    public var unitPrice: ExactDecimal

    /// The activity as a member of `activities`, in the order of the DTO's members.
    public func appendJSON(to out: inout OutputBuffer) {
        CanonicalJSON.appendRaw("{\"accountId\": ", to: &out)
        CanonicalJSON.appendString(accountId, to: &out)
        CanonicalJSON.appendRaw(", \"comment\": ", to: &out)
        CanonicalJSON.appendString(comment, to: &out)
        CanonicalJSON.appendRaw(", \"currency\": ", to: &out)
        CanonicalJSON.appendString(currency, to: &out)
        CanonicalJSON.appendRaw(", \"dataSource\": ", to: &out)
        CanonicalJSON.appendString(dataSource, to: &out)
        CanonicalJSON.appendRaw(", \"date\": \"", to: &out)
        date.appendRFC3339(to: &out)
        CanonicalJSON.appendRaw("\", \"fee\": ", to: &out)
        fee.appendText(to: &out)
        CanonicalJSON.appendRaw(", \"quantity\": ", to: &out)
        quantity.appendText(to: &out)
        CanonicalJSON.appendRaw(", \"symbol\": ", to: &out)
        CanonicalJSON.appendString(symbol, to: &out)
        CanonicalJSON.appendRaw(", \"type\": ", to: &out)
        CanonicalJSON.appendString(type.rawValue, to: &out)
        CanonicalJSON.appendRaw(", \"unitPrice\": ", to: &out)
        unitPrice.appendText(to: &out)
        out.append(UInt8(ascii: "}"))
    }
}

/// A custom (`MANUAL`) asset profile of the import's `assetProfiles`: what Ghostfolio needs for a
/// symbol no data source prices before a sale or a dividend of it can be taken.
public struct GhostfolioAssetProfile: Sendable, Equatable {
    public var symbol: String
    public var currency: String
    public var name: String
    public var isin: String?

    public func appendJSON(to out: inout OutputBuffer) {
        CanonicalJSON.appendRaw("{\"currency\": ", to: &out)
        CanonicalJSON.appendString(currency, to: &out)
        CanonicalJSON.appendRaw(", \"dataSource\": \"MANUAL\"", to: &out)
        if let isin {
            CanonicalJSON.appendRaw(", \"isin\": ", to: &out)
            CanonicalJSON.appendString(isin, to: &out)
        }
        CanonicalJSON.appendRaw(", \"name\": ", to: &out)
        CanonicalJSON.appendString(name, to: &out)
        CanonicalJSON.appendRaw(", \"symbol\": ", to: &out)
        CanonicalJSON.appendString(symbol, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}

/// How tradeport's operations become Ghostfolio activities: the rules `--to ghostfolio` and the
/// Ghostfolio push target share, written once.
///
/// Ghostfolio (3.58) judges a duplicate on comment, currency, data source, date, fee, quantity,
/// symbol, type and unit price, against what it stored. So that a second import of the same
/// operations is recognised, every activity's symbol is one Ghostfolio keeps as sent:
/// - a security the symbol map names: its symbol and data source there;
/// - one it does not: `--data-source`'s source by its code when one is given, else a custom
///   profile (`MANUAL`) whose symbol is a UUID made from the security's code (and the Ghostfolio
///   user's id, for a push), sent with its name, ISIN and currency in `assetProfiles`;
/// - fees, taxes and interest: a custom profile per kind and currency (`tradeport fees RUB`),
///   since Ghostfolio gives a FEE or INTEREST with a free-text symbol a new random symbol at each
///   import, which no later import matches.
///
/// What Ghostfolio cannot express is counted (`notes`), never dropped silently: deposits and
/// withdrawals (a Ghostfolio account keeps its cash as a balance), refunds (a fee is never
/// negative), redemptions, movements, accrued interest, trades quoted in what is not a currency
/// code.
public struct GhostfolioActivities: Sendable {
    public static let target = "ghostfolio"

    private let fallbackSource: String?
    private let scope: String
    /// The custom profiles the activities made so far name, by symbol.
    public private(set) var profiles: [String: GhostfolioAssetProfile] = [:]
    /// Per account: activities per currency (the writer picks the account's currency by it).
    public private(set) var currencies: [String: [String: Int]] = [:]
    private var finder: SymbolMap.Finder
    /// The securities the symbol map has no entry for.
    public var unmapped: SymbolMap.Unmapped { finder.unmapped }
    /// The custom profiles named by their code only, so far.
    private var unnamed: Set<String> = []
    private var counts = WriterNoteCounts()

    /// - Parameter scope: what makes custom profiles' symbols the user's own (the Ghostfolio
    ///   user's id, for a push); empty for a file, which any user may import.
    public init(options: WriteOptions, scope: String = "") {
        finder = SymbolMap.Finder(options.symbols, target: Self.target)
        fallbackSource = options.dataSource
        self.scope = scope
    }

    /// The ISO 4217 codes in use, as Ghostfolio's `IsCurrencyCode` takes them (coins such as BTC
    /// or USDT are assets there, not currencies), and its derived currencies.
    static let currencyCodes = Set(Locale.commonISOCurrencyCodes).union(["GBp", "ILA", "ZAc", "USX"])

    static func isCurrencyCode(_ asset: AssetCode) -> Bool { currencyCodes.contains(asset.description) }

    /// The id of the account a portfolio's activities go to when the instance has none of its
    /// name: the same on every run.
    public static func accountId(_ portfolio: String) -> String { NameBasedUUID.make("ghostfolio-account:" + portfolio) }

    /// The currency most of an account's activities are in (`currencies`), the first by name
    /// among equals: the currency of the account made for it.
    public static func mostUsed(_ counts: [String: Int]) -> String? {
        var best: (key: String, value: Int)?
        for (key, value) in counts.sorted(by: { $0.key < $1.key }) where value > (best?.value ?? 0) { best = (key, value) }
        return best?.key
    }

    /// Whether Ghostfolio takes `symbol` for a custom profile: `GF_…` or a UUID as class-validator
    /// knows one.
    public static func isCustomSymbol(_ symbol: String) -> Bool {
        if symbol.hasPrefix("GF_") { return true }
        let parts = symbol.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.count) == [8, 4, 4, 4, 12], parts.allSatisfy({ $0.allSatisfy(\.isHexDigit) }) else { return false }
        // class-validator's isUUID: a version 1 to 8 and the RFC variant (or the nil and max UUIDs).
        let lower = symbol.lowercased()
        if lower == "00000000-0000-0000-0000-000000000000" || lower == "ffffffff-ffff-ffff-ffff-ffffffffffff" { return true }
        return "12345678".contains(parts[2].first!) && "89abAB".contains(parts[3].first!)
    }

    /// What the notes say besides what is counted: the securities without a symbol in the map.
    public var notes: [String] {
        counts.notes("Ghostfolio")
            + [unmapped.note(fallbackSource.map { "under \($0) by their code" } ?? "as custom (MANUAL) profiles of their own")].compactMap { $0 }
    }

    /// A security's symbol and data source, and its custom profile when it has one. A custom
    /// profile's symbol is made from the security's code, which its trades and its dividends
    /// both name (a dividend often without the ISIN its trades carry).
    private mutating func security(code given: String, isin: String?, venue: String?, name: String?, currency: String) -> (symbol: String, source: String) {
        let (code, isin, entry) = finder.find(code: given, isin: isin, venue: venue)
        // Ghostfolio takes a custom profile of a name the user has already as that profile: the
        // code in the name keeps two securities of one name apart.
        let name = name.map { $0 == code ? code : "\($0) (\(code))" }
        if let entry {
            let source = entry.dataSource ?? "YAHOO"
            if source == "MANUAL" {
                addProfile(entry.symbol, currency: currency, name: entry.name ?? name, or: code, isin: isin)
            }
            return (entry.symbol, source)
        }
        if let fallbackSource {
            guard fallbackSource == "MANUAL" else { return (code, fallbackSource) }
            addProfile("GF_" + code, currency: currency, name: name, or: code, isin: isin)
            return ("GF_" + code, fallbackSource)
        }
        let symbol = NameBasedUUID.make("ghostfolio-security:\(scope):\(code)")
        addProfile(symbol, currency: currency, name: name, or: code, isin: isin)
        return (symbol, "MANUAL")
    }

    /// The custom profile that holds fees, taxes or interest (`what`) in `currency`.
    private mutating func cashProfile(_ what: String, currency: String) -> String {
        let symbol = NameBasedUUID.make("ghostfolio-cash:\(scope):\(what):\(currency)")
        addProfile(symbol, currency: currency, name: "tradeport \(what) \(currency)", or: "", isin: nil)
        return symbol
    }

    /// Adds the custom profile `symbol`, or gives the one added the name and the ISIN it lacked
    /// (a dividend before the security's first trade names only its code).
    private mutating func addProfile(_ symbol: String, currency: String, name: String?, or fallback: String, isin: String?) {
        guard var profile = profiles[symbol] else {
            profiles[symbol] = GhostfolioAssetProfile(symbol: symbol, currency: currency, name: TargetText.oneLine(name ?? fallback), isin: isin)
            if name == nil { unnamed.insert(symbol) }
            return
        }
        if profile.isin == nil, let isin { profile.isin = isin }
        if let name, unnamed.remove(symbol) != nil { profile.name = TargetText.oneLine(name) }
        profiles[symbol] = profile
    }

    private mutating func make(
        _ type: GhostfolioActivity.Kind, account: String, comment: String, currency: AssetCode, source: String, symbol: String,
        time: Timestamp, quantity: ExactDecimal, unitPrice: ExactDecimal, fee: ExactDecimal
    ) -> GhostfolioActivity {
        currencies[account, default: [:]][currency.description, default: 0] += 1
        if [quantity, unitPrice, fee].contains(where: { TargetNumbers.significantDigits($0) > TargetNumbers.Ghostfolio.exactDigits }) {
            counts.writtenAs(TargetNumbers.Ghostfolio.roundedNote)
        }
        return GhostfolioActivity(
            accountId: account, comment: TargetText.oneLine(comment), currency: currency.description, dataSource: source, date: time,
            fee: fee, quantity: quantity, symbol: TargetText.oneLine(symbol), type: type, unitPrice: unitPrice)
    }

    /// A fee of its own (in a currency other than the trade's, or a transaction's), or a tax.
    private mutating func fee(
        _ what: String, _ amount: ExactDecimal, _ currency: AssetCode, account: String, time: Timestamp, comment: String
    )
        -> GhostfolioActivity?
    {
        guard Self.isCurrencyCode(currency) else {
            counts.notCarried("\(what) in \(currency), which is not an ISO 4217 currency")
            return nil
        }
        let symbol = cashProfile(what, currency: currency.description)
        return make(
            .FEE, account: account, comment: comment, currency: currency, source: "MANUAL", symbol: symbol, time: time, quantity: .zero, unitPrice: .zero,
            fee: amount)
    }

    /// The activities `operation` becomes in the account `account` (none for what Ghostfolio
    /// cannot hold, which is counted).
    public mutating func activities(_ operation: PortfolioOperation, account: String) -> [GhostfolioActivity] {
        let comment = "tradeport " + operation.id
        switch operation {
        case .trade(let t):
            guard Self.isCurrencyCode(t.quote) else {
                counts.notCarried("trades quoted in \(t.quote), which is not an ISO 4217 currency")
                return []
            }
            if Self.isCurrencyCode(t.base) {
                counts.notCarried("currency exchanges (Ghostfolio keeps cash as the account's balance)")
                return []
            }
            var fee = ExactDecimal.zero
            var others: [TradeFee] = []
            for f in t.fees {
                if f.currency == t.quote, let sum = fee.adding(f.amount) { fee = sum } else { others.append(f) }
            }
            let (symbol, source) = security(code: t.base.description, isin: t.isin, venue: t.venue, name: t.name, currency: t.quote.description)
            var made = [
                make(
                    t.side == .buy ? .BUY : .SELL, account: account, comment: comment, currency: t.quote, source: source, symbol: symbol,
                    time: t.time, quantity: t.quantity, unitPrice: t.price, fee: fee)
            ]
            // Each its own comment (` fee`, ` fee 2`, …): the comment is what tells an activity held.
            for (i, f) in others.enumerated() {
                counts.writtenAs("trade fees in another currency than the trade's, as a FEE of their own")
                let suffix = i == 0 ? " fee" : " fee \(i + 1)"
                if let a = self.fee("fees", f.amount, f.currency, account: account, time: t.time, comment: comment + suffix) { made.append(a) }
            }
            if let interest = t.accruedInterest, !interest.isZero { counts.notCarried("accrued interest of bond trades") }
            return made
        case .transaction(let t):
            guard t.status == .complete else {
                counts.notCarried("\(t.status.rawValue) transactions (no money moved)")
                return []
            }
            var made: [GhostfolioActivity] = []
            if let f = t.fee, !f.amount.isZero,
                let a = fee("fees", f.amount, f.currency, account: account, time: t.time, comment: comment + " fee")
            {
                made.append(a)
            }
            guard Self.isCurrencyCode(t.asset) else {
                counts.notCarried("\(t.type.rawValue)s in \(t.asset), which is not an ISO 4217 currency")
                return made
            }
            switch t.type {
            case .dividend, .coupon:
                guard let security = t.security else {
                    counts.notCarried("\(t.type.rawValue)s that name no security")
                    return made
                }
                if t.type == .coupon { counts.writtenAs("coupons, as DIVIDEND of their bond") }
                let isin = ISIN.looksLike(security) ? security : nil
                let (symbol, source) = self.security(code: security, isin: isin, venue: nil, name: nil, currency: t.asset.description)
                made.append(
                    make(
                        .DIVIDEND, account: account, comment: comment, currency: t.asset, source: source, symbol: symbol, time: t.time,
                        quantity: ExactDecimal(1), unitPrice: t.amount, fee: .zero))
            case .interest, .otherIncome:
                if t.type == .otherIncome { counts.writtenAs("other income, as INTEREST") }
                let symbol = cashProfile(t.type == .interest ? "interest" : "other income", currency: t.asset.description)
                made.append(
                    make(
                        .INTEREST, account: account, comment: comment, currency: t.asset, source: "MANUAL", symbol: symbol, time: t.time,
                        quantity: ExactDecimal(1), unitPrice: t.amount, fee: .zero))
            case .fee, .tax, .otherCharge, .dividendCharge:
                let what: String
                switch t.type {
                case .tax: what = "taxes"
                case .otherCharge: what = "other charges"
                case .dividendCharge: what = "dividend charges"
                default: what = "fees"
                }
                if t.type != .fee { counts.writtenAs("\(t.type == .dividendCharge ? "dividends charged" : what), as FEE") }
                if let a = fee(what, t.amount, t.asset, account: account, time: t.time, comment: comment) { made.append(a) }
            case .deposit, .withdrawal:
                counts.notCarried("\(t.type.rawValue)s (Ghostfolio keeps cash as the account's balance)")
            case .taxRefund, .feeRefund:
                counts.notCarried("\(t.type.rawValue)s (a Ghostfolio fee is never negative)")
            case .redemption:
                counts.notCarried("redemptions")
            }
            return made
        case .movement:
            counts.notCarried("movements of positions without money")
            return []
        }
    }
}
