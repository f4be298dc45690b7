import Foundation
import Testing
import TradeportCore
import TradeportFormats

/// What the README and the manual say that the code decides: the formats read and written, the
/// two commands a newcomer runs first, and the command-line reference, which is the argument
/// parser's own help (regenerate it with `TRADEPORT_WRITE_CLI_REFERENCE=1 swift test --filter
/// DocumentationTests`).
@Suite("The README and the manual agree with the code")
struct DocumentationTests {
    static let readmePath = CLI.repositoryRoot + "/README.md"
    static let referencePath = CLI.repositoryRoot + "/docs/cli.md"

    /// The ids in the first cells of a table between `<!-- name -->` and `<!-- /name -->`.
    static func tableIds(_ text: String, _ name: String) throws -> [String] {
        let start = try #require(text.range(of: "<!-- \(name) -->"), "the README has no <!-- \(name) --> table")
        let end = try #require(text.range(of: "<!-- /\(name) -->", range: start.upperBound..<text.endIndex))
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), let close = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<close])
        }
    }

    /// The README's table of the formats read, made from the registry: id, origin, summary.
    static func formatsReadTable() -> String {
        var rows = ["| id | origin | what it reads |", "|---|---|---|"]
        for entry in FormatCatalog.builtIn.entries {
            let origin = entry.origin == "built-in" ? "built-in (Swift)" : entry.origin
            rows.append("| `\(entry.reader.id)` | \(origin) | \(entry.reader.summary) |")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    @Test("the README's table of the formats read is the registry's (regenerated with TRADEPORT_WRITE_CLI_REFERENCE=1)")
    func formatsReadTableIsGenerated() throws {
        var readme = try String(contentsOfFile: Self.readmePath, encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- formats-read -->\n"))
        let end = try #require(readme.range(of: "<!-- /formats-read -->", range: start.upperBound..<readme.endIndex))
        let table = Self.formatsReadTable()
        if ProcessInfo.processInfo.environment["TRADEPORT_WRITE_CLI_REFERENCE"] == "1" {
            readme.replaceSubrange(start.upperBound..<end.lowerBound, with: table)
            try readme.write(toFile: Self.readmePath, atomically: true, encoding: .utf8)
        } else {
            #expect(
                String(readme[start.upperBound..<end.lowerBound]) == table,
                "regenerate with TRADEPORT_WRITE_CLI_REFERENCE=1 swift test --filter DocumentationTests")
        }
    }

    @Test("the README lists every reader and every writer of the registry, each once")
    func formatLists() throws {
        let readme = try String(contentsOfFile: Self.readmePath, encoding: .utf8)
        let read = try Self.tableIds(readme, "formats-read")
        let written = try Self.tableIds(readme, "formats-written")
        let registry = FormatRegistry.builtIn
        #expect(read.count == Set(read).count, "a reader listed twice: \(read)")
        #expect(Set(read) == Set(registry.ids), "README lists \(read.sorted()), the registry has \(registry.ids.sorted())")
        #expect(written == registry.writerIDs, "README lists \(written), the registry has \(registry.writerIDs)")
    }

    @Test("the README begins with the two commands, and the first runs on the samples it ships")
    func twoCommands() throws {
        let readme = try String(contentsOfFile: Self.readmePath, encoding: .utf8)
        let first = "swift run tradeport convert formats/samples/dsx-trades-example.csv formats/samples/dsx-transactions-example.csv"
        #expect(readme.hasPrefix("# tradeport\n\n```sh\n\(first)\nswift test\n```\n"))
        let result = try CLI.run(["convert", "formats/samples/dsx-trades-example.csv", "formats/samples/dsx-transactions-example.csv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"trades\""))
    }

    /// Every command's help, as `tradeport help …` prints it, in the order of the reference.
    static let commands: [[String]] = [
        [], ["convert"], ["detect"], ["formats"], ["formats", "list"], ["formats", "check"], ["formats", "show"],
        ["formats", "new"], ["push"], ["serve"]
    ]

    static func reference() throws -> String {
        var text = """
            # Command-line reference

            Each command's help, exactly as `tradeport help COMMAND` prints it (the argument parser's own
            text, 80 columns). Generated: `TRADEPORT_WRITE_CLI_REFERENCE=1 swift test --filter DocumentationTests`
            rewrites this file, and the test fails when it no longer matches the code. The manual explains
            each command at length: [convert, detect and formats](convert.md), [formats and specs](formats.md),
            [writers](writers.md), [push and serve](push-and-serve.md).

            """
        for command in commands {
            let result = try CLI.run(["help"] + command, environment: ["COLUMNS": "80"])
            #expect(result.status == 0, "tradeport help \(command.joined(separator: " ")): \(result.stderr)")
            text += "\n## `tradeport\(command.map { " " + $0 }.joined())`\n\n```text\n"
            text += result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
                .joined(separator: "\n").trimmingCharacters(in: .newlines)
            text += "\n```\n"
        }
        return text
    }

    @Test("docs/cli.md is the argument parser's help of every command")
    func commandLineReference() throws {
        let generated = try Self.reference()
        if ProcessInfo.processInfo.environment["TRADEPORT_WRITE_CLI_REFERENCE"] == "1" {
            try generated.write(toFile: Self.referencePath, atomically: true, encoding: .utf8)
        }
        let kept = try String(contentsOfFile: Self.referencePath, encoding: .utf8)
        #expect(kept == generated, "docs/cli.md differs from the commands' help: regenerate it (TRADEPORT_WRITE_CLI_REFERENCE=1)")
    }

    /// The fields each kind's mapping takes, from the field tables, as the guide lists them.
    static func fieldTables() -> String {
        func type(_ t: FieldValueType) -> String {
            switch t {
            case .id: return "an id (`format:id`)"
            case .text: return "text"
            case .asset: return "an asset code"
            case .decimal(let sign): return sign == .any ? "a number" : "a number \(sign.requirement)"
            case .time: return "a time"
            case .date: return "a date"
            case .choice(let words): return words.map { "`\($0)`" }.joined(separator: ", ")
            case .tradeFees: return "`fees: [{amount, currency, kind}]`"
            case .cashFee: return "`fee: {amount, currency}`"
            case .location: return "where it was read"
            }
        }
        var out = ""
        for kind in OperationKind.allCases {
            out += "\n`\(kind.rawValue):` — \(kind.summary)\n\n| field | value | must the spec give it | what it is |\n|---|---|---|---|\n"
            for field in kind.fields where field.definition.type != .location {
                let d = field.definition
                let given: String
                if d.assigned {
                    given = "no: the conversion assigns one (a spec may carry one)"
                } else if d.readerMustGive {
                    given = "yes"
                } else if let value = d.defaultValue {
                    given = "no: `\(value)` when not given"
                } else {
                    given = "no"
                }
                out += "| `\(field.name)` | \(type(d.type)) | \(given) | \(d.summary) |\n"
            }
            out += "| `portfolio` | text | no | the portfolio the operation goes to (empty: `--portfolio`) |\n"
        }
        return out
    }

    @Test("the guide lists each kind's fields as the field tables say")
    func guideFieldTables() throws {
        let path = CLI.repositoryRoot + "/docs/adding-a-format.md"
        var guide = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(guide.range(of: "<!-- fields -->\n"), "the guide has no <!-- fields --> block")
        let end = try #require(guide.range(of: "<!-- /fields -->", range: start.upperBound..<guide.endIndex))
        let generated = Self.fieldTables() + "\n"
        if ProcessInfo.processInfo.environment["TRADEPORT_WRITE_CLI_REFERENCE"] == "1" {
            guide.replaceSubrange(start.upperBound..<end.lowerBound, with: generated)
            try guide.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            String(guide[start.upperBound..<end.lowerBound]) == generated,
            "docs/adding-a-format.md's field tables differ from the model: regenerate them (TRADEPORT_WRITE_CLI_REFERENCE=1)")
    }
}
