import TradeportPrimitives

/// A date and time of day read from a sheet, with no zone (as spreadsheets hold them).
public struct XLSXDateTime: Sendable, Hashable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int

    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
    }

    /// The date a serial number stands for (a number cell in a date style), to the nearest second.
    /// Nil for a negative serial, for 60 in the 1900 system (1900-02-29, a day that never was),
    /// and for text that is not a plain decimal. Serials below 1 are times of day on day 0.
    public init?(serial: UnsafeRawBufferPointer, system: XLSXWorkbook.DateSystem) {
        guard let serial = XLSXNumber.withPlain(serial, { Self.dayAndSecond($0) }) ?? nil else { return nil }
        var dayNumber = serial.day
        var seconds = serial.second
        if seconds >= 86_400 {
            dayNumber += 1
            seconds -= 86_400
        }
        // Days since 1970-01-01 of the serial's calendar day.
        let epochDays: Int
        switch system {
        case .from1904:
            epochDays = Self.day0Of1904System + dayNumber
        case .from1900:
            if dayNumber == 60 { return nil }
            // From day 61 on, one day less: Lotus counted a 1900-02-29 that never was (day 60).
            epochDays = (dayNumber < 60 ? Self.day0Of1900System : Self.day0Of1900System - 1) + dayNumber
        }
        let (y, m, d) = CivilCalendar.date(days: Int64(epochDays))
        (year, month, day) = (Int(y), Int(m), Int(d))
        hour = seconds / 3600
        minute = seconds % 3600 / 60
        second = seconds % 60
    }

    /// The day and the second of the day (rounded, 86 400 when it rounds up to the next day) of a
    /// serial in plain form (`44197.5`); nil when negative or past any real date.
    private static func dayAndSecond(_ plain: UnsafeRawBufferPointer) -> (day: Int, second: Int)? {
        guard let first = plain.first, first != UInt8(ascii: "-") else { return nil }
        var i = 0
        var days = 0
        while i < plain.count && plain[i] != UInt8(ascii: ".") {
            days = days * 10 + Int(plain[i] &- 48)
            guard days < 3_000_000 else { return nil }
            i += 1
        }
        guard i < plain.count else { return (days, 0) }
        // Up to 12 fraction digits: exact enough for a second, and no overflow.
        var fraction = 0
        var scale = 1
        for k in (i + 1)..<min(plain.count, i + 13) {
            fraction = fraction * 10 + Int(plain[k] &- 48)
            scale *= 10
        }
        return (days, (fraction * 86_400 * 2 + scale) / (scale * 2))
    }

    /// The date and time of an ISO 8601 cell (`t="d"`), read whole: `YYYY-MM-DD`, optionally
    /// followed by `THH:MM`, `THH:MM:SS` and a fraction of zeros (`.000`). Nil for anything else:
    /// a time past 23:59:59, a day the calendar lacks, a fraction of a second, a zone (a sheet's
    /// dates have none, and shifting one would guess), trailing text.
    public init?(iso bytes: UnsafeRawBufferPointer) {
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= bytes.count else { return nil }
            var v = 0
            for i in at..<(at + count) {
                let d = Int(bytes[i]) - 48
                guard d >= 0 && d <= 9 else { return nil }
                v = v * 10 + d
            }
            return v
        }
        guard bytes.count >= 10, let y = digits(0, 4), bytes[4] == UInt8(ascii: "-"), let m = digits(5, 2),
            bytes[7] == UInt8(ascii: "-"), let d = digits(8, 2), m >= 1, m <= 12, d >= 1, y >= 1,
            d <= CivilCalendar.daysIn(month: m, year: y)
        else { return nil }
        var h = 0
        var mi = 0
        var sec = 0
        if bytes.count > 10 {
            guard bytes[10] == UInt8(ascii: "T"), let hh = digits(11, 2), bytes.count >= 16, bytes[13] == UInt8(ascii: ":"),
                let mm = digits(14, 2), hh < 24, mm < 60
            else { return nil }
            (h, mi) = (hh, mm)
            var i = 16
            if i < bytes.count {
                guard bytes[i] == UInt8(ascii: ":"), let ss = digits(i + 1, 2), ss < 60 else { return nil }
                sec = ss
                i += 3
                if i < bytes.count {
                    guard bytes[i] == UInt8(ascii: "."), i + 1 < bytes.count else { return nil }
                    for k in (i + 1)..<bytes.count where bytes[k] != UInt8(ascii: "0") { return nil }
                    i = bytes.count
                }
            }
        }
        self.init(year: y, month: m, day: d, hour: h, minute: mi, second: sec)
    }

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    /// Days since 1970-01-01 of serial 0 in the 1900 system (1899-12-31) and in the 1904 system
    /// (1904-01-01).
    static let day0Of1900System = -25_568
    static let day0Of1904System = -24_107
}
