import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportSpec
import TradeportTestKit

/// `tradeport formats new`: a spec drafted from each built-in format's sample reads the sample as
/// the built-in spec does — the same source layout, notation, column types and date patterns —
/// and leaves the rest as listed questions that `formats check` refuses.
@Suite struct SpecDraftTests {
    /// Each built-in spec with its sample in formats/samples/.
    static let samples: [(spec: FormatSpec, path: String)] = FormatCatalog.builtIn.entries.compactMap { entry in
        guard let spec = entry.reader.specReader?.spec else { return nil }
        for ext in ["csv", "xlsx"] {
            let path = BuiltInSample.path("\(spec.id)-example.\(ext)")
            if FileManager.default.fileExists(atPath: path) { return (spec, path) }
        }
        return nil
    }

    static func normalized(_ header: String) -> String {
        header.lowercased().filter { !$0.isWhitespace }
    }

    /// `'T'` and `T` are the same literal letter in a pattern (T is no pattern letter). A sample
    /// whose days and months all have two digits is drafted `dd`/`MM`, where a spec may say `d`/`M`
    /// (which take both); an offset drafted `XXX` (which also takes `Z`) is the spec's `xxx`.
    static func samePattern(_ a: String?, _ b: String?) -> Bool {
        func plain(_ p: String?) -> String? {
            guard var p = p?.replacingOccurrences(of: "'T'", with: "T").replacingOccurrences(of: "'Z'", with: "Z") else { return nil }
            p = p.replacingOccurrences(of: "XXX", with: "xxx").replacingOccurrences(of: "XX", with: "xx")
            p = p.replacingOccurrences(of: "dd", with: "d").replacingOccurrences(of: "MMM", with: "\u{1}").replacingOccurrences(of: "MM", with: "M")
            return p.replacingOccurrences(of: "\u{1}", with: "MMM")
        }
        return plain(a) == plain(b)
    }

    /// What the draft of `path` says differently from `spec`, one line each.
    static func differences(_ spec: FormatSpec, _ draft: SpecDraft, ascii asciiFile: Bool = false) -> [String] {
        var out: [String] = []
        switch spec.source {
        case .csv(let csv):
            if draft.kind != .csv { out.append("kind \(draft.kind)") }
            if case .byte(let b) = csv.delimiter, draft.delimiter != String(UnicodeScalar(b)) {
                out.append("delimiter '\(draft.delimiter)', spec '\(String(UnicodeScalar(b)))'")
            }
            // A sample in plain ASCII is UTF-8 and any 8-bit encoding alike (Swissquote's English export).
            let ascii = draft.encoding == .utf8 && csv.encoding.isSingleByte && asciiFile
            if draft.encoding != csv.encoding && !(csv.encoding == .utf16 && [.utf16le, .utf16be].contains(draft.encoding)) && !ascii {
                out.append("encoding \(draft.encoding.rawValue), spec \(csv.encoding.rawValue)")
            }
            switch csv.header {
            case .row(let n) where draft.headerLine != n + csv.skipLines:
                out.append("header line \(draft.headerLine), spec \(n + csv.skipLines)")
            case .none where draft.headerLine != 0:
                out.append("header line \(draft.headerLine), spec none")
            case .find(let texts, _):
                let headers = Set(draft.columns.map { normalized($0.header) })
                for t in texts where !headers.contains(normalized(t)) { out.append("header lacks '\(t)'") }
            default: break
            }
        case .xlsx:
            if draft.kind != .xlsx { out.append("kind \(draft.kind)") }
        }
        // The draft says what the sample shows; a spec may take more than its sample holds
        // (`either` where the sample has only `,`; symbols, parentheses or exponents it never uses).
        let decimal = spec.values.notation.eitherDecimal ? "either" : String(UnicodeScalar(spec.values.decimal))
        // A column may read either separator where the file's other numbers use one (Saxo's Amount).
        let columnEither = spec.columns.contains { $0.decimal == 0 }
        if draft.decimal != decimal && decimal != "either" && !(draft.decimal == "either" && columnEither) {
            out.append("decimal '\(draft.decimal)', spec '\(decimal)'")
        }
        if decimal != "either" {
            let thousands: String
            switch spec.values.thousands {
            case nil: thousands = "none"
            case .space: thousands = "space"
            case .byte(let b): thousands = String(UnicodeScalar(b))
            }
            if draft.thousands != thousands && draft.thousands != "none" { out.append("thousands '\(draft.thousands)', spec '\(thousands)'") }
        }
        if !Set(draft.symbols).isSubset(of: spec.values.notation.symbols) {
            out.append("symbols \(draft.symbols), spec \(spec.values.notation.symbols)")
        }
        if draft.parentheses && !spec.values.notation.parentheses { out.append("parentheses, spec none") }
        if draft.exponent && !spec.values.notation.exponent { out.append("exponents, spec none") }
        for column in spec.columns {
            guard case .header(let names) = column.reference, column.match == nil, column.list == nil else { continue }
            let expected: (type: String, format: String?)
            switch column.type {
            case .decimal: expected = ("decimal", nil)
            case .dateTime(let f): expected = ("datetime", f)
            case .date(let f): expected = ("date", f)
            case .time(let f): expected = ("time", f)
            case .asset: expected = ("asset", nil)
            default: continue
            }
            let keys = Set(names.map(normalized))
            guard let drafted = draft.columns.first(where: { keys.contains(normalized($0.header)) }) else {
                // A column of other layouts than the sample's (`required: false`) is not in it.
                if column.required == .yes { out.append("no column '\(names[0])'") }
                continue
            }
            if drafted.values.isEmpty { continue }  // always empty in the sample: nothing to tell its type by
            if drafted.type != expected.type || (expected.format != nil && !drafted.dateCells && !Self.samePattern(drafted.format, expected.format)) {
                out.append("\(names[0]): \(drafted.type) \(drafted.format ?? ""), spec \(expected.type) \(expected.format ?? "")")
            }
        }
        return out
    }

    @Test("the draft of each built-in sample has the spec's layout, notation and column types")
    func draftsMatchTheBuiltInSpecs() throws {
        #expect(Self.samples.count >= 17)
        var report: [String] = []
        for (spec, path) in Self.samples {
            let draft = try SpecDrafter.draft(path: path, id: spec.id)
            let ascii = (FileManager.default.contents(atPath: path) ?? Data()).allSatisfy { $0 < 0x80 }
            let differences = Self.differences(spec, draft, ascii: ascii)
            if !differences.isEmpty { report.append("\(spec.id): " + differences.joined(separator: "; ")) }
        }
        #expect(report.isEmpty, "\n\(report.joined(separator: "\n"))")
    }

    /// The draft with each `TODO` answered by a placeholder of the kind its key takes.
    static func answered(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let start = line.range(of: "\"TODO: ") else { return String(line) }
            let end = line[start.upperBound...].firstIndex(of: "\"")!
            let key = line[..<start.lowerBound]
            let answer =
                key.hasSuffix("timezone: ")
                ? "UTC"
                : key.hasPrefix("    ") && !key.contains("{")
                    ? "other-income"
                    : ["quantity: ", "price: ", "amount: "].contains(where: { key.hasSuffix($0) }) ? "{const: '1'}" : "{const: X}"
            return line.replacingCharacters(in: start.lowerBound...end, with: answer)
        }.joined(separator: "\n")
    }

    @Test("a draft is refused for its questions alone: answered, it loads")
    func draftsAreSpecsButForTheirQuestions() throws {
        for (spec, path) in Self.samples {
            let draft = try SpecDrafter.draft(path: path, id: spec.id + "-draft")
            let todos = draft.text.components(separatedBy: "\"TODO: ").count - 1
            // Each question listed once; its TODO where each mapping needs the answer (a time for trades and transactions).
            #expect(
                (todos == 0) == draft.questions.isEmpty && todos >= draft.questions.count,
                "\(spec.id): \(todos) TODO values, \(draft.questions.count) questions listed")
            if todos > 0 {
                let errors = try #require(throws: SpecErrors.self) { try SpecLoader.load(text: draft.text, file: "draft.yaml") }
                #expect(errors.errors.count == todos)
                #expect(errors.errors.allSatisfy { $0.description.contains("a question the draft left open: TODO: ") })
            }
            do {
                _ = try SpecLoader.load(text: Self.answered(draft.text), file: spec.id + "-draft.yaml")
            } catch let errors as SpecErrors {
                Issue.record(
                    "\(spec.id): the answered draft does not load:\n\(errors.errors.map(\.description).joined(separator: "\n"))\n\(Self.answered(draft.text))")
            }
        }
    }

    @Test("a draft answered by the user reads the export: Schwab's sample, two answers")
    func answeredDraftConverts() throws {
        let path = BuiltInSample.path("schwab-example.csv")
        let draft = try SpecDrafter.draft(path: path, id: "schwab-draft")
        // The date followed by text, the total line and the numbers' `$` (USD) are seen; two questions are left.
        #expect(draft.columns.first?.format == "MM/dd/yyyy" && draft.columns.first?.match != nil)
        #expect(draft.trailerTexts == ["Transactions Total"])
        #expect(draft.symbols == ["$"] && draft.thousands == ",")
        #expect(draft.questions.count == 2, "\(draft.questions)")
        var text = draft.text
        for (question, answer) in [
            ("timezone: \"TODO", "timezone: America/New_York"), ("Stock Split: \"TODO", "Stock Split: other-income")
        ] {
            let range = try #require(text.range(of: question))
            let end = try #require(text[range.upperBound...].firstIndex(of: "\""))
            text.replaceSubrange(range.lowerBound...end, with: answer)
        }
        let spec = try SpecLoader.load(text: text, file: "schwab-draft.yaml")
        let doc = try TestKit.convert(paths: [path], with: SpecReader(spec))
        let builtIn = try BuiltInSample.convert("schwab", path)
        // The trades and transactions the built-in spec reads, but for the trade's amount: the draft
        // takes Amount (net of fees) where Schwab's spec takes quantity × price.
        #expect(
            doc.allTrades.map { [$0.side.rawValue, $0.base.text, $0.quote.text, "\($0.quantity)", "\($0.price)"] }
                == builtIn.allTrades.map { [$0.side.rawValue, $0.base.text, $0.quote.text, "\($0.quantity)", "\($0.price)"] })
        #expect(
            doc.allTransactions.map { "\($0.type) \($0.amount) \($0.asset.text)" } == builtIn.allTransactions.map { "\($0.type) \($0.amount) \($0.asset.text)" }
        )
        #expect(doc.allTrades.map(\.time) == builtIn.allTrades.map(\.time))
        // The stock split is a movement of shares, which the draft cannot tell: the answer given
        // (other-income) has no amount, and the row is a located reject, not a silent value.
        #expect(doc.rejected.count == 1 && doc.skipped.count == 1)
    }

    @Test("notations a draft sees: UTF-16 with a BOM, tabs, a preamble, spaces grouping, month names, a trailer")
    func draftSeesNotations() throws {
        let text = """
            Account statement\tperiod 2025
            Generated 03-Apr-2025
            Date\tType\tSymbol\tQuantity\tPrice\tAmount\tCurrency
            02-Apr-2025\tBuy\tABC\t10\t12,5\t-1 125,00\tSEK
            16-jan-2025\tDividend\tABC\t\t\t2 288,17\tSEK
            17-Jan-2025\tSell\tABC\t4\t13,25\t53,00\tSEK
            Total\t\t\t\t\t1 216,17\t

            """
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tradeport-draft-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("statement.txt").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let draft = try SpecDrafter.draft(path: path, id: "statement")
        #expect(draft.encoding == .utf16)
        #expect(draft.delimiter == "\t")
        #expect(draft.headerLine == 3)
        #expect(draft.trailerTexts == ["Total"])
        #expect(draft.decimal == "," && draft.thousands == "space")
        #expect(draft.columns.map(\.type) == ["date", "text", "asset", "decimal", "decimal", "decimal", "asset"])
        #expect(draft.columns[0].format == "dd-MMM-yyyy")
        // The type column's values, each mapped (a guess) and none left open; the time's zone is.
        #expect(draft.text.contains("trade: [Buy, Sell]"))
        #expect(draft.text.contains("Dividend: dividend"))
        #expect(draft.questions == ["values.timezone: the times carry no zone; name the zone the broker writes them in"])
        let answered = draft.text.replacingOccurrences(
            of: #""TODO: the zone of the export's times, an IANA name like Europe/Berlin, or UTC""#, with: "Europe/Stockholm")
        let doc = try TestKit.convert(paths: [path], with: SpecReader(try SpecLoader.load(text: answered, file: "statement.yaml")))
        #expect(doc.rejected.isEmpty, "\(doc.rejected.map(\.errors))")
        #expect(
            doc.allTrades.map { "\($0.side.rawValue) \($0.quantity) \($0.base.text) @ \($0.price) = \($0.amount.map { "\($0)" } ?? "-") \($0.quote.text)" }
                == ["sell 4 ABC @ 13.25 = 53 SEK", "buy 10 ABC @ 12.5 = 1125 SEK"])
        #expect(doc.allTransactions.map { "\($0.type) \($0.amount)" } == ["dividend 2288.17"])
    }

    @Test("the guide's sample: the draft asks only the zone and, answered, reads the guide spec's trades")
    func guideDraft() throws {
        let examples = BuiltInSample.directory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/examples")
        let path = examples.appendingPathComponent("kraken-trades.csv").path
        let draft = try SpecDrafter.draft(path: path, id: "kraken-draft")
        #expect(draft.questions == ["values.timezone: the times carry no zone; name the zone the broker writes them in"])
        let text = draft.text.replacingOccurrences(of: #""TODO: the zone of the export's times, an IANA name like Europe/Berlin, or UTC""#, with: "UTC")
        let drafted = try TestKit.convert(paths: [path], with: SpecReader(try SpecLoader.load(text: text, file: "kraken-draft.yaml")))
        let guide = try TestKit.convert(
            paths: [path], with: SpecReader(try SpecLoader.load(contentsOfFile: examples.appendingPathComponent("kraken-trades.yaml").path).spec))
        func key(_ t: Trade) -> String {
            "\(t.time) \(t.side.rawValue) \(t.base.text)/\(t.quote.text) \(t.quantity) @ \(t.price) = \(t.amount.map { "\($0)" } ?? "-") \(t.fees.map { "\($0.amount) \($0.currency.text)" }) \(t.externalId ?? "-")"
        }
        #expect(drafted.rejected.isEmpty && !drafted.allTrades.isEmpty)
        #expect(drafted.allTrades.map(key) == guide.allTrades.map(key))
    }
}
