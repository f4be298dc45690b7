import Foundation
import TradeportCore

/// Writes the body of Ghostfolio's import API (`POST /api/v1/import`; `--to ghostfolio`):
/// `activities` (BUY, SELL, DIVIDEND, FEE, INTEREST) and `accounts`, one per portfolio, with a
/// UUID made from the portfolio's name so that every run names the same account. Nothing else is
/// in the body: the API refuses members its DTO does not name. `schema/ghostfolio-import.schema.json`
/// holds what the DTO accepts.
///
/// What Ghostfolio cannot express is counted and said after the summary (`WriterNotes`), never
/// dropped silently: deposits and withdrawals (a Ghostfolio account keeps its cash as a balance,
/// which is the portfolio's balance in the account's currency), refunds (a fee is never
/// negative), redemptions, movements, accrued interest, trades quoted in what is not a currency
/// code. Taxes, dividend charges and other charges are written as FEE, coupons as DIVIDEND of
/// their bond, other income as INTEREST; the notes say how many.
public final class GhostfolioSink: ConversionSink, WriterNotes {
    private let output: OutputFile
    private let dataSource: String
    private var first = true
    private var accountIds: [String: String] = [:]
    /// Per portfolio: activities per currency, to pick the account's currency.
    private var currencies: [String: [String: Int]] = [:]
    private var counts = WriterNoteCounts()
    public private(set) var notes: [String] = []

    public init(output: OutputFile, options: WriteOptions) throws {
        self.output = output
        dataSource = options.dataSource
        try output.append { CanonicalJSON.appendRaw("{\n  \"activities\": [", to: &$0) }
    }

    /// The ISO 4217 codes in use, as Ghostfolio's `IsCurrencyCode` takes them (coins such as BTC
    /// or USDT are assets there, not currencies).
    static let currencyCodes = Set(Locale.commonISOCurrencyCodes)

    static func isCurrencyCode(_ asset: AssetCode) -> Bool { currencyCodes.contains(asset.description) }

    private func accountId(_ portfolio: String) -> String {
        if let id = accountIds[portfolio] { return id }
        let id = NameBasedUUID.make("ghostfolio-account:" + portfolio)
        accountIds[portfolio] = id
        return id
    }

    private enum Kind: String { case BUY, SELL, DIVIDEND, FEE, INTEREST }

    private func activity(
        _ kind: Kind, portfolio: String, time: Timestamp, symbol: String, market: Bool,
        currency: AssetCode, quantity: ExactDecimal, unitPrice: ExactDecimal, fee: ExactDecimal, comment: String
    ) throws {
        currencies[portfolio, default: [:]][currency.description, default: 0] += 1
        if [quantity, unitPrice, fee].contains(where: { TargetNumbers.significantDigits($0) > TargetNumbers.Ghostfolio.exactDigits }) {
            counts.writtenAs(TargetNumbers.Ghostfolio.roundedNote)
        }
        let account = accountId(portfolio)
        try output.append { out in
            CanonicalJSON.appendRaw(first ? "\n    {\"accountId\": " : ",\n    {\"accountId\": ", to: &out)
            CanonicalJSON.appendString(account, to: &out)
            CanonicalJSON.appendRaw(", \"comment\": ", to: &out)
            CanonicalJSON.appendString(TargetText.oneLine(comment), to: &out)
            CanonicalJSON.appendRaw(", \"currency\": ", to: &out)
            CanonicalJSON.appendString(currency.description, to: &out)
            // FEE and INTEREST name no market: Ghostfolio gives them a profile of their own.
            if market {
                CanonicalJSON.appendRaw(", \"dataSource\": ", to: &out)
                CanonicalJSON.appendString(dataSource, to: &out)
            }
            CanonicalJSON.appendRaw(", \"date\": \"", to: &out)
            time.appendRFC3339(to: &out)
            CanonicalJSON.appendRaw("\", \"fee\": ", to: &out)
            fee.appendText(to: &out)
            CanonicalJSON.appendRaw(", \"quantity\": ", to: &out)
            quantity.appendText(to: &out)
            CanonicalJSON.appendRaw(", \"symbol\": ", to: &out)
            CanonicalJSON.appendString(TargetText.oneLine(symbol), to: &out)
            CanonicalJSON.appendRaw(", \"type\": ", to: &out)
            CanonicalJSON.appendString(kind.rawValue, to: &out)
            CanonicalJSON.appendRaw(", \"unitPrice\": ", to: &out)
            unitPrice.appendText(to: &out)
            out.append(UInt8(ascii: "}"))
        }
        first = false
    }

    /// A security's symbol: with the MANUAL data source, Ghostfolio takes only `GF_…` or a UUID,
    /// and names its own profiles so.
    private func marketSymbol(_ code: String) -> String { dataSource == "MANUAL" ? "GF_" + code : code }

    /// A fee of its own (in a currency other than the trade's, or a transaction's).
    private func fee(_ amount: ExactDecimal, _ currency: AssetCode, portfolio: String, time: Timestamp, symbol: String, comment: String) throws {
        guard Self.isCurrencyCode(currency) else {
            counts.notCarried("fees in \(currency), which is not an ISO 4217 currency")
            return
        }
        try activity(
            .FEE, portfolio: portfolio, time: time, symbol: symbol, market: false, currency: currency,
            quantity: .zero, unitPrice: .zero, fee: amount, comment: comment)
    }

    public func write(_ operation: PortfolioOperation, portfolio: String) throws {
        let comment = "tradeport " + operation.id
        switch operation {
        case .trade(let t):
            guard Self.isCurrencyCode(t.quote) else {
                counts.notCarried("trades quoted in \(t.quote), which is not an ISO 4217 currency")
                return
            }
            var fee = ExactDecimal.zero
            var others: [TradeFee] = []
            for f in t.fees {
                if f.currency == t.quote, let sum = fee.adding(f.amount) { fee = sum } else { others.append(f) }
            }
            try activity(
                t.side == .buy ? .BUY : .SELL, portfolio: portfolio, time: t.time, symbol: marketSymbol(t.base.description), market: true,
                currency: t.quote, quantity: t.quantity, unitPrice: t.price, fee: fee, comment: comment)
            for f in others {
                counts.writtenAs("trade fees in another currency than the trade's, as a FEE of their own")
                try self.fee(f.amount, f.currency, portfolio: portfolio, time: t.time, symbol: "Fee of \(t.side.rawValue) \(t.base)", comment: comment + " fee")
            }
            if let interest = t.accruedInterest, !interest.isZero { counts.notCarried("accrued interest of bond trades") }
        case .transaction(let t):
            guard t.status == .complete else {
                counts.notCarried("\(t.status.rawValue) transactions (no money moved)")
                return
            }
            if let f = t.fee, !f.amount.isZero {
                try fee(f.amount, f.currency, portfolio: portfolio, time: t.time, symbol: "Fee of \(t.type.rawValue) \(t.asset)", comment: comment + " fee")
            }
            guard Self.isCurrencyCode(t.asset) else {
                counts.notCarried("\(t.type.rawValue)s in \(t.asset), which is not an ISO 4217 currency")
                return
            }
            let label = t.note ?? t.security ?? t.type.rawValue
            switch t.type {
            case .dividend, .coupon:
                guard let security = t.security else {
                    counts.notCarried("\(t.type.rawValue)s that name no security")
                    return
                }
                if t.type == .coupon { counts.writtenAs("coupons, as DIVIDEND of their bond") }
                try activity(
                    .DIVIDEND, portfolio: portfolio, time: t.time, symbol: marketSymbol(security), market: true, currency: t.asset,
                    quantity: ExactDecimal(1), unitPrice: t.amount, fee: .zero, comment: comment)
            case .interest, .otherIncome:
                if t.type == .otherIncome { counts.writtenAs("other income, as INTEREST") }
                try activity(
                    .INTEREST, portfolio: portfolio, time: t.time, symbol: label, market: false, currency: t.asset,
                    quantity: ExactDecimal(1), unitPrice: t.amount, fee: .zero, comment: comment)
            case .fee, .tax, .otherCharge, .dividendCharge:
                if t.type != .fee { counts.writtenAs("\(t.type == .tax ? "taxes" : t.type == .otherCharge ? "other charges" : "dividends charged"), as FEE") }
                try fee(t.amount, t.asset, portfolio: portfolio, time: t.time, symbol: label, comment: comment)
            case .deposit, .withdrawal:
                counts.notCarried("\(t.type.rawValue)s (Ghostfolio keeps cash as the account's balance)")
            case .taxRefund, .feeRefund:
                counts.notCarried("\(t.type.rawValue)s (a Ghostfolio fee is never negative)")
            case .redemption:
                counts.notCarried("redemptions")
            }
        case .movement:
            counts.notCarried("movements of positions without money")
        }
    }

    public func write(_ skipped: SkippedRow) throws {}
    public func write(_ rejected: RejectedRow) throws {}

    public func finish(_ report: ConversionReport) throws {
        // Every portfolio of the conversion has an account, with its activities or without.
        for p in report.portfolios { _ = accountId(p) }
        try output.append { out in
            CanonicalJSON.appendRaw(first ? "],\n  \"accounts\": [" : "\n  ],\n  \"accounts\": [", to: &out)
            for (i, name) in accountIds.keys.sorted().enumerated() {
                // The currency most of its activities are in (the first by name among equals),
                // and the portfolio's balance in it.
                let used = currencies[name] ?? [:]
                let currency =
                    used.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key
                    ?? report.balances.first { $0.portfolio == name && Self.isCurrencyCode($0.asset) }?.asset.description ?? "USD"
                let balance = report.balances.first { $0.portfolio == name && $0.asset.description == currency }?.amount ?? .zero
                CanonicalJSON.appendRaw(i == 0 ? "\n    {\"balance\": " : ",\n    {\"balance\": ", to: &out)
                balance.appendText(to: &out)
                CanonicalJSON.appendRaw(", \"comment\": ", to: &out)
                CanonicalJSON.appendString(
                    TargetText.oneLine("tradeport portfolio \(name): its balance in \(currency) as the operations read give it"), to: &out)
                CanonicalJSON.appendRaw(", \"currency\": ", to: &out)
                CanonicalJSON.appendString(currency, to: &out)
                CanonicalJSON.appendRaw(", \"id\": ", to: &out)
                CanonicalJSON.appendString(accountIds[name]!, to: &out)
                CanonicalJSON.appendRaw(", \"name\": ", to: &out)
                CanonicalJSON.appendString(TargetText.oneLine(name), to: &out)
                CanonicalJSON.appendRaw(", \"platformId\": null}", to: &out)
            }
            CanonicalJSON.appendRaw(accountIds.isEmpty ? "]\n}\n" : "\n  ]\n}\n", to: &out)
        }
        try output.flush()
        notes = counts.notes("Ghostfolio")
    }
}

/// Ghostfolio's import body (`--to ghostfolio`).
public struct GhostfolioWriter: FormatWriter {
    public let id = "ghostfolio"
    public let summary =
        "the body of Ghostfolio's import API: activities (BUY, SELL, DIVIDEND, FEE, INTEREST) and an account per portfolio; what it cannot hold is counted"
    public let fileExtension = "json"
    public init() {}
    public func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink { try GhostfolioSink(output: output, options: options) }
}
