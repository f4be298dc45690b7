import TradeportPrimitives

/// How a CSV file separates and quotes its fields.
public struct CSVDialect: Sendable, Hashable {
    /// The byte between fields: `;`, `,` or a tab.
    public var delimiter: UInt8
    /// The quote byte, or `nil` when the source never quotes (then `"` is an ordinary byte).
    public var quote: UInt8?

    public init(delimiter: UInt8, quote: UInt8? = UInt8(ascii: "\"")) {
        self.delimiter = delimiter
        self.quote = quote
    }

    public static let semicolon = CSVDialect(delimiter: UInt8(ascii: ";"))
    public static let comma = CSVDialect(delimiter: UInt8(ascii: ","))
    public static let tab = CSVDialect(delimiter: 0x09)

    /// The delimiter among `;`, `,` and tab that splits the first lines of `head` most
    /// consistently (the same count on each line, and more than zero), or `nil`.
    public static func sniffDelimiter(_ head: [UInt8]) -> UInt8? {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var i = start
        while i < head.count, lines.count < 20 {
            if head[i] == 0x0A || head[i] == 0x0D {
                if i > start { lines.append(head[start..<i]) }
                start = i + 1
            }
            i += 1
        }
        // A last line cut off by the probe's size could mislead; use it only when it is alone.
        if lines.isEmpty, start < head.count { lines.append(head[start...]) }
        guard !lines.isEmpty else { return nil }
        var best: (delimiter: UInt8, score: Int)?
        for d in [UInt8(ascii: ";"), UInt8(ascii: ","), 0x09] {
            let counts = lines.map { line in line.reduce(0) { $0 + ($1 == d ? 1 : 0) } }
            guard let first = counts.first, first > 0 else { continue }
            let consistent = counts.filter { $0 == first }.count
            let score = consistent * 1000 + first
            if best == nil || score > best!.score { best = (d, score) }
        }
        return best?.delimiter
    }
}

/// How long a record and a field may be. A record past either is handed over cut, as a
/// `tooLong` record naming the limit, and the reader goes on at the next record: memory stays
/// bounded whatever a file holds (a file with no line break, a quote never closed).
public struct CSVLimits: Sendable, Hashable {
    /// Most bytes of one record, line breaks inside quoted fields included.
    public var maxRecordBytes: Int
    /// Most bytes of one field.
    public var maxFieldBytes: Int

    public init(maxRecordBytes: Int = 4 << 20, maxFieldBytes: Int = 1 << 20) {
        self.maxRecordBytes = max(maxRecordBytes, 16)
        self.maxFieldBytes = max(maxFieldBytes, 1)
    }

    public static let `default` = CSVLimits()
}

/// One field's bytes: a range in the input buffer, or in the reader's scratch buffer for a quoted
/// field whose `""` had to be unescaped.
public struct CSVFieldSpan: Sendable {
    var start: Int
    var end: Int
    var unescaped: Bool
}

/// A record as the reader hands it over: valid only inside the callback that receives it.
public struct CSVRecord {
    /// The 1-based line the record starts on.
    public let line: Int
    /// The record's bytes as they stand in the file, without the line break.
    public let raw: UnsafeRawBufferPointer
    /// Why the record is not well-formed CSV (an unterminated quote, text after a closing
    /// quote, a record or field past the limits), or `nil`.
    public let malformation: String?
    /// Whether the record went past the reader's limits: then it has no fields to read (one empty
    /// field), `raw` holds its first bytes only, and `malformation` says which limit.
    public let tooLong: Bool
    let spans: UnsafeBufferPointer<CSVFieldSpan>
    let base: UnsafeRawPointer
    let scratch: UnsafeRawPointer?

    /// How many fields the record has (an empty line has one empty field).
    public var count: Int { spans.count }

    /// Whether the line holds nothing at all.
    public var isEmptyLine: Bool { raw.isEmpty }

    /// The bytes of field `i` (0-based), unquoted and unescaped.
    @inline(__always)
    public subscript(i: Int) -> UnsafeRawBufferPointer {
        let s = spans[i]
        let p = s.unescaped ? scratch! : base
        return UnsafeRawBufferPointer(start: p + s.start, count: s.end - s.start)
    }

    /// Field `i` decoded as UTF-8, or `nil` when it is not valid UTF-8.
    public func string(_ i: Int) -> String? {
        String(validating: self[i], as: UTF8.self)
    }

    /// How many of a too-long record's first bytes `raw` keeps.
    public static let keptBytes = 4096

    /// The raw text of the record (invalid UTF-8 replaced), for messages.
    public var rawText: String { String(decoding: raw, as: UTF8.self) }
}

/// A streaming CSV reader over bytes: quotes and `""`, CR, LF and CRLF line breaks, a UTF-8 BOM,
/// any one-byte delimiter. It reads the input in chunks and hands each record over as ranges of
/// its buffer, so memory stays at the chunk size whatever the file's size.
public final class CSVReader {
    public let dialect: CSVDialect
    public let limits: CSVLimits
    private let readChunk: (UnsafeMutableRawBufferPointer) throws -> Int
    private var buffer: [UInt8]
    private var start = 0  // first unconsumed byte
    private var end = 0  // end of valid bytes
    private var atEOF = false
    private var line = 1
    private var checkedBOM = false
    private var spans: [CSVFieldSpan] = []
    private var scratch: [UInt8] = []

    /// - Parameter read: fills the buffer it is given with the next bytes and returns how many;
    ///   0 at the end of the input.
    /// - Parameter partWay: where a reader takes over an input part-way, at a record's start: the
    ///   line its first byte is on (no BOM is looked for then).
    public init(
        dialect: CSVDialect, chunkSize: Int = 1 << 20, limits: CSVLimits = .default, partWay firstLine: Int? = nil,
        read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) {
        self.dialect = dialect
        self.limits = limits
        self.readChunk = read
        line = firstLine ?? 1
        checkedBOM = firstLine != nil
        self.buffer = [UInt8](uninitializedBytes: max(chunkSize, 16))
        spans.reserveCapacity(32)
    }

    /// Moves unconsumed bytes to the front and reads more; grows the buffer when one record
    /// fills it. Returns false at the end of input with nothing new read.
    private func refill() throws -> Bool {
        if atEOF { return false }
        if start > 0 {
            let remaining = end - start
            if remaining > 0 {
                buffer.withUnsafeMutableBytes { p in
                    p.baseAddress!.copyMemory(from: p.baseAddress! + start, byteCount: remaining)
                }
            }
            end = remaining
            start = 0
        }
        if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
        let n = try buffer.withUnsafeMutableBytes { p in
            try readChunk(UnsafeMutableRawBufferPointer(rebasing: p[end...]))
        }
        if n == 0 {
            atEOF = true
            return false
        }
        end += n
        return true
    }

    /// Calls `body` with every record in order, including empty lines (as records with one empty
    /// field), until the input ends.
    public func forEachRecord(_ body: (CSVRecord) throws -> Void) throws {
        if !checkedBOM {
            checkedBOM = true
            while end - start < 3, try refill() {}
            if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF { start += 3 }
        }
        // Worked on as locals, so that the per-record loop touches no class property.
        var spans = self.spans
        var scratch = self.scratch
        self.spans = []
        self.scratch = []
        defer {
            self.spans = spans
            self.scratch = scratch
        }
        let dialect = self.dialect
        var line = self.line
        defer { self.line = line }
        while true {
            if start >= end {
                if try !refill() { return }
                continue
            }
            // Every complete record in the buffer, in one pass over it.
            var position = start
            let limit = end
            let final = atEOF
            try buffer.withUnsafeBytes { b in
                while position < limit {
                    guard
                        let parsed = Self.parseRecord(
                            b, from: position, end: limit, final: final, dialect: dialect,
                            spans: &spans, scratch: &scratch)
                    else { break }
                    try Self.handOver(b, from: position, parsed, line: line, spans: spans, scratch: scratch, limits: limits, body)
                    line += parsed.lines
                    position = parsed.next
                }
            }
            let progressed = position > start
            start = position
            if start < end && !progressed {
                // The record's bytes so far, without a CR that may begin its line break.
                let held = end - start - (buffer[end - 1] == 0x0D ? 1 : 0)
                if held > limits.maxRecordBytes {
                    // A record past the limit, not yet ended: hand over its first bytes, then
                    // drop the rest of it as it streams by.
                    let first = buffer.withUnsafeBytes { b in
                        Array(UnsafeRawBufferPointer(rebasing: b[start..<(start + min(CSVRecord.keptBytes, end - start))]))
                    }
                    let lines = try skipRecord()
                    try first.withUnsafeBytes { b in
                        try handOverTooLong(b, from: 0, bytes: nil, line: line, body)
                    }
                    line += lines
                    continue
                }
                // The buffer ends inside a record: read more. At the end of the input the next
                // pass parses with `final` set and takes what there is.
                _ = try refill()
            }
        }
    }

    /// Hands over the record parsed at `position` of `b`: as it is, or as too long when it is
    /// whole in the buffer yet past a limit (a buffer larger than the limit).
    @inline(__always)
    private static func handOver(
        _ b: UnsafeRawBufferPointer, from position: Int, _ parsed: ParsedRecord, line: Int,
        spans: [CSVFieldSpan], scratch: [UInt8], limits: CSVLimits,
        _ body: (CSVRecord) throws -> Void
    ) rethrows {
        if parsed.recordEnd - position > limits.maxRecordBytes {
            try handOverTooLong(b, from: position, bytes: parsed.recordEnd - position, line: line, field: nil, limits: limits, body)
        } else if let long = spans.firstIndex(where: { $0.end - $0.start > limits.maxFieldBytes }) {
            try handOverTooLong(b, from: position, bytes: parsed.recordEnd - position, line: line, field: long, limits: limits, body)
        } else {
            try spans.withUnsafeBufferPointer { s in
                try scratch.withUnsafeBytes { sc in
                    try body(
                        CSVRecord(
                            line: line, raw: UnsafeRawBufferPointer(rebasing: b[position..<parsed.recordEnd]),
                            malformation: parsed.malformation, tooLong: false, spans: s, base: b.baseAddress!, scratch: sc.baseAddress))
                }
            }
        }
    }

    /// Hands over a record past the limits: its first bytes as `raw`, one empty field, and a
    /// malformation naming the limit (`bytes`: its length when known; `field`: the 0-based field
    /// past the field limit).
    private func handOverTooLong(
        _ b: UnsafeRawBufferPointer, from: Int, bytes: Int?, line: Int, field: Int? = nil,
        _ body: (CSVRecord) throws -> Void
    ) throws {
        try Self.handOverTooLong(b, from: from, bytes: bytes, line: line, field: field, limits: limits, body)
    }

    private static func handOverTooLong(
        _ b: UnsafeRawBufferPointer, from: Int, bytes: Int?, line: Int, field: Int?,
        limits: CSVLimits, _ body: (CSVRecord) throws -> Void
    ) rethrows {
        let message: String
        if let field {
            message = "field \(field + 1) is longer than \(Self.size(limits.maxFieldBytes)), the most a field may hold; the record is not read"
        } else {
            let length = bytes.map { " (\($0) bytes)" } ?? ""
            message = "the record is longer than \(Self.size(limits.maxRecordBytes))\(length), the most a record may hold; it is not read"
        }
        let kept = min(bytes ?? CSVRecord.keptBytes, CSVRecord.keptBytes, b.count - from)
        let empty = [CSVFieldSpan(start: 0, end: 0, unescaped: false)]
        try empty.withUnsafeBufferPointer { s in
            try body(
                CSVRecord(
                    line: line, raw: UnsafeRawBufferPointer(rebasing: b[from..<(from + kept)]), malformation: message,
                    tooLong: true, spans: s, base: b.baseAddress!, scratch: nil))
        }
    }

    /// Reads the records of `bytes`, a piece of a larger input that begins where a record begins
    /// (a BOM is not looked for), numbering lines from `firstLine`, as `forEachRecord` reads them
    /// (records and fields past `limits` included). Unless the piece is the input's last
    /// (`final`), it stops at a record the piece does not hold whole: `end` is where that record
    /// begins (`bytes.count` when none is cut) and `lines` the line breaks before it.
    ///
    /// What reading an input in pieces on several threads is built on: a piece cut after a line
    /// break is read at once, and one cut inside a quoted field says so by its `end`.
    public static func forEachRecord(
        in b: UnsafeRawBufferPointer, firstLine: Int, final: Bool, dialect: CSVDialect, limits: CSVLimits = .default,
        _ body: (CSVRecord) throws -> Void
    ) rethrows -> (end: Int, lines: Int) {
        var spans: [CSVFieldSpan] = []
        spans.reserveCapacity(32)
        var scratch: [UInt8] = []
        var position = 0
        var line = firstLine
        while position < b.count {
            guard
                let parsed = parseRecord(
                    b, from: position, end: b.count, final: final, dialect: dialect,
                    spans: &spans, scratch: &scratch)
            else { break }
            try handOver(b, from: position, parsed, line: line, spans: spans, scratch: scratch, limits: limits, body)
            line += parsed.lines
            position = parsed.next
        }
        return (position, line - firstLine)
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : bytes >= 1 << 10 && bytes % (1 << 10) == 0 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }

    /// Reads past the record that starts at `start` (through its ending line break, outside
    /// quotes), keeping no more than a chunk in memory; returns the line breaks it consumed.
    private func skipRecord() throws -> Int {
        enum State { case fieldStart, unquoted, quoted, afterQuote }
        var state = State.fieldStart
        let delimiter = dialect.delimiter
        let quote = dialect.quote
        var lines = 0
        var sawCR = false
        // A CR inside quotes that ended a chunk: a line break of its own unless an LF follows.
        var quotedCR = false
        while true {
            if start >= end {
                end = 0
                start = 0
                if try !refill() { return lines + (sawCR || quotedCR ? 1 : 0) }
            }
            var i = start
            let done: Bool = buffer.withUnsafeBytes { b in
                while i < end {
                    let c = b[i]
                    if sawCR {
                        // A record ended at a CR; an LF right after belongs to it.
                        if c == 0x0A { i += 1 }
                        lines += 1
                        return true
                    }
                    i += 1
                    if quotedCR {
                        quotedCR = false
                        if c != 0x0A { lines += 1 }
                    }
                    switch state {
                    case .quoted:
                        if c == quote {
                            state = .afterQuote
                        } else if c == 0x0A {
                            lines += 1
                        } else if c == 0x0D {
                            if i >= end { quotedCR = true } else if b[i] != 0x0A { lines += 1 }
                        }
                    case .fieldStart, .unquoted, .afterQuote:
                        if c == 0x0A {
                            lines += 1
                            return true
                        }
                        if c == 0x0D {
                            sawCR = true
                            continue
                        }
                        if c == delimiter {
                            state = .fieldStart
                        } else if quote != nil, c == quote, state != .unquoted {
                            state = .quoted  // a field's opening quote, or `""` inside a quoted one
                        } else {
                            state = .unquoted
                        }
                    }
                }
                return false
            }
            start = i
            if done { return lines }
        }
    }

    struct ParsedRecord {
        var recordEnd: Int
        var next: Int
        var lines: Int
        var malformation: String?
    }

    /// Scans one record of `b` starting at `from`: where its bytes end, where the next record
    /// starts, how many line breaks it consumed, and a malformation if any; or `nil` when the
    /// bytes end first (unless `final`, at the end of input).
    @inline(__always)
    static func parseRecord(
        _ b: UnsafeRawBufferPointer, from: Int, end: Int, final: Bool, dialect: CSVDialect,
        spans: inout [CSVFieldSpan], scratch: inout [UInt8]
    ) -> ParsedRecord? {
        spans.removeAll(keepingCapacity: true)
        scratch.removeAll(keepingCapacity: true)
        let delimiter = dialect.delimiter
        let quote = dialect.quote ?? 0
        let quotes = dialect.quote != nil
        var i = from
        var newlines = 0
        var malformation: String?
        while true {
            // At the start of a field.
            if quotes, i < end, b[i] == quote {
                i += 1
                let contentStart = i
                var unescaped = false
                var scratchStart = 0
                var closed = false
                while i < end {
                    let c = b[i]
                    if c == quote {
                        if i + 1 < end, b[i + 1] == quote {
                            if !unescaped {
                                unescaped = true
                                scratchStart = scratch.count
                                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[contentStart..<i]))
                            }
                            scratch.append(quote)
                            i += 2
                            continue
                        }
                        if i + 1 >= end && !final { return nil }  // "" might straddle the chunk
                        closed = true
                        break
                    }
                    if c == 0x0A { newlines += 1 }
                    if c == 0x0D, !(i + 1 < end && b[i + 1] == 0x0A) {
                        if i + 1 >= end && !final { return nil }
                        newlines += 1
                    }
                    if unescaped { scratch.append(c) }
                    i += 1
                }
                spans.append(
                    unescaped
                        ? CSVFieldSpan(start: scratchStart, end: scratch.count, unescaped: true)
                        : CSVFieldSpan(start: contentStart, end: i, unescaped: false))
                if !closed {
                    if !final { return nil }
                    return ParsedRecord(
                        recordEnd: i, next: i, lines: newlines,
                        malformation: "a quoted field is not closed before the end of the input")
                }
                i += 1  // the closing quote
                // Only a delimiter or a line break may follow; anything else is kept in the
                // field's raw text but makes the record malformed.
                if i < end, b[i] != delimiter, b[i] != 0x0A, b[i] != 0x0D {
                    malformation = malformation ?? "text after the closing quote of field \(spans.count)"
                    while i < end, b[i] != delimiter, b[i] != 0x0A, b[i] != 0x0D { i += 1 }
                }
            } else {
                let fieldStart = i
                while i < end {
                    let c = b[i]
                    if c == delimiter || c == 0x0A || c == 0x0D { break }
                    i += 1
                }
                spans.append(CSVFieldSpan(start: fieldStart, end: i, unescaped: false))
            }
            if i >= end {
                if !final { return nil }
                return ParsedRecord(recordEnd: i, next: i, lines: newlines, malformation: malformation)
            }
            let c = b[i]
            if c == delimiter {
                i += 1
                if i >= end {
                    if !final { return nil }
                    spans.append(CSVFieldSpan(start: i, end: i, unescaped: false))
                    return ParsedRecord(recordEnd: i, next: i, lines: newlines, malformation: malformation)
                }
                continue
            }
            // A line break ends the record.
            if c == 0x0D {
                if i + 1 < end {
                    return ParsedRecord(recordEnd: i, next: b[i + 1] == 0x0A ? i + 2 : i + 1, lines: newlines + 1, malformation: malformation)
                }
                if !final { return nil }
                return ParsedRecord(recordEnd: i, next: i + 1, lines: newlines + 1, malformation: malformation)
            }
            return ParsedRecord(recordEnd: i, next: i + 1, lines: newlines + 1, malformation: malformation)
        }
    }
}
