import TradeportCore
import TradeportCSV

/// What the two DSX exports share: headerless `;` files without quoting, decimal commas, times as
/// `yyyy-MM-dd H:mm:ss` in UTC.
enum DSX {
    static let dialect = CSVDialect(delimiter: UInt8(ascii: ";"), quote: nil)
    static let venue = "DSX"

    /// Parses `2019-11-25 8:08:44` (the hour with or without a leading zero).
    static func parseTime(_ f: UnsafeRawBufferPointer) -> LocalDateTime? {
        // yyyy-MM-dd H:mm:ss or yyyy-MM-dd HH:mm:ss: 18 or 19 bytes.
        let n = f.count
        guard n == 18 || n == 19, f[4] == UInt8(ascii: "-"), f[7] == UInt8(ascii: "-"), f[10] == UInt8(ascii: " ") else {
            return nil
        }
        func digits(_ at: Int, _ count: Int) -> Int? { DecimalDigits.value(f, at, count) }
        let hourDigits = n - 17
        let m = 11 + hourDigits
        guard f[m] == UInt8(ascii: ":"), f[m + 3] == UInt8(ascii: ":"),
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, hourDigits), let minute = digits(m + 1, 2), let second = digits(m + 4, 2),
              let date = CalendarDate(year: year, month: month, day: day)
        else { return nil }
        return LocalDateTime(date: date, hour: hour, minute: minute, second: second)
    }

    /// Collects the errors of one row, so that a row with several problems names them all.
    struct RowErrors {
        var errors: [FieldError] = []
        let codes: AssetCodeCache

        init(codes: AssetCodeCache) { self.codes = codes }

        mutating func add(_ column: Int, _ field: String, _ message: String) {
            errors.append(FieldError(column: column, field: field, message: message))
        }

        /// The time in column `column`, converted from the source's zone.
        mutating func time(_ record: CSVRecord, _ column: Int, zone: inout SourceTimeZone.Converter) -> Timestamp? {
            let f = record[column - 1]
            if let local = parseTime(f) {
                let instant = zone.timestamp(for: local)
                if instant.isWritable { return instant }
                add(column, "time", "'\(text(f))' in \(zone.zoneName) falls outside the years 0001 to 9999 in UTC")
                return nil
            }
            add(column, "time", "'\(text(f))' is not a time like 2019-11-25 8:08:44 (yyyy-MM-dd H:mm:ss, a real calendar date)")
            return nil
        }

        enum Sign { case positive, nonNegative }

        /// A decimal-comma number in column `column`.
        mutating func number(_ record: CSVRecord, _ column: Int, _ field: String, _ sign: Sign) -> ExactDecimal? {
            let f = record[column - 1]
            switch ExactDecimal.parse(f, style: .decimalComma) {
            case .failure(let e):
                add(column, field, f.isEmpty ? "empty; expected a number like 0,0025" : "'\(text(f))' is not a number: \(e.message)")
                return nil
            case .success(let value):
                switch sign {
                case .positive where !value.isPositive:
                    add(column, field, "'\(text(f))' must be greater than 0")
                    return nil
                case .nonNegative where value.isNegative:
                    add(column, field, "'\(text(f))' must not be negative")
                    return nil
                default:
                    return value
                }
            }
        }

        /// An asset code in column `column`.
        mutating func asset(_ record: CSVRecord, _ column: Int, _ field: String) -> AssetCode? {
            let f = record[column - 1]
            if let code = codes.code(f) { return code }
            add(column, field, f.isEmpty ? "empty; expected an asset code like BTC" : "'\(text(f))' is not an asset code (letters and digits)")
            return nil
        }

        /// A non-empty id without spaces in column `column`.
        mutating func id(_ record: CSVRecord, _ column: Int, _ field: String) -> String? {
            let f = record[column - 1]
            guard !f.isEmpty, !f.contains(UInt8(ascii: " ")), let s = TextDecoding.utf8(f) else {
                add(column, field, f.isEmpty ? "empty; expected the venue's id" : "'\(text(f))' is not an id")
                return nil
            }
            return s
        }

        /// Optional text in column `column`: `nil` when empty.
        mutating func optionalText(_ record: CSVRecord, _ column: Int, _ field: String) -> String? {
            let f = record[column - 1]
            if f.isEmpty { return nil }
            if let s = TextDecoding.utf8(f) { return s }
            add(column, field, "not valid UTF-8 text")
            return nil
        }

        /// Whether column `column` holds exactly one of `choices`; which one, by index.
        mutating func choice(_ record: CSVRecord, _ column: Int, _ field: String, _ choices: [String]) -> Int? {
            let f = record[column - 1]
            for (i, c) in choices.enumerated() where c.utf8.count == f.count {
                var c = c
                if c.withUTF8({ $0.elementsEqual(f) }) { return i }
            }
            let list = choices.count == 2 ? "\(choices[0]) or \(choices[1])"
                : choices.dropLast().joined(separator: ", ") + " or " + choices.last!
            add(column, field, f.isEmpty ? "empty; expected \(list)" : "expected \(list), found '\(text(f))'")
            return nil
        }
    }

    static func text(_ f: UnsafeRawBufferPointer) -> String { String(decoding: f, as: UTF8.self) }

    /// Whether `instrument` is base and quote glued in lower case (`eursusd` for EURS and USD).
    static func isGlued(_ instrument: UnsafeRawBufferPointer, _ base: AssetCode, _ quote: AssetCode) -> Bool {
        let b = base.text.utf8, q = quote.text.utf8
        guard instrument.count == b.count + q.count else { return false }
        var i = 0
        for c in b {
            // Codes are upper-case ASCII letters and digits: lower-casing sets bit 5 of letters.
            let lower = c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c
            if instrument[i] != lower { return false }
            i += 1
        }
        for c in q {
            let lower = c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c
            if instrument[i] != lower { return false }
            i += 1
        }
        return true
    }

    /// How well the first lines of `probe` fit a DSX layout: lines checked, lines that fit.
    static func fit(_ probe: FormatProbe, columns: Int, kinds: [String], kindColumn: Int) -> (checked: Int, fitting: Int, firstProblem: String?) {
        var head = probe.head
        if !probe.isWholeInput, let lastBreak = head.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            head.removeSubrange((lastBreak + 1)...)  // the last line may be cut off
        }
        var checked = 0
        var fitting = 0
        var problem: String?
        for lineBytes in head.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).prefix(200) {
            checked += 1
            let fields = lineBytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            guard fields.count == columns else {
                problem = problem ?? "line \(checked) has \(fields.count) field\(fields.count == 1 ? "" : "s") separated by ';', not \(columns)"
                continue
            }
            let time = Array(fields[0]).withUnsafeBytes { parseTime($0) }
            guard time != nil else {
                problem = problem ?? "line \(checked) does not start with a time like 2019-11-25 8:08:44"
                continue
            }
            guard kinds.contains(where: { Array($0.utf8) == Array(fields[kindColumn - 1]) }) else {
                problem = problem ?? "line \(checked) has no \(kinds.joined(separator: "/")) in column \(kindColumn)"
                continue
            }
            fitting += 1
        }
        return (checked, fitting, problem)
    }

    /// Claims a probe when most of its lines (and at least one) fit the layout.
    static func detect(_ probe: FormatProbe, columns: Int, kinds: [String], kindColumn: Int) -> Detection {
        if probe.head.contains(0) { return .noMatch("binary data, not a DSX text export") }
        let (checked, fitting, problem) = fit(probe, columns: columns, kinds: kinds, kindColumn: kindColumn)
        if checked == 0 { return .noMatch("no complete line to look at") }
        if fitting * 2 > checked { return .match }
        return .noMatch(problem ?? "lines do not fit")
    }

    /// Reads every non-empty line of `input` with DSX's dialect and emits one record for it: the
    /// operation `row` makes of it, or a reject with every error found (a malformed line, a wrong
    /// number of fields, or what `row` noted in `check`).
    static func readRows(
        _ input: SourceInput, options: ReadOptions, columns: Int, emit: RecordHandler,
        _ row: (_ record: CSVRecord, _ location: SourceLocation, _ check: inout RowErrors,
                _ zone: inout SourceTimeZone.Converter) -> Operation?
    ) throws {
        var zone = (options.timeZone ?? .utc).makeConverter()
        let origin = SourceLocation(path: input.path, row: 0)
        let reader = CSVReader(dialect: dialect) { buffer in try input.read(into: buffer) }
        let codes = AssetCodeCache()
        try reader.forEachRecord { record in
            if record.isEmptyLine { return }
            let location = origin.atRow(record.line)
            var check = RowErrors(codes: codes)
            if let malformation = record.malformation {
                check.errors.append(FieldError(column: nil, field: nil, message: malformation))
            }
            var operation: Operation?
            if record.count != columns {
                check.errors.append(FieldError(
                    column: nil, field: nil, message: "expected \(columns) fields separated by ';', found \(record.count)"))
            } else {
                operation = row(record, location, &check, &zone)
            }
            if check.errors.isEmpty, let operation {
                try emit(.operation(operation), { record.rawText })
            } else {
                if check.errors.isEmpty {
                    check.errors.append(FieldError(column: nil, field: nil, message: "the row could not be read"))
                }
                try emit(.rejected(RejectedRow(source: location, raw: record.rawText, errors: check.errors)), { record.rawText })
            }
        }
    }
}
