import TradeportCore
import TradeportXLSX

/// Reads the values of one row of the report, collecting every error so a row names them all.
/// Numbers come as strings with a decimal comma (`138,28`) or point (`0.55`), possibly grouped by
/// spaces, or as number cells; dates as `DD.MM.YYYY` (or a planned/actual pair `DD.MM.YYYY/DD.MM.YYYY`,
/// the actual one last) or date cells; times as `HH:MM:SS` or time cells.
struct TinkoffValues {
    var errors: [FieldError] = []
    let codes: AssetCodeCache
    let dateSystem: XLSXWorkbook.DateSystem

    init(codes: AssetCodeCache, dateSystem: XLSXWorkbook.DateSystem) {
        self.codes = codes
        self.dateSystem = dateSystem
    }

    /// The bytes without leading and trailing whitespace: spaces, line breaks (the 2021 templates
    /// pad every text with them) and no-break spaces.
    static func trimmed(_ b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = b.count
        while start < end {
            let c = b[start]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                start += 1
            } else if c == 0xC2, start + 1 < end, b[start + 1] == 0xA0 {
                start += 2
            } else {
                break
            }
        }
        while end > start {
            let c = b[end - 1]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { end -= 1 } else if c == 0xA0, end - 2 >= start, b[end - 2] == 0xC2 { end -= 2 } else { break }
        }
        return UnsafeRawBufferPointer(rebasing: b[start..<end])
    }

    /// A cell's text without the padding around it (nil for an absent or blank cell).
    static func content(_ cell: XLSXCell?) -> UnsafeRawBufferPointer? {
        guard let cell else { return nil }
        let b = cell.kind == .string ? trimmed(cell.bytes) : cell.bytes
        return b.isEmpty ? nil : b
    }

    mutating func add(_ at: TableCell, _ field: String, _ message: String) {
        add(at.column.map { $0 + 1 }, field, message)
    }

    /// `column` is 1-based (A is 1), as the output's locations are.
    mutating func add(_ column: Int?, _ field: String?, _ message: String) {
        errors.append(FieldError(column: column, field: field, message: message))
    }

    mutating func text(_ at: TableCell, _ field: String, required: Bool) -> String? {
        guard let cell = at.cell, let bytes = Self.content(cell) else {
            if required { add(at, field, "empty; expected a value") }
            return nil
        }
        if cell.kind == .number, let plain = cell.number { return plain }
        guard let text = TextDecoding.utf8(bytes) else {
            add(at, field, "not valid UTF-8 text")
            return nil
        }
        return text
    }

    mutating func asset(_ at: TableCell, _ field: String, required: Bool) -> AssetCode? {
        guard let cell = at.cell, let bytes = Self.content(cell) else {
            if required { add(at, field, "empty; expected a currency code like RUB") }
            return nil
        }
        if let code = codes.code(bytes) { return code }
        add(at, field, "'\(cell.text)' is not an asset code (\(AssetCode.rule), like RUB)")
        return nil
    }

    enum Sign { case positive, nonNegative }

    // Grouped by spaces: the parser also takes the no-break spaces the report writes.
    private static let comma = NumberStyle(decimalSeparator: UInt8(ascii: ","), groupingSeparator: [0x20])
    private static let point = NumberStyle(decimalSeparator: UInt8(ascii: "."), groupingSeparator: [0x20])

    mutating func number(_ at: TableCell, _ field: String, _ sign: Sign, required: Bool) -> ExactDecimal? {
        guard let cell = at.cell, let bytes = Self.content(cell) else {
            if required { add(at, field, "empty; expected a number like 138,28") }
            return nil
        }
        let result: Result<ExactDecimal, NumberParseError>
        switch cell.kind {
        case .number:
            // A number cell is a binary double written out with up to 17 digits: read as the
            // 15 significant digits it holds (9379.450000000001 is 9379.45).
            guard let parsed = XLSXNumber.withPlain(cell.bytes, significantDigits: 15, { ExactDecimal.parse($0, style: .canonical) }) else {
                add(at, field, "'\(cell.text)' is not a number")
                return nil
            }
            result = parsed
        case .string:
            result = ExactDecimal.parse(bytes, style: bytes.contains(UInt8(ascii: ",")) ? Self.comma : Self.point)
        default:
            add(at, field, "a \(cell.kind) cell ('\(cell.text)'); expected a number like 138,28")
            return nil
        }
        switch result {
        case .failure(let e):
            add(
                at, field,
                "'\(cell.text)' is not a number: \(e.message.contains("expected") ? e.message : e.message + "; expected a number like 138,28 or 0.55")")
            return nil
        case .success(let value):
            switch sign {
            case .positive where !value.isPositive:
                add(at, field, "'\(cell.text)' must be greater than 0")
                return nil
            case .nonNegative where value.isNegative:
                add(at, field, "'\(cell.text)' must not be negative")
                return nil
            default:
                return value
            }
        }
    }

    mutating func date(_ at: TableCell, _ field: String, required: Bool) -> CalendarDate? {
        guard let cell = at.cell, var b = Self.content(cell) else {
            if required { add(at, field, "empty; expected a date like 31.12.2020") }
            return nil
        }
        switch cell.kind {
        case .date, .number:
            if let d = XLSXDateTime(serial: cell.bytes, system: dateSystem), let date = CalendarDate(year: d.year, month: d.month, day: d.day) {
                return date
            }
        case .string:
            // DD.MM.YYYY, or planned/actual `DD.MM.YYYY/DD.MM.YYYY` (since 2024 `DD.MM.YYYY / DD.MM.YYYY`):
            // the last one is what happened; `DD.MM.YYYY / ` has not happened yet, and is the plan.
            if let slash = b.firstIndex(of: UInt8(ascii: "/")), b.count > 10 {
                let fact = Self.trimmed(UnsafeRawBufferPointer(rebasing: b[(slash + 1)...]))
                b = fact.isEmpty ? Self.trimmed(UnsafeRawBufferPointer(rebasing: b[..<slash])) : fact
            }
            if b.count == 10 {
                let s = b.count - 10
                if let day = DecimalDigits.value(b, s, 2), let month = DecimalDigits.value(b, s + 3, 2), let year = DecimalDigits.value(b, s + 6, 4),
                    b[s + 2] == UInt8(ascii: "."), b[s + 5] == UInt8(ascii: "."),
                    let date = CalendarDate(year: year, month: month, day: day)
                {
                    return date
                }
            }
        case .isoDate:
            // The whole value: a date cell with a time of day is still that day.
            if let d = XLSXDateTime(iso: cell.bytes), let date = CalendarDate(year: d.year, month: d.month, day: d.day) { return date }
        default:
            break
        }
        add(at, field, "'\(cell.text)' is not a date like 31.12.2020 (DD.MM.YYYY, a real calendar date)")
        return nil
    }

    /// Seconds since midnight of a time cell or `HH:MM:SS` / `HH:MM` text.
    mutating func timeOfDay(_ at: TableCell) -> (Int, Int, Int)? {
        guard let cell = at.cell, let b = Self.content(cell) else { return (0, 0, 0) }
        switch cell.kind {
        case .date, .number:
            if let d = XLSXDateTime(serial: cell.bytes, system: dateSystem) { return (d.hour, d.minute, d.second) }
        case .isoDate:
            if let d = XLSXDateTime(iso: cell.bytes) { return (d.hour, d.minute, d.second) }
        case .string:
            let hourDigits = b.count == 8 || b.count == 5 ? 2 : (b.count == 7 || b.count == 4 ? 1 : 0)
            if hourDigits > 0, let h = DecimalDigits.value(b, 0, hourDigits), b[hourDigits] == UInt8(ascii: ":"),
                let m = DecimalDigits.value(b, hourDigits + 1, 2), h < 24, m < 60
            {
                if b.count == hourDigits + 3 { return (h, m, 0) }
                if b[hourDigits + 3] == UInt8(ascii: ":"), let s = DecimalDigits.value(b, hourDigits + 4, 2), s < 60 { return (h, m, s) }
            }
        default:
            break
        }
        add(at, "time", "'\(cell.text)' is not a time like 14:05:09 (HH:MM:SS)")
        return nil
    }

    /// The instant of a date and a time of day read in the source's zone.
    mutating func time(date dateAt: TableCell, time timeAt: TableCell, zone: inout SourceTimeZone.Converter) -> Timestamp? {
        let date = date(dateAt, "time", required: true)
        let clock = timeOfDay(timeAt)
        guard let date, let (h, m, s) = clock, let local = LocalDateTime(date: date, hour: h, minute: m, second: s) else { return nil }
        let instant = zone.timestamp(for: local)
        guard instant.isWritable else {
            add(dateAt, "time", "'\(dateAt.cell!.text)' in \(zone.zoneName) falls outside the years 0001 to 9999 in UTC")
            return nil
        }
        return instant
    }
}
