import TradeportCore
import TradeportXLSX

/// Tinkoff Investments' broker report («Отчет о сделках и операциях»): an XLSX workbook laid out
/// for printing (see docs/formats.md in the project's shared docs).
///
/// Section 1.1 gives trades, 1.2 pending deals (skipped), section 2 cash transactions per currency
/// block, 4.1 the securities (ISINs, and names for dividends). Every table occurrence is mapped by
/// its own header row; repeated headers and `N из` footers are structure, not rows; rows of the
/// other sections are skipped with the section they belong to.
///
/// The securities come last in the report, so trades are read as the sheet streams by and held
/// (about 740 bytes each; their raw texts go to a scratch file) until the sheet has been read;
/// cash rows are held as their cells and read at the end; then everything is emitted in row order.
public struct TinkoffReportReader: FormatReader {
    public let id = "tinkoff-report"
    public let summary = "Tinkoff Investments broker report (XLSX «Отчет о сделках и операциях», Moscow time)"

    /// The zone of the report's times.
    public static let defaultTimeZone = SourceTimeZone(identifier: "Europe/Moscow")!
    /// The sheet the report is on (else the first sheet).
    static let sheetName = "broker_rep"
    /// The names the broker has printed on its reports: «АО «Тинькофф Банк»» until 2024, «АО «ТБанк»» since.
    static let brokerNames = ["Тинькофф", "ТБанк", "Т-Банк", "Tinkoff", "T-Bank"]

    /// How many of a report's deals are held on the heap until its securities table (about 64 MiB
    /// of them); the rest wait in a scratch file, so memory does not grow with the report.
    var dealsOnHeap = 90_000

    public init() {}

    /// The report prints its balances: per currency (section 2) and per security (3.1).
    public var printsBalances: Bool { true }

    public func detect(_ probe: FormatProbe) -> Detection {
        if let problem = XLSXWorkbook.signatureProblem(head: probe.head, path: probe.filePath) {
            // An encrypted workbook or an old .xls: say which.
            if problem.kind == .encrypted || problem.kind == .legacyExcel { return .noMatch(problem.description) }
            return .noMatch("not an XLSX workbook (no ZIP signature)")
        }
        guard let path = probe.filePath else {
            return .noMatch("an XLSX workbook on standard input is not inspected; name its format with --format")
        }
        do {
            // Kept for the read that follows: its shared strings are loaded now.
            return try probe.withWorkbook(at: path) { workbook in
                let sheet = try Self.reportSheet(of: workbook)
                var sawTitle = false
                var sawBroker = false
                var sawDeals = false
                var rows = 0
                try workbook.readRows(of: sheet) { row in
                    rows += 1
                    for cell in row.cells where cell.kind == .string {
                        let text = cell.text.trimmedOfSpaces
                        if text.hasPrefix("Отчет о сделках и операциях") { sawTitle = true }
                        if text.hasPrefix("Брокер:") && Self.brokerNames.contains(where: { text.contains($0) }) {
                            sawBroker = true
                        }
                        // A report without its title block (the 2021 templates) is known by its
                        // sheet and its first section.
                        if sheet.name == Self.sheetName, row.cells.count == 1, TinkoffReportParser.sectionNumber(cell) == "1.1",
                            text.contains("Информация о совершенных и исполненных сделках")
                        {
                            sawDeals = true
                        }
                    }
                    return !(sawTitle && sawBroker) && !sawDeals && rows < 40
                }
                if (sawTitle && sawBroker) || sawDeals { return .match }
                return .noMatch(
                    "an XLSX workbook, but not a Tinkoff broker report (no «Брокер: АО «Тинькофф Банк»» or «Брокер: АО «ТБанк»» and «Отчет о сделках и операциях», nor a sheet broker_rep opening with «1.1 Информация о совершенных и исполненных сделках», in its first rows)"
                )
            }
        } catch {
            return .noMatch("cannot be read as an XLSX workbook: \(error)")
        }
    }

    static func reportSheet(of workbook: XLSXWorkbook) throws -> XLSXWorkbook.Sheet {
        if let sheet = workbook.sheets.first(where: { $0.name == sheetName }) { return sheet }
        return try workbook.sheet(at: 0)
    }

    public func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws {
        try input.withSeekableFile { path in
            let reader: TinkoffReportParser
            let sheet: XLSXWorkbook.Sheet
            do {
                (reader, sheet) = try input.withWorkbook(at: path) { workbook in
                    let sheet = try Self.reportSheet(of: workbook)
                    let reader = TinkoffReportParser(
                        locations: RowLocations(path: input.path, sheet: sheet.name),
                        zone: options.timeZone ?? Self.defaultTimeZone, dateSystem: workbook.dateSystem, dealsOnHeap: dealsOnHeap)
                    try workbook.readRows(of: sheet) { row in
                        try reader.handle(row)
                        return true
                    }
                    return (reader, sheet)
                }
            } catch let error as XLSXError {
                throw InputError(path: input.path, message: error.description)
            }
            guard reader.sawOperationsSection else {
                throw InputError(
                    path: input.path,
                    message:
                        "sheet '\(sheet.name)' has neither section 1.1 (executed deals) nor section 2 (cash operations): not a Tinkoff broker report tradeport can read"
                )
            }
            try reader.finish(emit: emit)
        }
    }
}
