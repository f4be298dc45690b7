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

    /// A converter with its own small cache, for one reading pass.
    public func makeConverter() -> Converter { Converter(zone: zone) }

    /// Turns wall-clock times into instants. In a gap (clocks moved forward) the time is read with
    /// the offset before the change; in an overlap, the earlier of the two instants is taken.
    public struct Converter {
        let zone: TimeZone?
        private var cachedHour: Int64 = .min
        private var cachedOffset: Int64 = 0

        init(zone: TimeZone?) { self.zone = zone }

        public mutating func timestamp(for local: LocalDateTime) -> Timestamp {
            let wall = local.secondsAsIfUTC
            guard let zone else { return Timestamp(secondsSinceEpoch: wall) }
            // Offsets change at most a few times a year; an hour's offset is cached unless a
            // change falls within a day of it.
            let hour = wall >= 0 ? wall / 3600 : (wall - 3599) / 3600
            if hour == cachedHour { return Timestamp(secondsSinceEpoch: wall - cachedOffset) }
            let offset = Converter.offset(zone, wall)
            let stable = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall - offset - 86_400)))) == offset
                && Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall - offset + 86_400)))) == offset
            if stable {
                cachedHour = hour
                cachedOffset = offset
            }
            return Timestamp(secondsSinceEpoch: wall - offset)
        }

        private static func offset(_ zone: TimeZone, _ wall: Int64) -> Int64 {
            // Seconds are whole and small; the conversion to TimeInterval is exact.
            let first = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall))))
            let second = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall - first))))
            if first == second { return first }
            // Near a change: prefer the offset under which the wall time maps back to itself,
            // and of two such, the larger one (the earlier instant).
            let candidates = [first, second].filter {
                Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall - $0)))) == $0
            }
            return candidates.max() ?? max(first, second)
        }
    }
}
