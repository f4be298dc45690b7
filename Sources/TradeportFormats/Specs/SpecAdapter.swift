import TradeportCore
import TradeportCSV
import TradeportSpec

/// A format described by a spec (`formats/*.yaml`): the generic CSV adapter. It reads each row's
/// columns in the spec's order, checks them, and builds the trade or cash transaction the spec's
/// mapping names, or a reject naming every problem.
public struct SpecAdapter: FormatAdapter {
    public let spec: FormatSpec
    let plan: SpecPlan
    public var id: String { spec.id }
    public var summary: String { spec.description }

    public init(_ spec: FormatSpec) {
        self.spec = spec
        plan = SpecPlan(spec)
    }

    var csv: CSVSource? { if case .csv(let c) = spec.source { return c } else { return nil } }

    var dialect: CSVDialect {
        var delimiter = UInt8(ascii: ",")
        if case .byte(let b)? = csv?.delimiter { delimiter = b }
        return CSVDialect(delimiter: delimiter, quote: csv?.quote)
    }

    var delimiterName: String {
        let d = dialect.delimiter
        return d == 0x09 ? "tab" : "'\(String(decoding: [d], as: UTF8.self))'"
    }

    // MARK: - Detection

    public func detect(_ probe: FormatProbe) -> Detection {
        guard let csv else { return .noMatch("an XLSX spec (not read by this adapter yet)") }
        if probe.head.contains(0) { return .noMatch("binary data, not a text export") }
        var head = probe.head
        if !probe.isWholeInput, let lastBreak = head.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            head.removeSubrange((lastBreak + 1)...)
        }
        let lines = head.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).dropFirst(csv.skipLines)
        let fitColumns = spec.detect?.fit.compactMap { name in plan.columnIndex[name].map { (index: $0, column: spec.columns[$0]) } } ?? []
        var values = SpecRowValues(plan: plan, codes: AssetCodeCache())
        var checked = 0, fitting = 0
        var problem: String?
        for line in lines.prefix(200) {
            checked += 1
            let fields = line.split(separator: dialect.delimiter, omittingEmptySubsequences: false)
            if let n = csv.fields, fields.count != n {
                problem = problem ?? "line \(checked) has \(fields.count) field\(fields.count == 1 ? "" : "s") separated by \(delimiterName), not \(n)"
                continue
            }
            var fits = true
            for (index, column) in fitColumns {
                guard case .position(let p) = column.reference, p <= fields.count else { continue }
                values.reset()
                let ok = Array(fields[p - 1]).withUnsafeBytes { values.fits(index, $0) }
                if !ok {
                    problem = problem ?? "line \(checked) has no \(column.name) in column \(p) (\(String(decoding: fields[p - 1].prefix(40), as: UTF8.self)))"
                    fits = false
                    break
                }
            }
            if fits { fitting += 1 }
        }
        if checked == 0 { return .noMatch("no complete line to look at") }
        return fitting * 2 > checked ? .match : .noMatch(problem ?? "lines do not fit")
    }

    // MARK: - Reading

    public func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws {
        guard let csv else { throw InputError(path: input.path, message: "the spec \(spec.id) reads XLSX, which this adapter does not yet") }
        guard let zone = options.timeZone ?? SourceTimeZone(identifier: spec.values.timeZone) else {
            throw InputError(path: input.path, message: "the spec's time zone '\(spec.values.timeZone)' is unknown")
        }
        var converter = zone.makeConverter()
        let origin = SourceLocation(path: input.path, row: 0)
        let transcoder = TextTranscoder(encoding: csv.encoding, path: input.path) { buffer in try input.read(into: buffer) }
        let reader = CSVReader(dialect: dialect) { buffer in try transcoder.read(into: buffer) }
        let codes = AssetCodeCache()
        var positions: [Int?] = spec.columns.map { column in
            if case .position(let p) = column.reference { return p - 1 }
            return nil
        }
        var headerFound = { if case .none = csv.header { return true } else { return false } }()
        var values = SpecRowValues(plan: plan, codes: codes)
        var line = 0
        try reader.forEachRecord { record in
            line += 1
            if line <= csv.skipLines || record.isEmptyLine { return }
            if !headerFound {
                // The header row maps header names to columns.
                let texts = (0..<record.count).map { HeaderText.fold(record[$0]) }
                let isHeader: Bool
                switch csv.header {
                case .row(let n): isHeader = line - csv.skipLines == n
                case .find(let wanted, let within):
                    isHeader = wanted.allSatisfy { texts.contains(HeaderText.fold($0)) }
                    if !isHeader && line - csv.skipLines >= within {
                        throw InputError(path: input.path, message: "no header row with \(wanted.joined(separator: ", ")) in the first \(within) lines")
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
                    throw InputError(path: input.path, message: "line \(record.line): the header has no column \(missing.map { "'\($0)'" }.joined(separator: ", ")), which the format \(spec.id) needs")
                }
                return
            }
            let location = origin.atRow(record.line)
            values.reset()
            if let malformation = record.malformation {
                values.errors.append(FieldError(column: nil, field: nil, message: malformation))
            }
            if let n = csv.fields, record.count != n {
                values.errors.append(FieldError(column: nil, field: nil, message: "expected \(n) fields separated by \(delimiterName), found \(record.count)"))
                try emit(.rejected(RejectedRow(source: location, raw: record.rawText, errors: values.errors)), { record.rawText })
                return
            }
            if let reason = values.skipReason(record, positions) {
                try emit(.skipped(SkippedRow(source: location, reason: reason)), { record.rawText })
                return
            }
            values.read(record, positions, zone: &converter)
            let operation = values.operation(record, positions, location: location, zone: &converter)
            if values.errors.isEmpty, let operation {
                try emit(.operation(operation), { record.rawText })
            } else {
                if values.errors.isEmpty { values.errors.append(FieldError(column: nil, field: nil, message: "the row could not be read")) }
                try emit(.rejected(RejectedRow(source: location, raw: record.rawText, errors: values.errors)), { record.rawText })
            }
        }
    }
}

/// Header texts compared without case, spaces and line breaks.
enum HeaderText {
    static func fold(_ text: String) -> [UInt8] {
        var t = text
        return t.withUTF8 { TinkoffHeader.fold(UnsafeRawBufferPointer($0)) }
    }

    static func fold(_ bytes: UnsafeRawBufferPointer) -> [UInt8] { TinkoffHeader.fold(bytes) }
}
