import TradeportCore

/// What the ledger writers share: which assets are money, the accounts, each operation as a
/// balanced transaction, and the balances a source prints as opening entries and assertions.
///
/// Operations are seen twice: once as they arrive (`note`), to learn which assets are money and
/// which sources touch which assets; then in time order (`entry`), when lots are followed.
struct LedgerBook {
    let accounts: AccountNames
    let dates: SourceTimeZone
    /// Beancount: trades hold their base at cost in lots, when nothing else moves it (money, a
    /// movement, an opening balance: units without a cost); otherwise, and in hledger, the base
    /// is valued at the trade's total price.
    let atCost: Bool
    /// How a portfolio's or asset's name is made part of an account name.
    let part: (String) -> String
    /// An asset's own name in the target, where it has one (Beancount's commodities): the part
    /// its accounts take instead of `part` of its code. Set before any entry is made.
    var assetNames: [AssetCode: String] = [:]
    /// Account names made so far, by role, portfolio and asset.
    private var names: [AccountKey: String] = [:]

    /// Assets that are money somewhere in the conversion (a quote, a fee, what a transaction
    /// moves): they go to `cash` accounts, every other asset to `securities`.
    private(set) var money: Set<AssetCode> = []
    private(set) var assets: Set<AssetCode> = []
    /// Assets something moves without a cost (money, a movement, an opening balance): Beancount
    /// refuses lots at cost beside units without one, so these are never held in lots.
    private var withoutCost: Set<AssetCode> = []
    /// Per source path: the portfolios its operations went to, its first and last dates.
    private var sourcePortfolios: [String: Set<String>] = [:]
    private var sourceDates: [String: (first: CalendarDate, last: CalendarDate)] = [:]
    /// Per portfolio and asset: the paths of the sources that moved it.
    private var touched: [Key: Set<String>] = [:]
    /// Lots held at cost per portfolio and asset, as the tool books them (beancount).
    private var held: [Key: HeldLots] = [:]
    /// Accounts used, with the first date each is used on.
    private(set) var opened: [String: CalendarDate] = [:]
    /// What is not written: transactions that moved nothing, trades whose value is beyond 38 digits.
    private(set) var counts = WriterNoteCounts()

    private struct Key: Hashable {
        var portfolio: String
        var asset: AssetCode
    }

    private struct AccountKey: Hashable {
        var role: AccountNames.Role
        var portfolio: String
        var asset: AssetCode
    }

    /// The most significant digits the target's arithmetic keeps (Beancount: 28, Python's decimal
    /// context), or nil for none: an operation whose numbers need more is not written but counted,
    /// since the tool would round it and then refuse the transaction as unbalanced.
    let digits: Int?
    /// The target's name, for what is counted as not carried.
    let target: String

    init(accounts: AccountNames, dates: SourceTimeZone, atCost: Bool, part: @escaping (String) -> String, digits: Int? = nil, target: String = "") {
        self.accounts = accounts
        self.dates = dates
        self.atCost = atCost
        self.part = part
        self.digits = digits
        self.target = target
    }

    /// Whether `operation` needs more than `limit` significant digits in the target's arithmetic:
    /// a number it writes with more, or weights the transaction adds up (a trade's quantity ×
    /// price, its amount, fees and accrued interest; a transaction's amount and fee) whose widest
    /// integer part and longest fraction together need more.
    static func needsMoreDigits(than limit: Int, _ operation: PortfolioOperation) -> Bool {
        var integer = 0
        var fraction = 0
        var tooLong = false
        func digits(_ n: ExactDecimal) -> Int {
            var m = n.mantissa.magnitude
            var count = 0
            while m > 0 {
                m /= 10
                count += 1
            }
            return count
        }
        /// A number written; `weight`: also one the transaction adds up.
        func take(_ n: ExactDecimal?, weight: Bool = true) {
            guard let n else { return }
            let count = digits(n)
            if count > limit { tooLong = true }
            guard weight else { return }
            integer = max(integer, count - n.scale)
            fraction = max(fraction, n.scale)
        }
        switch operation {
        case .trade(let t):
            take(t.quantity, weight: false)
            take(t.price, weight: false)
            take(t.amount)
            take(t.quantity.multiplied(by: t.price))
            take(t.accruedInterest)
            for fee in t.fees { take(fee.amount) }
        case .transaction(let t):
            take(t.amount)
            take(t.fee?.amount)
        case .movement(let m):
            take(m.quantity)
        }
        return tooLong || integer + fraction > limit
    }

    // MARK: The first pass

    mutating func note(_ operation: PortfolioOperation, portfolio: String) {
        let path = operation.source.path
        sourcePortfolios[path, default: []].insert(portfolio)
        let date = dates.date(of: operation.time)
        if let known = sourceDates[path] {
            sourceDates[path] = (min(known.first, date), max(known.last, date))
        } else {
            sourceDates[path] = (date, date)
        }
        switch operation {
        case .trade(let t):
            money.insert(t.quote)
            assets.insert(t.base)
            assets.insert(t.quote)
            for fee in t.fees {
                money.insert(fee.currency)
                assets.insert(fee.currency)
            }
        case .transaction(let t):
            money.insert(t.asset)
            assets.insert(t.asset)
            if let fee = t.fee {
                money.insert(fee.currency)
                assets.insert(fee.currency)
            }
        case .movement(let m):
            assets.insert(m.asset)
            withoutCost.insert(m.asset)
        }
        operation.forEachBalanceChange { asset, _, _ in
            touched[Key(portfolio: portfolio, asset: asset), default: []].insert(path)
        }
    }

    // MARK: Accounts

    mutating func account(_ role: AccountNames.Role, _ portfolio: String, _ asset: AssetCode, on date: CalendarDate) -> String {
        let key = AccountKey(role: role, portfolio: portfolio, asset: asset)
        let name: String
        if let made = names[key] {
            name = made
        } else {
            name = accounts.name(role, portfolio: part(portfolio), asset: assetNames[asset] ?? part(asset.description))
            names[key] = name
        }
        if let first = opened[name] {
            if date < first { opened[name] = date }
        } else {
            opened[name] = date
        }
        return name
    }

    /// Where `asset` is held: `cash` for money, `securities` for the rest.
    mutating func holding(_ portfolio: String, _ asset: AssetCode, on date: CalendarDate, kind: StatedBalance.Kind? = nil) -> String {
        let isMoney = money.contains(asset) || (!assets.contains(asset) && kind == .cash)
        return account(isMoney ? .cash : .securities, portfolio, asset, on: date)
    }

    // MARK: The second pass

    /// The transactions of one operation, in time order: none when it moved nothing (a
    /// transaction not complete, written only with --keep-failed) or its value cannot be held;
    /// two for a trade that closes lots whose cost is in another currency than its own and goes
    /// on past them (the lots closed, then the units beyond: Beancount books each currency of cost
    /// against the balance before the transaction, where the lots closed would still stand).
    mutating func entries(_ operation: PortfolioOperation, portfolio: String) -> [LedgerEntry] {
        // Before any lot is touched: left out, the operation leaves the book as the file holds it.
        if let limit = digits, Self.needsMoreDigits(than: limit, operation) {
            counts.notCarried("\(operation.kind.rawValue)s whose numbers need more than \(limit) significant digits, which \(target) works to")
            return []
        }
        let date = dates.date(of: operation.time)
        var meta: [(String, String)] = [("tradeport-id", operation.id)]
        var time = OutputBuffer(capacity: 40)
        operation.time.appendRFC3339(to: &time)
        meta.append(("time", String(decoding: time.bytes, as: UTF8.self)))
        var postings: [LedgerPosting] = []
        var narration: String
        /// The lots closed, when they go into a transaction of their own.
        var lotsClosed: LedgerEntry?
        switch operation {
        case .trade(let t):
            guard var value = t.amount ?? t.quantity.multiplied(by: t.price) else {
                counts.notCarried("trades whose quantity × price is beyond 38 digits")
                return []
            }
            let buy = t.side == .buy
            if let e = t.externalId { meta.append(("external-id", e)) }
            if let isin = t.isin { meta.append(("isin", isin)) }
            if let venue = t.venue { meta.append(("venue", venue)) }
            narration = "\(buy ? "Buy" : "Sell") \(t.quantity) \(t.base) at \(t.price) \(t.quote)" + (t.name.map { " (\($0))" } ?? "")
            let security = holding(portfolio, t.base, on: date)
            let signed = buy ? t.quantity : t.quantity.negated
            /// Whether the gain (or its rounding) goes to `gains`, which the tool fills in.
            var gains = false
            if atCost && !money.contains(t.base) && !withoutCost.contains(t.base) {
                let key = Key(portfolio: portfolio, asset: t.base)
                var lots = held[key] ?? HeldLots()
                let before = lots.total
                // The part of the trade that closes lots of the other sign, then the part that opens one.
                var closing = ExactDecimal.zero
                if !before.isZero, before.isNegative == buy {
                    let open = before.isNegative ? before.negated : before
                    closing = open < t.quantity ? open : t.quantity
                }
                let opening = t.quantity.subtracting(closing) ?? .zero
                let closed = closing.isPositive ? lots.close(closing) : []
                let closings = closed.map { run in
                    LedgerPosting(
                        account: security, amount: LedgerAmount(number: buy ? run.units : run.units.negated, asset: t.base),
                        cost: run.currency == t.quote ? .closing(price: LedgerAmount(number: t.price, asset: t.quote)) : .closingCostIn(run.currency))
                }
                if opening.isPositive, closed.contains(where: { $0.currency != t.quote }) {
                    // The lots closed for their share of the value at the trade's price; the rest,
                    // with the interest and fees, goes with the units opened.
                    guard let share = closing.multiplied(by: t.price), let rest = value.subtracting(share),
                        let openedValue = opening.multiplied(by: t.price)
                    else {
                        // Not written, so its lots stay as the ledger holds them.
                        counts.notCarried("trades whose quantity × price is beyond 38 digits")
                        return []
                    }
                    var first = closings
                    if !share.isZero {
                        first.append(
                            LedgerPosting(
                                account: holding(portfolio, t.quote, on: date), amount: LedgerAmount(number: buy ? share.negated : share, asset: t.quote)))
                    }
                    first.append(LedgerPosting(account: account(.gains, portfolio, t.quote, on: date), amount: nil))
                    lotsClosed = LedgerEntry(date: date, narration: narration + ": the \(closing) held", meta: meta, postings: first)
                    narration += ": the \(opening) beyond those held"
                    value = rest
                    gains = rest != openedValue
                } else {
                    postings = closings
                    gains = closing.isPositive
                }
                if opening.isPositive {
                    let cost: LedgerCost
                    if closing.isZero {
                        cost =
                            Self.perUnit(value, t.quantity).map { .lot(LedgerAmount(number: $0, asset: t.quote)) }
                            ?? .lotTotal(LedgerAmount(number: value, asset: t.quote))
                    } else {
                        cost = .lot(LedgerAmount(number: t.price, asset: t.quote))
                    }
                    postings.append(LedgerPosting(account: security, amount: LedgerAmount(number: buy ? opening : opening.negated, asset: t.base), cost: cost))
                    lots.open(buy ? opening : opening.negated, costIn: t.quote)
                }
                held[key] = lots
            } else {
                postings.append(
                    LedgerPosting(
                        account: security, amount: LedgerAmount(number: signed, asset: t.base),
                        cost: .totalPrice(LedgerAmount(number: value, asset: t.quote))))
            }
            if let interest = t.accruedInterest, !interest.isZero {
                value = value.adding(interest) ?? value
                postings.append(
                    LedgerPosting(
                        account: account(.coupons, portfolio, t.quote, on: date),
                        amount: LedgerAmount(number: buy ? interest : interest.negated, asset: t.quote)))
            }
            if !value.isZero {
                postings.append(
                    LedgerPosting(account: holding(portfolio, t.quote, on: date), amount: LedgerAmount(number: buy ? value.negated : value, asset: t.quote)))
            }
            for fee in t.fees where !fee.amount.isZero {
                postings.append(
                    LedgerPosting(account: holding(portfolio, fee.currency, on: date), amount: LedgerAmount(number: fee.amount.negated, asset: fee.currency)))
                postings.append(
                    LedgerPosting(account: account(.fees, portfolio, fee.currency, on: date), amount: LedgerAmount(number: fee.amount, asset: fee.currency)))
            }
            if gains {
                postings.append(LedgerPosting(account: account(.gains, portfolio, t.quote, on: date), amount: nil))
            }
        case .transaction(let t):
            guard t.status == .complete else {
                counts.notCarried("\(t.status.rawValue) transactions (no money moved)")
                return []
            }
            if let e = t.externalId { meta.append(("external-id", e)) }
            if let s = t.security { meta.append(("security", s)) }
            if let h = t.txHash { meta.append(("tx-hash", h)) }
            narration = "\(t.type.rawValue.capitalizedFirst) \(t.amount) \(t.asset)" + (t.security.map { " \($0)" } ?? "") + (t.note.map { ": \($0)" } ?? "")
            let other: AccountNames.Role
            switch t.type {
            case .deposit, .withdrawal: other = .transfers
            case .dividend, .dividendCharge: other = .dividends
            case .coupon: other = .coupons
            case .interest: other = .interest
            case .tax, .taxRefund: other = .taxes
            case .fee, .feeRefund: other = .fees
            case .redemption: other = .redemptions
            case .otherIncome: other = .otherIncome
            case .otherCharge: other = .otherCharges
            }
            let incoming = t.type.isIncoming
            if !t.amount.isZero {
                postings.append(
                    LedgerPosting(
                        account: holding(portfolio, t.asset, on: date), amount: LedgerAmount(number: incoming ? t.amount : t.amount.negated, asset: t.asset)))
                postings.append(
                    LedgerPosting(
                        account: account(other, portfolio, t.asset, on: date),
                        amount: LedgerAmount(number: incoming ? t.amount.negated : t.amount, asset: t.asset)))
            }
            if let fee = t.fee, !fee.amount.isZero {
                postings.append(
                    LedgerPosting(account: holding(portfolio, fee.currency, on: date), amount: LedgerAmount(number: fee.amount.negated, asset: fee.currency)))
                postings.append(
                    LedgerPosting(account: account(.fees, portfolio, fee.currency, on: date), amount: LedgerAmount(number: fee.amount, asset: fee.currency)))
            }
        case .movement(let m):
            if let e = m.externalId { meta.append(("external-id", e)) }
            if let isin = m.isin { meta.append(("isin", isin)) }
            meta.append(("reason", m.reason.rawValue))
            narration = "\(m.direction == .in ? "In" : "Out") \(m.quantity) \(m.asset) (\(m.reason.rawValue))" + (m.note.map { ": \($0)" } ?? "")
            let incoming = m.direction.isIncoming
            postings.append(
                LedgerPosting(
                    account: holding(portfolio, m.asset, on: date), amount: LedgerAmount(number: incoming ? m.quantity : m.quantity.negated, asset: m.asset)))
            postings.append(
                LedgerPosting(
                    account: account(.movements, portfolio, m.asset, on: date),
                    amount: LedgerAmount(number: incoming ? m.quantity.negated : m.quantity, asset: m.asset)))
        }
        meta.append(("source", operation.source.description))
        lotsClosed?.meta.append(("source", operation.source.description))
        let entry = LedgerEntry(date: date, narration: narration, meta: meta, postings: postings)
        return lotsClosed.map { [$0, entry] } ?? [entry]
    }

    /// `value ÷ quantity` when it is a decimal of at most 18 places more than `value` has.
    static func perUnit(_ value: ExactDecimal, _ quantity: ExactDecimal) -> ExactDecimal? {
        for extra in [0, 2, 4, 8, 12, 18] {
            guard let q = value.divided(by: quantity, roundedToScale: value.scale + quantity.scale + extra),
                let back = q.multiplied(by: quantity)
            else { return nil }
            if back == value { return q }
        }
        return nil
    }

    // MARK: Balances a source prints

    /// For each balance a source prints that tradeport reconciled, and whose asset in its
    /// portfolio only that source moved: an opening entry (when not zero) on the source's first
    /// date and an assertion of the closing balance the day after its last; for every other
    /// balance, the reason it is not asserted.
    mutating func statements(_ checks: [BalanceCheck]) -> (dated: [DatedStatement], notAsserted: [String]) {
        var entries: [LedgerEntry] = []
        var assertions: [LedgerAssertion] = []
        var notAsserted: [String] = []
        for check in checks {
            guard let opening = check.opening, let closing = check.closing, let asset = AssetCode(check.asset) else { continue }
            guard check.reconciles else {
                notAsserted.append("\(check.path): \(check.sentence)")
                continue
            }
            guard let portfolios = sourcePortfolios[check.path], portfolios.count == 1, let portfolio = portfolios.first,
                let span = sourceDates[check.path]
            else {
                notAsserted.append("\(check.path): \(check.asset): its operations went to \(sourcePortfolios[check.path]?.count ?? 0) portfolios; not asserted")
                continue
            }
            if let others = touched[Key(portfolio: portfolio, asset: asset)], others != [check.path] {
                notAsserted.append("\(check.path): \(check.asset): other sources move it in portfolio \(portfolio) too; not asserted")
                continue
            }
            let place = holding(portfolio, asset, on: span.first, kind: check.kind)
            if !opening.isZero {
                withoutCost.insert(asset)
                let other = account(.opening, portfolio, asset, on: span.first)
                entries.append(
                    LedgerEntry(
                        date: span.first, narration: "Opening balance of \(asset) as \(check.path) prints it",
                        meta: [("source", check.statement?.description ?? check.path)],
                        postings: [
                            LedgerPosting(account: place, amount: LedgerAmount(number: opening, asset: asset)),
                            LedgerPosting(account: other, amount: LedgerAmount(number: opening.negated, asset: asset))
                        ]))
            }
            let after = CalendarDate(daysSinceEpoch: span.last.daysSinceEpoch + 1)
            assertions.append(
                LedgerAssertion(
                    date: after, account: place, amount: LedgerAmount(number: closing, asset: asset),
                    comment: "closing balance as \(check.statement?.description ?? check.path) prints it"))
        }
        // By date, openings before assertions of the same date, each in the order of the checks.
        let dated = entries.map(DatedStatement.entry) + assertions.map(DatedStatement.assertion)
        let order = dated.indices.sorted { a, b in dated[a].date != dated[b].date ? dated[a].date < dated[b].date : a < b }
        return (order.map { dated[$0] }, notAsserted)
    }

    /// Writes every operation's transaction in time order into `body`, with `dated` (opening
    /// entries, assertions) placed among them by date, so the ledger reads in date order; `body`
    /// goes to `output` every megabyte. `write` puts one transaction or statement into the body.
    mutating func write(
        _ operations: OrderedOperations, dated: [DatedStatement], into body: inout OutputBuffer, output: OutputFile,
        _ write: (DatedStatement, inout OutputBuffer) -> Void
    ) throws {
        var next = 0
        try operations.forEachInTimeOrder { operation, portfolio in
            for entry in entries(operation, portfolio: portfolio) {
                while next < dated.count, dated[next].date <= entry.date {
                    write(dated[next], &body)
                    next += 1
                }
                write(.entry(entry), &body)
            }
            if body.count >= 1 << 20 {
                try output.append { $0.append(body.bytes) }
                body.removeAll()
            }
        }
        for statement in dated[next...] { write(statement, &body) }
    }

}

extension String {
    /// The text on one line, as `TargetText` has it: line breaks and tabs as spaces, other control
    /// characters dropped (a ledger's descriptions and comments).
    var oneLine: String { TargetText.oneLine(self) }

    /// The text with its first letter in capitals (`dividend-charge` → `Dividend-charge`).
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
