import TradeportCore

/// The human summary `convert` prints to standard error.
enum SummaryText {
    static func make(_ report: ConversionReport, output: String, written: Bool, strict: Bool) -> String {
        var lines: [String] = []
        for s in report.sources {
            lines.append(
                "\(s.path) (\(s.format)): \(counts(rows: s.rows, operations: s.operations, skipped: s.skipped, rejected: s.rejected, duplicates: s.duplicates, merged: s.merged, extra: s.extra))"
            )
            lines += reconciliation(report.reconciliation.filter { $0.path == s.path })
        }
        if report.sources.count > 1 {
            lines.append(
                "total: \(counts(rows: report.rows, operations: report.operations, skipped: report.skipped, rejected: report.rejected, duplicates: report.duplicates, merged: report.merged, extra: report.extra))"
            )
        }
        let portfolios = report.portfolios.count == 1 ? "portfolio \(report.portfolios[0])" : "\(report.portfolios.count) portfolios"
        let trades = Wording.count(report.trades, "trade")
        let transactions = Wording.count(report.transactions, "transaction")
        lines.append(
            report.movements == 0
                ? "\(trades) and \(transactions) in \(portfolios)"
                : "\(trades), \(transactions) and \(Wording.count(report.movements, "movement")) in \(portfolios)")
        if !report.warnings.isEmpty {
            lines.append("warnings (\(report.warnings.count)):")
            for w in report.warnings {
                lines.append("  \(w.code)" + (w.source.map { " at \($0)" } ?? "") + ": \(w.message)")
            }
        }
        if report.rejected > 0 {
            let shown = report.firstRejects.count
            lines.append(shown < report.rejected ? "rejected (first \(shown) of \(report.rejected)):" : "rejected (\(report.rejected)):")
            for r in report.firstRejects {
                for e in r.errors {
                    let column = e.column.map { ":\($0)" } ?? ""
                    let field = e.field.map { " \($0):" } ?? ""
                    lines.append("  \(r.source)\(column):\(field) \(e.message)")
                }
                // On a terminal a row is shown up to 300 characters; the output keeps what the reject carries.
                lines.append("      row: " + (r.raw.count > 300 ? r.raw.prefix(300) + "… (\(r.raw.utf8.count) bytes)" : r.raw))
            }
        }
        if !written {
            lines.append("nothing written: \(report.rejected) rows rejected and --strict given")
        } else if output != "-" {
            lines.append("written to \(output)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What a source's printed balances say of the reading: every currency, and the securities
    /// that do not reconcile (those that do, counted).
    static func reconciliation(_ checks: [BalanceCheck]) -> [String] {
        guard !checks.isEmpty else { return [] }
        let agree = checks.filter(\.reconciles).count
        let positions = checks.filter { $0.kind == .position }
        var lines = [
            "  checked against the balances it prints: \(agree) of \(checks.count) reconcile"
                + (agree == checks.count ? "" : ", \(checks.count - agree) do not")
        ]
        for c in checks where c.kind == .cash { lines.append("    \(c.sentence)") }
        let positionsAgree = positions.filter(\.reconciles).count
        if !positions.isEmpty { lines.append("    securities: \(positionsAgree) of \(positions.count) positions reconcile") }
        for c in positions where !c.reconciles { lines.append("    \(c.sentence)") }
        return lines
    }

    /// `12 rows: 9 operations, …`; with rows read together into one operation (`merged`) and rows
    /// giving two (`extra`), so that the counts still add up on the line:
    /// `12 rows + 1 extra: 9 operations, 4 merged, …` (rows + extra = the rest).
    private static func counts(rows: Int, operations: Int, skipped: Int, rejected: Int, duplicates: Int, merged: Int = 0, extra: Int = 0) -> String {
        let left = Wording.count(rows, "row") + (extra == 0 ? "" : " + \(extra) extra (from rows giving two operations)")
        let merging = merged == 0 ? "" : ", \(merged) merged (read into an operation of several rows)"
        return
            "\(left): \(Wording.count(operations, "operation"))\(merging), \(skipped) skipped, \(rejected) rejected, \(Wording.count(duplicates, "duplicate"))"
    }
}
