/// Checks one source's reading against the balances it prints: per asset, the sum of what every
/// operation read from it did (duplicates of earlier sources included: they are in this source
/// too), against the stated opening and closing. Kept only for readers that print balances.
struct Reconciliation {
    private struct Moved {
        var sum: ExactDecimal? = .zero
        var count = 0
        var rows: [Int] = []
        var money = false

        mutating func add(_ change: ExactDecimal?, money: Bool, row: Int) {
            if money { self.money = true }
            sum = change.flatMap { sum?.adding($0) }
            count += 1
            if rows.count < 50, rows.last != row { rows.append(row) }
        }
    }

    private var moved: [AssetCode: Moved] = [:]
    private var statements: [AssetCode: StatedBalance] = [:]
    private var statementOrder: [AssetCode] = []
    private var movedOrder: [AssetCode] = []

    var isEmpty: Bool { statements.isEmpty }

    mutating func record(_ operation: PortfolioOperation) {
        let row = operation.source.row
        operation.forEachBalanceChange { asset, change, money in
            // Changed where it is kept: its rows are not copied to be appended to.
            if let i = moved.index(forKey: asset) {
                moved.values[i].add(change, money: money, row: row)
            } else {
                movedOrder.append(asset)
                var entry = Moved()
                entry.add(change, money: money, row: row)
                moved[asset] = entry
            }
        }
    }

    /// A stated balance; a second one for the same asset adds to the first (a security held in
    /// two places is printed once per place).
    mutating func state(_ balance: StatedBalance) {
        if var existing = statements[balance.asset] {
            existing.opening = existing.opening.adding(balance.opening) ?? existing.opening
            existing.closing = existing.closing.adding(balance.closing) ?? existing.closing
            statements[balance.asset] = existing
        } else {
            statements[balance.asset] = balance
            statementOrder.append(balance.asset)
        }
    }

    /// The checks, in the order the source printed its balances, then the assets moved without a
    /// balance printed. Empty when the source printed none.
    func checks(path: String) -> [BalanceCheck] {
        guard !statements.isEmpty else { return [] }
        var checks: [BalanceCheck] = []
        for asset in statementOrder {
            let stated = statements[asset]!
            let entry = moved[asset] ?? Moved()
            let computed = entry.sum.flatMap { stated.opening.adding($0) }
            let difference = computed.flatMap { $0.subtracting(stated.closing) }
            let reconciles = difference?.isZero ?? false
            checks.append(
                BalanceCheck(
                    path: path, asset: asset.text, kind: stated.kind, opening: stated.opening, operations: entry.sum ?? .zero,
                    count: entry.count, closing: stated.closing, difference: difference ?? .zero, reconciles: reconciles,
                    statement: stated.source, rows: reconciles ? [] : entry.rows))
        }
        // A source whose balances are all a running balance of its rows (a spec's balance:) says
        // nothing of positions: those are not checked. A statement of a period (a T-Bank report)
        // that prints none while moving securities is still said.
        let statesPositions = statements.values.contains { $0.kind == .position || (!$0.running && !$0.printsNoPositions) }
        for asset in movedOrder where statements[asset] == nil {
            let entry = moved[asset]!
            // Moved and back (a repo's legs, a deposit withdrawn): nothing to state.
            if entry.sum?.isZero == true { continue }
            if !entry.money && !statesPositions { continue }
            checks.append(
                BalanceCheck(
                    path: path, asset: asset.text, kind: entry.money ? .cash : .position, opening: nil, operations: entry.sum ?? .zero, count: entry.count,
                    closing: nil, difference: entry.sum ?? .zero, reconciles: false, statement: nil, rows: entry.rows))
        }
        return checks
    }
}
