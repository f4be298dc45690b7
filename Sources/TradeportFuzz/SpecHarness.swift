import TradeportCore
import TradeportFormats
import TradeportSpec

/// `spec`: the format spec language, from YAML to a reader.
///
/// The input is a spec's text (invalid UTF-8 replaced). A spec that loads becomes a `SpecReader`,
/// which detects and reads, for a CSV source, a small file made from the spec itself (a header of
/// its header texts, a row of its examples or of values of each column's type, a row of empty
/// cells) and then a fixed DSX-like file.
enum SpecHarness {
    static let fixedCSV = Array(
        """
        2021-03-02 14:05:09;eursusd;Buy;250;EURS;1,2034;USD;300,85;USD;0,625;EURS;Main;41000012;900000112
        2021-03-02 9:41:30;btcusdt;Sell;0,015;BTC;48210,5;USDT;723,1575;USDT;0;;Main;41000011;
        Date,Type,Amount,Currency,Id
        31.12.2020 23:59:59,Deposit,"1 234,56",RUB,"a ""quoted"" id"

        """.utf8)

    static func run(_ input: UnsafeRawBufferPointer) {
        let text = String(decoding: input, as: UTF8.self)
        let spec: FormatSpec
        do {
            spec = try SpecLoader.load(text: text, file: "fuzz.yaml")
        } catch let errors as SpecErrors {
            precondition(!errors.errors.isEmpty, "a spec refused without errors")
            for error in errors.errors {
                precondition(!error.message.isEmpty, "an error without a message at \(error.location)")
                precondition(error.location.file == "fuzz.yaml", "an error located in \(error.location.file)")
            }
            blackHole(errors.description.utf8.count)
            return
        } catch {
            preconditionFailure("SpecLoader.load threw something other than SpecErrors: \(error)")
        }
        precondition(FormatSpec.isValidID(spec.id), "a spec loaded with the id '\(spec.id)'")
        precondition(spec.file == "fuzz.yaml", "a spec loaded from \(spec.file)")
        let reader = SpecReader(spec)
        precondition(reader.id == spec.id)
        guard case .csv(let csv) = spec.source else {
            // A workbook format: a probe that is no workbook is not one.
            let probe = FormatProbe(name: "x.xlsx", head: fixedCSV, isWholeInput: true)
            if case .match = reader.detect(probe) { preconditionFailure("a workbook spec detected a CSV file") }
            return
        }
        read(sample(spec, csv), with: reader)
        read(fixedCSV, with: reader)
    }

    static func read(_ bytes: [UInt8], with reader: SpecReader) {
        let input = SourceInput(bytes: bytes, name: "sample.csv")
        blackHole(reader.detect(input.probe))
        var records = 0
        do {
            try reader.read(input, options: ReadOptions()) { record, rawText in
                records += 1
                if case .rejected(let row) = record { precondition(!row.errors.isEmpty, "a rejected row without errors") }
                blackHole(rawText().utf8.count)
            }
        } catch {
            blackHole("\(error)".utf8.count)
        }
        blackHole(records)
    }

    /// A file in the spec's layout: lines it skips, its header, a row of values, a row of nothing.
    static func sample(_ spec: FormatSpec, _ csv: CSVSource) -> [UInt8] {
        var header: [String] = []
        var values: [String] = []
        func put(_ index: Int, _ name: String, _ value: String) {
            while header.count <= index {
                header.append("")
                values.append("")
            }
            header[index] = name
            values[index] = value
        }
        var byColumn: String?
        var byValue: String?
        if case .by(let column, let trade, let transaction, let movement, _) = spec.rows {
            byColumn = column
            byValue = trade.first ?? transaction.first?.value ?? movement.first
        }
        for column in spec.columns {
            var value = column.example ?? sampleValue(column.type, spec.values)
            if column.name == byColumn, let byValue { value = byValue }
            if let list = column.list { value = value + list + value }
            switch column.reference {
            case .position(let p):
                guard p >= 1, p <= 256 else { continue }
                put(p - 1, column.name, value)
            case .header(let names):
                put(header.count, names.first ?? column.name, value)
            case .from:
                continue
            }
        }
        if case .find(let texts, _) = csv.header {
            for text in texts where !header.contains(text) { put(header.count, text, "") }
        }
        let delimiter: UInt8
        if case .byte(let b) = csv.delimiter { delimiter = b } else { delimiter = UInt8(ascii: ",") }
        var out: [UInt8] = []
        func line(_ cells: [String]) {
            for (i, cell) in cells.enumerated() {
                if i > 0 { out.append(delimiter) }
                out += field(Array(cell.utf8), delimiter: delimiter, quote: csv.quote)
            }
            out.append(0x0A)
        }
        for k in 0..<min(csv.skipLines, 8) { line(["skipped line \(k + 1)"]) }
        switch csv.header {
        case .none: break
        case .row(let n):
            for _ in 1..<max(1, min(n, 8)) { line(["before the header"]) }
            line(header)
        case .find:
            line(["a title line"])
            line(header)
        }
        line(values)
        line([String](repeating: "", count: max(values.count, 1)))
        return out
    }

    /// A field's bytes as written: quoted when it holds the delimiter, a quote or a line break (and
    /// the source quotes), else with those bytes made spaces.
    static func field(_ bytes: [UInt8], delimiter: UInt8, quote: UInt8?) -> [UInt8] {
        let special = bytes.contains { $0 == delimiter || $0 == 0x0A || $0 == 0x0D || $0 == quote }
        guard special else { return bytes }
        guard let quote else { return bytes.map { $0 == delimiter || $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 } }
        var out: [UInt8] = [quote]
        for b in bytes {
            out.append(b)
            if b == quote { out.append(quote) }
        }
        out.append(quote)
        return out
    }

    /// A value a column of `type` should read.
    static func sampleValue(_ type: ValueType, _ rules: ValueRules) -> String {
        switch type {
        case .text: return "text"
        case .id: return "id-1"
        case .asset: return "BTC"
        case .decimal:
            let decimal = rules.notation.eitherDecimal ? "." : String(decoding: [rules.decimal], as: UTF8.self)
            return "1234\(decimal)5"
        case .dateTime(let pattern), .date(let pattern), .time(let pattern):
            return render(pattern)
        case .map(let entries, _):
            return entries.first?.from ?? "value"
        case .instrument(let separators, let pairs, _):
            return pairs.first?.from ?? "BTC\(separators.first ?? "/")USD"
        }
    }

    /// A date and time in a pattern of `yyyy MM M dd d HH H mm ss`, `[.F]` and literal text:
    /// 2021-03-02 09:05:07.5 as the pattern writes it.
    static func render(_ pattern: String) -> String {
        var out = ""
        var rest = Substring(pattern)
        while let c = rest.first {
            if rest.hasPrefix("[.F]") {
                out += ".5"
                rest = rest.dropFirst(4)
                continue
            }
            if c == "'" {
                rest = rest.dropFirst()
                let literal = rest.prefix { $0 != "'" }
                out += literal
                rest = rest.dropFirst(literal.count + 1)
                continue
            }
            let run = rest.prefix { $0 == c }
            switch (c, run.count) {
            case ("y", _): out += "2021"
            case ("M", 1): out += "3"
            case ("M", _): out += "03"
            case ("d", 1): out += "2"
            case ("d", _): out += "02"
            case ("H", 1): out += "9"
            case ("H", _): out += "09"
            case ("m", _): out += "05"
            case ("s", _): out += "07"
            default: out += run
            }
            rest = rest.dropFirst(run.count)
        }
        return out
    }
}
