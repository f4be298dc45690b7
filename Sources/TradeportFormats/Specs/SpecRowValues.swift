import TradeportCore
import TradeportCSV
import TradeportSpec

/// One row's values, read column by column in the spec's order, and the errors found on the way.
struct SpecRowValues {
    let spec: FormatSpec
    let codes: AssetCodeCache
    var values: [SpecValue?]
    var errors: [FieldError] = []

    init(spec: FormatSpec, codes: AssetCodeCache) {
        self.spec = spec
        self.codes = codes
        values = Array(repeating: nil, count: spec.columns.count)
    }

    private var style: NumberStyle {
        switch spec.values.thousands {
        case .byte(let b)?: return NumberStyle(decimalSeparator: spec.values.decimal, groupingSeparator: [b])
        case .space?: return NumberStyle(decimalSeparator: spec.values.decimal, groupingSeparator: [0x20])
        case nil: return NumberStyle(decimalSeparator: spec.values.decimal)
        }
    }

    private func text(_ f: UnsafeRawBufferPointer) -> String { String(decoding: f, as: UTF8.self) }

    private func index(_ name: String) -> Int? { spec.columns.firstIndex { $0.name == name } }

    func value(_ name: String) -> SpecValue? { index(name).flatMap { values[$0] } }

    /// Whether `f` reads as a value of `column` (for detection).
    mutating func fits(_ column: ColumnSpec, _ f: UnsafeRawBufferPointer) -> Bool {
        var zone = SourceTimeZone.utc.makeConverter()
        let before = errors.count
        let v = read(column, f, zone: &zone)
        return v != nil && errors.count == before
    }

    /// The reason of the first skip rule the row meets.
    func skipReason(_ record: CSVRecord, _ positions: [Int?]) -> String? {
        for rule in spec.skip {
            guard let i = index(rule.column), let p = positions[i], p < record.count else { continue }
            if rule.equals.contains(text(record[p])) { return rule.reason }
        }
        return nil
    }

    /// Reads every column, in the spec's order, then the cross-column checks.
    mutating func read(_ record: CSVRecord, _ positions: [Int?], zone: inout SourceTimeZone.Converter) {
        for (i, column) in spec.columns.enumerated() {
            let f: UnsafeRawBufferPointer
            if let p = positions[i], p < record.count { f = record[p] } else { f = UnsafeRawBufferPointer(start: nil, count: 0) }
            if f.isEmpty {
                switch column.required {
                case .no: continue
                case .unlessZero(let other):
                    if case .decimal(let d)? = value(other), d.isZero { continue }
                    if value(other) == nil { continue }
                case .yes:
                    break
                }
            }
            values[i] = read(column, f, zone: &zone, at: positions[i].map { $0 + 1 })
        }
        for check in spec.checks {
            guard let i = index(check.column) else { continue }
            var expected = ""
            var complete = true
            var rest = Substring(check.equals)
            while let open = rest.firstIndex(of: "{") {
                expected += rest[..<open]
                guard let close = rest[open...].firstIndex(of: "}") else { break }
                let name = String(rest[rest.index(after: open)..<close])
                if let v = value(name)?.text { expected += v } else { complete = false }
                rest = rest[rest.index(after: close)...]
            }
            expected += rest
            guard complete else { continue }
            if check.lowercase { expected = expected.lowercased() }
            let actual = positions[i].flatMap { $0 < record.count ? text(record[$0]) : nil } ?? ""
            if actual != expected {
                var message = check.message.replacingOccurrences(of: "{value}", with: actual).replacingOccurrences(of: "{expected}", with: expected)
                for name in spec.columns.map(\.name) {
                    if let v = value(name)?.text { message = message.replacingOccurrences(of: "{\(name)}", with: v) }
                }
                errors.append(FieldError(column: positions[i].map { $0 + 1 }, field: check.column, message: message))
            }
        }
    }

    private mutating func read(_ column: ColumnSpec, _ f: UnsafeRawBufferPointer, zone: inout SourceTimeZone.Converter, at position: Int? = nil) -> SpecValue? {
        let name = column.name
        func fail(_ message: String) -> SpecValue? {
            errors.append(FieldError(column: position, field: name, message: message))
            return nil
        }
        switch column.type {
        case .text:
            guard let s = TextDecoding.utf8(f) else { return fail("not valid UTF-8 text") }
            if s.isEmpty && column.required == .yes { return fail("empty; expected \(column.example.map { "a value like \($0)" } ?? "a value")") }
            return .text(s)
        case .id:
            guard !f.isEmpty, !f.contains(UInt8(ascii: " ")), let s = TextDecoding.utf8(f) else {
                return fail(f.isEmpty ? "empty; expected the venue's id" : "'\(text(f))' is not an id")
            }
            return .text(s)
        case .asset:
            if let code = codes.code(f) {
                if let alias = spec.assets[code.text], let aliased = AssetCode(alias) { return .asset(aliased) }
                return .asset(code)
            }
            return fail(f.isEmpty ? "empty; expected an asset code like BTC" : "'\(text(f))' is not an asset code (letters and digits)")
        case .decimal(let check):
            switch ExactDecimal.parse(f, style: style) {
            case .failure(let e):
                let example = column.example ?? style.example
                return fail(f.isEmpty ? "empty; expected a number like \(example)" : "'\(text(f))' is not a number: \(e.message)")
            case .success(let v):
                var positive = check == .positive
                if check == .transactionAmount {
                    // Greater than zero when complete (or unknown); failed attempts record 0.
                    let status = spec.transaction?.source(of: "status").flatMap { s -> String? in
                        if case .column(let c) = s, case .mapped(let m)? = value(c) { return m }
                        return nil
                    }
                    positive = status == nil || status == "complete"
                }
                if positive && !v.isPositive { return fail("'\(text(f))' must be greater than 0") }
                if check != .signed && v.isNegative { return fail("'\(text(f))' must not be negative") }
                return .decimal(v)
            }
        case .dateTime(let pattern), .date(let pattern), .time(let pattern):
            let compiled = CompiledPattern(pattern)
            let example = column.example ?? pattern
            guard let m = compiled.match(f) else {
                let what = { if case .time = column.type { return "time" } else if case .date = column.type { return "date" } else { return "time" } }()
                return fail("'\(text(f))' is not a \(what) like \(example) (\(pattern), a real calendar date)")
            }
            switch column.type {
            case .date: return m.date.map { .date($0) }
            case .time: return m.clock.map { .clock(hour: $0.0, minute: $0.1, second: $0.2) }
            default:
                guard let date = m.date, let clock = m.clock,
                      let local = LocalDateTime(date: date, hour: clock.0, minute: clock.1, second: clock.2) else { return nil }
                let instant = zone.timestamp(for: local)
                guard instant.isWritable else { return fail("'\(text(f))' in \(zone.zoneName) falls outside the years 0001 to 9999 in UTC") }
                return .instant(instant)
            }
        case .map(let entries, let ignoreCase):
            let s = text(f)
            if let hit = entries.first(where: { ignoreCase ? $0.from.lowercased() == s.lowercased() : $0.from == s }) { return .mapped(hit.to) }
            let names = entries.map(\.from)
            let list = names.count == 2 ? "\(names[0]) or \(names[1])" : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
            return fail(f.isEmpty ? "empty; expected \(list)" : "expected \(list), found '\(s)'")
        case .instrument(let separators):
            let s = text(f)
            for separator in separators {
                let parts = s.components(separatedBy: separator)
                if parts.count == 2, let b = AssetCode(parts[0]), let q = AssetCode(parts[1]) { return .pair(b, q) }
            }
            return fail(f.isEmpty ? "empty; expected an instrument like BTC/USD" : "'\(s)' is not two asset codes joined by \(separators.joined(separator: " or "))")
        }
    }
}

private extension String {
    func components(separatedBy separator: String) -> [String] {
        guard !separator.isEmpty else { return [self] }
        var out: [String] = []
        var rest = Substring(self)
        while let r = rest.range(of: separator) {
            out.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        out.append(String(rest))
        return out
    }
}

private extension Substring {
    func range(of needle: String) -> Range<Substring.Index>? {
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(needle) { return i..<index(i, offsetBy: needle.count) }
            i = index(after: i)
        }
        return nil
    }
}
