import Foundation
import TradeportPrimitives

/// An instant: seconds since 1970-01-01T00:00:00Z and a fraction of the second, in nanoseconds
/// (0 for the whole seconds most sources give). Written in UTC (`…Z`), the fraction only when there
/// is one, without trailing zeros (`2024-03-19T19:43:31.6798Z`).
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var secondsSinceEpoch: Int64
    /// 0 ..< 1_000_000_000.
    public var nanoseconds: UInt32

    public init(secondsSinceEpoch: Int64, nanoseconds: UInt32 = 0) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.nanoseconds = nanoseconds
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        a.secondsSinceEpoch != b.secondsSinceEpoch ? a.secondsSinceEpoch < b.secondsSinceEpoch : a.nanoseconds < b.nanoseconds
    }

    /// The fraction of a second written at `i` (`.` and one to nine digits) in nanoseconds, `i`
    /// moved past it; 0 when no `.` is there; nil for a `.` without digits or with more than nine
    /// (a fraction beyond nanoseconds would be cut: it is refused rather than rounded).
    public static func fraction<Bytes: RandomAccessCollection<UInt8>>(_ b: Bytes, at i: inout Int) -> UInt32? where Bytes.Index == Int {
        guard i < b.endIndex, b[i] == UInt8(ascii: ".") else { return 0 }
        i += 1
        let start = i
        var nanoseconds: UInt32 = 0
        var scale: UInt32 = 100_000_000
        while i < b.endIndex, b[i] &- 48 < 10 {
            guard i - start < 9 else { return nil }
            nanoseconds += UInt32(b[i] - 48) * scale
            scale /= 10
            i += 1
        }
        return i > start ? nanoseconds : nil
    }

    /// The same instant with its fraction of a second (nanoseconds; 0 for none).
    public func with(nanoseconds: UInt32) -> Timestamp { Timestamp(secondsSinceEpoch: secondsSinceEpoch, nanoseconds: nanoseconds) }

    /// The instants RFC 3339 can write: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z. A wall-clock
    /// time near either end can fall outside once its zone's offset is applied.
    public static let writableRange: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    public var isWritable: Bool { Self.writableRange.contains(secondsSinceEpoch) }

    /// RFC 3339 in UTC: `2019-11-25T08:08:44Z`.
    public var description: String {
        var buffer = OutputBuffer(capacity: 32)
        appendRFC3339(to: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// The UTC day (days since 1970-01-01, rounded down) and the second within it (0..<86400).
    public var daysAndSecondOfDay: (days: Int64, secondOfDay: Int) {
        let days = secondsSinceEpoch >= 0 ? secondsSinceEpoch / 86_400 : (secondsSinceEpoch - 86_399) / 86_400
        return (days, Int(secondsSinceEpoch - days * 86_400))
    }

    /// Appends the RFC 3339 UTC form (20 bytes, more with a fraction) to `bytes`.
    public func appendRFC3339(to bytes: inout OutputBuffer) {
        let (days, secondOfDay) = daysAndSecondOfDay
        let date = CalendarDate(daysSinceEpoch: days)
        date.appendISO(to: &bytes)
        bytes.appendTimeOfDay(hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
        if nanoseconds != 0 {
            bytes.append(UInt8(ascii: "."))
            var digits = Int(nanoseconds)
            var width = 9
            while digits % 10 == 0 {
                digits /= 10
                width -= 1
            }
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(48 + digits / divisor % 10))
                divisor /= 10
            }
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Parses RFC 3339 with an offset (`Z`, `+03:00`), seconds and an optional fraction of up to
    /// nine digits (nanoseconds; more would be cut, so they are refused).
    public init?(rfc3339 text: String) {
        let b = Array(text.utf8)
        guard b.count >= 20, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
            let date = CalendarDate(iso: Array(b[0..<10])),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let h = twoDigits(b, 11), let m = twoDigits(b, 14), let s = twoDigits(b, 17),
            h < 24, m < 60, s < 60
        else { return nil }
        var i = 19
        guard let nanoseconds = Self.fraction(b, at: &i) else { return nil }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            guard b.count == i + 6, b[i + 3] == UInt8(ascii: ":"),
                let oh = twoDigits(b, i + 1), let om = twoDigits(b, i + 4), oh < 24, om < 60
            else { return nil }
            offset = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let local = LocalDateTime(date: date, hour: h, minute: m, second: s)!
        self.init(secondsSinceEpoch: local.secondsAsIfUTC - Int64(offset), nanoseconds: nanoseconds)
    }
}

extension Timestamp: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Timestamp(rfc3339: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 time: \(text)")
        }
        self = value
    }
}

/// A calendar date in the proleptic Gregorian calendar: `YYYY-MM-DD`.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    private let storedYear: Int16
    private let storedMonth: UInt8
    private let storedDay: UInt8

    public var year: Int { Int(storedYear) }
    public var month: Int { Int(storedMonth) }
    public var day: Int { Int(storedDay) }

    /// A valid date, or `nil` (`2019-02-30`, month 13, day 0).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= CalendarDate.daysIn(month: month, year: year)
        else { return nil }
        storedYear = Int16(year)
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        CivilCalendar.daysIn(month: month, year: year)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int64 {
        CivilCalendar.days(year: Int64(storedYear), month: Int64(storedMonth), day: Int64(storedDay))
    }

    /// The date `days` after 1970-01-01.
    public init(daysSinceEpoch days: Int64) {
        let (y, m, d) = CivilCalendar.date(days: days)
        // Clamped so that an absurd instant cannot trap; such dates never come from parsing.
        storedYear = Int16(clamping: y)
        storedMonth = UInt8(m)
        storedDay = UInt8(d)
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?(iso b: [UInt8]) {
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            let y1 = twoDigits(b, 0), let y2 = twoDigits(b, 2), let m = twoDigits(b, 5), let d = twoDigits(b, 8)
        else { return nil }
        self.init(year: y1 * 100 + y2, month: m, day: d)
    }

    public init?(iso text: String) { self.init(iso: Array(text.utf8)) }

    public var description: String {
        var buffer = OutputBuffer(capacity: 16)
        appendISO(to: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    public func appendISO(to bytes: inout OutputBuffer) {
        bytes.appendTwoDigits(year / 100)
        bytes.appendTwoDigits(year % 100)
        bytes.append(UInt8(ascii: "-"))
        bytes.appendTwoDigits(month)
        bytes.append(UInt8(ascii: "-"))
        bytes.appendTwoDigits(day)
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

extension CalendarDate: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = CalendarDate(iso: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a YYYY-MM-DD date: \(text)")
        }
        self = value
    }
}

/// A wall-clock date and time with no zone, as sources write them.
public struct LocalDateTime: Sendable, Hashable {
    public let date: CalendarDate
    public let hour: Int
    public let minute: Int
    public let second: Int

    /// A valid time of day (hour < 24, minute < 60, second < 60), or `nil`.
    public init?(date: CalendarDate, hour: Int, minute: Int, second: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Seconds since the epoch if this wall-clock time were UTC.
    public var secondsAsIfUTC: Int64 {
        date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Appends `yyyy-MM-ddTHH:mm:ss` (19 bytes), or `yyyy-MM-ddTHH:mm` without `seconds`.
    public func appendISO(to bytes: inout OutputBuffer, seconds: Bool = true) {
        date.appendISO(to: &bytes)
        bytes.appendTimeOfDay(hour: hour, minute: minute, second: seconds ? second : nil)
    }
}

@inline(__always)
func twoDigits(_ b: [UInt8], _ i: Int) -> Int? {
    let a = b[i] &- 48
    let c = b[i + 1] &- 48
    guard a < 10, c < 10 else { return nil }
    return Int(a) * 10 + Int(c)
}
