import TradeportCore
import TradeportSpec

/// One row of a group (`group:`): the asset it moved, by how much (+ in, − out), whether it is a
/// fee, and the row's values for the trade's other fields.
struct SpecLeg {
    let location: SourceLocation
    let raw: String
    let asset: AssetCode
    let amount: ExactDecimal
    let isFee: Bool
    /// A fee charged on this leg, in its asset (a column of each row, like Kraken's ledger `fee`).
    let legFee: ExactDecimal?
    let values: [SpecValue?]
}

extension SpecRowValues {
    /// Whether the row is a trade's: with a group, one leg of one.
    var isTradeRow: Bool {
        if plan.rowKindColumn == nil { if case .trades = plan.spec.rows { return true } else { return false } }
        if case .trade? = rowKind { return true }
        return false
    }
}

/// Reading trades spread over several rows: consecutive legs of one key are held (memory: the
/// one open group), and become trades when a leg of another key comes or the source ends.
extension SpecAdapter.ReadState {
    mutating func addLeg(_ group: SpecPlan.GroupPlan, _ row: some SpecRow, location: SourceLocation, raw: () -> String,
                         emit: RecordHandler) throws {
        var key: [UInt8] = []
        for c in group.key {
            if let p = positions[c], p < row.fieldCount { key.append(contentsOf: row.field(p).bytes) }
            key.append(0x1F)
        }
        if !legs.isEmpty && key != legKey { try closeGroup(emit: emit) }
        legKey = key
        var isFee = false
        if let c = group.feeColumn, let p = positions[c], p < row.fieldCount {
            let f = row.field(p).bytes
            isFee = group.feeValues.contains { $0.count == f.count && $0.elementsEqual(f) }
        }
        let asset: AssetCode?
        switch values.values[group.asset] {
        case .asset(let a)?: asset = a
        case .text(let t)?, .mapped(let t)?: asset = AssetCode(t)
        default: asset = nil
        }
        let amount = values.decimal(values.values[group.amount])
        guard let asset, let amount, isFee || !amount.isZero else {
            let what = asset == nil ? "asset" : amount == nil ? "amount" : "amount other than 0"
            let errors = [FieldError(column: nil, field: nil, message: "a row of a trade over several rows needs its \(what)")]
            try withoutActuallyEscaping(raw) { raw in try emit(.rejected(RejectedRow(source: location, raw: raw(), errors: errors)), raw) }
            return
        }
        legs.append(SpecLeg(location: location, raw: raw(), asset: asset, amount: amount, isFee: isFee,
                            legFee: group.legFee.flatMap { values.decimal(values.values[$0]) }, values: values.values))
    }

    /// The open group's trades: its legs in (+) and out (−) paired in file order, each pair a
    /// trade whose quote is the asset ranked first in `quotes` (else the one that went out), with
    /// the fee rows (all of them for one pair, the i-th for the i-th of several) and the legs' own
    /// fees. A group that does not pair is rejected row by row, saying why.
    mutating func closeGroup(emit: RecordHandler) throws {
        guard let group = adapter.plan.group, !legs.isEmpty else { return }
        let legs = self.legs
        self.legs.removeAll()
        let ins = legs.filter { !$0.isFee && $0.amount.isPositive }
        let outs = legs.filter { !$0.isFee && $0.amount.isNegative }
        let fees = legs.filter(\.isFee)
        func reject(_ rows: [SpecLeg], _ message: String) throws {
            for leg in rows {
                let errors = [FieldError(column: nil, field: nil, message: message)]
                try emit(.rejected(RejectedRow(source: leg.location, raw: leg.raw, errors: errors)), { leg.raw })
            }
        }
        let span = legs.count == 1 ? "row \(legs[0].location.row)" : "rows \(legs[0].location.row)–\(legs[legs.count - 1].location.row)"
        guard !ins.isEmpty, ins.count == outs.count, fees.isEmpty || ins.count == 1 || fees.count == ins.count else {
            try reject(legs, "\(span) make no trade: \(ins.count) in (+), \(outs.count) out (−), \(fees.count) fee\(fees.count == 1 ? "" : "s"); "
                + "the rows of a group pair one in with one out, in file order (and fees one per pair, or all to one pair)")
            return
        }
        for (i, (a, b)) in zip(ins, outs).enumerated() {
            // The quote: the one ranked first in `quotes`, else the one that went out.
            let rankIn = group.quoteRank[a.asset.text], rankOut = group.quoteRank[b.asset.text]
            let inIsQuote = rankIn != nil && (rankOut == nil || rankIn! < rankOut!)
            let (baseLeg, quoteLeg) = inIsQuote ? (b, a) : (a, b)
            let quantity = baseLeg.amount.isNegative ? baseLeg.amount.negated : baseLeg.amount
            let amount = quoteLeg.amount.isNegative ? quoteLeg.amount.negated : quoteLeg.amount
            let pairFees = fees.isEmpty ? [] : ins.count == 1 ? fees : [fees[i]]
            var tradeFees: [TradeFee] = []
            for fee in pairFees where !fee.amount.isZero {
                tradeFees.append(TradeFee(amount: fee.amount.isNegative ? fee.amount.negated : fee.amount, currency: fee.asset, kind: .exchange))
            }
            for leg in [a, b] {
                if let f = leg.legFee, !f.isZero { tradeFees.append(TradeFee(amount: f.isNegative ? f.negated : f, currency: leg.asset, kind: .exchange)) }
            }
            let first = a.location.row <= b.location.row ? a : b
            let pairLegs = [a, b] + pairFees
            guard let price = amount.divided(by: quantity, roundedToScale: group.priceScale) else {
                try reject(pairLegs, "\(span): the price \(amount) ÷ \(quantity) is beyond 38 digits")
                continue
            }
            values.reset()
            values.values = first.values
            values.groupValues = [
                .mapped(inIsQuote ? "sell" : "buy"), .asset(baseLeg.asset), .asset(quoteLeg.asset),
                .decimal(quantity), .decimal(price), .decimal(amount),
            ]
            values.groupFees = tradeFees
            guard case .trade(var trade)? = values.trade(first.location, zone: &zone), values.errors.isEmpty else {
                let errors = values.errors.isEmpty ? [FieldError(column: nil, field: nil, message: "the trade could not be built")] : values.errors
                for leg in pairLegs {
                    try emit(.rejected(RejectedRow(source: leg.location, raw: leg.raw, errors: errors)), { leg.raw })
                }
                continue
            }
            if i > 0, let id = trade.externalId { trade.externalId = id + "/\(i + 1)" }
            let operation = PortfolioOperation.trade(trade)
            let record: SourceRecord = values.portfolio.map { .placed(operation, portfolio: $0) } ?? .operation(operation)
            try emit(record, { first.raw })
            for leg in pairLegs where leg.location.row != first.location.row {
                try emit(.merged(leg.location), { leg.raw })
            }
        }
    }
}
