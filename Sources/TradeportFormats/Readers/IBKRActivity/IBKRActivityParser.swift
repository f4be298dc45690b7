import TradeportCore

/// The second pass over an Activity Statement's lines: one record per line, in line order, each
/// line read under the latest Header line of its section. The statement's balances (and the
/// warnings of the first pass) go first; they are no rows.
///
/// Every line ends as an operation, a skip that says what the line is (a header, a total, a line of
/// a summary section), or a reject that names the line's column, text and what was expected: an
/// unknown section or row kind is rejected by name, never skipped.
struct IBKRActivityParser {
    let statement: IBKRActivityStatement
    var locations: RowLocations
    var converter: SourceTimeZone.Converter
    /// Each section's latest Header, by the section's name as written.
    var layouts: [String: ActivityLayout] = [:]
    /// Each cash section's first Header: a later one that differs starts a repeat of the section
    /// in IBKR's legacy layout (custom statements print Dividends and Deposits & Withdrawals twice).
    var firstLayouts: [String: ActivityLayout] = [:]
    /// The cash sections repeated that way: their later lines are the entries read once already.
    var repeated: Set<String> = []
    /// The Header line of the Trades block being read.
    var tradeBlock: Int?

    init(statement: IBKRActivityStatement, path: String, zone: SourceTimeZone) {
        self.statement = statement
        locations = RowLocations(path: path)
        converter = zone.makeConverter()
    }

    /// Emits the balances, then a record for every line.
    mutating func run(emit: RecordHandler) throws {
        for balance in statement.balances { try emit(.statement(balance)) { "" } }
        for warning in statement.warnings { try emit(.warning(warning)) { "" } }
        for line in statement.lines {
            let made = record(for: line)
            try emit(made) { line.raw }
        }
    }

    /// What `line` is.
    mutating func record(for line: IBKRActivityLine) -> SourceRecord {
        let location = locations.at(line.number)
        if let malformation = line.malformation {
            return reject(line, location, [FieldError(column: nil, field: nil, message: malformation)])
        }
        let name = line.section
        guard let section = ActivitySection.named(name) else {
            return reject(
                line, location,
                [
                    FieldError(
                        column: 1, field: "section",
                        message:
                            "unknown section '\(name)': not one tradeport knows an Activity Statement to have; expected Trades, Dividends, Withholding Tax, Deposits & Withdrawals, Fees, Interest or a summary section such as Cash Report"
                    )
                ])
        }
        switch line.kind {
        case "Header", "Headers":
            noteHeader(line, section)
            return skip(location, "the header of section '\(name)'")
        case "SubTotal":
            return skip(location, "a subtotal line of section '\(name)'")
        case "Total":
            return skip(location, "a total line of section '\(name)'")
        case "Notes":
            return skip(location, "a note of section '\(name)'")
        case "Data":
            break
        default:
            // Stray lines of a summary (`Total P/L for Statement Period,,,…`) have no row kind.
            if line.kind.isEmpty, case .summary(let what) = section { return skip(location, "section '\(name)': \(what)") }
            return reject(
                line, location,
                [
                    FieldError(
                        column: 2, field: "row kind",
                        message: "unknown row kind '\(line.kind)' in section '\(name)'; expected Header, Data, SubTotal, Total or Notes")
                ])
        }
        switch section {
        case .summary(let what):
            return skip(location, "section '\(name)': \(what)")
        case .unread:
            return reject(
                line, location,
                [
                    FieldError(
                        column: 1, field: "section",
                        message: "section '\(name)' moves money or units, and tradeport does not read it yet; expected its entries entered by hand")
                ])
        case .trades, .cash, .corporateActions:
            guard let layout = layouts[name] else {
                return reject(
                    line, location,
                    [
                        FieldError(
                            column: 2, field: "row kind",
                            message: "a Data line of section '\(name)' before any Header line of it; expected the Header that names its columns first")
                    ])
            }
            // Cash sections write their totals as Data lines: `Total`, `Total in EUR`, `Gesamt`.
            if let first = line.fields.first, ActivityLayout.isTotal(first.activityTrimmed) {
                return skip(location, "a line of totals of section '\(name)'")
            }
            return operationRecord(section, line, layout, location)
        }
    }

    /// The record of a Data line of Trades, a cash section or Corporate Actions.
    private mutating func operationRecord(
        _ section: ActivitySection, _ line: IBKRActivityLine, _ layout: ActivityLayout, _ location: SourceLocation
    ) -> SourceRecord {
        switch section {
        case .trades:
            return tradeRecord(line, layout, location)
        case .cash(let kind):
            if repeated.contains(line.section) {
                return skip(location, "section '\(line.section)' repeated in IBKR's legacy layout: the entries of the section read above")
            }
            return cashRecord(kind, line, layout, location)
        default:
            // Corporate Actions (the other sections never get here).
            return corporateAction(line, layout, location)
        }
    }

    private mutating func noteHeader(_ line: IBKRActivityLine, _ section: ActivitySection) {
        let layout = ActivityLayout(line.fields)
        layouts[line.section] = layout
        switch section {
        case .trades:
            tradeBlock = line.number
        case .cash:
            if let first = firstLayouts[line.section] {
                if first.names != layout.names { repeated.insert(line.section) }
            } else {
                firstLayouts[line.section] = layout
            }
        default:
            break
        }
    }

    /// A corporate action is rejected naming its description: a split, a spin-off, a merger or a
    /// stock dividend each move units differently, and one line does not say which way. The lot
    /// lines under one (`Closed Lot:` as the Report Date) are its details.
    func corporateAction(_ line: IBKRActivityLine, _ layout: ActivityLayout, _ location: SourceLocation) -> SourceRecord {
        if let report = layout.value(.reportDate, in: line.fields), report.hasPrefix("Closed Lot") {
            return skip(location, "a lot the corporate action above closed, a detail of it")
        }
        let index = layout.index(.description)
        let text = layout.value(.description, in: line.fields) ?? ""
        return reject(
            line, location,
            [
                FieldError(
                    column: index.map { IBKRActivityLine.column(ofField: $0) }, field: index.map { layout.names[$0] } ?? "Description",
                    message:
                        "a corporate action ('\(text)') is not read: what it moves depends on its kind (split, spin-off, merger, stock dividend…); expected it entered by hand"
                )
            ])
    }

    func skip(_ location: SourceLocation, _ reason: String) -> SourceRecord {
        .skipped(SkippedRow(source: location, reason: reason))
    }

    func reject(_ line: IBKRActivityLine, _ location: SourceLocation, _ errors: [FieldError]) -> SourceRecord {
        let errors = errors.isEmpty ? [FieldError(column: nil, field: nil, message: "the line cannot be read")] : errors
        return .rejected(RejectedRow(source: location, raw: line.raw, errors: errors))
    }
}
