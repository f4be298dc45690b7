import TradeportCore

/// Securities section 3.1 prints under two codes: a ticker and its ISIN.
///
/// In 2022 T-Bank re-keyed the foreign securities it blocked: the 2022 report lists Hormel under
/// `HRL` (the units it held, going out) and under `US4404521001` (the same units, coming in). One
/// security is one asset: the ISIN's rows count with the ticker's, in the balances the operations
/// are checked against, in the deals (`finished` already takes the ticker of a deal named by ISIN)
/// and in the payouts' security; and the units that moved from one code to the other are not an
/// operation. The ticker's first row stands for the security, its in and out summed over every
/// row of both codes less what moved between the codes (what came in under the ISIN, at most what
/// went out under the ticker); its other rows are skipped, naming the row that counts them.
extension TinkoffReportParser {
    /// A security 3.1 prints under its ticker and under its ISIN.
    struct Rekeyed {
        var ticker: String
        var asset: AssetCode
        var isin: String
        /// The row that stands for the security: the first of its rows.
        var firstRow: Int
        var credited: ExactDecimal
        var debited: ExactDecimal
        /// The units that moved from the ticker to the ISIN.
        var moved: ExactDecimal
    }

    /// Finds the securities 3.1 prints under a ticker and under their ISIN.
    func findRekeyed() {
        var byIsin: [String: [HeldPosition]] = [:]
        for key in positionsSeen {
            if let isin = key.isin, ISIN.looksLike(isin) { byIsin[isin, default: []].append(key) }
        }
        for (isin, keys) in byIsin {
            let underIsin = keys.filter { $0.code == isin }
            let tickers = Set(keys.filter { $0.code != isin }.map(\.code))
            guard !underIsin.isEmpty, tickers.count == 1, let ticker = tickers.first, !ISIN.looksLike(ticker), let asset = AssetCode(ticker) else { continue }
            let sum = { (rows: [HeldPosition], value: KeyPath<HeldPosition, ExactDecimal>) in
                rows.reduce(ExactDecimal.zero) { $0.adding($1[keyPath: value]) ?? $0 }
            }
            let intoIsin = sum(underIsin, \.credited)
            let outOfTicker = sum(keys.filter { $0.code == ticker }, \.debited)
            let moved = intoIsin < outOfTicker ? intoIsin : outOfTicker
            guard let credited = sum(keys, \.credited).subtracting(moved), let debited = sum(keys, \.debited).subtracting(moved) else { continue }
            rekeyed[isin] = Rekeyed(
                ticker: ticker, asset: asset, isin: isin, firstRow: keys.map(\.row).min()!,
                credited: credited, debited: debited, moved: moved)
        }
    }

    /// The record of a 3.1 row: as `positionRecord` makes it, or, for a security printed under
    /// two codes, the security's whole position on its first row and a skip on the others.
    func rekeyedPositionRecord(_ p: HeldPosition) -> SourceRecord {
        guard let isin = p.isin, let r = rekeyed[isin] else { return positionRecord(p) }
        let both = "held under \(r.ticker) and under its ISIN \(r.isin) (the broker re-keyed it): one security"
        guard p.row == r.firstRow else {
            return .skipped(SkippedRow(source: at(row: p.row), reason: "a position (section 3.1), not an operation: \(both), counted with row \(r.firstRow)"))
        }
        var whole = p
        whole.code = r.ticker
        whole.asset = r.asset
        whole.credited = r.credited
        whole.debited = r.debited
        let record = positionRecord(whole)
        guard case .skipped(var skip) = record else { return record }
        skip.reason += "; \(both): its rows counted together, the \(r.moved) units that moved from one code to the other not an operation"
        return .skipped(skip)
    }
}
