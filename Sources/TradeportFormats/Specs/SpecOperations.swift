import TradeportCore
import TradeportCSV
import TradeportSpec

/// Building the trade or cash transaction a spec's mapping names, from a row's values.
extension SpecRowValues {
    mutating func operation(_ record: some SpecRow, _ positions: [Int?], location: SourceLocation,
                            zone: inout SourceTimeZone.Converter) -> PortfolioOperation? {
        guard errors.isEmpty else { return nil }
        guard let i = plan.rowKindColumn else {
            if case .transactions = plan.spec.rows { return transaction(nil, location, zone: &zone) }
            return trade(location, zone: &zone)
        }
        guard let p = positions[i], p < record.fieldCount else { return nil }
        let kind = record.field(p).bytes
        if plan.tradeKinds.contains(where: { $0.count == kind.count && $0.elementsEqual(kind) }) { return trade(location, zone: &zone) }
        if let hit = plan.transactionKinds.first(where: { $0.from.count == kind.count && $0.from.elementsEqual(kind) }) {
            return transaction(hit.type, location, zone: &zone)
        }
        guard case .by(let column, let trades, let transactions) = plan.spec.rows else { return nil }
        let known = trades + transactions.map(\.from)
        errors.append(FieldError(column: p + 1, field: column, message: "'\(String(decoding: kind, as: UTF8.self))' is neither a trade nor a transaction of this format (\(known.joined(separator: ", ")))"))
        return nil
    }

    private func resolve(_ source: SpecPlan.Source?, type: String? = nil) -> SpecValue? {
        guard let source else { return nil }
        switch source {
        case .column(let c): return values[c]
        case .constant(let t): return .text(t)
        case .absolute(let c):
            if case .decimal(let d)? = values[c] { return .decimal(d.isNegative ? d.negated : d) }
            return nil
        case .bySign(let c, let texts):
            if case .decimal(let d)? = values[c] { return .mapped(d.isNegative ? texts.negative : texts.positive) }
            return nil
        case .part(let c, let i):
            if case .pair(let b, let q)? = values[c] { return .asset(i == 0 ? b : q) }
            return nil
        case .join(let columns, let separator):
            let parts = columns.compactMap { values[$0]?.text }
            return parts.count == columns.count ? .text(parts.joined(separator: separator)) : nil
        case .dateAndTime:
            return nil  // read by `instant`
        case .byType(let sources):
            guard let type, let s = sources.first(where: { $0.0 == type })?.1 else { return nil }
            return resolve(s, type: type)
        }
    }

    private mutating func instant(_ source: SpecPlan.Source?, zone: inout SourceTimeZone.Converter) -> Timestamp? {
        guard let source else { return nil }
        let local: LocalDateTime?
        if case .dateAndTime(let d, let t) = source {
            guard case .date(let date)? = values[d] else { return nil }
            var clock = (0, 0, 0)
            if case .clock(let h, let m, let s)? = values[t] { clock = (h, m, s) }
            local = LocalDateTime(date: date, hour: clock.0, minute: clock.1, second: clock.2)
        } else {
            switch resolve(source) {
            case .instant(let i)?: return i
            case .date(let d)?: local = LocalDateTime(date: d, hour: 0, minute: 0, second: 0)
            default: return nil
            }
        }
        guard let local else { return nil }
        guard let instant = zone.writableTimestamp(for: local) else {
            errors.append(FieldError(column: nil, field: "time", message: "\(local.date) in \(zone.zoneName) falls outside the years 0001 to 9999 in UTC"))
            return nil
        }
        return instant
    }

    private func decimal(_ v: SpecValue?) -> ExactDecimal? { if case .decimal(let d)? = v { return d } else { return nil } }
    private func asset(_ v: SpecValue?) -> AssetCode? {
        switch v {
        case .asset(let a)?: return a
        case .text(let t)?, .mapped(let t)?: return AssetCode(t)
        default: return nil
        }
    }
    /// A canonical id the row carries (`format:venue-id`, or a content id `format:~hash.n`), or ""
    /// when it carries none (the conversion then makes one). A malformed one is an error.
    private mutating func canonicalId(_ v: SpecValue?) -> String? {
        guard let s = text(v) else { return "" }
        let parts = s.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, FormatSpec.isValidID(parts[0]), !parts[1].isEmpty, !s.utf8.contains(where: { $0 <= 32 }) {
            return s
        }
        errors.append(FieldError(column: nil, field: "id", message: "'\(s)' is not a tradeport id (format:id, like dsx-trades:37550914)"))
        return nil
    }

    private func text(_ v: SpecValue?) -> String? { v?.text.flatMap { $0.isEmpty ? nil : $0 } }
    private func date(_ v: SpecValue?) -> CalendarDate? { if case .date(let d)? = v { return d } else { return nil } }

    private mutating func trade(_ location: SourceLocation, zone: inout SourceTimeZone.Converter) -> PortfolioOperation? {
        guard let m = plan.trade else { return nil }
        let side: TradeSide?
        switch resolve(m.side)?.text {
        case "buy": side = .buy
        case "sell": side = .sell
        case let other:
            errors.append(FieldError(column: nil, field: "side", message: "'\(other ?? "")' is not buy or sell (the spec's map must give one of them)"))
            side = nil
        }
        var fees: [TradeFee] = []
        for fee in m.fees {
            guard let amount = decimal(resolve(fee.amount)), !amount.isZero, let currency = asset(resolve(fee.currency)) else { continue }
            fees.append(TradeFee(amount: amount, currency: currency, kind: fee.kind))
        }
        guard let time = instant(m.time, zone: &zone), let side, let base = asset(resolve(m.base)), let quote = asset(resolve(m.quote)),
              let quantity = decimal(resolve(m.quantity)), let price = decimal(resolve(m.price))
        else { return nil }
        portfolio = text(resolve(m.portfolio))
        guard let id = canonicalId(resolve(m.id)) else { return nil }
        return .trade(Trade(
            id: id, externalId: text(resolve(m.externalId)), time: time, side: side, base: base, quote: quote,
            quantity: quantity, price: price, amount: decimal(resolve(m.amount)), accruedInterest: decimal(resolve(m.accruedInterest)),
            fees: fees, isin: text(resolve(m.isin)), name: text(resolve(m.name)), venue: text(resolve(m.venue)),
            settlementDate: date(resolve(m.settlementDate)), account: text(resolve(m.account)), orderId: text(resolve(m.orderId)),
            source: location))
    }

    private mutating func transaction(_ kindType: String?, _ location: SourceLocation, zone: inout SourceTimeZone.Converter) -> PortfolioOperation? {
        guard let m = plan.transaction else { return nil }
        let typeText = kindType ?? resolve(m.type)?.text
        guard let typeText, let type = CashTransactionType(rawValue: typeText) else {
            errors.append(FieldError(column: nil, field: "type", message: "'\(typeText ?? "")' is not a transaction type"))
            return nil
        }
        var status = TransactionStatus.complete
        if let s = resolve(m.status)?.text {
            guard let parsed = TransactionStatus(rawValue: s) else {
                errors.append(FieldError(column: nil, field: "status", message: "'\(s)' is not a status (complete, failed, rejected, pending)"))
                return nil
            }
            status = parsed
        }
        var fee: CashFee?
        if let amount = decimal(resolve(m.feeAmount, type: typeText)), !amount.isZero, let currency = asset(resolve(m.feeCurrency, type: typeText)) {
            fee = CashFee(amount: amount, currency: currency)
        }
        guard let time = instant(m.time, zone: &zone), let assetCode = asset(resolve(m.asset, type: typeText)),
              let amount = decimal(resolve(m.amount, type: typeText))
        else { return nil }
        func t(_ s: SpecPlan.Source?) -> String? { text(resolve(s, type: typeText)) }
        portfolio = t(m.portfolio)
        guard let id = canonicalId(resolve(m.id, type: typeText)) else { return nil }
        return .transaction(CashTransaction(
            id: id,
            externalId: t(m.externalId), time: time, type: type, asset: assetCode, amount: amount, fee: fee, status: status,
            security: t(m.security), note: t(m.note), account: t(m.account), counterparty: t(m.counterparty),
            txHash: t(m.txHash), address: t(m.address), source: location))
    }
}
