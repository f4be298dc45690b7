import TradeportCore
import TradeportSpec

/// The check of a spec's reading against the running balance its file prints on its rows
/// (`balance:`): the operations read, replayed in the file's time order, against the balance each
/// time's rows print.
///
/// Rows of one time are one step: what order a file gives rows of the same time (DEGIRO prints a
/// trade, its fee and its exchange under one minute in no fixed order) is not the order the broker
/// booked them, so a step is checked as a whole, against the balance its chronologically last row
/// prints. The file's direction is its own: newest first when most of its steps come after a
/// later one. A row skipped or rejected moves nothing, and its balance is not a checkpoint: a rejected
/// row's money then shows as a difference at the next one — the check is a safety net.
///
/// At the end it states each asset's opening (the first balance printed less what its step moved)
/// and closing (the last printed) for the conversion's reconciliation, and a warning
/// `unreconciled-balance` for each step where the replay and the print differ, naming the rows.
/// Memory: one small entry per time step of the file.
final class RunningBalances {
    private struct Printed {
        var row: Int
        var amount: ExactDecimal
    }

    private struct Step {
        var time: Timestamp
        /// The step's first row in the file: steps are in the file's order by it (a group of rows
        /// makes its operation only once the group has ended, after rows that follow it).
        var row: Int
        var changes: [AssetCode: ExactDecimal] = [:]
        /// Per asset, the balance printed by the step's first and last row in the file.
        var first: [AssetCode: Printed] = [:]
        var last: [AssetCode: Printed] = [:]
    }

    private let amountColumn: Int
    private let assetColumn: Int?
    private let assetConstant: AssetCode?
    private let path: String
    private let sheet: String?
    private var steps: [Step] = []
    private var stepOf: [Timestamp: Int] = [:]
    /// Balances of rows read whose operations have not come yet (a group's legs), by row.
    private var pending: [Int: (AssetCode, ExactDecimal)] = [:]
    private var lastStep: Int?

    init?(_ rule: BalanceRule, plan: SpecPlan, path: String, sheet: String?) {
        func index(_ name: String) -> Int? { plan.spec.columns.firstIndex { $0.name == name } }
        guard let amount = index(rule.amount) else { return nil }
        amountColumn = amount
        switch rule.asset {
        case .column(let c):
            guard let i = index(c) else { return nil }
            assetColumn = i
            assetConstant = nil
        case .constant(let code):
            assetColumn = nil
            assetConstant = AssetCode(code)
        default:
            return nil
        }
        self.path = path
        self.sheet = sheet
    }

    /// The balance row `number` prints, from its values (none when a cell is empty).
    func read(_ values: SpecRowValues, row number: Int) {
        guard case .decimal(let amount)? = values.values[amountColumn] else { return }
        let asset: AssetCode?
        if let c = assetColumn {
            if case .asset(let a)? = values.values[c] { asset = a } else { asset = nil }
        } else {
            asset = assetConstant
        }
        guard let asset else { return }
        pending[number] = (asset, amount)
    }

    /// A record the reader emits: an operation's changes join its time's step, with the balance
    /// its row printed; a merged row's balance joins the step of the operation it went into.
    func observe(_ record: SourceRecord) {
        switch record {
        case .operation(let operation), .placed(let operation, _), .additional(let operation, _):
            let time = operation.time
            let k: Int
            if let existing = stepOf[time] {
                k = existing
            } else {
                k = steps.count
                steps.append(Step(time: time, row: operation.source.row))
                stepOf[time] = k
            }
            steps[k].row = min(steps[k].row, operation.source.row)
            operation.forEachBalanceChange { asset, change, _ in
                guard let change else { return }
                steps[k].changes[asset] = (steps[k].changes[asset] ?? .zero).adding(change) ?? steps[k].changes[asset]
            }
            attach(operation.source.row, to: k)
            lastStep = k
        case .merged(let location):
            if let k = lastStep { attach(location.row, to: k) }
        case .skipped(let row):
            pending[row.source.row] = nil
        case .rejected(let row):
            pending[row.source.row] = nil
        case .statement, .warning:
            break
        }
    }

    private func location(_ row: Int) -> SourceLocation { SourceLocation(path: path, row: row, sheet: sheet) }

    private func attach(_ row: Int, to k: Int) {
        steps[k].row = min(steps[k].row, row)
        guard let (asset, amount) = pending.removeValue(forKey: row) else { return }
        let printed = Printed(row: row, amount: amount)
        if let f = steps[k].first[asset], f.row < row {} else { steps[k].first[asset] = printed }
        if let l = steps[k].last[asset], l.row > row {} else { steps[k].last[asset] = printed }
    }

    /// The statements and warnings of the whole file, once it has been read.
    func finish(emit: RecordHandler) throws {
        pending.removeAll()
        guard steps.count > 1 else { return }
        let steps = self.steps.sorted { $0.row < $1.row }
        // The file's direction: how most of its steps follow each other (a file put together from
        // several exports still runs one way within each).
        var later = 0
        var earlier = 0
        for k in 1..<steps.count {
            if steps[k].time > steps[k - 1].time { later += 1 } else { earlier += 1 }
        }
        let newestFirst = earlier > later
        let chronological = newestFirst ? Array(steps.reversed()) : steps
        // Assets in the order their first balance comes.
        var order: [AssetCode] = []
        for step in chronological {
            for asset in (newestFirst ? step.first : step.last).keys.sorted(by: { $0.text < $1.text }) where !order.contains(asset) {
                order.append(asset)
            }
        }
        for asset in order {
            var running: ExactDecimal?
            var opening: ExactDecimal?
            var openingRow = 0
            var since = 0
            var moved = ExactDecimal.zero
            var closing = ExactDecimal.zero
            for step in chronological {
                if let c = step.changes[asset] { moved = moved.adding(c) ?? moved }
                guard let printed = newestFirst ? step.first[asset] : step.last[asset] else { continue }
                if let r = running {
                    let expected = r.adding(moved) ?? r
                    if expected != printed.amount {
                        let difference = printed.amount.subtracting(expected) ?? .zero
                        try emit(
                            .warning(
                                ConversionWarning(
                                    code: "unreconciled-balance",
                                    message:
                                        "\(asset.text): the balance row \(printed.row) prints, \(printed.amount), is not what the operations read give, \(expected) (\(r) at row \(since), then \(moved) to \(step.time)): a difference of \(difference)",
                                    source: location(printed.row))), { "" })
                    }
                } else {
                    opening = printed.amount.subtracting(moved)
                    openingRow = printed.row
                }
                running = printed.amount
                since = printed.row
                moved = .zero
                closing = printed.amount
            }
            // What moved after the last balance printed shows in the reconciliation.
            if let opening {
                var statement = StatedBalance(asset: asset, kind: .cash, opening: opening, closing: closing, source: location(openingRow))
                statement.running = true
                try emit(.statement(statement), { "" })
            }
        }
    }
}
