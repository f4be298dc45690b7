import TradeportCSV
import TradeportCore
import TradeportFormats

/// `csv`: the streaming CSV reader.
///
/// The first byte picks the dialect: the delimiter is `;`, `,` or tab by `b % 3`, fields are quoted
/// with `"` when `b / 3` is even (else never), and the tiny chunk is `16 + (b / 6) % 49` bytes; when
/// `b >= 192` the built-in formats also try to detect the rest, and the one detected reads it.
/// The rest is read twice, from a big buffer and through a tiny one that the source fills a few
/// bytes at a time, and both readings must hand over the same records.
enum CSVHarness {
    static let delimiters: [UInt8] = [UInt8(ascii: ";"), UInt8(ascii: ","), 0x09]
    static let registry = FormatRegistry.builtIn

    static func run(_ input: UnsafeRawBufferPointer) {
        guard let control = input.first else { return }
        let body = UnsafeRawBufferPointer(rebasing: input[1...])
        let dialect = CSVDialect(delimiter: delimiters[Int(control) % 3], quote: (control / 3) % 2 == 0 ? UInt8(ascii: "\"") : nil)
        let tiny = 16 + Int(control / 6) % 49

        let whole = read(body, dialect: dialect, chunkSize: 1 << 16, readAtMost: Int.max)
        let pieces = read(body, dialect: dialect, chunkSize: tiny, readAtMost: 1 + Int(control % 7))
        if whole != pieces {
            let common = min(whole.digest.count, pieces.digest.count)
            let at = (0..<common).first { whole.digest[$0] != pieces.digest[$0] } ?? common
            preconditionFailure("""
                the records differ between a \(1 << 16)-byte buffer (\(whole.records) records) and a \(tiny)-byte one \
                filled \(1 + Int(control % 7)) bytes at a time (\(pieces.records) records), first at digest byte \(at)
                """)
        }

        if let sniffed = CSVDialect.sniffDelimiter(Array(body)) {
            precondition(delimiters.contains(sniffed), "sniffDelimiter answered \(sniffed), not one of ; , tab")
        }

        if control >= 192 { detectAndRead(body) }
    }

    /// What a reading handed over, as bytes to compare.
    struct Reading: Equatable {
        var digest: [UInt8] = []
        var records = 0

        mutating func append(_ value: Int) {
            withUnsafeBytes(of: UInt64(truncatingIfNeeded: value).littleEndian) { digest.append(contentsOf: $0) }
        }

        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            append(bytes.count)
            digest.append(contentsOf: bytes)
        }
    }

    /// Reads `body` with a reader of `chunkSize` bytes whose source hands over at most `readAtMost`
    /// bytes a call, checking every record.
    static func read(_ body: UnsafeRawBufferPointer, dialect: CSVDialect, chunkSize: Int, readAtMost: Int) -> Reading {
        var offset = 0
        let reader = CSVReader(dialect: dialect, chunkSize: chunkSize) { buffer in
            let n = min(buffer.count, body.count - offset, readAtMost)
            if n > 0 {
                buffer.baseAddress!.copyMemory(from: body.baseAddress! + offset, byteCount: n)
                offset += n
            }
            return n
        }
        var reading = Reading()
        var lastLine = 0
        do {
            try reader.forEachRecord { record in
                precondition(record.line > lastLine, "record at line \(record.line) after one at line \(lastLine)")
                lastLine = record.line
                check(record, dialect: dialect)
                reading.records += 1
                reading.append(record.line)
                reading.append(record.count)
                for i in 0..<record.count { reading.append(record[i]) }
                if let malformation = record.malformation {
                    reading.append(1)
                    reading.digest.append(contentsOf: malformation.utf8)
                } else {
                    reading.append(0)
                }
                reading.append(record.raw)
            }
        } catch {
            preconditionFailure("reading from memory threw: \(error)")
        }
        precondition(offset == body.count, "the reader stopped at byte \(offset) of \(body.count)")
        return reading
    }

    /// What holds of every record whatever the input.
    static func check(_ record: CSVRecord, dialect: CSVDialect) {
        precondition(record.count >= 1, "a record without fields")
        let raw = record.raw
        precondition(record.isEmptyLine == raw.isEmpty)
        if raw.isEmpty {
            precondition(record.count == 1 && record[0].isEmpty, "an empty line is not one empty field")
        }
        var total = record.count - 1
        var acc: UInt32 = 0
        for i in 0..<record.count {
            let field = record[i]
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
        guard case .detected(let adapter) = registry.detect(input.probe) else { return }
        var records = 0
        do {
            try adapter.read(input, options: ReadOptions()) { record, rawText in
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
