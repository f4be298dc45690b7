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
        guard let plain = XLSXNumber.plain(serial), !plain.hasPrefix("-") else { return nil }
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        guard let days = Int(parts[0]), days < 3_000_000 else { return nil }
        var seconds = 0
        if parts.count == 2 {
            // Up to 12 fraction digits: exact enough for a second, and no overflow.
            let digits = parts[1].prefix(12)
            var fraction = 0
            var scale = 1
            for d in digits.utf8 {
                fraction = fraction * 10 + Int(d - 48)
                scale *= 10
            }
            seconds = (fraction * 86_400 * 2 + scale) / (scale * 2)
        }
        var dayNumber = days
        if seconds >= 86_400 {
            dayNumber += 1
            seconds -= 86_400
        }
        // Days since 1970-01-01 of the serial's calendar day.
        let epochDays: Int
        switch system {
        case .from1904:
            epochDays = Self.daysFromCivil(1904, 1, 1) + dayNumber
        case .from1900:
            if dayNumber == 60 { return nil }
            epochDays = dayNumber < 60 ? Self.daysFromCivil(1899, 12, 31) + dayNumber : Self.daysFromCivil(1899, 12, 30) + dayNumber
        }
        (year, month, day) = Self.civil(fromDays: epochDays)
        hour = seconds / 3600
        minute = seconds % 3600 / 60
        second = seconds % 60
    }

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    // Howard Hinnant's days-from-civil and civil-from-days.
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
