import TradeportCore
import TradeportXLSX

/// Changes of positions without money, from section 3.1.
///
/// 3.1 prints, per security and place of custody, what came in («Зачисление») and went out
/// («Списание») in the period: the deals' units, and units that moved without a deal. Read at the
/// end, once every deal and payout is known, each row's units beyond what the deals of 1.1 moved
/// become a movement only where the report says why or nothing else could explain them:
///
/// - A bond redeemed in full («Погашение в уст. срок», «Погашение облигации» in section 2, with
///   the units in its note, `Количество: 1 шт.` or `Облигация/ 1 шт.`): its money is the
///   `redemption` transaction, its units leave as a movement `out` (`redemption`) dated at the
///   payout, when they are exactly what 3.1 says went out beyond the deals.
/// - A security that no deal and no payout of the report touches (a fund converted to a new
///   ISIN, a transfer between depositories): what 3.1 says came in or went out, net, is a
///   movement `unstated`, dated the last second of the report's period, the only date the report
///   gives it. Units that came in and went out alike move nothing in the end and are skipped,
///   saying so.
///
/// Anything else (a security with deals whose units 3.1 does not match) stays a skip: the
/// reconciliation then shows the difference. Filling it with a movement would hide a lost deal.
extension TinkoffReportParser {
    /// A position of 3.1 as read, waiting for the deals and payouts.
    struct HeldPosition {
        var row: Int
        var code: String
        var asset: AssetCode
        var isin: String?
        var name: String?
        var credited: ExactDecimal
        var debited: ExactDecimal
        var rawEnd: Int
    }

    /// What the deals emitted so far moved of one asset, not yet matched to a 3.1 row.
    struct DealUnits {
        var bought = ExactDecimal.zero
        var sold = ExactDecimal.zero
        var deals = 0
    }

    /// A full redemption read from section 2: the units its note names.
    struct Redemption {
        var quantity: ExactDecimal
        var time: Timestamp
        var row: Int
        var operation: String
    }

    static let fullRedemptionKinds: Set<String> = ["погашениевуст.срок", "погашениеоблигации"]

    /// The units a payout's note names: `Количество: 24 шт.` (2024–) or `ОблигацияN/ 1 шт.`.
    static func noteQuantity(_ note: String) -> ExactDecimal? {
        var text: Substring
        if let value = noteValue(note, "Количество") {
            text = Substring(value)
        } else if let slash = note.lastIndex(of: "/") {
            text = note[note.index(after: slash)...]
        } else {
            return nil
        }
        text = Substring(text.trimmedOfSpaces)
        guard text.hasSuffix("шт.") else { return nil }
        let number = text.dropLast(3).trimmedOfSpaces
        guard case .success(let q) = ExactDecimal.parse(number, style: NumberStyle(decimalSeparator: UInt8(ascii: "."))), q.isPositive else { return nil }
        return q
    }

    /// Notes a full redemption under every name its security goes by (code, ISIN).
    func noteRedemption(_ transaction: CashTransaction, note: String, operation: String) {
        guard let quantity = Self.noteQuantity(note) else { return }
        let r = Redemption(quantity: quantity, time: transaction.time, row: transaction.source.row, operation: operation)
        var keys: Set<String> = []
        if let s = transaction.security { keys.insert(s) }
        if let isin = Self.noteValue(note, "ISIN") { keys.insert(isin) }
        for key in keys { redemptions[key, default: []].append(r) }
    }

    /// A trade emitted at the end: its units, for the 3.1 rows after it.
    func noteDealUnits(_ record: SourceRecord) {
        guard case .operation(.trade(let t)) = record else { return }
        var units = dealUnits[t.base] ?? DealUnits()
        if t.side == .buy { units.bought = units.bought.adding(t.quantity) ?? units.bought } else { units.sold = units.sold.adding(t.quantity) ?? units.sold }
        units.deals += 1
        dealUnits[t.base] = units
    }

    /// The record a 3.1 row becomes: a movement, or a skip saying why not.
    func positionRecord(_ p: HeldPosition) -> SourceRecord {
        let source = at(row: p.row)
        let checked = "a position (section 3.1), not an operation: the operations are checked against it"
        var units = dealUnits[p.asset] ?? DealUnits()
        let hadDeals = units.deals > 0
        // The deals' units first: they are what 3.1 counts in and out.
        let inByDeals = units.bought < p.credited ? units.bought : p.credited
        let outByDeals = units.sold < p.debited ? units.sold : p.debited
        units.bought = units.bought.subtracting(inByDeals) ?? .zero
        units.sold = units.sold.subtracting(outByDeals) ?? .zero
        dealUnits[p.asset] = units
        let inRest = p.credited.subtracting(inByDeals) ?? .zero
        let outRest = p.debited.subtracting(outByDeals) ?? .zero
        if inRest.isZero && outRest.isZero { return .skipped(SkippedRow(source: source, reason: checked)) }

        func movement(_ direction: MovementDirection, _ quantity: ExactDecimal, _ reason: MovementReason, _ time: Timestamp, _ note: String) -> SourceRecord {
            .operation(
                .movement(
                    Movement(
                        externalId: nil, time: time, direction: direction, asset: p.asset, quantity: quantity, reason: reason,
                        isin: p.isin ?? isinByCode[p.code] ?? (ISIN.looksLike(p.code) ? p.code : nil), name: p.name, note: note, source: source)))
        }

        let keys = [p.code] + (p.isin.map { [$0] } ?? [])
        if let key = keys.first(where: { redemptions[$0] != nil }), let found = redemptions[key] {
            let total = found.reduce(ExactDecimal.zero) { $0.adding($1.quantity) ?? $0 }
            if inRest.isZero, total == outRest, let last = found.last {
                for k in keys { redemptions[k] = nil }
                let rows = found.map { "row \($0.row): \($0.operation)" }.joined(separator: ", ")
                return movement(.out, outRest, .redemption, last.time, "redeemed in full (\(rows)); section 3.1: out \(p.debited)")
            }
            return .skipped(
                SkippedRow(source: source, reason: checked + "; what went out beyond the deals (\(outRest)) is not the \(total) its redemption names"))
        }
        guard !hadDeals else {
            return .skipped(
                SkippedRow(source: source, reason: checked + "; in \(inRest) and out \(outRest) beyond its deals, which no row of the report explains"))
        }
        guard let net = inRest.subtracting(outRest) else { return .skipped(SkippedRow(source: source, reason: checked)) }
        if net.isZero {
            return .skipped(SkippedRow(source: source, reason: checked + "; \(inRest) came in and went out without a deal: no change in the end"))
        }
        guard let end = periodEnd, let last = LocalDateTime(date: end, hour: 23, minute: 59, second: 59) else {
            return .skipped(
                SkippedRow(
                    source: source,
                    reason: checked
                        + "; \(net.isNegative ? "out" : "in") \(net.isNegative ? net.negated : net) without a deal, but the report names no period to date it by"
                ))
        }
        let time = zone.timestamp(for: last)
        return movement(
            net.isNegative ? .out : .in, net.isNegative ? net.negated : net, .unstated, time,
            "section 3.1: in \(p.credited), out \(p.debited), without a deal; dated the end of the report's period")
    }

    /// The last day of the report's period, from its title (`… за период 01.01.2024 - 31.12.2024`).
    static func periodEnd(_ title: String) -> CalendarDate? {
        guard title.range(of: "за период") != nil else { return nil }
        let b = Array(title.utf8)
        var found: CalendarDate?
        var i = 0
        func digits(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= b.count else { return nil }
            var v = 0
            for k in at..<(at + n) {
                guard b[k] &- 48 < 10 else { return nil }
                v = v * 10 + Int(b[k] - 48)
            }
            return v
        }
        while i + 10 <= b.count {
            if let d = digits(i, 2), b[i + 2] == 0x2E, let m = digits(i + 3, 2), b[i + 5] == 0x2E, let y = digits(i + 6, 4),
                let date = CalendarDate(year: y, month: m, day: d)
            {
                found = date
                i += 10
            } else {
                i += 1
            }
        }
        return found
    }
}
