import Testing

@testable import TradeportCSV

extension CSVReaderTests {
    /// Reads `text` with `dialect`, feeding the reader `feed` bytes at a time into a buffer of
    /// `chunk`, and returns each record's line, fields and malformation.
    static func read(
        _ text: String, _ dialect: CSVDialect = .semicolon, chunk: Int = 1 << 20, feed: Int = .max,
        limits: CSVLimits = .default
    )
        throws -> [(line: Int, fields: [String], malformation: String?)]
    {
        let bytes = Array(text.utf8)
        var offset = 0
        let reader = CSVReader(dialect: dialect, chunkSize: chunk, limits: limits) { buffer in
            let n = min(buffer.count, bytes.count - offset, feed)
            for i in 0..<n { buffer[i] = bytes[offset + i] }
            offset += n
            return n
        }
        var out: [(Int, [String], String?)] = []
        try reader.forEachRecord { record in
            out.append((record.line, (0..<record.count).map { String(decoding: record[$0], as: UTF8.self) }, record.malformation))
        }
        return out
    }
}

func records(
    _ text: String, _ dialect: CSVDialect = .semicolon, chunk: Int = 1 << 20, feed: Int = .max
)
    throws -> [(line: Int, fields: [String], malformation: String?)]
{
    try CSVReaderTests.read(text, dialect, chunk: chunk, feed: feed)
}

@Suite("CSV reader")
struct CSVReaderTests {
    /// A record or field past the limits is handed over as one record saying so, whatever the
    /// chunk size, and reading goes on at the next record with its line number right.
    @Test(arguments: [16, 20, 64, 1 << 20])
    func recordsAndFieldsPastTheLimitsAreCut(chunk: Int) throws {
        let limits = CSVLimits(maxRecordBytes: 40, maxFieldBytes: 12)
        let long = String(repeating: "x", count: 100)
        let text = "a;b\n\(long)\nc;d\n\"q;\n\(long)\n\"\"\(long)\";z\ne;f\n0123456789abcdef;g\nh;i\r\n\(long)\rj;k"
        for feed in [1, 7, Int.max] {
            let r = try CSVReaderTests.read(text, chunk: chunk, feed: feed, limits: limits)
            let record = "the record is longer than 40 bytes"
            #expect(r.map(\.line) == [1, 2, 3, 4, 7, 8, 9, 10, 11], "chunk \(chunk), feed \(feed)")
            #expect(r.map(\.fields) == [["a", "b"], [""], ["c", "d"], [""], ["e", "f"], [""], ["h", "i"], [""], ["j", "k"]], "chunk \(chunk), feed \(feed)")
            #expect(r[1].malformation?.hasPrefix(record) == true && r[3].malformation?.hasPrefix(record) == true)
            #expect(r[5].malformation == "field 1 is longer than 12 bytes, the most a field may hold; the record is not read")
            #expect(r[7].malformation?.hasPrefix(record) == true)
        }
    }

    /// Found by the fuzzer's harness and by reading it: a record of exactly the limit whose CR
    /// ends the buffer is not too long; a CR inside a skipped record's quotes that ends a chunk,
    /// with its LF in the next, is one line break.
    @Test(arguments: [1, 3, 17, Int.max])
    func theLimitsAtALineBreak(feed: Int) throws {
        let limits = CSVLimits(maxRecordBytes: 16, maxFieldBytes: 16)
        let exact = try CSVReaderTests.read(String(repeating: "a", count: 16) + "\r", chunk: 16, feed: feed, limits: limits)
        #expect(exact.map(\.fields) == [[String(repeating: "a", count: 16)]] && exact[0].malformation == nil, "feed \(feed)")
        for split in 1...40 {
            let text = "\"" + String(repeating: "q", count: split) + "\r\n" + String(repeating: "r", count: 30) + "\"\nz\n"
            let r = try CSVReaderTests.read(text, chunk: 16, feed: feed, limits: limits)
            #expect(r.last?.fields == ["z"] && r.last?.line == 3, "split \(split), feed \(feed): \(r.map(\.line))")
        }
    }

    @Test func splitsFieldsAndLines() throws {
        let r = try records("a;b;c\n1;2;3")
        #expect(r.map(\.fields) == [["a", "b", "c"], ["1", "2", "3"]])
        #expect(r.map(\.line) == [1, 2])
    }

    @Test func lineBreaksOfEveryKind() throws {
        let r = try records("a\r\nb\rc\nd\r\n")
        #expect(r.map(\.fields) == [["a"], ["b"], ["c"], ["d"]])
        #expect(r.map(\.line) == [1, 2, 3, 4])
    }

    @Test func emptyLinesAreRecordsOfOneEmptyField() throws {
        let r = try records("a\n\nb\n")
        #expect(r.map(\.fields) == [["a"], [""], ["b"]])
        #expect(r.map(\.line) == [1, 2, 3])
    }

    @Test func quotesEscapesAndEmbeddedLineBreaks() throws {
        let r = try records("\"a;1\";\"say \"\"hi\"\"\";\"two\nlines\"\nnext;\"\"\n", .semicolon)
        #expect(r.map(\.fields) == [["a;1", "say \"hi\"", "two\nlines"], ["next", ""]])
        #expect(r.map(\.line) == [1, 3])
    }

    @Test func withoutQuotingAQuoteIsAnOrdinaryByte() throws {
        let r = try records("\"a;b\"\n", CSVDialect(delimiter: UInt8(ascii: ";"), quote: nil))
        #expect(r.map(\.fields) == [["\"a", "b\""]])
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let r = try records("\u{FEFF}a,b\n", .comma)
        #expect(r.map(\.fields) == [["a", "b"]])
    }

    @Test func tabsAndTrailingDelimiters() throws {
        let r = try records("a\tb\t\n", .tab)
        #expect(r.map(\.fields) == [["a", "b", ""]])
    }

    @Test func unterminatedQuoteIsReportedNotSwallowed() throws {
        let r = try records("a;\"open\nb;c", .semicolon)
        #expect(r.count == 1)
        #expect(r[0].malformation?.contains("not closed") == true)
    }

    @Test func textAfterClosingQuoteIsReported() throws {
        let r = try records("\"a\"x;b\n", .semicolon)
        #expect(r[0].malformation?.contains("after the closing quote") == true)
        #expect(r[0].fields.count == 2)
    }

    @Test(arguments: [1, 2, 3, 5, 7, 16])
    func recordsStraddlingChunksAreReadWhole(feed: Int) throws {
        let text = "\u{FEFF}x;\"q\"\"uote\";z\r\nlong field here;\"multi\r\nline\";3\r1;2;3\n"
        let whole = try records(text)
        let pieces = try records(text, chunk: 16, feed: feed)
        #expect(pieces.map(\.fields) == whole.map(\.fields))
        #expect(pieces.map(\.line) == whole.map(\.line))
        #expect(whole.map(\.fields) == [["x", "q\"uote", "z"], ["long field here", "multi\r\nline", "3"], ["1", "2", "3"]])
        #expect(whole.map(\.line) == [1, 2, 4])
    }

    @Test func sniffsTheDelimiter() {
        #expect(CSVDialect.sniffDelimiter(Array("a;b;c\n1;2;3\n".utf8)) == UInt8(ascii: ";"))
        #expect(CSVDialect.sniffDelimiter(Array("a,b,c\n1,2,3\n".utf8)) == UInt8(ascii: ","))
        #expect(CSVDialect.sniffDelimiter(Array("a\tb\n1\t2\n".utf8)) == 0x09)
        #expect(CSVDialect.sniffDelimiter(Array("plain text\n".utf8)) == nil)
    }
}
