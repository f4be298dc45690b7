import Foundation
import Testing
import TradeportPrimitives

@testable import TradeportXLSX

@Suite("Primitives: the hand-over and the civil calendar")
struct PrimitivesTests {
    final class Payload: Sendable {}
    struct Failed: Error, Equatable {}

    @Test("a taken element is released at once, not held by its slot until the queue compacts")
    func takenElementReleased() throws {
        let channel = Handoff<Payload, Never>(capacity: 4)
        weak var first: Payload?
        do {
            let payload = Payload()
            first = payload
            #expect(channel.send(payload))
        }
        #expect(channel.send(Payload()))
        #expect(channel.send(Payload()))
        do {
            let taken = channel.receive()
            #expect(taken != nil && taken === first)
        }
        // Two more wait behind it: the queue has not compacted, yet the first one is gone.
        #expect(first == nil)
        #expect(channel.receive() != nil)
        #expect(channel.receive() != nil)
        channel.close()
        #expect(channel.receive() == nil)
    }

    @Test("elements arrive in order across threads, then the sender's error")
    func orderAndFailure() throws {
        let channel = Handoff<Int, Failed>(capacity: 2)
        let sender = Thread {
            for i in 0..<100 { _ = channel.send(i) }
            channel.finish(Failed())
        }
        sender.start()
        var received: [Int] = []
        do throws(Failed) {
            while let i = try channel.receive() { received.append(i) }
            Issue.record("the sender's error was not thrown")
        } catch {
            #expect(error == Failed())
        }
        #expect(received == Array(0..<100))
    }

    @Test("cancelling releases a waiting sender and drops what waits")
    func cancel() throws {
        let channel = Handoff<Int, Never>(capacity: 1)
        let done = Handoff<Bool, Never>(capacity: 1)
        let sender = Thread {
            var accepted = 0
            for i in 0..<10 { if channel.send(i) { accepted += 1 } else { break } }
            channel.close()
            _ = done.send(accepted < 10)
        }
        sender.start()
        #expect(channel.receive() == 0)
        channel.cancel()
        channel.waitUntilFinished()
        #expect(done.receive() == true)
        #expect(channel.receive() == nil)
    }

    @Test("days from a civil date and back, across eras, leap days and 1970")
    func civilCalendar() {
        #expect(CivilCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilCalendar.days(year: 1, month: 1, day: 1) == -719_162)
        #expect(CivilCalendar.date(days: -1) == (1969, 12, 31))
        #expect(CivilCalendar.date(days: 11_016) == (2000, 2, 29))
        for days in stride(from: Int64(-800_000), through: 3_000_000, by: 997) {
            let (y, m, d) = CivilCalendar.date(days: days)
            #expect(CivilCalendar.days(year: y, month: m, day: d) == days)
        }
        // The serial epochs the XLSX reader uses as constants.
        #expect(Int64(XLSXDateTime.day0Of1900System) == CivilCalendar.days(year: 1899, month: 12, day: 31))
        #expect(Int64(XLSXDateTime.day0Of1904System) == CivilCalendar.days(year: 1904, month: 1, day: 1))
    }

    @Test("a chunked list keeps its elements in order across chunks and frees each chunk once taken")
    func chunkedList() throws {
        var list = ChunkedList<Payload>(chunkSize: 3)
        var kept: [Payload] = []
        weak var first: Payload?
        do {
            for _ in 0..<8 {
                let payload = Payload()
                list.append(payload)
                kept.append(payload)
            }
            first = kept[0]
            #expect(list.count == 8)
            kept.removeAll()
        }
        var seen = 0
        while let payload = list.popFirst() {
            if seen == 0 { #expect(payload === first) }
            seen += 1
            if seen == 3 {
                // The first chunk (elements 0-2) was taken and freed.
                #expect(first == nil)
            }
        }
        #expect(seen == 8)
        #expect(list.isEmpty && list.count == 0)
        var order = ChunkedList<Int>(chunkSize: 4)
        for i in 0..<10 { order.append(i) }
        var out: [Int] = []
        for _ in 0..<5 { out.append(order.popFirst()!) }
        // Appending while it is taken from: the order holds.
        for i in 10..<13 { order.append(i) }
        while let i = order.popFirst() { out.append(i) }
        #expect(out == Array(0..<13))
        #expect(order.popFirst() == nil && order.isEmpty)
    }
}
