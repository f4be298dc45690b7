import TradeportCore
import TradeportCSV

/// DSX's trades export: 14 columns, no header (see docs/formats.md in the project's shared docs).
///
/// 1 time · 2 instrument (base and quote glued, lower case) · 3 Buy/Sell · 4 quantity · 5 base ·
/// 6 price · 7 quote · 8 total · 9 total's currency · 10 commission · 11 commission currency ·
/// 12 sub-account · 13 trade id · 14 order id.
public struct DSXTradesAdapter: FormatAdapter {
    public let id = "dsx-trades"
    public let summary = "DSX exchange trades export (headerless ';' CSV, 14 columns, decimal comma, UTC)"

    public init() {}

    public func detect(_ probe: FormatProbe) -> Detection {
        DSX.detect(probe, columns: 14, kinds: ["Buy", "Sell"], kindColumn: 3)
    }

    public func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws {
        try DSX.readRows(input, options: options, columns: 14, emit: emit) { record, location, check, zone in
            let time = check.time(record, 1, zone: &zone)
            let side = check.choice(record, 3, "side", ["Buy", "Sell"])
            let quantity = check.number(record, 4, "quantity", .positive)
            let base = check.asset(record, 5, "base")
            let price = check.number(record, 6, "price", .nonNegative)
            let quote = check.asset(record, 7, "quote")
            let amount = check.number(record, 8, "amount", .nonNegative)
            let amountCurrency = check.asset(record, 9, "amountCurrency")
            let fee = check.number(record, 10, "fee", .nonNegative)
            let feeCurrency: AssetCode?
            if let fee, fee.isZero, record[10].isEmpty {
                feeCurrency = nil
            } else {
                feeCurrency = check.asset(record, 11, "feeCurrency")
            }
            let account = check.optionalText(record, 12, "account")
            let externalId = check.id(record, 13, "externalId")
            let orderId = check.optionalText(record, 14, "orderId")
            if let base, let quote {
                // The glued instrument must be the two codes, so a wrong column is caught.
                let instrument = record[1]
                if !DSX.isGlued(instrument, base, quote) {
                    let expected = (base.text + quote.text).lowercased()
                    check.add(2, "instrument", "'\(DSX.text(instrument))' does not match base \(base) and quote \(quote) (expected '\(expected)')")
                }
                if let amountCurrency, amountCurrency != quote {
                    check.add(9, "amountCurrency", "'\(amountCurrency)' is not the quote currency \(quote)")
                }
            }
            guard let time, let side, let quantity, let base, let price, let quote, let amount, let fee, let externalId
            else { return nil }
            var fees: [TradeFee] = []
            if !fee.isZero, let feeCurrency { fees.append(TradeFee(amount: fee, currency: feeCurrency, kind: .exchange)) }
            return .trade(Trade(
                externalId: externalId, time: time, side: side == 0 ? .buy : .sell, base: base, quote: quote,
                quantity: quantity, price: price, amount: amount, fees: fees, venue: DSX.venue, account: account,
                orderId: orderId, source: location))
        }
    }
}
