import Foundation

/// The zone a source's wall-clock times are in, turning them into instants.
public struct SourceTimeZone: Sendable, Hashable, CustomStringConvertible {
    /// `nil` for UTC, which needs no tables.
    private let zone: TimeZone?

    public static let utc = SourceTimeZone(zone: nil)

    private init(zone: TimeZone?) { self.zone = zone }

    /// A zone by its IANA name (`Europe/Moscow`, `UTC`), or `nil` when there is no such zone.
    public init?(identifier: String) {
        if identifier == "UTC" || identifier == "Z" || identifier == "Etc/UTC" {
            self.init(zone: nil)
            return
        }
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.init(zone: zone.secondsFromGMT() == 0 && identifier.hasPrefix("Etc/") ? nil : zone)
    }

    public var identifier: String { zone?.identifier ?? "UTC" }
    public var description: String { identifier }

    /// The calendar date `instant` falls on in this zone.
    public func date(of instant: Timestamp) -> CalendarDate { local(instant).date }

    /// The calendar date and the second of the day `instant` is in this zone.
    public func local(_ instant: Timestamp) -> (date: CalendarDate, secondOfDay: Int) {
        var seconds = instant.secondsSinceEpoch
        if let zone { seconds += Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.secondsSinceEpoch)))) }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (CalendarDate(daysSinceEpoch: days), Int(seconds - days * 86_400))
    }

    /// A converter with its own small cache, for one reading pass.
    public func makeConverter() -> Converter { Converter(zone: zone) }

    /// Turns wall-clock times into instants. In a gap (clocks moved forward) the time is read with
    /// the offset before the change; in an overlap, the earlier of the two instants is taken.
    public struct Converter {
        let zone: TimeZone?
        private var cachedHour: Int64 = .min
        private var cachedOffset: Int64 = 0

        init(zone: TimeZone?) { self.zone = zone }

        /// The zone's name, for messages.
        public var zoneName: String { zone?.identifier ?? "UTC" }

        /// The instant of `local`, or nil when it falls outside what the model can write
        /// (`Timestamp.writableRange`): what every reader reading a source's times should use.
        public mutating func writableTimestamp(for local: LocalDateTime) -> Timestamp? {
            let instant = timestamp(for: local)
            return instant.isWritable ? instant : nil
        }

        /// The instant of `local`, in range or not.
        public mutating func timestamp(for local: LocalDateTime) -> Timestamp {
            let wall = local.secondsAsIfUTC
            guard let zone else { return Timestamp(secondsSinceEpoch: wall) }
            // Offsets change at most a few times a year; an hour's offset is cached unless a
            // change falls within a day of it.
            let hour = wall >= 0 ? wall / 3600 : (wall - 3599) / 3600
            if hour == cachedHour { return Timestamp(secondsSinceEpoch: wall - cachedOffset) }
            let offset = Converter.offset(zone, wall)
            let stable =
                Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall - offset - 86_400)))) == offset
                && Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall - offset + 86_400)))) == offset
            if stable {
                cachedHour = hour
                cachedOffset = offset
            }
            return Timestamp(secondsSinceEpoch: wall - offset)
        }

        private static func offset(_ zone: TimeZone, _ wall: Int64) -> Int64 {
            // Seconds are whole and small; the conversion to TimeInterval is exact.
            func at(_ instant: Int64) -> Int64 {
                Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
            }
            // The offsets a day before and a day after; the ones under which the wall time maps
            // back to itself are the candidates (two in an overlap, none in a gap).
            let before = at(wall - 86_400)
            let after = at(wall + 86_400)
            if before == after, at(wall - before) == before { return before }
            let candidates = [before, after].filter { at(wall - $0) == $0 }
            if let earliest = candidates.max() { return earliest }
            return before
        }
    }
}
