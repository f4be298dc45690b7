import TradeportCore
import TradeportXLSX

/// Section 1: the deals. 1.1 (executed, settled in the period) gives trades; 1.2 (not yet
/// settled) and 1.3 (ended unexecuted) are skipped — a later report lists them in its 1.1 —, and
/// 1.4 (changed repo terms) too.
///
/// - A bond quoted in percent («Валюта цены» `%`) gets its price per unit in the settlement
///   currency: nominal × percent ÷ 100, the nominal from section 4.1 when the report prints one,
///   else the one the deal's amount implies (amount × 100 ÷ (quantity × percent), to the kopeck:
///   reports since 2024 print no nominal, and an amortised bond's nominal is below its original);
///   either way checked against amount ÷ quantity. The percent and the nominal are kept.
/// - A repo («РЕПО 1 Продажа», «РЕПО 2 Покупка», one deal number) is a loan against securities:
///   the position leaves and comes back. Its legs are not trades; the difference of their cash is
///   the repo's income or charge, a transaction dated at the second leg.
/// - Fees: the broker's, and stamp duty. «Комиссия биржи» and «Комиссия клир. центра» are part of
///   the broker's fee: section 2 charges «Комиссия за сделки» equal to the broker fees alone.
extension TinkoffReportParser {
    static let buy = Array("покупка".utf8)
    static let sell = Array("продажа".utf8)
    static let repo = Array("репо".utf8)
    static let percentSign = Array("%".utf8)

    func dealRow(_ row: XLSXRow) throws {
        switch section {
        case .pendingTrades:
            return try skipDealLike(
                row, "pending: not yet settled at the end of the report's period (section 1.2); a later report lists it as executed", place: "section 1.2")
        case .terminatedTrades:
            return try skipDealLike(row, "terminated without execution (section 1.3)", place: "section 1.3")
        case .repoChanges:
            return try skipDealLike(row, "a change of a repo deal's terms (section 1.4), not a trade", place: "section 1.4")
        default:
            break
        }
        guard let map = tradeMap else {
            return try reject(
                row,
                [
                    FieldError(
                        column: nil, field: nil,
                        message: "a row of section 1.1 before any header row naming its columns (Номер сделки, …): the layout is not one tradeport knows")
                ])
        }
        if !map.missing.isEmpty {
            return try reject(
                row,
                [
                    FieldError(
                        column: nil, field: nil,
                        message:
                            "the header row \(map.headerRow) of section 1.1 has no column \(map.missing.map { "'\(DealColumn.printed[$0] ?? $0)'" }.joined(separator: ", ")), which a trade needs"
                    )
                ])
        }
        try readDeal(row, map)
    }

    /// Skips a row of 1.2–1.4, where deals are printed but not read — unless it is a cash
    /// operation, which is a reject.
    private func skipDealLike(_ row: XLSXRow, _ reason: String, place: String) throws {
        if try rejectOperation(row, place: place, cashOnly: true) { return }
        try skip(row, reason)
    }

    /// A row of section 1.1 as a deal (held until the end), or a reject.
    private func readDeal(_ row: XLSXRow, _ map: TableMap) throws {
        var cells = TableRow<DealColumn>()
        cells.read(row, map)
        var check = TinkoffValues(codes: codes, dateSystem: dateSystem)

        // «Покупка», «Продажа», «РЕПО 1 Продажа», «РЕПО 2 Покупка».
        let kind = cells[.kind]
        HeaderText.fold(kind.cell?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0), into: &folded)
        var repoLeg: Int?
        var sideText = folded[...]
        if folded.starts(with: Self.repo) {
            let rest = folded.dropFirst(Self.repo.count)
            if let digit = rest.first, digit == UInt8(ascii: "1") || digit == UInt8(ascii: "2") {
                repoLeg = Int(digit - 48)
                sideText = rest.dropFirst()
            }
        }
        let side: TradeSide?
        if sideText.elementsEqual(Self.buy) {
            side = .buy
        } else if sideText.elementsEqual(Self.sell) {
            side = .sell
        } else {
            side = nil
            check.add(
                kind, "side",
                folded.isEmpty
                    ? "empty; expected Покупка or Продажа"
                    : "'\(kind.cell!.text.trimmedOfSpaces)' is not a deal kind tradeport knows (Покупка, Продажа, РЕПО 1 Продажа, РЕПО 2 Покупка …)")
        }
        let deal = check.text(cells[.deal], "externalId", required: false)
        let time = check.time(date: cells[.date], time: cells[.time], zone: &zone)
        let name = check.text(cells[.name], "name", required: false)
        let codeText = check.text(cells[.code], "base", required: true)?.trimmedOfSpaces
        let settlementCurrency = check.asset(cells[.settlementCurrency], "settlementCurrency", required: false)
        // A bond's price is in percent of its nominal: the quote is then the settlement currency.
        let inPercent = TinkoffValues.content(cells[.priceCurrency].cell).map { HeaderText.matches($0, Self.percentSign) } ?? false
        let quote: AssetCode?
        if inPercent {
            quote = settlementCurrency
            if settlementCurrency == nil {
                check.add(cells[.settlementCurrency], "quote", "empty; a price in % of the nominal needs the settlement currency (Валюта расчетов)")
            }
        } else {
            quote = check.asset(cells[.priceCurrency], "quote", required: true)
        }
        let price = check.number(cells[.price], inPercent ? "pricePercent" : "price", .nonNegative, required: true)
        let quantity = check.number(cells[.quantity], "quantity", .positive, required: true)
        // The model's amount is without accrued interest: Сумма (без НКД) when the report has it,
        // else Сумма сделки less НКД.
        let amountWithoutInterest = check.number(cells[.amountWithoutInterest], "amount", .nonNegative, required: false)
        let dealAmount = check.number(cells[.amount], "amount", .nonNegative, required: false)
        let interest = check.number(cells[.accruedInterest], "accruedInterest", .nonNegative, required: false)
        var amount = amountWithoutInterest
        if amount == nil, let dealAmount {
            amount = interest.map { dealAmount.subtracting($0) ?? dealAmount } ?? dealAmount
        }
        let settlementDate = check.date(cells[.settlementDate], "settlementDate", required: false)
        let venue = check.text(cells[.venue], "venue", required: false)
        let order = check.text(cells[.order], "orderId", required: false)

        var fees: [TradeFee] = []
        for fee in Self.fees {
            guard let value = check.number(cells[fee.amount], fee.amountName, .nonNegative, required: false), !value.isZero else { continue }
            var feeCurrency: AssetCode?
            if TinkoffValues.content(cells[fee.currency].cell) != nil {
                feeCurrency = check.asset(cells[fee.currency], fee.currencyName, required: true)
            } else {
                feeCurrency = settlementCurrency ?? quote
            }
            if let feeCurrency { fees.append(TradeFee(amount: value, currency: feeCurrency, kind: fee.kind)) }
        }

        // A currency deal (USDRUB_TOM, code USD000UTSTOM) trades the currency itself.
        var base: AssetCode?
        if let codeText {
            if let quote, let currencyBase = Self.currencyPairBase(name: name, code: codeText, quote: quote) {
                base = currencyBase
            } else if let code = AssetCode(codeText) {
                base = code
            } else {
                check.add(cells[.code], "base", "'\(codeText)' is not an asset code (\(AssetCode.rule))")
            }
        }
        guard check.errors.isEmpty, let side, let time, let base, let quote, let price, let quantity else {
            return try reject(row, check.errors)
        }
        if let name, let codeText, !name.isEmpty { codeByDealName[name] = codeText }
        let trade = Trade(
            externalId: deal, time: time, side: side, base: base, quote: quote, quantity: quantity, price: price,
            amount: amount, accruedInterest: interest.flatMap { $0.isZero ? nil : $0 }, fees: fees,
            name: name, venue: venue, settlementDate: settlementDate, orderId: order,
            pricePercent: inPercent ? price : nil, source: at(row))
        let rawEnd = keepRaw(row)
        if repoLeg != nil || dealsOnHeap < dealsOnHeapLimit {
            let read = HeldDeal(trade: trade, code: codeText, repoLeg: repoLeg.map(UInt8.init), rawEnd: rawEnd)
            if repoLeg != nil, let deal { repoLegs[deal, default: []].append(read) }
            dealsOnHeapHeld.append(read)
            HeldEntry(kind: .deal).append(to: heldEntries)
            dealsOnHeap += 1
            return
        }
        // Past the limit, held as bytes in a scratch file until the end, not as a trade on the
        // heap: a report's deals are most of it, and a trade is about 740 bytes there.
        // Its code (what 4.1 and 3.1 name the security by) follows the trade's bytes.
        scratch.removeAll(keepingCapacity: true)
        RecordBytes.append(trade, to: &scratch)
        let tradeBytes = scratch.count
        if let codeText { scratch.append(contentsOf: codeText.utf8) }
        let start = heldDeals.count
        _ = scratch.withUnsafeBytes { heldDeals.append(contentsOf: $0) }
        HeldEntry.spooledDeal(
            start: start, tradeBytes: tradeBytes, codeBytes: codeText.map { _ in scratch.count - tradeBytes },
            rawEnd: rawEnd
        ).append(to: heldEntries)
    }

    /// The fee columns read: amount, currency (else the settlement or price currency) and the field
    /// names their errors give.
    private static let fees: [(amount: DealColumn, currency: DealColumn, kind: FeeKind, amountName: String, currencyName: String)] = [
        (.brokerFee, .brokerFeeCurrency, .broker, "fees.broker", "fees.broker.currency"),
        (.stampDuty, .stampDutyCurrency, .other, "fees.other", "fees.other.currency")
    ]

    /// The currency a currency deal buys or sells: by its name (`USDRUB_TOM`, `CNYRUB_TOD`) or, when
    /// the name is missing, by its Moscow Exchange code (`USD000UTSTOM`, `USD000000TOD`,
    /// `EUR_RUB__TOM`), with the price in the other currency of the pair.
    static func currencyPairBase(name: String?, code: String, quote: AssetCode) -> AssetCode? {
        func letters(_ u: ArraySlice<UInt8>) -> Bool { u.allSatisfy { $0 >= 65 && $0 <= 90 } }
        if let name {
            let u = Array(name.utf8)
            if u.count > 7, u[6] == UInt8(ascii: "_"), letters(u[0..<6]), String(decoding: u[3..<6], as: UTF8.self) == quote.text {
                return AssetCode(String(decoding: u[0..<3], as: UTF8.self))
            }
        }
        let c = Array(code.utf8)
        guard c.count >= 10, letters(c[0..<3]) else { return nil }
        let base = String(decoding: c[0..<3], as: UTF8.self)
        let rest = String(decoding: c[3...], as: UTF8.self)
        let isPair = rest.hasPrefix("000") || rest.hasPrefix("_\(quote.text)_") || rest.hasPrefix("\(quote.text)_")
        guard isPair, base != quote.text, rest.hasSuffix("TOM") || rest.hasSuffix("TOD") || rest.hasSuffix("SPT") else { return nil }
        return AssetCode(base)
    }

    /// A held deal finished with what the later sections said: its ISIN, its asset (one security,
    /// one asset), a bond's nominal and price, a repo netted. The record its row gives.
    func finished(_ held: HeldDeal, raw: () -> String) -> SourceRecord {
        var deal = held
        if let code = deal.code {
            deal.trade.isin = isinByCode[code] ?? (ISIN.looksLike(code) ? code : nil)
            // A deal that names the security by its ISIN (off exchange) takes the ticker the report
            // gives that ISIN (3.1, 4.1) or its name.
            if deal.trade.base.text == code, ISIN.looksLike(code),
                let ticker = tickerByIsin[code] ?? deal.trade.name.flatMap({ tickerByName[$0] }),
                let asset = AssetCode(ticker)
            {
                deal.trade.base = asset
            }
        }
        // A bond quoted in percent: its price per unit is known once 4.1 has given its nominal.
        if let percent = deal.trade.pricePercent {
            switch bondPrice(deal, percent) {
            case .success(let (nominal, price)):
                deal.trade.nominal = nominal
                deal.trade.price = price
            case .failure(let error):
                return .rejected(RejectedRow(source: deal.trade.source, raw: raw(), errors: [error]))
            }
        }
        if let leg = deal.repoLeg {
            return repoRecord(deal, leg: Int(leg), legs: deal.trade.externalId.flatMap { repoLegs[$0] } ?? [deal])
        }
        return .operation(.trade(deal.trade))
    }

    /// A bond's nominal and price per unit: nominal × percent ÷ 100, checked against amount ÷ quantity.
    private func bondPrice(_ deal: HeldDeal, _ percent: ExactDecimal) -> Result<(ExactDecimal, ExactDecimal), FieldError> {
        let t = deal.trade
        let printed = deal.code.flatMap { nominalByCode[$0] }.flatMap { $0.isPositive ? $0 : nil }
        var nominal = printed
        if nominal == nil, let amount = t.amount, let units = t.quantity.multiplied(by: percent) {
            // amount = quantity × nominal × percent ÷ 100, to the kopeck.
            nominal = amount.multiplied(by: ExactDecimal(100))?.divided(by: units, roundedToScale: 2)
        }
        guard let nominal, nominal.isPositive,
            let price = nominal.multiplied(by: percent)?.divided(by: ExactDecimal(100), roundedToScale: min(38, nominal.scale + percent.scale + 2))
        else {
            return .failure(
                FieldError(
                    column: nil, field: "price",
                    message: "a price of \(percent) % of the nominal, but the report prints no nominal (section 4.1) and no amount to work it out from"))
        }
        if let amount = t.amount, let total = price.multiplied(by: t.quantity), let gap = total.subtracting(amount),
            ExactDecimal(mantissa: 1, scale: 2)! < (gap.isNegative ? gap.negated : gap)
        {
            return .failure(
                FieldError(
                    column: nil, field: "price",
                    message:
                        "\(percent) % of the nominal \(nominal)\(printed != nil ? " (section 4.1)" : "") is \(price) per unit, \(total) for \(t.quantity), but Сумма (без НКД) is \(amount)"
                ))
        }
        return .success((nominal, price))
    }

    /// A repo leg's record: the first leg a skip, the second the repo's income or charge (the legs'
    /// cash netted), a leg without its other one in the report a skip that says so.
    private func repoRecord(_ deal: HeldDeal, leg: Int, legs: [HeldDeal]) -> SourceRecord {
        let number = deal.trade.externalId ?? "without a number"
        let first = legs.first { $0.repoLeg == 1 }
        let second = legs.first { $0.repoLeg == 2 }
        guard let first, let second, legs.count == 2 else {
            return .skipped(
                SkippedRow(
                    source: deal.trade.source,
                    reason:
                        "repo leg \(leg) of deal \(number), whose other leg is not in this report's section 1.1: a loan against securities, not a trade (its cash and position are not counted here)"
                ))
        }
        if leg == 1 {
            return .skipped(
                SkippedRow(
                    source: deal.trade.source,
                    reason:
                        "repo leg 1 of deal \(number): a loan against securities, not a trade; the repo's income or charge is on the row of leg 2 (\(second.row))"
                ))
        }
        // What the legs did to the money, in the settlement currency: + for money in.
        var net: ExactDecimal? = .zero
        for l in [first, second] {
            PortfolioOperation.trade(l.trade).forEachBalanceChange { asset, change, money in
                guard money, asset == deal.trade.quote else { return }
                net = change.flatMap { net?.adding($0) }
            }
        }
        guard let net, !net.isZero else {
            return .skipped(
                SkippedRow(
                    source: deal.trade.source, reason: "repo leg 2 of deal \(number): the legs' money nets to zero; a loan against securities, not a trade"))
        }
        let note =
            "РЕПО \(number): \(first.trade.quantity) \(deal.trade.base) out and back; leg 1 (row \(first.row)) \(first.trade.side == .sell ? "in" : "out") \(first.trade.amount ?? .zero), leg 2 \(second.trade.side == .buy ? "out" : "in") \(second.trade.amount ?? .zero) \(deal.trade.quote)"
        let transaction = CashTransaction(
            externalId: nil, time: second.trade.time, type: net.isPositive ? .otherIncome : .otherCharge, asset: deal.trade.quote,
            amount: net.isNegative ? net.negated : net, security: deal.code, note: note, source: deal.trade.source)
        return .operation(.transaction(transaction))
    }
}
