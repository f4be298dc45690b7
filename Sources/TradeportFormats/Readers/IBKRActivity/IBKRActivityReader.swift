import TradeportCore

/// Interactive Brokers' Activity Statement as CSV (Performance & Reports → Statements → Activity,
/// CSV), English or German: every line is `Section,RowKind,fields…`, each section with its own
/// columns, given by its latest `Header` line (see docs/formats/ibkr-activity.md).
///
/// Trades, Deposits & Withdrawals, Dividends (payments in lieu included), Withholding Tax, Fees and
/// Interest become operations; summary sections are skipped saying what they are; Corporate
/// Actions and sections that move money tradeport does not read yet are rejected by name.
///
/// Two passes, over the lines held in memory (`IBKRActivityLine.readAll`): Financial Instrument
/// Information, which names each symbol's ISIN, comes after Trades, and the first pass reads it,
/// the base currency, and the balances. The statement prints its cash per currency (Cash Report)
/// and its positions (Mark-to-Market Performance Summary), which the conversion checks the reading
/// against (`printsBalances`).
public struct IBKRActivityReader: FormatReader {
    public let id = "ibkr-activity"
    public let summary = "Interactive Brokers Activity Statement (CSV with Statement, Trades, Dividends, … sections; New York time)"

    /// IBKR writes every time of a statement in US Eastern time, whatever the exchange.
    public static let defaultTimeZone = SourceTimeZone(identifier: "America/New_York")!

    public init() {}

    /// The Cash Report's starting and ending cash, the Mark-to-Market summary's quantities.
    public var printsBalances: Bool { true }

    /// The statement's first line is `Statement,Header,Field Name,Field Value` (localised
    /// statements translate the column names, so only `Statement,Header,` is looked for), and a
    /// line among the first starts with a section that carries money (`Trades,`, `Dividends,`,
    /// `Cash Report,`… or their German names): IBKR's Transaction History opens the same way and has
    /// none of them.
    public func detect(_ probe: FormatProbe) -> Detection {
        var head = probe.head[...]
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        let lines = head.split(omittingEmptySubsequences: true) { $0 == 0x0A || $0 == 0x0D }
        guard let first = lines.first, first.starts(with: Array("Statement,Header,".utf8)) else {
            return .noMatch("not an Interactive Brokers Activity Statement (its first line is not 'Statement,Header,Field Name,Field Value')")
        }
        let markers = ActivitySection.detectionMarkers
        if lines.dropFirst().contains(where: { line in markers.contains { line.starts(with: $0) } }) { return .match }
        return .noMatch(
            "an IBKR statement ('Statement,Header,…'), but no line among its first starts with a section of the Activity Statement (Trades, Dividends, Deposits & Withdrawals, Fees, Interest, Cash Report…): another IBKR report, such as the Transaction History"
        )
    }

    public func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws {
        let lines = try IBKRActivityLine.readAll(input)
        guard let first = lines.first, first.section == "Statement", first.kind == "Header" else {
            throw InputError(
                path: input.path,
                message: "not an Interactive Brokers Activity Statement: its first line is not 'Statement,Header,Field Name,Field Value'")
        }
        let statement = IBKRActivityStatement(lines: lines, path: input.path)
        var parser = IBKRActivityParser(statement: statement, path: input.path, zone: options.timeZone ?? Self.defaultTimeZone)
        try parser.run(emit: emit)
    }
}
