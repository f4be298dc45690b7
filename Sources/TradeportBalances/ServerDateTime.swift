import TradeportCore

/// The server's zone-less `dateTime`: `2019-11-25T08:08:44`, or `2019-11-25T08:08` when the
/// seconds are zero (how the original server writes it). tradeport writes and reads it as UTC.
public struct ServerDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let local: LocalDateTime

    public init(_ local: LocalDateTime) { self.local = local }

    /// The UTC wall-clock time of `timestamp`.
    public init(utc timestamp: Timestamp) {
        let s = timestamp.secondsSinceEpoch
        let days = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        let second = Int(s - days * 86_400)
        local = LocalDateTime(date: CalendarDate(daysSinceEpoch: days), hour: second / 3600, minute: second / 60 % 60, second: second % 60)!
    }

    /// The instant, reading the wall-clock time as UTC.
    public var utcTimestamp: Timestamp { Timestamp(secondsSinceEpoch: local.secondsAsIfUTC) }

    /// Reads `yyyy-MM-ddTHH:mm`, `yyyy-MM-ddTHH:mm:ss`, or with a fraction of zeros after the seconds.
    public init?(_ text: String) {
        let b = Array(text.utf8)
        guard b.count >= 16, b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"),
            let date = CalendarDate(iso: Array(b[0..<10])),
            let h = Self.twoDigits(b, 11), let m = Self.twoDigits(b, 14)
        else { return nil }
        var second = 0
        if b.count > 16 {
            guard b.count >= 19, b[16] == UInt8(ascii: ":"), let s = Self.twoDigits(b, 17) else { return nil }
            second = s
            if b.count > 19 {
                // Whole seconds only: a fraction must be zeros.
                guard b[19] == UInt8(ascii: "."), b.count > 20, b[20...].allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
            }
        }
        guard let local = LocalDateTime(date: date, hour: h, minute: m, second: second) else { return nil }
        self.local = local
    }

    /// Always with seconds: what tradeport sends.
    public var textWithSeconds: String { text(seconds: true) }

    /// Without `:ss` when the seconds are zero: what the original server (and `tradeport serve`)
    /// answers. (`JSONWriter.dateTime` writes either into JSON without a string between.)
    public var description: String { text(seconds: local.second != 0) }

    private func text(seconds: Bool) -> String {
        var buffer = OutputBuffer(capacity: 19)
        local.appendISO(to: &buffer, seconds: seconds)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    public static func < (a: ServerDateTime, b: ServerDateTime) -> Bool { a.local.secondsAsIfUTC < b.local.secondsAsIfUTC }

    private static func twoDigits(_ b: [UInt8], _ i: Int) -> Int? {
        guard i + 1 < b.count else { return nil }
        let a = b[i] &- 48
        let c = b[i + 1] &- 48
        guard a < 10, c < 10 else { return nil }
        return Int(a) * 10 + Int(c)
    }
}
