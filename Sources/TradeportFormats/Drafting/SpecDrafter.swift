import Foundation
import TradeportCSV
import TradeportCore
import TradeportSpec
import TradeportXLSX

/// Drafts a format spec from an export (`tradeport formats new FILE`): the encoding, delimiter,
/// header line (after any preamble), trailer lines, number notation, each column's type and date
/// pattern, the usual headers mapped to canonical fields, and the distinct values of a type column
/// listed for the user to map. Every guess is marked as one; what it cannot decide is a `TODO`
/// that `formats check` refuses until answered.
///
/// It reads at most `maxRows` rows (and 16 MiB of a CSV): a draft is about the layout, not the data.
public enum SpecDrafter {
    public static let maxRows = 20_000
    static let maxBytes = 16 << 20

    /// A problem reading the file itself (not a row: rows the draft cannot place are left to the user).
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let message: String
        public var description: String { "\(path): \(message)" }
    }

    /// A cell as read: its text, and for a workbook's date cell its serial.
    struct Cell {
        var text: String
        var isDate = false
    }

    struct Record {
        var line: Int
        var cells: [Cell]
        var count: Int { cells.count }
        var nonEmpty: [String] { cells.map(\.text).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty } }
    }

    /// The draft for the export at `path`, with the format id `id`.
    public static func draft(path: String, id: String) throws -> SpecDraft {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(path: path, message: "cannot be opened") }
        defer { try? handle.close() }
        let bytes = [UInt8]((try? handle.read(upToCount: maxBytes)) ?? Data())
        guard !bytes.isEmpty else { throw Failure(path: path, message: "is empty: there is nothing to draft a spec from") }
        var draft = SpecDraft(
            id: id, kind: .csv, sheet: nil, encoding: .utf8, delimiter: ",", headerLine: 1, trailerLines: [], decimal: ".",
            thousands: "none", symbols: [], parentheses: false, exponent: false, emptyMarkers: [], columns: [], rows: 0, guesses: [],
            questions: [], text: "")
        let records: [Record]
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            draft.kind = .xlsx
            records = try workbookRecords(path: path, draft: &draft)
        } else {
            records = try textRecords(bytes, path: path, cut: bytes.count == maxBytes, draft: &draft)
        }
        try layout(records, path: path, draft: &draft)
        var writer = SpecDraftWriter(draft: draft)
        draft.text = writer.yaml(file: (path as NSString).lastPathComponent)
        draft.questions = writer.draft.questions
        return draft
    }

    // MARK: - Reading

    static func textRecords(_ bytes: [UInt8], path: String, cut: Bool, draft: inout SpecDraft) throws -> [Record] {
        // The encoding: a byte-order mark, NULs every other byte (UTF-16 without one), UTF-8, or
        // the one 8-bit encoding tradeport reads besides.
        var utf8 = bytes
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            draft.encoding = .utf16
            utf8 = try transcode(bytes, .utf16, path)
        } else if bytes.count >= 4, bytes.prefix(400).enumerated().filter({ $0.offset % 2 == 1 && $0.element == 0 }).count > min(bytes.count, 400) / 4 {
            draft.encoding = .utf16le
            draft.guesses.append("encoding: UTF-16 little-endian with no byte-order mark (every other byte is 0)")
            utf8 = try transcode(bytes, .utf16le, path)
        } else if bytes.count >= 4, bytes.prefix(400).enumerated().filter({ $0.offset % 2 == 0 && $0.element == 0 }).count > min(bytes.count, 400) / 4 {
            draft.encoding = .utf16be
            draft.guesses.append("encoding: UTF-16 big-endian with no byte-order mark (every other byte is 0)")
            utf8 = try transcode(bytes, .utf16be, path)
        } else if String(validating: cut ? Array(bytes.prefix(bytes.count - 4)) : bytes, as: UTF8.self) == nil && !cut {
            // Cyrillic words are runs of bytes above 0x7F; Western European text has them one by one
            // between ASCII letters (`Stückpreis`, `Währung`).
            let high = bytes.indices.filter { bytes[$0] >= 0x80 }
            let inRuns = high.filter { i in (i > 0 && bytes[i - 1] >= 0x80) || (i + 1 < bytes.count && bytes[i + 1] >= 0x80) }.count
            let encoding: TextEncoding = inRuns * 2 > high.count ? .windows1251 : .windows1252
            draft.encoding = encoding
            draft.guesses.append(
                "encoding: \(encoding.rawValue) (the file is not UTF-8; \(encoding == .windows1251 ? "its bytes above 0x7F come in runs, as Cyrillic words do" : "its bytes above 0x7F stand alone among Latin letters, as accented letters do"))"
            )
            utf8 = try transcode(bytes, encoding, path)
        }
        // The delimiter that splits most lines alike into more than one field.
        var best: (delimiter: UInt8, score: Int, records: [Record])?
        for d in [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")] {
            let records = try csvRecords(utf8, CSVDialect(delimiter: d))
            let counts = Dictionary(grouping: records.filter { $0.count > 1 }, by: \.count).mapValues(\.count)
            guard let (fields, lines) = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { continue }
            let score = lines * 1000 + min(fields, 999)
            if best == nil || score > best!.score { best = (d, score, records) }
        }
        guard let best else {
            throw Failure(path: path, message: "no line splits into fields at ',', ';', a tab or '|': not a delimited text file")
        }
        draft.delimiter = best.delimiter == 0x09 ? "\t" : String(UnicodeScalar(best.delimiter))
        return best.records
    }

    static func transcode(_ bytes: [UInt8], _ encoding: TextEncoding, _ path: String) throws -> [UInt8] {
        var offset = 0
        let transcoder = TextTranscoder(encoding: encoding, path: path, inputSize: 1 << 16) { buffer in
            let n = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            offset += n
            return n
        }
        var made: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try transcoder.read(into: $0) }
            if n == 0 { break }
            made.append(contentsOf: chunk[..<n])
        }
        return made
    }

    static func csvRecords(_ utf8: [UInt8], _ dialect: CSVDialect) throws -> [Record] {
        var offset = 0
        let reader = CSVReader(dialect: dialect, chunkSize: 1 << 16) { buffer in
            let n = min(buffer.count, utf8.count - offset)
            utf8.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            offset += n
            return n
        }
        var records: [Record] = []
        struct Enough: Error {}
        do {
            try reader.forEachRecord { record in
                if record.isEmptyLine { return }
                var cells: [Cell] = []
                for i in 0..<record.count { cells.append(Cell(text: record.string(i) ?? String(decoding: record[i], as: UTF8.self))) }
                records.append(Record(line: record.line, cells: cells))
                if records.count > maxRows { throw Enough() }
            }
        } catch is Enough {}
        return records
    }

    static func workbookRecords(path: String, draft: inout SpecDraft) throws -> [Record] {
        do {
            let workbook = try XLSXWorkbook(path: path)
            // The sheet with the most rows (a summary sheet first is common).
            var best: (sheet: XLSXWorkbook.Sheet, records: [Record])?
            for sheet in workbook.sheets where sheet.state == "visible" {
                var records: [Record] = []
                try workbook.readRows(of: sheet) { row in
                    var cells: [Cell] = []
                    for cell in row.cells {
                        while cells.count < cell.column { cells.append(Cell(text: "")) }
                        switch cell.kind {
                        case .number: cells.append(Cell(text: cell.number ?? cell.text))
                        case .date: cells.append(Cell(text: cell.text, isDate: true))
                        default: cells.append(Cell(text: cell.text))
                        }
                    }
                    if !cells.isEmpty { records.append(Record(line: row.number, cells: cells)) }
                    return records.count <= maxRows
                }
                if best == nil || records.count > best!.records.count { best = (sheet, records) }
            }
            guard let best else { throw Failure(path: path, message: "the workbook has no visible sheet") }
            draft.sheet = best.sheet.name
            if workbook.sheets.count > 1 {
                draft.guesses.append(
                    "sheet: '\(best.sheet.name)', the one with the most rows of \(workbook.sheets.map { "'\($0.name)'" }.joined(separator: ", "))")
            }
            // Short rows: as wide as the widest.
            let width = best.records.map(\.count).max() ?? 0
            return best.records.map { r in
                var r = r
                while r.cells.count < width { r.cells.append(Cell(text: "")) }
                return r
            }
        } catch let error as XLSXError {
            throw Failure(path: path, message: error.description)
        }
    }

    // MARK: - The layout

    static func layout(_ records: [Record], path: String, draft: inout SpecDraft) throws {
        let counts = Dictionary(grouping: records.filter { $0.count > 1 }, by: \.count).mapValues(\.count)
        guard let width = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key else {
            throw Failure(path: path, message: "no two lines have the same fields: cannot tell a header and rows")
        }
        // The header: the first line as wide as the rows whose cells are words, not numbers or dates.
        // None: columns by position.
        let h = records.indices.first(where: { i in
            let r = records[i]
            let cells = r.nonEmpty
            return r.count == width && cells.count >= max(2, width / 2) && cells.allSatisfy { !looksLikeData($0) } && !r.cells.contains { $0.isDate }
        })
        if let h {
            draft.headerLine = records[h].line
            if h > 0 { draft.guesses.append("the header is line \(records[h].line): the \(h) line\(h == 1 ? "" : "s") above it are a preamble") }
        } else {
            draft.headerLine = 0
            draft.guesses.append("no header: no line of \(width) texts that are not numbers or dates; the columns are read by position")
        }
        let headerCells = h.map { records[$0].cells } ?? Array(repeating: Cell(text: ""), count: width)
        var body = Array(records[(h.map { $0 + 1 } ?? 0)...])
        // Trailer lines: at the end, narrower than the rows, or a total.
        while let last = body.last, last.count != width || isTotal(last) {
            draft.trailerLines.insert(last.line, at: 0)
            if let text = last.cells.first?.text, !draft.trailerTexts.contains(text) { draft.trailerTexts.insert(text, at: 0) }
            body.removeLast()
        }
        if !draft.trailerLines.isEmpty {
            draft.guesses.append(
                "line\(draft.trailerLines.count == 1 ? "" : "s") \(draft.trailerLines.map(String.init).joined(separator: ", ")) after the rows: a trailer (a total or a note), skipped"
            )
        }
        let rows = body.filter { $0.count == width }
        draft.rows = rows.count
        notation(rows, width: width, draft: &draft)
        var names: Set<String> = []
        for i in 0..<width {
            // Byte-order marks, which some exports write again before the header (header matching
            // passes over them), are no part of a column's name.
            let header = headerCells[i].text.replacingOccurrences(of: "\u{FEFF}", with: "").trimmingCharacters(in: .whitespaces)
            var column = infer(header: header, position: i + 1, cells: rows.map { $0.cells[i] }, draft: &draft)
            var name = column.name
            var n = 2
            while names.contains(name) {
                name = column.name + String(n)
                n += 1
            }
            names.insert(name)
            column.name = name
            // A currency column whose number is in the unnamed column after it (`Mutatie,,`):
            // the header's meaning goes to the number.
            if column.header.isEmpty, column.type == "decimal", let previous = draft.columns.last, previous.type == "asset",
                let role = previous.role, role != .currency, role != .feeCurrency
            {
                column.role = role
                draft.columns[draft.columns.count - 1].role = role == .fee ? .feeCurrency : role == .balance ? nil : .currency
                draft.guesses.append("columns.\(column.name): the number of '\(previous.header)', whose currency is the column before it")
            }
            draft.columns.append(column)
        }
    }

    static func isTotal(_ r: Record) -> Bool {
        guard let first = r.nonEmpty.first?.lowercased() else { return true }
        return first.hasPrefix("total") || first.hasSuffix(" total") || first.hasPrefix("transactions total") || first.hasPrefix("summe")
            || first.hasPrefix("итого")
    }

    /// A cell that is a number or a date, which a header's cell is not.
    static func looksLikeData(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        if numberShape(t) != nil { return true }
        if Self.datePatterns.contains(where: { matches($0, t) }) { return true }
        return false
    }

    // MARK: - Numbers

    /// What a number's text says of the notation: which separator is decimal, which groups.
    struct NumberShape {
        var decimal: Character?  // a separator that can only be decimal
        var thousands: String?  // a grouping seen
        var ambiguous: Character?  // `1,234`: grouping or a fraction of three digits
        var symbol: String?
        var parentheses = false
        var exponent = false
    }

    static let currencySymbols = ["US$", "$", "€", "£", "¥", "₽", "₹", "CHF", "zł"]

    /// The shape of `text` if it is a number in some notation, else nil.
    static func numberShape(_ text: String) -> NumberShape? {
        var t = Substring(text.trimmingCharacters(in: .whitespaces))
        var shape = NumberShape()
        if t.hasPrefix("("), t.hasSuffix(")") {
            shape.parentheses = true
            t = t.dropFirst().dropLast()
        }
        if t.hasPrefix("-") || t.hasPrefix("+") || t.hasPrefix("−") { t = t.dropFirst() }
        for s in currencySymbols {
            if t.hasPrefix(s) {
                shape.symbol = s
                t = t.dropFirst(s.count)
                break
            }
            if t.hasSuffix(s) {
                shape.symbol = s
                t = t.dropLast(s.count)
                break
            }
        }
        if t.hasPrefix("-") { t = t.dropFirst() }
        t = Substring(t.trimmingCharacters(in: .whitespaces))
        guard let first = t.first, first.isASCII, first.isNumber || first == "." else { return nil }
        let chars = Array(t)
        if let e = chars.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            let mantissa = String(chars[..<e])
            var exp = Substring(String(chars[(e + 1)...]))
            if exp.hasPrefix("-") || exp.hasPrefix("+") { exp = exp.dropFirst() }
            guard !exp.isEmpty, exp.allSatisfy({ $0.isASCII && $0.isNumber }),
                mantissa.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }), mantissa.filter({ $0 == "." }).count <= 1
            else { return nil }
            shape.exponent = true
            if mantissa.contains(".") { shape.decimal = "." }
            return shape
        }
        guard chars.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." || $0 == "," || $0 == " " || $0 == "\u{A0}" || $0 == "'" }) else { return nil }
        let separators = chars.filter { !$0.isNumber }
        if separators.isEmpty { return shape }
        let last = chars.lastIndex { !$0.isNumber }!
        let lastSep = chars[last]
        let digitsAfter = chars.count - last - 1
        let kinds = Set(separators)
        func grouped(_ text: ArraySlice<Character>, by g: Character) -> Bool {
            let parts = text.split(separator: g, omittingEmptySubsequences: false)
            return parts.count >= 2 && (1...3).contains(parts[0].count) && parts.dropFirst().allSatisfy { $0.count == 3 }
        }
        func groupName(_ g: Character) -> String { g == " " || g == "\u{A0}" ? "space" : String(g) }
        switch kinds.count {
        case 1 where separators.count == 1 && (lastSep == "." || lastSep == ","):
            let integer = chars[..<last]
            if digitsAfter == 3 && (1...3).contains(integer.count) && integer.first != "0" {
                shape.ambiguous = lastSep
            } else {
                shape.decimal = lastSep  // `0,5`, and `-0.` as some exports write a zero
            }
        case 1:
            guard grouped(chars[...], by: lastSep) else { return nil }
            shape.thousands = groupName(lastSep)
        case 2:
            guard lastSep == "." || lastSep == ",", digitsAfter >= 1, let g = kinds.first(where: { $0 != lastSep }),
                separators.dropLast().allSatisfy({ $0 == g }), grouped(chars[..<last], by: g)
            else { return nil }
            shape.decimal = lastSep
            shape.thousands = groupName(g)
        default:
            return nil
        }
        return shape
    }

    /// The file's notation, from every cell of every column that reads as numbers.
    static func notation(_ rows: [Record], width: Int, draft: inout SpecDraft) {
        var decimals: [Character: Int] = [:]
        var groupings: [String: Int] = [:]
        var ambiguous: [Character: Int] = [:]
        var symbols: [String] = []
        for i in 0..<width {
            let shapes = rows.compactMap { r -> NumberShape?? in
                let t = r.cells[i].text.trimmingCharacters(in: .whitespaces)
                if t.isEmpty || emptyMarker(t) { return nil }
                return .some(numberShape(t))
            }
            guard !shapes.isEmpty, shapes.allSatisfy({ $0 != nil }) else { continue }
            for case let s? in shapes {
                if let d = s.decimal { decimals[d, default: 0] += 1 }
                if let g = s.thousands { groupings[g, default: 0] += 1 }
                if let a = s.ambiguous { ambiguous[a, default: 0] += 1 }
                if let sym = s.symbol, !symbols.contains(sym) { symbols.append(sym) }
                if s.parentheses { draft.parentheses = true }
                if s.exponent { draft.exponent = true }
            }
        }
        draft.symbols = symbols
        if decimals.count == 2 {
            draft.decimal = "either"
            draft.guesses.append("values.decimal: either ('.' in \(decimals["."]!) numbers, ',' in \(decimals[","]!))")
        } else if let d = decimals.keys.first {
            draft.decimal = String(d)
        } else if let a = ambiguous.keys.first {
            // Only `1,234`-like numbers: a thousands grouping is likelier than three decimals each time.
            draft.decimal = a == "," ? "." : ","
            draft.thousands = String(a)
            draft.guesses.append("values: thousands '\(a)' (numbers like 1\(a)234 only; they could be decimals of three digits)")
        }
        if draft.decimal != "either", let (g, _) = groupings.max(by: { $0.value < $1.value }) {
            draft.thousands = g
        }
        // A separator both ways (`1,234` beside `0,5`) is the decimal one when the other groups.
        if draft.decimal == ",", ambiguous["."] != nil, draft.thousands == "none" { draft.thousands = "." }
        if draft.decimal == ".", ambiguous[","] != nil, draft.thousands == "none" { draft.thousands = "," }
    }

    static let emptyMarkerTexts = ["-", "--", "N/A", "n/a", "NA", "—"]
    static func emptyMarker(_ t: String) -> Bool { emptyMarkerTexts.contains(t) }

    // MARK: - Dates

    /// Date and time patterns tried, most specific first.
    static let datePatterns: [String] = {
        let dates = [
            "yyyy-MM-dd", "dd.MM.yyyy", "dd/MM/yyyy", "MM/dd/yyyy", "dd-MM-yyyy", "yyyy/MM/dd", "yyyy.MM.dd", "d.M.yyyy", "M/d/yyyy",
            "d/M/yyyy", "dd-MMM-yyyy", "d MMM yyyy", "dd MMM yyyy", "MMM d, yyyy", "MMMM d, yyyy", "d-MMM-yyyy", "yyyyMMdd"
        ]
        let times = [
            "", " HH:mm:ss", " HH:mm:ss[.F]", " HH:mm", "'T'HH:mm:ss", "'T'HH:mm:ss[.F]", "'T'HH:mm:ssZ", "'T'HH:mm:ss[.F]Z", " HH:mm:ss 'UTC'",
            " HH:mm:ss[.F] 'UTC'", ", HH:mm:ss", " hh:mm:ss a", " h:mm:ss a", " h:mm a", " hh:mm a", ", h:mm:ss a", ", h:mm a", " H:mm:ss", " H:mm",
            "'T'HH:mm:ssXXX", "'T'HH:mm:ss[.F]XXX", " HH:mm:ssXXX", ";HHmmss", " HHmmss"
        ]
        var all: [String] = []
        // `yyyyMMdd` only alone or with a time of digits (`20240115;093000`), which only it takes.
        for d in dates {
            for t in times where t.isEmpty || (d == "yyyyMMdd") == t.hasSuffix("HHmmss") { all.append(d + t) }
        }
        return all
    }()

    static let clockPatterns = ["HH:mm:ss", "HH:mm:ss[.F]", "HH:mm", "H:mm:ss", "H:mm", "hh:mm:ss a", "h:mm a"]

    static func matches(_ pattern: String, _ text: String) -> Bool {
        let compiled = CompiledPattern(pattern)
        var t = text
        return t.withUTF8 { compiled.match(UnsafeRawBufferPointer($0)) != nil }
    }

    // MARK: - Columns

    static func camelName(_ header: String, position: Int) -> String {
        var words: [String] = []
        var word = ""
        for ch in header.folding(options: [.diacriticInsensitive], locale: nil) {
            if ch.isASCII && (ch.isLetter || ch.isNumber) {
                word.append(ch)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        guard let first = words.first, first.first?.isLetter == true else { return "column\(position)" }
        let name = first.prefix(1).lowercased() + (first.count > 1 && first == first.uppercased() ? first.dropFirst().lowercased() : String(first.dropFirst()))
        return ([name] + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }).joined().prefix(40).description
    }

    static func infer(header: String, position: Int, cells: [Cell], draft: inout SpecDraft) -> SpecDraft.Column {
        let texts = cells.map { $0.text.trimmingCharacters(in: .whitespaces) }
        let present = texts.filter { !$0.isEmpty && !emptyMarker($0) }
        for t in texts where emptyMarker(t) && !draft.emptyMarkers.contains(t) { draft.emptyMarkers.append(t) }
        var counts: [String: Int] = [:]
        var order: [String] = []
        for t in present {
            if counts[t] == nil { order.append(t) }
            counts[t, default: 0] += 1
        }
        let values = order.map { ($0, counts[$0]!) }.sorted { $0.1 > $1.1 }
        var column = SpecDraft.Column(
            header: header, position: position, name: camelName(header, position: position), type: "text", format: nil,
            role: HeaderRole.of(header), optional: present.count < texts.count, values: values, example: present.first)
        if present.isEmpty {
            column.optional = true
            return column
        }
        // Workbook dates.
        if cells.contains(where: \.isDate) {
            let serials = cells.filter(\.isDate).map(\.text)
            column.type = serials.allSatisfy({ !$0.contains(".") }) ? "date" : "datetime"
            column.format = column.type == "date" ? "yyyy-MM-dd" : "yyyy-MM-dd HH:mm:ss"
            column.dateCells = true
            return column
        }
        // `20240115` is a number too: a date where the header says so.
        let dateRole = column.role == .date || column.role == .time || HeaderRole.normalized(header).contains("date")
        if present.allSatisfy({ numberShape($0) != nil }) && column.role != .id && column.role != .orderId
            && !(dateRole && present.allSatisfy { matches("yyyyMMdd", $0) })
        {
            column.type = "decimal"
            return column
        }
        if let pattern = datePatterns.first(where: { p in present.allSatisfy { matches(p, $0) } }) {
            var p = pattern
            // dd/MM against MM/dd: a day past 12 decides; otherwise a guess.
            if p.hasPrefix("dd/MM/yyyy") || p.hasPrefix("MM/dd/yyyy") || p.hasPrefix("d/M/yyyy") || p.hasPrefix("M/d/yyyy") {
                let dayFirst = p.hasPrefix("d")
                let other =
                    dayFirst
                    ? p.replacingOccurrences(of: "dd/MM", with: "MM/dd").replacingOccurrences(of: "d/M/", with: "M/d/")
                    : p.replacingOccurrences(of: "MM/dd", with: "dd/MM").replacingOccurrences(of: "M/d/", with: "d/M/")
                let otherFits = present.allSatisfy { matches(other, $0) }
                if otherFits {
                    // Both read every value: the sample has no day past 12.
                    p = p.hasPrefix("M") ? p : other  // prefer month first for '/' (the US's order)
                    draft.guesses.append(
                        "columns.\(column.name): '\(p)' (no day past 12 in the sample: it could be \(p.hasPrefix("M") ? "day" : "month") first)")
                }
            }
            // A fraction in some values only: `[.F]` reads both.
            if !p.contains("[.F]"), let withFraction = [p.replacingOccurrences(of: ":ss", with: ":ss[.F]")].first, withFraction != p,
                present.allSatisfy({ matches(withFraction, $0) }), present.contains(where: { $0.contains(".") && !matches(p, $0) })
            {
                p = withFraction
            }
            column.type = p.contains("H") || p.contains("h") ? "datetime" : "date"
            if p.contains("X") { draft.guesses.append("columns.\(column.name): times with their offset from UTC (XXX): each is the instant it names") }
            column.format = p
            return column
        }
        // A date followed by text (`09/27/2023 as of 09/26/2023`): the date is read from the start.
        let heads = present.map { String($0.prefix { $0 != " " }) }
        if let pattern = datePatterns.first(where: { p in !p.contains(" ") && heads.allSatisfy { matches(p, $0) } }),
            present.contains(where: { $0.contains(" ") })
        {
            var p = pattern
            if p.hasPrefix("dd/MM/yyyy") && heads.allSatisfy({ matches("MM/dd/yyyy", $0) }) { p = "MM/dd/yyyy" }
            column.type = "date"
            column.format = p
            column.match = "^(\\S+)"
            draft.guesses.append("columns.\(column.name): a date (\(p)) followed by text in some rows; the date is read from the start")
            return column
        }
        if let pattern = clockPatterns.first(where: { p in present.allSatisfy { matches(p, $0) } }) {
            column.type = "time"
            column.format = pattern
            return column
        }
        switch column.role {
        case .id, .orderId: column.type = "id"
        case .currency, .feeCurrency: column.type = present.allSatisfy(isCode) ? "asset" : "text"
        case .symbol, .isin: column.type = present.allSatisfy(isCode) ? "asset" : "text"
        default:
            if present.allSatisfy({ isCode($0) && $0.count == 3 && $0 == $0.uppercased() }) { column.type = "asset" }
        }
        return column
    }

    /// A code tradeport can take as an asset: letters, digits and `.`, `-`, `_`, no spaces.
    static func isCode(_ t: String) -> Bool {
        !t.isEmpty && t.count <= 24 && t.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "." || $0 == "-" || $0 == "_" }
    }
}
