import Testing
import TradeportTestKit

@testable import TradeportCSV

/// Records made of awkward fields, written as CSV by a plain reference writer, must come back
/// the same through the reader whatever the chunk sizes and line breaks.
@Suite("CSV reader against a reference writer")
struct CSVRoundTripTests {
    static let pieces = ["a", "Б", "1,5", ";", "\"", "\n", "\r\n", " ", "x y", "", "€", "\r"]

    func field(_ g: inout SeededGenerator) -> String {
        (0..<Int(g.next() % 4)).map { _ in g.pick(Self.pieces) }.joined()
    }

    func write(_ records: [[String]], lineBreak: String) -> String {
        records.map { fields in
            fields.map { f in
                f.unicodeScalars.contains(where: { ";\"\n\r".unicodeScalars.contains($0) }) || f.isEmpty && fields.count == 1
                    ? "\"" + f.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : f
            }.joined(separator: ";")
        }.joined(separator: lineBreak)
    }

    @Test(arguments: 1...40)
    func randomRecordsSurviveAnyChunking(seed: Int) throws {
        var g = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15)
        let records = (0..<Int(1 + g.next() % 12)).map { _ in (0..<Int(1 + g.next() % 5)).map { _ in field(&g) } }
        let text = write(records, lineBreak: g.pick(["\n", "\r\n", "\r"]))
        let feed = Int(1 + g.next() % 9)
        let read = try CSVReaderTests.read(text, .semicolon, chunk: 16, feed: feed)
        #expect(read.map(\.fields) == records, "text: \(text.debugDescription)")
        #expect(read.allSatisfy { $0.malformation == nil })
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
