import Testing
import TradeportCore

@Suite("Times and dates")
struct TimeTests {
    @Test func calendarDatesRoundTripThroughDayNumbers() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let date = CalendarDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
        }
        #expect(CalendarDate(year: 1970, month: 1, day: 1)?.daysSinceEpoch == 0)
        #expect(CalendarDate(year: 2000, month: 3, day: 1)?.daysSinceEpoch == 11_017)
    }

    @Test func invalidCalendarDatesAreRefused() {
        #expect(CalendarDate(year: 2019, month: 2, day: 30) == nil)
        #expect(CalendarDate(year: 2019, month: 2, day: 29) == nil)
        #expect(CalendarDate(year: 2020, month: 2, day: 29) != nil)
        #expect(CalendarDate(year: 1900, month: 2, day: 29) == nil)
        #expect(CalendarDate(year: 2000, month: 2, day: 29) != nil)
        #expect(CalendarDate(year: 2021, month: 13, day: 1) == nil)
        #expect(CalendarDate(year: 2021, month: 4, day: 31) == nil)
        #expect(CalendarDate(year: 2021, month: 1, day: 0) == nil)
    }

    @Test func timestampsAreWrittenInUTC() {
        #expect(Timestamp(secondsSinceEpoch: 0).description == "1970-01-01T00:00:00Z")
        #expect(Timestamp(secondsSinceEpoch: 1_574_669_324).description == "2019-11-25T08:08:44Z")
        #expect(Timestamp(secondsSinceEpoch: -1).description == "1969-12-31T23:59:59Z")
    }

    @Test func rfc3339ParsesOffsets() {
        #expect(Timestamp(rfc3339: "2021-01-01T00:00:00+03:00")?.description == "2020-12-31T21:00:00Z")
        #expect(Timestamp(rfc3339: "2019-11-25T08:08:44Z")?.secondsSinceEpoch == 1_574_669_324)
        #expect(Timestamp(rfc3339: "2019-11-25T08:08:44") == nil)
        #expect(Timestamp(rfc3339: "2019-02-30T00:00:00Z") == nil)
        // A fraction of the second is kept (to nanoseconds) and written without trailing zeros.
        #expect(Timestamp(rfc3339: "2019-11-25T08:08:44.5Z")?.nanoseconds == 500_000_000)
        #expect(Timestamp(rfc3339: "2019-11-25T08:08:44.500Z")?.description == "2019-11-25T08:08:44.5Z")
        #expect(Timestamp(rfc3339: "2019-11-25T08:08:44.000Z")?.description == "2019-11-25T08:08:44Z")
        #expect(Timestamp(rfc3339: "2019-11-25T11:08:44.000000001+03:00")?.description == "2019-11-25T08:08:44.000000001Z")
        #expect(Timestamp(rfc3339: "2019-11-25T08:08:44.0000000001Z") == nil)
        #expect(Timestamp(rfc3339: "2019-11-25T08:08:44.Z") == nil)
        // Instants within one second keep their order.
        #expect(Timestamp(rfc3339: "2019-11-25T08:08:44.2Z")! < Timestamp(rfc3339: "2019-11-25T08:08:44.25Z")!)
    }

    func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> LocalDateTime {
        LocalDateTime(date: CalendarDate(year: y, month: mo, day: d)!, hour: h, minute: mi, second: s)!
    }

    @Test func wallClockTimesAreReadInTheSourceZone() throws {
        var moscow = try #require(SourceTimeZone(identifier: "Europe/Moscow")).makeConverter()
        #expect(moscow.timestamp(for: local(2021, 1, 1, 0, 0)).description == "2020-12-31T21:00:00Z")
        // Before 2011 Moscow had summer time (UTC+4).
        #expect(moscow.timestamp(for: local(2010, 7, 1, 12, 0)).description == "2010-07-01T08:00:00Z")
        var utc = SourceTimeZone.utc.makeConverter()
        #expect(utc.timestamp(for: local(2019, 11, 25, 8, 8, 44)).description == "2019-11-25T08:08:44Z")
        #expect(SourceTimeZone(identifier: "Mars/Olympus") == nil)
    }

    @Test func gapsAndOverlapsAreResolvedPredictably() throws {
        var berlin = try #require(SourceTimeZone(identifier: "Europe/Berlin")).makeConverter()
        // 2021-03-28 02:30 does not exist in Berlin (clocks went 02:00 → 03:00): read with +01:00.
        #expect(berlin.timestamp(for: local(2021, 3, 28, 2, 30)).description == "2021-03-28T01:30:00Z")
        // 2021-10-31 02:30 happened twice: the earlier instant (+02:00) is taken.
        #expect(berlin.timestamp(for: local(2021, 10, 31, 2, 30)).description == "2021-10-31T00:30:00Z")
        // Either side of the change, the cache must not carry a stale offset.
        #expect(berlin.timestamp(for: local(2021, 3, 28, 1, 59)).description == "2021-03-28T00:59:00Z")
        #expect(berlin.timestamp(for: local(2021, 3, 28, 3, 1)).description == "2021-03-28T01:01:00Z")
    }
}
