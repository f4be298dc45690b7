import TradeportCSV
import TradeportCore
import TradeportFormats

/// `csv`: the streaming CSV reader.
///
/// The first byte picks the dialect: the delimiter is `;`, `,` or tab by `b % 3`, fields are quoted
/// with `"` when `b / 3` is even (else never), and the tiny chunk is `16 + (b / 6) % 49` bytes; when
/// `b >= 240` the built-in formats also try to detect the rest, and the one detected reads it.
/// The rest is read twice, from a big buffer and through a tiny one that the source fills a few
/// bytes at a time (over the first 512 bytes, then as much as the reader asks for), and both
/// readings must hand over the same records; so must reading it in two pieces as a source read
/// on several threads is (cut after a line break near `1 + b % 7` eighths). Then the same twice with
/// small limits (a record of `16 + b % 200` bytes, a field of `1 + (b / 7) % 64`): both readings
/// agree, the records within the limits are those read without them, at the same lines, and a
/// record is too long exactly when it is longer than a limit.
enum CSVHarness {
    static let delimiters: [UInt8] = [UInt8(ascii: ";"), UInt8(ascii: ","), 0x09]
    static let registry = FormatRegistry.builtIn
    static let shortReadsUpTo = 512

    static func run(_ input: UnsafeRawBufferPointer) {
        guard let control = input.first else { return }
        let body = UnsafeRawBufferPointer(rebasing: input[1...])
        let dialect = CSVDialect(delimiter: delimiters[Int(control) % 3], quote: (control / 3) % 2 == 0 ? UInt8(ascii: "\"") : nil)
        let tiny = 16 + Int(control / 6) % 49
        let atMost = 1 + Int(control % 7)

        let whole = read(body, dialect: dialect, limits: .default, chunkSize: 1 << 16, readAtMost: Int.max)
        let pieces = read(body, dialect: dialect, limits: .default, chunkSize: tiny, readAtMost: atMost)
        same(whole, pieces, "a \(1 << 16)-byte buffer and a \(tiny)-byte one filled \(atMost) bytes at a time")
        let fraction = 1 + Int(control % 7)
        same(whole, readInTwoPieces(body, dialect: dialect, fraction: fraction), "a \(1 << 16)-byte buffer and two pieces cut near \(fraction)/8")

        let limits = CSVLimits(maxRecordBytes: 16 + Int(control) % 200, maxFieldBytes: 1 + Int(control / 7) % 64)
        let limited = read(body, dialect: dialect, limits: limits, chunkSize: 1 << 16, readAtMost: Int.max)
        let limitedPieces = read(body, dialect: dialect, limits: limits, chunkSize: tiny, readAtMost: atMost)
        same(
            limited, limitedPieces,
            """
            a \(1 << 16)-byte buffer and a \(tiny)-byte one filled \(atMost) bytes at a time, with limits of \
            \(limits.maxRecordBytes) bytes a record and \(limits.maxFieldBytes) a field
            """)
        precondition(
            limited.lines == whole.lines,
            """
            with limits of \(limits.maxRecordBytes) bytes a record and \(limits.maxFieldBytes) a field, records start at \
            lines \(limited.lines.prefix(20)), without at \(whole.lines.prefix(20))
            """)
        for i in limited.lines.indices {
            let expected = whole.recordBytes[i] > limits.maxRecordBytes || whole.longestField[i] > limits.maxFieldBytes
            precondition(
                limited.tooLong[i] == expected,
                """
                the record at line \(whole.lines[i]) (\(whole.recordBytes[i]) bytes, its longest field \
                \(whole.longestField[i])) is \(limited.tooLong[i] ? "" : "not ")too long for limits of \
                \(limits.maxRecordBytes) bytes a record and \(limits.maxFieldBytes) a field
                """)
            if !expected {
                precondition(limited.contents[i] == whole.contents[i], "the record at line \(whole.lines[i]) reads differently with limits")
            }
        }

        if let sniffed = CSVDialect.sniffDelimiter(Array(body)) {
            precondition(delimiters.contains(sniffed), "sniffDelimiter answered \(sniffed), not one of ; , tab")
        }

        if control >= 240 { detectAndRead(body) }
    }

    /// What a reading handed over, record by record.
    struct Reading: Equatable {
        var lines: [Int] = []
        var tooLong: [Bool] = []
        /// The fields, malformation and raw bytes of each record (nothing for a too-long one).
        var contents: [[UInt8]] = []
        var recordBytes: [Int] = []
        var longestField: [Int] = []
    }

    static func same(_ a: Reading, _ b: Reading, _ what: String) {
        guard a != b else { return }
        let common = min(a.lines.count, b.lines.count)
        let at = (0..<common).first { a.lines[$0] != b.lines[$0] || a.tooLong[$0] != b.tooLong[$0] || a.contents[$0] != b.contents[$0] } ?? common
        let line = at < a.lines.count ? a.lines[at] : (at < b.lines.count ? b.lines[at] : -1)
        preconditionFailure(
            """
            the records differ between \(what): \(a.lines.count) and \(b.lines.count) records, the first difference \
            at record \(at + 1) (line \(line))
            """)
    }

    /// Appends `value` to `bytes` as 8 bytes.
    static func append(_ value: Int, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt64(truncatingIfNeeded: value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Reads `body` with a reader of `chunkSize` bytes whose source hands over at most `readAtMost`
    /// bytes a call, checking every record.
    static func read(_ body: UnsafeRawBufferPointer, dialect: CSVDialect, limits: CSVLimits, chunkSize: Int, readAtMost: Int) -> Reading {
        var offset = 0
        let reader = CSVReader(dialect: dialect, chunkSize: chunkSize, limits: limits) { buffer in
            // A few bytes a call for the first `shortReadsUpTo` bytes, then as much as asked: the
            // reader parses a partial record again after each refill, so a few bytes a call over a
            // long record is quadratic, and the fuzzer slowed to some 200 inputs a second.
            let n = min(buffer.count, body.count - offset, offset < shortReadsUpTo ? readAtMost : Int.max)
            if n > 0 {
                buffer.baseAddress!.copyMemory(from: body.baseAddress! + offset, byteCount: n)
                offset += n
            }
            return n
        }
        var reading = Reading()
        do {
            try reader.forEachRecord { record in collect(record, dialect: dialect, limits: limits, into: &reading) }
        } catch {
            preconditionFailure("reading from memory threw: \(error)")
        }
        precondition(offset == body.count, "the reader stopped at byte \(offset) of \(body.count)")
        return reading
    }

    /// Checks `record` and adds what it holds to `reading`.
    static func collect(_ record: CSVRecord, dialect: CSVDialect, limits: CSVLimits, into reading: inout Reading) {
        if let last = reading.lines.last {
            precondition(record.line > last, "a record at line \(record.line) after one at line \(last)")
        } else {
            precondition(record.line >= 1, "the first record at line \(record.line)")
        }
        check(record, dialect: dialect, limits: limits)
        reading.lines.append(record.line)
        reading.tooLong.append(record.tooLong)
        // A too-long record's raw bytes are its first ones only, as many as the buffer held.
        reading.recordBytes.append(record.tooLong ? -1 : record.raw.count)
        var content: [UInt8] = []
        var longest = 0
        if !record.tooLong {
            append(record.count, to: &content)
            for i in 0..<record.count {
                let field = record[i]
                longest = max(longest, field.count)
                append(field.count, to: &content)
                content.append(contentsOf: field)
            }
            if let malformation = record.malformation {
                append(1, to: &content)
                content.append(contentsOf: malformation.utf8)
            } else {
                append(0, to: &content)
            }
            append(record.raw.count, to: &content)
            content.append(contentsOf: record.raw)
        }
        reading.contents.append(content)
        reading.longestField.append(longest)
    }

    /// Reads `body` in two pieces as reading in pieces does (`CSVReader.forEachRecord(in:)`): the
    /// first cut after a line break near `fraction`/8 of it and read as not the last, the second
    /// from where the first stopped (before a record it does not hold whole) to the end.
    static func readInTwoPieces(_ body: UnsafeRawBufferPointer, dialect: CSVDialect, fraction: Int) -> Reading {
        var b = body
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { b = UnsafeRawBufferPointer(rebasing: b[3...]) }
        // After the last LF, or CR not followed by LF, at or before the target (as a piece is cut).
        var cut = 0
        var j = min(b.count * fraction / 8, b.count - 1)
        while j >= 0 {
            if b[j] == 0x0A || (b[j] == 0x0D && j + 1 < b.count && b[j + 1] != 0x0A) {
                cut = j + 1
                break
            }
            j -= 1
        }
        var reading = Reading()
        let (end, lines) = CSVReader.forEachRecord(
            in: UnsafeRawBufferPointer(rebasing: b[..<cut]), firstLine: 1, final: false,
            dialect: dialect
        ) { collect($0, dialect: dialect, limits: .default, into: &reading) }
        precondition(end <= cut, "the first piece stopped at \(end), past its \(cut) bytes")
        let (restEnd, _) = CSVReader.forEachRecord(
            in: UnsafeRawBufferPointer(rebasing: b[end...]), firstLine: 1 + lines, final: true,
            dialect: dialect
        ) { collect($0, dialect: dialect, limits: .default, into: &reading) }
        precondition(restEnd == b.count - end, "the last piece stopped at \(restEnd) of \(b.count - end) bytes")
        return reading
    }

    /// What holds of every record whatever the input.
    static func check(_ record: CSVRecord, dialect: CSVDialect, limits: CSVLimits) {
        precondition(record.count >= 1, "a record without fields")
        let raw = record.raw
        if record.tooLong {
            precondition(record.count == 1 && record[0].isEmpty, "a too-long record with fields")
            precondition(record.malformation != nil, "a too-long record without a malformation")
            precondition(raw.count <= CSVRecord.keptBytes, "a too-long record keeps \(raw.count) bytes")
            blackHole(checksum(raw) &+ UInt32(truncatingIfNeeded: record.rawText.utf8.count))
            return
        }
        precondition(raw.count <= limits.maxRecordBytes, "a record of \(raw.count) bytes within a limit of \(limits.maxRecordBytes)")
        precondition(record.isEmptyLine == raw.isEmpty)
        if raw.isEmpty {
            precondition(record.count == 1 && record[0].isEmpty, "an empty line is not one empty field")
        }
        var total = record.count - 1
        var acc: UInt32 = 0
        for i in 0..<record.count {
            let field = record[i]
            precondition(field.count <= limits.maxFieldBytes, "a field of \(field.count) bytes within a limit of \(limits.maxFieldBytes)")
            total += field.count
            acc = acc &+ checksum(field)
            if let text = record.string(i) { precondition(text.utf8.count == field.count) }
        }
        precondition(total <= raw.count, "fields of \(total) bytes with their delimiters in a record of \(raw.count) bytes")
        acc = acc &+ checksum(raw)
        blackHole(acc)
        for b in raw where b == 0x0A || b == 0x0D {
            precondition(dialect.quote != nil && raw.contains(dialect.quote!), "a line break in the raw text of a record without quotes")
            break
        }
        // Without a quote byte in it, a record is its fields joined by the delimiter, exactly.
        if dialect.quote == nil || !raw.contains(dialect.quote!) {
            precondition(record.malformation == nil, "a record without quotes is malformed: \(record.malformation ?? "")")
            var joined: [UInt8] = []
            joined.reserveCapacity(raw.count)
            for i in 0..<record.count {
                if i > 0 { joined.append(dialect.delimiter) }
                joined.append(contentsOf: record[i])
            }
            precondition(joined.elementsEqual(raw), "the fields of an unquoted record joined by the delimiter are not its raw text")
        }
        blackHole(record.rawText.utf8.count)
    }

    /// The built-in formats' detection on the input, and a read by the one detected.
    static func detectAndRead(_ body: UnsafeRawBufferPointer) {
        let input = SourceInput(bytes: Array(body), name: "input.csv")
        guard case .detected(let reader) = registry.detect(input.probe) else { return }
        var records = 0
        do {
            try reader.read(input, options: ReadOptions()) { record, rawText in
                records += 1
                switch record {
                case .rejected(let row): precondition(!row.errors.isEmpty, "a rejected row without errors")
                default: break
                }
                blackHole(rawText().utf8.count)
            }
        } catch {
            blackHole("\(error)".utf8.count)
        }
        blackHole(records)
    }
}
