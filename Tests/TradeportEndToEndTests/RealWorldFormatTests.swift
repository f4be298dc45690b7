import Foundation
import Testing
import TradeportCore

/// The built-in formats on real exports nobody here wrote (`../shared/realworld/`): each file is
/// detected without `--format`, its rows are counted as expected (rejects only where the file is
/// itself wrong, each with its reason), at least three of its rows read as worked out by hand, and
/// the net change of every asset equals the sum worked out by hand from the file. The expectations
/// are `Fixtures/realworld/<format>.json`; a case whose file is absent passes without checking.
@Suite("Built-in formats read the real exports of ../shared/realworld exactly")
struct RealWorldFormatTests {
    static let expectations = CLI.fixtures + "/realworld"
    static let shared = CLI.repositoryRoot + "/../shared/realworld"

    static var cases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: expectations)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    struct Expectation: Decodable {
        var format: String
        var file: String
        var counts: [String: Int]
        var rejects: [String: String]
        var totals: [String: String]
        var rows: [Row]
        var notes: String?

        struct Row: Decodable {
            var row: Int
            var kind: String
            var fields: [String: JSONValue]
        }
    }

    /// A JSON value, compared as written.
    enum JSONValue: Decodable, Equatable, CustomStringConvertible {
        case string(String), number(Double), bool(Bool), null, array([JSONValue]), object([String: JSONValue])

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .bool(b) } else if let s = try? c.decode(String.self) {
                self = .string(s)
            } else if let n = try? c.decode(Double.self) { self = .number(n) } else if let a = try? c.decode([JSONValue].self) {
                self = .array(a)
            } else { self = .object(try c.decode([String: JSONValue].self)) }
        }

        static func from(_ any: Any) -> JSONValue {
            switch any {
            case let s as String: return .string(s)
            case let b as Bool: return .bool(b)
            case let n as NSNumber: return .number(n.doubleValue)
            case let a as [Any]: return .array(a.map(from))
            case let o as [String: Any]: return .object(o.mapValues(from))
            default: return .null
            }
        }

        var description: String {
            switch self {
            case .string(let s): return "\"\(s)\""
            case .number(let n): return "\(n)"
            case .bool(let b): return "\(b)"
            case .null: return "null"
            case .array(let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
            case .object(let o): return "{" + o.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
            }
        }
    }

    @Test("each real export converts with detection, counted, row by row and in total as worked out by hand", arguments: cases)
    func readsExactly(_ name: String) throws {
        let expected = try JSONDecoder().decode(Expectation.self, from: Data(contentsOf: URL(fileURLWithPath: Self.expectations + "/" + name)))
        let path = Self.shared + "/" + expected.file
        guard FileManager.default.fileExists(atPath: path) else { return }  // ../shared/realworld is not here
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["convert", path, "-o", dir + "/out.json"])
        #expect(r.status == (expected.rejects.isEmpty ? 0 : 1), "\(r.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.json"))
        let doc = try CLI.decode(data)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])

        // Detected as its format, every row accounted for.
        let source = try #require(doc.sources.first)
        #expect(source.format == expected.format)
        #expect(source.addsUp)
        let counts = ["rows": source.rows, "operations": source.operations, "merged": source.merged, "extra": source.extra,
                      "skipped": source.skipped, "rejected": source.rejected, "duplicates": source.duplicates]
        for (key, value) in expected.counts { #expect(counts[key] == value, "\(name): \(key)") }
        #expect(Set(doc.rejected.map { String($0.source.row) }) == Set(expected.rejects.keys), "\(name): \(doc.rejected.map { "\($0.source.row): \($0.errors.map(\.message))" })")

        // Net change per asset, from every operation read.
        var totals: [String: ExactDecimal] = [:]
        for portfolio in doc.portfolios {
            let operations = portfolio.trades.map(PortfolioOperation.trade) + portfolio.transactions.map(PortfolioOperation.transaction)
                + portfolio.movements.map(PortfolioOperation.movement)
            for operation in operations {
                operation.forEachBalanceChange { asset, change, _ in
                    guard let change else { return }
                    totals[asset.text] = (totals[asset.text] ?? .zero).adding(change)
                }
            }
        }
        let nonZero = totals.filter { !$0.value.isZero }.mapValues(\.description)
        #expect(nonZero == expected.totals.filter { $0.value != "0" }, "\(name): totals")

        // Rows worked out by hand.
        var objects: [(kind: String, object: [String: Any])] = []
        for portfolio in json["portfolios"] as? [[String: Any]] ?? [] {
            for (key, kind) in [("trades", "trade"), ("transactions", "transaction"), ("movements", "movement")] {
                for o in portfolio[key] as? [[String: Any]] ?? [] { objects.append((kind, o)) }
            }
        }
        #expect(expected.rows.count >= 3, "\(name): at least three rows are worked out by hand")
        for row in expected.rows {
            let candidates = objects.filter { ($0.object["source"] as? [String: Any])?["row"] as? Int == row.row && $0.kind == row.kind }
            let matching = candidates.filter { c in row.fields.allSatisfy { JSONValue.from(c.object[$0.key] ?? NSNull()) == $0.value } }
            #expect(matching.count == 1, "\(name): row \(row.row) (\(row.kind)) expected \(row.fields), found \(candidates.map { c in row.fields.keys.sorted().map { "\($0): \(JSONValue.from(c.object[$0] ?? NSNull()))" } })")
        }
    }

    /// Every built-in spec ships a sample of ours (`formats/samples/<id>-example.csv`): detected as
    /// its format alone, converted with nothing rejected and every row accounted for.
    @Test("each built-in format's own sample is detected as it and converts with 0 rejects", arguments: cases)
    func sampleConverts(_ name: String) throws {
        let id = String(name.dropLast(".json".count))
        let sample = "formats/samples/\(id)-example.csv"
        let detected = try CLI.run(["detect", sample])
        #expect(detected.stdout == "\(sample): \(id)\n", "\(detected.stdout)")
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["convert", sample, "-o", dir + "/out.json", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try CLI.decode(file: dir + "/out.json")
        #expect(doc.rejected.isEmpty && doc.sources.first?.addsUp == true && doc.sources.first?.operations ?? 0 >= 3)
    }

    /// Every file of `../shared/realworld`: detection names exactly the format its expectations
    /// name (Tinkoff's reports: tinkoff-report), or none for a file no format claims; never two.
    @Test("detect names one format per real export, or none, never two")
    func detectionIsUnique() throws {
        guard FileManager.default.fileExists(atPath: Self.shared) else { return }
        var expected: [String: String] = [:]
        for name in Self.cases {
            let e = try JSONDecoder().decode(Expectation.self, from: Data(contentsOf: URL(fileURLWithPath: Self.expectations + "/" + name)))
            expected[e.file] = e.format
        }
        var files: [String] = []
        for folder in ["brokers", "crypto", "tinkoff", "other"] {
            for f in ((try? FileManager.default.contentsOfDirectory(atPath: Self.shared + "/" + folder)) ?? []).sorted() where !f.hasSuffix(".md") {
                files.append(folder + "/" + f)
            }
        }
        #expect(files.count >= 20)
        for file in files {
            let r = try CLI.run(["detect", Self.shared + "/" + file])
            let answer = r.stdout.components(separatedBy: ": ").dropFirst().joined(separator: ": ").trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!answer.contains("ambiguous") && !answer.contains("more than one"), "\(file): \(answer)")
            if let format = expected[file] {
                #expect(answer == format, "\(file): \(answer)")
            } else if file.hasPrefix("tinkoff/") {
                #expect(answer == "tinkoff-report", "\(file): \(answer)")
            } else if file.hasPrefix("other/") {
                #expect(answer.hasPrefix("not recognized"), "\(file): \(answer.prefix(200))")
            } else {
                Issue.record("\(file) has no expectations in Fixtures/realworld")
            }
        }
    }
}
