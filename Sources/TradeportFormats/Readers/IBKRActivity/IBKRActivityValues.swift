import TradeportCore

/// Reads the values of one Data line by its section's header, collecting every error so that a
/// reject names them all, each with its column (1-based in the line: the section is column 1),
/// the header's name for it, the text found and what was expected.
///
/// Numbers are plain `.` decimals that may group thousands with commas inside quotes
/// (`"-2,000"`); times are `yyyy-MM-dd, HH:mm:ss` in one quoted field (also without the comma),
/// dates `yyyy-MM-dd` (midnight), both wall-clock times of the statement's zone.
struct ActivityValues {
    let fields: [String]
    let layout: ActivityLayout
    var errors: [FieldError] = []

    /// IBKR's numbers: a point, and commas between thousands.
    static let numberStyle = NumberStyle(decimalSeparator: UInt8(ascii: "."), groupingSeparator: [UInt8(ascii: ",")])

    init(fields: [String], layout: ActivityLayout) {
        self.fields = fields
        self.layout = layout
    }

    /// Records an error at field `index`, or at the column the header lacks.
    mutating func fail(_ index: Int?, _ column: ActivityColumn, _ message: String) {
        if let index {
            errors.append(FieldError(column: IBKRActivityLine.column(ofField: index), field: layout.names[index], message: message))
        } else {
            errors.append(FieldError(column: nil, field: column.names[0], message: message))
        }
    }

    /// Where `column` is in the section's header; nil when it has none (an error when `required`).
    private mutating func index(_ column: ActivityColumn, required: Bool) -> Int? {
        guard let i = layout.index(column) else {
            if required { fail(nil, column, "the section's header has no '\(column.names[0])' column; expected one") }
            return nil
        }
        return i
    }

    /// The trimmed text of `column`; nil when empty (an error when `required`) or absent.
    mutating func text(_ column: ActivityColumn, required: Bool = true) -> String? {
        guard let i = index(column, required: required) else { return nil }
        return text(at: i, column, required: required)
    }

    /// The trimmed text of field `i` (read as `column`); nil when empty (an error when `required`).
    mutating func text(at i: Int, _ column: ActivityColumn, required: Bool = true) -> String? {
        let value = i < fields.count ? fields[i].activityTrimmed : ""
        if value.isEmpty {
            if required { fail(i, column, "empty; expected a value") }
            return nil
        }
        return value
    }

    /// The number in `column`, or nil (an error when it is not one, or empty and `required`).
    mutating func decimal(_ column: ActivityColumn, required: Bool = true) -> ExactDecimal? {
        guard let i = index(column, required: required) else { return nil }
        return decimal(at: i, column, required: required)
    }

    /// The number in field `i` (read as `column`), or nil.
    mutating func decimal(at i: Int, _ column: ActivityColumn, required: Bool = true) -> ExactDecimal? {
        guard let text = text(at: i, column, required: required) else { return nil }
        switch ExactDecimal.parse(text, style: Self.numberStyle) {
        case .success(let value): return value
        case .failure(let error):
            fail(i, column, "'\(text)' is not a number (\(error.message)); expected a number like -1,234.56")
            return nil
        }
    }

    /// The asset code in `column` (a currency), or nil.
    mutating func asset(_ column: ActivityColumn) -> AssetCode? {
        guard let text = text(column) else { return nil }
        guard let code = AssetCode(text) else {
            fail(layout.index(column), column, "'\(text)' is not an asset code (\(AssetCode.rule)); expected a currency like USD")
            return nil
        }
        return code
    }

    /// The instant of the date and time (or date, at midnight) in `column`, in `converter`'s zone.
    mutating func time(_ column: ActivityColumn, _ converter: inout SourceTimeZone.Converter) -> Timestamp? {
        guard let i = index(column, required: true) else { return nil }
        return time(at: i, column, &converter)
    }

    /// The instant of the date and time in field `i` (read as `column`), or nil.
    mutating func time(at i: Int, _ column: ActivityColumn, _ converter: inout SourceTimeZone.Converter) -> Timestamp? {
        guard let text = text(at: i, column) else { return nil }
        guard let local = Self.localTime(text) else {
            fail(i, column, "'\(text)' is not a date and time; expected yyyy-MM-dd, HH:mm:ss (2024-01-16, 10:30:00) or a date yyyy-MM-dd")
            return nil
        }
        guard let instant = converter.writableTimestamp(for: local) else {
            fail(i, column, "'\(text)' in \(converter.zoneName) is out of the range the model can write (years 0001-9999)")
            return nil
        }
        return instant
    }

    /// `yyyy-MM-dd, HH:mm:ss`, `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd` (midnight), or nil.
    static func localTime(_ text: String) -> LocalDateTime? {
        let b = Array(text.utf8)
        guard b.count >= 10, let date = CalendarDate(iso: Array(b[0..<10])) else { return nil }
        if b.count == 10 { return LocalDateTime(date: date, hour: 0, minute: 0, second: 0) }
        var i = 10
        if b[i] == UInt8(ascii: ",") { i += 1 }
        guard i < b.count, b[i] == UInt8(ascii: " ") else { return nil }
        let t = Array(b[(i + 1)...])
        let colon = UInt8(ascii: ":")
        guard t.count == 8, t[2] == colon, t[5] == colon, let hour = twoDigits(t, 0), let minute = twoDigits(t, 3),
            let second = twoDigits(t, 6)
        else { return nil }
        return LocalDateTime(date: date, hour: hour, minute: minute, second: second)
    }

    private static func twoDigits(_ b: [UInt8], _ i: Int) -> Int? {
        let high = b[i] &- 48
        let low = b[i + 1] &- 48
        guard high < 10, low < 10 else { return nil }
        return Int(high) * 10 + Int(low)
    }

    /// The ISIN a description names in parentheses (`TSTA(US0000TEST01) Cash Dividend …`), or nil
    /// (IBKR writes a conid there for some securities: `BND(43645828)`).
    static func isin(inDescription text: String) -> String? {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "(") {
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: ")") {
                let inside = String(after[after.startIndex..<close]).activityTrimmed
                if ISIN.looksLike(inside) { return inside }
            }
            rest = after
        }
        return nil
    }

    /// The symbol a description starts with (`TSTB (US…) Cash Dividend …` → `TSTB`), or nil.
    static func symbol(inDescription text: String) -> String? {
        let head = text.prefix { $0 != "(" && $0 != " " }
        return head.isEmpty ? nil : String(head)
    }
}

extension ExactDecimal {
    /// The value without its sign.
    var absoluteValue: ExactDecimal { isNegative ? negated : self }
}
