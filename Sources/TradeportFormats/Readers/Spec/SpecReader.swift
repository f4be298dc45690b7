import TradeportCSV
import TradeportCore
import TradeportPrimitives
import TradeportSpec
import TradeportXLSX

/// A format described by a spec (`formats/*.yaml`): the generic CSV reader. It reads each row's
/// columns in the spec's order, checks them, and builds the trade or cash transaction the spec's
/// mapping names, or a reject naming every problem.
public struct SpecReader: PreparingReader, NearMissDetecting {
    public let spec: FormatSpec
    let plan: SpecPlan
    /// The bytes of a piece of a CSV source read on a worker (see `readCSV`); smaller in tests and
    /// the `prepared` fuzz target, 0 to read a source in one go.
    package var pieceSize = SpecReader.defaultPieceSize
    public var id: String { spec.id }
    /// A spec that names the balance its rows print (`balance:`) has its reading checked against it.
    public var printsBalances: Bool { spec.balance != nil }
    public var summary: String { spec.description }

    /// The spec's plainest trades read straight from a row's bytes, where the spec allows it
    /// (`CompiledTradePlan`): what workers reading pieces use when the conversion asks them to prepare.
    let compiledTrades: CompiledTradePlan?

    public init(_ spec: FormatSpec) {
        self.spec = spec
        plan = SpecPlan(spec)
        compiledTrades = CompiledTradePlan(plan)
    }

    var csv: CSVSource? { if case .csv(let c) = spec.source { return c } else { return nil } }

    /// The CSV dialect for a source whose first bytes, in UTF-8, are `head`: the spec's delimiter,
    /// or with `delimiter: auto` the one that splits those lines most consistently.
    func dialect(_ csv: CSVSource, head: @autoclosure () -> [UInt8]) -> CSVDialect {
        switch csv.delimiter {
        case .byte(let b): return CSVDialect(delimiter: b, quote: csv.quote)
        case .auto:
            // Sniffed on the lines after those the spec skips (a title line has no delimiters).
            var lines = head()[...]
            for _ in 0..<csv.skipLines {
                guard let end = lines.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { break }
                lines = lines[(end + 1)...].drop { $0 == 0x0A || $0 == 0x0D }
            }
            return CSVDialect(delimiter: CSVDialect.sniffDelimiter(Array(lines)) ?? UInt8(ascii: ","), quote: csv.quote)
        }
    }

    /// Header texts for messages: `Date, Action|Type, Amount`.
    static func headerText(_ wanted: [[String]]) -> String {
        wanted.map { $0.joined(separator: "|") }.joined(separator: ", ")
    }

    static func delimiterName(_ d: UInt8) -> String {
        d == 0x09 ? "tab" : "'\(String(decoding: [d], as: UTF8.self))'"
    }

    /// The probe's bytes as UTF-8, through the same transcoding as reading (what does not transcode,
    /// a character cut by the probe's end, is left off). Made once an encoding for a probe: every
    /// spec of that encoding looks at the same head during detection, and the read after it too.
    static func utf8Head(_ probe: FormatProbe, _ csv: CSVSource) -> [UInt8] {
        probe.opened.shared("SpecReader.utf8Head." + csv.encoding.rawValue) {
            let head = probe.head
            guard csv.encoding != .utf8 else { return head }
            var offset = 0
            let transcoder = TextTranscoder(encoding: csv.encoding, path: probe.name, inputSize: head.count) { buffer in
                let n = min(buffer.count, head.count - offset)
                head.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
                offset += n
                return n
            }
            var made: [UInt8] = []
            var chunk = [UInt8](uninitializedBytes: min(1 << 16, 2 * head.count + 16))
            while let n = try? chunk.withUnsafeMutableBytes({ try transcoder.read(into: $0) }), n > 0 {
                made.append(contentsOf: chunk[..<n])
            }
            return made
        }
    }

    private struct EnoughRecords: Error {}

    /// The probe's head as detection reads it with this spec: UTF-8, without a line the probe's
    /// end cuts, and the dialect resolved on that.
    private func completeHead(_ probe: FormatProbe, _ csv: CSVSource) -> (bytes: [UInt8], dialect: CSVDialect) {
        var head = Self.utf8Head(probe, csv)
        if !probe.isWholeInput, let lastBreak = head.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            head.removeSubrange((lastBreak + 1)...)
        }
        return (head, dialect(csv, head: head))
    }

    /// The first complete records of `head` (see `completeHead`), read as this spec reads its
    /// source (dialect, quotes, skipped lines), up to `limit`.
    private func headRecords(_ head: [UInt8], _ resolved: CSVDialect, _ csv: CSVSource, limit: Int, _ body: (CSVRecord) -> Void) {
        var offset = 0
        // The head is at most the probe's size: a buffer of that (not the 1 MiB of a whole file).
        let reader = CSVReader(dialect: resolved, chunkSize: head.count + 16) { buffer in
            let n = min(buffer.count, head.count - offset)
            head.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            offset += n
            return n
        }
        var line = 0
        var seen = 0
        try? reader.forEachRecord { record in
            line += 1
            if line <= csv.skipLines || record.isEmptyLine { return }
            body(record)
            seen += 1
            if seen == limit { throw EnoughRecords() }
        }
    }

    // MARK: - Detection

    /// The texts of the first 50 records of the probe, read as this spec reads its source and
    /// folded as header texts are (`HeaderText.fold`). Made once for a probe for every spec that
    /// reads it the same way (encoding, the dialect resolved, skipped lines), since detection asks
    /// each built-in spec in turn.
    private func foldedHeadLines(_ probe: FormatProbe, _ csv: CSVSource) -> [[[UInt8]]] {
        let (head, resolved) = completeHead(probe, csv)
        // The header may come after a preamble as long as the spec allows (`header: {find: …, within: N}`:
        // Vanguard's holdings before its transactions), within the probe's bytes.
        let limit = Self.headerLineLimit(csv)
        let key =
            "SpecReader.foldedHeadLines.\(csv.encoding.rawValue).\(resolved.delimiter).\(resolved.quote.map(String.init) ?? "-").\(csv.skipLines).\(limit)"
        return probe.opened.shared(key) {
            var lines: [[[UInt8]]] = []
            headRecords(head, resolved, csv, limit: limit) { record in
                // A malformed record is no header (a JSON line read as CSV: `"time":"…"` is the
                // field `time` with text after its closing quote).
                lines.append(record.malformation != nil ? [] : (0..<record.count).map { HeaderText.fold(record[$0]) })
            }
            return lines
        }
    }

    /// How many lines detection looks through for the header: 50, or as many as the spec's
    /// `header.find.within` allows.
    static func headerLineLimit(_ csv: CSVSource) -> Int {
        if case .find(_, let within) = csv.header { return max(50, within) }
        return 50
    }

    /// The line among the first that holds most of the header entries detection looks for.
    public func nearMiss(_ probe: FormatProbe) -> NearMiss? {
        guard let csv else { return nil }
        var wanted = spec.detect?.header ?? []
        if wanted.isEmpty, case .find(let texts, _) = csv.header { wanted = texts.map { [$0] } }
        guard !wanted.isEmpty else { return nil }
        if csv.encoding == .utf8 || csv.encoding.isSingleByte, probe.head.contains(0) { return nil }
        let folded = wanted.map { $0.map { HeaderText.fold($0) } }
        let (head, resolved) = completeHead(probe, csv)
        var best: NearMiss?
        var number = csv.skipLines
        headRecords(head, resolved, csv, limit: Self.headerLineLimit(csv)) { record in
            number += 1
            guard record.malformation == nil else { return }
            let texts = (0..<record.count).map { HeaderText.fold(record[$0]) }
            let held = folded.map { $0.contains(where: texts.contains) }
            let found = held.filter { $0 }.count
            if found > (best?.found ?? 0) {
                let missing = zip(wanted, held).filter { !$0.1 }.map { $0.0.joined(separator: "|") }
                best = NearMiss(found: found, wanted: wanted.count, missing: missing, line: record.line, text: String(record.rawText.prefix(300)))
            }
        }
        return best
    }

    public func detect(_ probe: FormatProbe) -> Detection {
        guard let csv else { return detectWorkbook(probe) }
        if csv.encoding == .utf8 || csv.encoding.isSingleByte, let nul = probe.head.firstIndex(of: 0) {
            return .noMatch("binary data (a NUL byte at offset \(nul)), not a text export")
        }
        // By header texts: a line among the first holds them all.
        var wanted = spec.detect?.header ?? []
        if wanted.isEmpty, case .find(let texts, _) = csv.header { wanted = texts.map { [$0] } }
        if !wanted.isEmpty {
            let folded = wanted.map { $0.map { HeaderText.fold($0) } }
            let found = foldedHeadLines(probe, csv).contains { texts in folded.allSatisfy { $0.contains(where: texts.contains) } }
            return found ? .match : .noMatch("no line among the first holds the header \(Self.headerText(wanted))")
        }
        guard spec.detect?.fit.isEmpty == false else { return .noMatch("the spec says nothing to recognize its files by (detect: fit or header)") }
        let fitColumns = spec.detect?.fit.compactMap { name in plan.columnIndex[name].map { (index: $0, column: spec.columns[$0]) } } ?? []
        var values = SpecRowValues(plan: plan, codes: AssetCodeCache())
        var checked = 0
        var fitting = 0
        var problem: String?
        let (head, resolved) = completeHead(probe, csv)
        headRecords(head, resolved, csv, limit: 200) { record in
            checked += 1
            if let n = csv.fields, record.count != n {
                problem =
                    problem
                    ?? "line \(checked) has \(record.count) field\(record.count == 1 ? "" : "s") separated by \(Self.delimiterName(resolved.delimiter)), not \(n)"
                return
            }
            for (index, column) in fitColumns {
                guard case .position(let p) = column.reference, p <= record.count else { continue }
                values.reset()
                if !values.fits(index, record[p - 1]) {
                    problem = problem ?? "line \(checked) has no \(column.name) in column \(p) (\(String(decoding: record[p - 1].prefix(40), as: UTF8.self)))"
                    return
                }
            }
            fitting += 1
        }
        if checked == 0 { return .noMatch("no complete line to look at") }
        return fitting * 2 > checked ? .match : .noMatch(problem ?? "lines do not fit")
    }

    /// A workbook matches when a row near its top holds the header texts the spec names.
    private func detectWorkbook(_ probe: FormatProbe) -> Detection {
        guard case .xlsx(let xlsx) = spec.source else { return .noMatch("not a workbook format") }
        guard probe.head.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { return .noMatch("not an XLSX workbook (no ZIP signature)") }
        guard let path = probe.filePath else { return .noMatch("an XLSX workbook on standard input is not inspected; name its format with --format") }
        var wanted = spec.detect?.header ?? []
        var within = 20
        if case .find(let texts, let n) = xlsx.header {
            if wanted.isEmpty { wanted = texts.map { [$0] } }
            within = n
        }
        if wanted.isEmpty {
            wanted = spec.columns.compactMap { if case .header(let names) = $0.reference, $0.required == .yes { return names } else { return nil } }
        }
        guard !wanted.isEmpty else { return .noMatch("the spec names no header texts to look for") }
        let folded = wanted.map { $0.map { HeaderText.fold($0) } }
        do {
            // Kept for the read that follows (its shared strings and styles loaded once).
            return try probe.withWorkbook(at: path) { workbook in
                let sheet = try workbook.sheet(xlsx.sheet)
                var found = false
                var rows = 0
                try workbook.readRows(of: sheet) { row in
                    rows += 1
                    let texts = row.cells.map { HeaderText.fold($0.bytes) }
                    found = folded.allSatisfy { $0.contains(where: texts.contains) }
                    return !found && rows < within
                }
                return found ? .match : .noMatch("no row in the first \(within) of sheet '\(sheet.name)' holds \(Self.headerText(wanted))")
            }
        } catch {
            return .noMatch("cannot be read as this workbook format: \(error)")
        }
    }

    // MARK: - Reading

    public func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws {
        try read(input, options: options, preparing: nil, emit: emit) { _, _ in
            preconditionFailure("nothing is prepared without a preparation")
        }
    }

    /// Reads the source; a CSV source read in pieces has its workers prepare each operation they
    /// can (`PreparingReader`).
    public func read(
        _ input: SourceInput, options: ReadOptions, preparation: OperationPreparation,
        emit: RecordHandler, emitPrepared: PreparedRecordHandler
    ) throws {
        try read(input, options: options, preparing: preparation, emit: emit, emitPrepared: emitPrepared)
    }

    private func read(
        _ input: SourceInput, options: ReadOptions, preparing preparation: OperationPreparation?,
        emit: RecordHandler, emitPrepared: PreparedRecordHandler
    ) throws {
        guard let zone = options.timeZone ?? SourceTimeZone(identifier: spec.values.timeZone) else {
            throw InputError(path: input.path, message: "the spec's time zone '\(spec.values.timeZone)' is unknown")
        }
        var state = ReadState(reader: self, zone: zone.makeConverter(), origin: RowLocations(path: input.path), path: input.path)
        state.preparation = preparation
        // Parameters: as given, else their defaults, said once per source.
        for p in spec.parameters {
            if let given = options.parameters[p.name] {
                state.values.parameters[p.name] = given
            } else {
                state.values.parameters[p.name] = p.defaultValue
                try emit(
                    .warning(
                        ConversionWarning(
                            code: "parameter-assumed",
                            message: "\(spec.id): \(p.about) is not in the file: \(p.defaultValue) assumed (--param \(p.name)=VALUE for another)",
                            source: nil)), { "" })
            }
        }
        guard let rule = spec.balance else {
            try read(input, state: &state, emit: emit, emitPrepared: emitPrepared)
            return
        }
        // The running balance a file prints: every record is seen on its way (read in one go).
        var sheet: String?
        if case .xlsx(let x) = spec.source, case .name(let n) = x.sheet { sheet = n }
        guard let running = RunningBalances(rule, plan: plan, path: input.path, sheet: sheet) else {
            try read(input, state: &state, emit: emit, emitPrepared: emitPrepared)
            return
        }
        state.running = running
        try withoutActuallyEscaping(emit) { emit in
            let observed: RecordHandler = { record, raw in
                running.observe(record)
                try emit(record, raw)
            }
            try read(input, state: &state, emit: observed, emitPrepared: emitPrepared)
            try running.finish(emit: emit)
        }
    }

    private func read(_ input: SourceInput, state: inout ReadState, emit: RecordHandler, emitPrepared: PreparedRecordHandler) throws {
        switch spec.source {
        case .csv(let csv):
            let resolved = dialect(csv, head: Self.utf8Head(input.probe, csv))
            let transcoder = TextTranscoder(encoding: csv.encoding, path: input.path) { buffer in try input.read(into: buffer) }
            try readCSV(
                csv, dialect: resolved, state: &state, read: { buffer in try transcoder.read(into: buffer) },
                emit: emit, emitPrepared: emitPrepared)
            try state.finish(csv.header, emit: emit)
        case .xlsx(let xlsx):
            try input.withSeekableFile { path in
                do {
                    try input.withWorkbook(at: path) { workbook in
                        let sheet = try workbook.sheet(xlsx.sheet)
                        state.values.dateSystem = workbook.dateSystem
                        state.origin = RowLocations(path: input.path, sheet: sheet.name)
                        var scratch: [Int] = []
                        var failure: Error?
                        try workbook.readRows(of: sheet) { row in
                            let specRow = SheetSpecRow(row, scratch: &scratch)
                            do {
                                try state.handle(
                                    specRow, number: row.number, ordinal: row.number, malformation: nil,
                                    header: xlsx.header, raw: { row.text }, emit: emit)
                            } catch {
                                failure = error
                                return false
                            }
                            return true
                        }
                        if let failure { throw failure }
                    }
                } catch let error as XLSXError {
                    throw InputError(path: input.path, message: error.description)
                }
            }
            try state.finish(xlsx.header, emit: emit)
        }
    }

    /// What reading a source keeps from row to row: where the header put each column, and the values.
    struct ReadState {
        let reader: SpecReader
        var zone: SourceTimeZone.Converter
        /// The zones rows have named (values.zone-column), each read once.
        var zones: [String: SourceTimeZone.Converter] = [:]
        var origin: RowLocations
        let path: String
        var positions: [Int?]
        var headerFound: Bool
        var values: SpecRowValues
        /// What the conversion asks the workers reading pieces to do for each operation.
        var preparation: OperationPreparation?
        /// The check against the balance the rows print (`balance:`), when the spec names one.
        var running: RunningBalances?

        init(reader: SpecReader, zone: SourceTimeZone.Converter, origin: RowLocations, path: String) {
            self.reader = reader
            self.zone = zone
            self.origin = origin
            self.path = path
            positions = reader.spec.columns.map { column in
                if case .position(let p) = column.reference { return p - 1 }
                return nil
            }
            Self.placeFromColumns(reader.spec, &positions)
            switch reader.spec.source {
            case .csv(let c): if case .none = c.header { headerFound = true } else { headerFound = false }
            case .xlsx(let x): if case .none = x.header { headerFound = true } else { headerFound = false }
            }
            values = SpecRowValues(plan: reader.plan, codes: AssetCodeCache())
        }

        /// Columns read from another column's cell (`from:`) take its place.
        static func placeFromColumns(_ spec: FormatSpec, _ positions: inout [Int?]) {
            for (i, column) in spec.columns.enumerated() {
                if case .from(let other) = column.reference, let o = spec.columns.firstIndex(where: { $0.name == other }) {
                    positions[i] = positions[o]
                }
            }
        }

        /// The first row before the header that could not be read, and why (for the message when no
        /// header is found).
        var unreadableBeforeHeader: String?

        /// The legs of the group of rows being read (`group:`), and its key.
        var legs: [SpecLeg] = []
        var legKey: [UInt8] = []

        /// One row: the header (mapping names to columns), or a data row emitted as one record.
        /// Per `layouts:` entry: where each column is on a row of that layout, and its pattern.
        var layoutPositions: [[Int?]] = []
        var layoutPatterns: [Regex<AnyRegexOutput>] = []

        /// The positions a row is read by: the file header's, or a layout's its cell tells.
        func positionsFor(_ row: some SpecRow) -> [Int?]? {
            for (k, layout) in reader.spec.layouts.enumerated() where k < layoutPatterns.count {
                let at = layout.position - 1
                guard at < row.fieldCount else { continue }
                let text = String(decoding: row.field(at).bytes, as: UTF8.self)
                if (try? layoutPatterns[k].wholeMatch(in: text)) != nil { return layoutPositions[k] }
            }
            return nil
        }

        /// The positions of `layouts:` entries, once the header has been found.
        mutating func placeLayouts() {
            let spec = reader.spec
            layoutPatterns = spec.layouts.compactMap { try? Regex($0.matches) }
            layoutPositions = spec.layouts.map { layout in
                let texts = layout.header.map { HeaderText.fold($0) }
                var at: [Int?] = spec.columns.map { column in
                    switch column.reference {
                    case .header(let names): return names.lazy.compactMap { texts.firstIndex(of: HeaderText.fold($0)) }.first
                    case .position(let p): return p - 1
                    case .from: return nil
                    }
                }
                Self.placeFromColumns(spec, &at)
                return at
            }
        }

        /// The data row read last, kept until the next one says whether it continues it (`wrapped:`).
        var held: (row: HeldRow, number: Int, ordinal: Int, malformation: String?, raw: String)?

        /// One row; with `wrapped:`, a data row is kept until the next, whose wrapped text (a line
        /// holding only the end of the kept row's value) is joined to it first.
        mutating func handle(
            _ row: some SpecRow, number: Int, ordinal: Int, malformation: String?, header: HeaderRule,
            raw: () -> String, emit: RecordHandler
        ) throws {
            guard headerFound, let (column, marker) = reader.plan.wrappedColumns, let at = positions[column], let markerAt = positions[marker] else {
                try process(row, number: number, ordinal: ordinal, malformation: malformation, header: header, raw: raw, emit: emit)
                return
            }
            if let kept = held {
                held = nil
                // A wrapped line: the marker empty, the wrapped column filled, every other cell empty.
                var continues = at < row.fieldCount && row.field(at).bytes.count > 0 && (markerAt >= row.fieldCount || row.field(markerAt).bytes.isEmpty)
                if continues {
                    for i in 0..<row.fieldCount where i != at && row.field(i).bytes.count > 0 { continues = false }
                }
                if continues { kept.row.append(row.field(at).bytes, to: at) }
                try process(
                    kept.row, number: kept.number, ordinal: kept.ordinal, malformation: kept.malformation, header: header, raw: { kept.raw }, emit: emit)
                if continues {
                    try process(row, number: number, ordinal: ordinal, malformation: malformation, header: header, raw: raw, emit: emit)
                    return
                }
            }
            held = (HeldRow(row), number, ordinal, malformation, raw())
        }

        mutating func process(
            _ row: some SpecRow, number: Int, ordinal: Int, malformation: String?, header: HeaderRule,
            raw: () -> String, emit: RecordHandler
        ) throws {
            if !headerFound {
                let spec = reader.spec
                let texts = (0..<row.fieldCount).map { HeaderText.fold(row.field($0).bytes) }
                let isHeader: Bool
                switch header {
                case .row(let n): isHeader = ordinal == n
                case .find(let wanted, let within):
                    isHeader = wanted.allSatisfy { texts.contains(HeaderText.fold($0)) }
                    if !isHeader && ordinal >= within {
                        throw InputError(
                            path: path,
                            message:
                                "no header row with \(wanted.joined(separator: ", ")) in the first \(within) rows\(unreadableBeforeHeader.map { "; \($0)" } ?? "")"
                        )
                    }
                case .none: isHeader = false
                }
                guard isHeader else { return }
                headerFound = true
                var missing: [String] = []
                for (i, column) in spec.columns.enumerated() {
                    guard case .header(let names) = column.reference else { continue }
                    positions[i] = names.lazy.compactMap { texts.firstIndex(of: HeaderText.fold($0)) }.first
                    if positions[i] == nil, column.required == .yes { missing.append(names[0]) }
                }
                if !missing.isEmpty {
                    throw InputError(
                        path: path,
                        message:
                            "row \(number): the header has no column \(missing.map { "'\($0)'" }.joined(separator: ", ")), which the format \(spec.id) needs")
                }
                Self.placeFromColumns(spec, &positions)
                placeLayouts()
                return
            }
            // A row of another layout (`layouts:`) is read by that layout's positions.
            if !layoutPatterns.isEmpty, let other = positionsFor(row) {
                let own = positions
                positions = other
                defer { positions = own }
                try read(row, number: number, malformation: malformation, raw: raw, emit: emit)
                return
            }
            try read(row, number: number, malformation: malformation, raw: raw, emit: emit)
        }

        /// A data row, read by `positions`.
        mutating func read(_ row: some SpecRow, number: Int, malformation: String?, raw: () -> String, emit: RecordHandler) throws {
            let location = origin.at(number)
            values.reset()
            if let malformation { values.errors.append(FieldError(column: nil, field: nil, message: malformation)) }
            if let reason = values.skipReason(row, positions) {
                try withoutActuallyEscaping(raw) { raw in try emit(.skipped(SkippedRow(source: location, reason: reason)), raw) }
                return
            }
            // A zone the row names (values.zone-column): its times are read in it.
            var rowZone = zone
            if let c = reader.plan.zoneColumn {
                let name = String(decoding: values.cell(c, row, positions), as: UTF8.self).trimmingCharacters(in: .whitespaces)
                if !name.isEmpty {
                    if let known = zones[name] {
                        rowZone = known
                    } else if let found = SourceTimeZone(identifier: name) {
                        rowZone = found.makeConverter()
                        zones[name] = rowZone
                    } else {
                        values.errors.append(
                            FieldError(
                                column: positions[c].map { $0 + 1 }, field: reader.spec.columns[c].name,
                                message: "'\(name)' is not a time zone (an IANA name like Europe/Amsterdam)"))
                    }
                }
            }
            values.read(row, positions, zone: &rowZone)
            running?.read(values, row: number)
            if let group = reader.plan.group, values.errors.isEmpty, values.isTradeRow {
                try addLeg(group, row, location: location, raw: raw, emit: emit)
                return
            }
            let operation = values.operation(row, positions, location: location, zone: &rowZone)
            var more: [PortfolioOperation] = []
            if reader.plan.someRowsGiveSeveral, values.errors.isEmpty, operation != nil, values.givesSeveral {
                more = values.additionalOperations(after: operation, location: location, zone: &rowZone)
            }
            if values.errors.isEmpty, let operation {
                let placed = values.portfolio
                let record: SourceRecord = placed.map { .placed(operation, portfolio: $0) } ?? .operation(operation)
                try withoutActuallyEscaping(raw) { raw in try emit(record, raw) }
                for extra in more {
                    try withoutActuallyEscaping(raw) { raw in try emit(.additional(extra, portfolio: placed), raw) }
                }
            } else {
                if values.errors.isEmpty { values.errors.append(FieldError(column: nil, field: nil, message: "the row could not be read")) }
                let errors = values.errors
                try withoutActuallyEscaping(raw) { raw in try emit(.rejected(RejectedRow(source: location, raw: raw(), errors: errors)), raw) }
            }
        }

        mutating func finish(_ header: HeaderRule, emit: RecordHandler) throws {
            if let kept = held {
                held = nil
                try process(
                    kept.row, number: kept.number, ordinal: kept.ordinal, malformation: kept.malformation, header: header, raw: { kept.raw }, emit: emit)
            }
            try closeGroup(emit: emit)
            if !headerFound {
                throw InputError(
                    path: path, message: "no header row found (the format \(reader.spec.id) expects \(header))\(unreadableBeforeHeader.map { "; \($0)" } ?? "")"
                )
            }
        }
    }
}

extension XLSXWorkbook {
    /// The sheet a spec names, by name or by number (1 is the first).
    func sheet(_ reference: XLSXSource.Sheet) throws -> Sheet {
        switch reference {
        case .name(let name): return try sheet(named: name)
        case .index(let i): return try sheet(at: i - 1)
        }
    }
}
