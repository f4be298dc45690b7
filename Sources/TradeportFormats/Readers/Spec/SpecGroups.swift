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
        switch rowKind {
        case .leg?: return true
        case .trade?: return plan.legKinds.isEmpty
        default: return false
        }
    }
}

/// Reading trades spread over several rows: consecutive legs of one key are held (memory: the
/// one open group), and become trades when a leg of another key comes or the source ends.
extension SpecReader.ReadState {
    mutating func addLeg(
        _ group: SpecPlan.GroupPlan, _ row: some SpecRow, location: SourceLocation, raw: () -> String,
        emit: RecordHandler
    ) throws {
        var key: [UInt8] = []
        for c in group.key {
            if let p = positions[c], p < row.fieldCount { key.append(contentsOf: row.field(p).bytes) }
            key.append(0x1F)
        }
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
        let amount = SpecRowValues.decimal(values.values[group.amount])
        guard let asset, let amount, isFee || !amount.isZero else {
            let what = asset == nil ? "asset" : amount == nil ? "amount" : "amount other than 0"
            let errors = [FieldError(column: nil, field: nil, message: "a row of a trade over several rows needs its \(what)")]
            try withoutActuallyEscaping(raw) { raw in try emit(.rejected(RejectedRow(source: location, raw: raw(), errors: errors)), raw) }
            return
        }
        let leg = SpecLeg(
            location: location, raw: raw(), asset: asset, amount: amount, isFee: isFee,
            legFee: group.legFee.flatMap { SpecRowValues.decimal(values.values[$0]) }, values: values.values)
        // Closing the open group reuses the row values: this row's were taken first.
        if !legs.isEmpty && key != legKey { try closeGroup(emit: emit) }
        legKey = key
        legs.append(leg)
    }

    /// The open group's trades: its legs in (+) and out (−) paired in file order, each pair a
    /// trade whose quote is the asset ranked first in `quotes` (else the one that went out), with
    /// the fee rows (all of them for one pair, the i-th for the i-th of several) and the legs' own
    /// fees. A group that does not pair is rejected row by row, saying why.
    mutating func closeGroup(emit: RecordHandler) throws {
        guard let group = reader.plan.group, !legs.isEmpty else { return }
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
        // One asset in and one out: one trade, however many rows its fills take (a market order
        // filled in parts). Several assets: the rows in and out pair one to one, in file order.
        var pairs: [(in: SpecLeg, out: SpecLeg, fees: [SpecLeg], legs: [SpecLeg])] = []
        if !ins.isEmpty, !outs.isEmpty, Set(ins.map(\.asset)).count == 1, Set(outs.map(\.asset)).count == 1 {
            guard let a = Self.sum(ins), let b = Self.sum(outs) else {
                try reject(legs, "\(span): the sum of the rows is beyond 38 digits")
                return
            }
            pairs = [(a, b, fees, legs)]
        } else {
            guard !ins.isEmpty, ins.count == outs.count, fees.isEmpty || fees.count == ins.count else {
                try reject(
                    legs,
                    "\(span) make no trade: \(ins.count) in (+), \(outs.count) out (−), \(fees.count) fee\(fees.count == 1 ? "" : "s") in several assets; "
                        + "such rows pair one in with one out (and a fee per pair)")
                return
            }
            let order = Self.pairing(ins, outs, quoteRank: group.quoteRank)
            let feeOrder = Self.feeOrder(ins, order.map { outs[$0] }, fees, quoteRank: group.quoteRank)
            for (i, a) in ins.enumerated() {
                let b = outs[order[i]]
                let pairFees = fees.isEmpty ? [] : [fees[feeOrder[i]]]
                pairs.append((a, b, pairFees, [a, b] + pairFees))
            }
        }
        for (i, pair) in pairs.enumerated() {
            let (a, b) = (pair.in, pair.out)
            // The quote: the one ranked first in `quotes`, else the one that went out.
            let rankIn = group.quoteRank[a.asset.text]
            let rankOut = group.quoteRank[b.asset.text]
            let inIsQuote = rankIn != nil && (rankOut == nil || rankIn! < rankOut!)
            let (baseLeg, quoteLeg) = inIsQuote ? (b, a) : (a, b)
            let quantity = baseLeg.amount.isNegative ? baseLeg.amount.negated : baseLeg.amount
            let amount = quoteLeg.amount.isNegative ? quoteLeg.amount.negated : quoteLeg.amount
            // Fees by currency, in the order their currencies first come.
            var tradeFees: [TradeFee] = []
            func add(_ value: ExactDecimal, _ currency: AssetCode) {
                guard !value.isZero else { return }
                let v = value.isNegative ? value.negated : value
                if let k = tradeFees.firstIndex(where: { $0.currency == currency }), let total = tradeFees[k].amount.adding(v) {
                    tradeFees[k].amount = total
                } else {
                    tradeFees.append(TradeFee(amount: v, currency: currency, kind: .exchange))
                }
            }
            for fee in pair.fees { add(fee.amount, fee.asset) }
            for leg in [a, b] { if let f = leg.legFee { add(f, leg.asset) } }
            let pairLegs = pair.legs
            let first = pairLegs.min { $0.location.row < $1.location.row }!
            guard let price = amount.divided(by: quantity, roundedToScale: group.priceScale) else {
                try reject(pairLegs, "\(span): the price \(amount) ÷ \(quantity) is beyond 38 digits")
                continue
            }
            values.reset()
            values.values = first.values
            values.groupValues = [
                .mapped(inIsQuote ? "sell" : "buy"), .asset(baseLeg.asset), .asset(quoteLeg.asset),
                .decimal(quantity), .decimal(price), .decimal(amount)
            ]
            values.groupFees = tradeFees
            guard case .trade(var trade)? = values.trade(first.location, zone: &zone, grouped: true), values.errors.isEmpty else {
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

    /// Legs of one asset as one: their amounts and own fees summed, at the first of them.
    /// Which out goes with each in, when one group holds several trades in several assets (a
    /// second of Binance's history: three EUR spends, two ETH buys and a BTC buy). The rows say it
    /// by their prices: fills of one asset against one quote in one second are at nearly one
    /// price, so of all the ways to pair them the one whose fills of each asset agree best is
    /// taken — the sum over assets of (highest price − lowest) ÷ lowest, least. Where no asset is
    /// bought or sold twice, the prices say nothing and the rows pair in file order; so they do
    /// beyond 6 pairs (720 ways), and between ways that agree equally well the first found wins
    /// (file order is tried first).
    static func pairing(_ ins: [SpecLeg], _ outs: [SpecLeg], quoteRank: [String: Int]) -> [Int] {
        let identity = Array(outs.indices)
        guard ins.count == outs.count, ins.count > 1, ins.count <= 6 else { return identity }
        func split(_ a: SpecLeg, _ b: SpecLeg) -> (base: SpecLeg, quote: SpecLeg) {
            let rankIn = quoteRank[a.asset.text]
            let rankOut = quoteRank[b.asset.text]
            let inIsQuote = rankIn != nil && (rankOut == nil || rankIn! < rankOut!)
            return inIsQuote ? (b, a) : (a, b)
        }
        // Only when some asset comes in twice (or goes out twice) can prices tell pairings apart.
        let repeatedIn = Dictionary(grouping: ins, by: { $0.asset }).values.contains { $0.count > 1 }
        let repeatedOut = Dictionary(grouping: outs, by: { $0.asset }).values.contains { $0.count > 1 }
        guard repeatedIn && Set(outs.map(\.asset)).count == 1 || repeatedOut && Set(ins.map(\.asset)).count == 1 else { return identity }
        func cost(_ p: [Int]) -> ExactDecimal? {
            var prices: [String: (low: ExactDecimal, high: ExactDecimal)] = [:]
            for (i, a) in ins.enumerated() {
                let (base, quote) = split(a, outs[p[i]])
                let q = quote.amount.isNegative ? quote.amount.negated : quote.amount
                let b = base.amount.isNegative ? base.amount.negated : base.amount
                guard !b.isZero, let price = q.divided(by: b, roundedToScale: 12) else { return nil }
                let key = base.asset.text + "/" + quote.asset.text
                if let seen = prices[key] {
                    prices[key] = (min(seen.low, price), max(seen.high, price))
                } else {
                    prices[key] = (price, price)
                }
            }
            var total = ExactDecimal.zero
            for (low, high) in prices.values where !low.isZero {
                guard let spread = high.subtracting(low)?.divided(by: low, roundedToScale: 12), let sum = total.adding(spread) else { return nil }
                total = sum
            }
            return total
        }
        var best = identity
        var bestCost: ExactDecimal?
        func visit(_ p: [Int]) {
            guard let c = cost(p) else { return }
            if bestCost == nil || c < bestCost! {
                bestCost = c
                best = p
            }
        }
        // Heap's algorithm over the outs' order, file order first.
        var permutation = identity
        visit(permutation)
        var counters = Array(repeating: 0, count: permutation.count)
        var i = 1
        while i < permutation.count {
            if counters[i] < i {
                permutation.swapAt(i % 2 == 0 ? 0 : counters[i], i)
                visit(permutation)
                counters[i] += 1
                i = 1
            } else {
                counters[i] = 0
                i += 1
            }
        }
        return best
    }

    /// Which fee goes with each pair: where every pair is quoted in one currency and every fee is
    /// in one asset, a fee is in proportion to what its trade cost (an exchange charges a rate), so
    /// the largest fee goes with the largest amount, and so on down (equal ones in file order);
    /// else in file order.
    static func feeOrder(_ ins: [SpecLeg], _ outs: [SpecLeg], _ fees: [SpecLeg], quoteRank: [String: Int]) -> [Int] {
        let identity = Array(fees.indices)
        guard fees.count == ins.count, fees.count > 1, Set(fees.map(\.asset)).count == 1 else { return identity }
        var quotes: [ExactDecimal] = []
        var currencies: Set<AssetCode> = []
        for (a, b) in zip(ins, outs) {
            let rankIn = quoteRank[a.asset.text]
            let rankOut = quoteRank[b.asset.text]
            let quote = rankIn != nil && (rankOut == nil || rankIn! < rankOut!) ? a : b
            quotes.append(quote.amount.isNegative ? quote.amount.negated : quote.amount)
            currencies.insert(quote.asset)
        }
        guard currencies.count == 1 else { return identity }
        func magnitude(_ d: ExactDecimal) -> ExactDecimal { d.isNegative ? d.negated : d }
        let pairsByAmount = quotes.indices.sorted { quotes[$0] > quotes[$1] || (quotes[$0] == quotes[$1] && $0 < $1) }
        let feesByAmount = fees.indices.sorted {
            magnitude(fees[$0].amount) > magnitude(fees[$1].amount) || (magnitude(fees[$0].amount) == magnitude(fees[$1].amount) && $0 < $1)
        }
        var order = identity
        for (pair, fee) in zip(pairsByAmount, feesByAmount) { order[pair] = fee }
        return order
    }

    private static func sum(_ legs: [SpecLeg]) -> SpecLeg? {
        var amount = ExactDecimal.zero
        var fee: ExactDecimal?
        for leg in legs {
            guard let a = amount.adding(leg.amount) else { return nil }
            amount = a
            if let f = leg.legFee {
                guard let total = (fee ?? .zero).adding(f) else { return nil }
                fee = total
            }
        }
        let first = legs[0]
        return SpecLeg(location: first.location, raw: first.raw, asset: first.asset, amount: amount, isFee: false, legFee: fee, values: first.values)
    }
}
