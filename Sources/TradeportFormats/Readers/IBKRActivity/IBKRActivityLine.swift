import TradeportCSV
import TradeportCore

/// One line of an Activity Statement, held as its cells: the statement names each symbol's ISIN
/// (Financial Instrument Information) only after its trades, so its lines are read into memory
/// first and then read twice (`IBKRActivityStatement`, `IBKRActivityParser`). A statement is a few
/// hundred lines, a busy year some thousands: held whole, it costs a few megabytes at most.
struct IBKRActivityLine: Sendable {
    /// The 1-based line the record starts on.
    let number: Int
    /// The first cell: the section (`Trades`, `Dividends`, `Transaktionen`…), trimmed.
    let section: String
    /// The second cell: the row kind (`Header`, `Data`, `SubTotal`, `Total`, `Notes`), trimmed.
    let kind: String
    /// The cells after the section and the row kind, as written: what the section's header names.
    let fields: [String]
    /// The line as it stands in the file, for rejects.
    let raw: String
    /// Why the line is not well-formed CSV or UTF-8 text, or nil.
    let malformation: String?

    /// The column (1-based, as a reject names it) of `fields[index]`.
    static func column(ofField index: Int) -> Int { index + 3 }

    /// The most a statement may hold, held whole: 32 MiB is some 150,000 lines, far past a year of
    /// a busy account (IBKR makes a statement of at most a year); a larger file is no statement to
    /// hold in memory, and is refused before it costs more.
    static let maxBytes = 32 << 20

    /// Every line of `input` but empty ones (which are no rows, as the spec reader has it), in
    /// order. The CSV reader drops a UTF-8 BOM and takes CR, LF and CRLF line ends. Throws when
    /// the input holds more than `maxBytes`.
    static func readAll(_ input: SourceInput, maxBytes: Int = maxBytes) throws -> [IBKRActivityLine] {
        var bytes = 0
        let reader = CSVReader(dialect: .comma) { buffer in
            let n = try input.read(into: buffer)
            bytes += n
            if bytes > maxBytes {
                throw InputError(
                    path: input.path,
                    message:
                        "holds more than \(maxBytes >> 20) MiB: an Activity Statement is held whole to be read, and one of a year is far smaller; export a shorter period"
                )
            }
            return n
        }
        var lines: [IBKRActivityLine] = []
        try reader.forEachRecord { record in
            if record.isEmptyLine { return }
            var cells: [String] = []
            cells.reserveCapacity(record.count)
            var malformation = record.malformation
            for i in 0..<record.count {
                if let text = record.string(i) {
                    cells.append(text)
                } else {
                    cells.append(String(decoding: record[i], as: UTF8.self))
                    if malformation == nil { malformation = "field \(i + 1) is not UTF-8 text" }
                }
            }
            lines.append(
                IBKRActivityLine(
                    number: record.line, section: cells[0].activityTrimmed, kind: cells.count > 1 ? cells[1].activityTrimmed : "",
                    fields: Array(cells.dropFirst(2)), raw: record.rawText, malformation: malformation))
        }
        return lines
    }
}

extension String {
    /// The text without the spaces and tabs around it: IBKR pads some cells (`Cash `, a Total
    /// line's last cell ` `).
    var activityTrimmed: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
