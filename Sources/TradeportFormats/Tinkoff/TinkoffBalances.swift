import TradeportCore
import TradeportXLSX

/// What the report says it held: per currency (section 2's summary) and per security and place of
/// custody (section 3.1), and the period it covers. The conversion checks the operations read
/// against these (`StatedBalance`, `BalanceCheck`).
struct TinkoffBalances {
    struct Position {
        var code: String
        var isin: String?
        var opening: ExactDecimal
        var credited: ExactDecimal
        var debited: ExactDecimal
        var closing: ExactDecimal
        var source: SourceLocation
    }

    private(set) var cash: [StatedBalance] = []
    private(set) var positions: [Position] = []
    /// The last day of the report's period («Отчет о сделках и операциях за период 01.01.2024 - 31.12.2024»).
    private(set) var periodEnd: CalendarDate?

    mutating func add(_ balance: StatedBalance) { cash.append(balance) }

    mutating func addPosition(code: String, isin: String?, opening: ExactDecimal, credited: ExactDecimal, debited: ExactDecimal,
                              closing: ExactDecimal, source: SourceLocation) {
        positions.append(Position(code: code, isin: isin, opening: opening, credited: credited, debited: debited, closing: closing, source: source))
    }

    /// Notes the period from the title line, if `cell` is it.
    mutating func notePeriod(_ cell: XLSXCell) {
        let text = cell.text.trimmedOfSpaces
        guard text.hasPrefix("Отчет о сделках и операциях за период"), text.count >= 10 else { return }
        let last = Array(text.suffix(10).utf8)
        last.withUnsafeBytes { last in
        if let d = DecimalDigits.value(last, 0, 2), let m = DecimalDigits.value(last, 3, 2), let y = DecimalDigits.value(last, 6, 4) {
            periodEnd = CalendarDate(year: y, month: m, day: d)
        }
        }
    }

    /// The balances as statements: a position under its code, which is what the deals' assets are
    /// (a deal naming the security by its ISIN takes the code 3.1 or 4.1 gives that ISIN).
    func statements() -> [StatedBalance] {
        var out = cash
        for p in positions {
            guard let asset = AssetCode(p.code) else { continue }
            out.append(StatedBalance(asset: asset, kind: .position, opening: p.opening, closing: p.closing, source: p.source))
        }
        return out
    }
}
