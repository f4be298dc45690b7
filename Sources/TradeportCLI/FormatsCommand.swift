import ArgumentParser
import Foundation
import TradeportCore
import TradeportFormats
import TradeportSpec

struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List the formats tradeport reads; check, show or draft a format spec.",
        subcommands: [List.self, Check.self, Show.self, New.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the formats read (id, description, origin: built-in, built-in spec, or the spec file), then those written (--to).")

        @OptionGroup var formats: FormatOptions

        func run() throws {
            let entries = try formats.catalog().entries
            let width = entries.map(\.reader.id.count).max() ?? 0
            for entry in entries {
                print(entry.reader.id.padding(toLength: width + 2, withPad: " ", startingAt: 0) + entry.reader.summary + "  [\(entry.origin)]")
            }
            print("")
            print("written (--to):")
            let writers = FormatCatalog.writers
            let writerWidth = writers.map(\.id.count).max() ?? 0
            for writer in writers {
                print("  " + writer.id.padding(toLength: writerWidth + 2, withPad: " ", startingAt: 0) + writer.summary)
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check format spec files: every problem with its file, line and key.",
            discussion: "Exits 0 when every spec is right, 2 otherwise.")

        @Argument(help: ArgumentHelp("The spec files.", valueName: "FILE"))
        var files: [String]

        func run() throws {
            var problems: [String] = []
            for path in files {
                do {
                    let (spec, _) = try SpecLoader.load(contentsOfFile: path)
                    print("\(path): \(spec.id): ok (\(spec.columns.count) columns)")
                    // Not an error: a column read and never used is worth a look.
                    for column in spec.unusedColumns {
                        printStandardError("\(column.location): warning: columns.\(column.name): read, but no mapping, rule or check uses it\n")
                    }
                } catch let errors as SpecErrors {
                    problems += errors.errors.map(\.description)
                }
            }
            guard problems.isEmpty else {
                // One problem a line, as a compiler prints them (no "tradeport:" prefix on the first).
                printStandardError(problems.map { $0 + "\n" }.joined())
                throw ExitCode(ExitStatus.failure)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the spec of format ID (a code reader has none).")

        @Argument(help: ArgumentHelp("The format's id.", valueName: "ID"))
        var id: String

        @OptionGroup var formats: FormatOptions

        func run() throws {
            let catalog = try formats.catalog()
            guard let entry = catalog.entry(id: id) else {
                throw CommandFailure(message: "unknown format '\(id)'; known formats: \(catalog.entries.map(\.reader.id).joined(separator: ", "))")
            }
            guard let text = entry.specText else {
                throw CommandFailure(message: "\(id) is written in Swift (\(entry.origin)), not as a spec")
            }
            print("# \(id), from \(entry.origin)")
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
        }
    }
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draft a format spec from an export: its layout, notation, column types and the usual fields mapped.",
            discussion: """
                Reads FILE (CSV, or an XLSX workbook's fullest sheet) and writes a spec for it: the encoding, \
                delimiter, header line after any preamble, trailer lines, decimal and thousands notation, \
                each column's type and date pattern, the usual headers (date, symbol, ISIN, quantity, \
                price, amount, fee, currency, type, id) mapped to canonical fields, and the values of a \
                type column listed to map. Each guess is marked '# guess'; what it cannot decide is a \
                'TODO: …' value, which 'tradeport formats check' refuses until answered. The guesses and \
                the questions are listed on standard error.

                Exits 0 with a draft (open questions or not), 2 when FILE cannot be read as a table.
                """)

        @Argument(help: ArgumentHelp("The export to draft a spec from.", valueName: "FILE"))
        var file: String

        @Option(help: ArgumentHelp("The new format's id (lower case, digits and '-'); from FILE's name by default.", valueName: "ID"))
        var id: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("Write the spec to FILE (atomically) instead of standard output.", valueName: "FILE"))
        var output: String?

        func run() throws {
            let name = id ?? Self.defaultID(file)
            let draft: SpecDraft
            do {
                draft = try SpecDrafter.draft(path: file, id: name)
            } catch let failure as SpecDrafter.Failure {
                throw CommandFailure(message: failure.description)
            }
            if let output, output != "-" {
                // As convert writes: atomically, and in place over a device or a pipe (never replacing /dev/null).
                do {
                    let out = try OutputFile.atomic(path: output)
                    do {
                        try Array(draft.text.utf8).withUnsafeBytes { try out.write($0) }
                        try out.commit()
                    } catch {
                        out.discard()
                        throw error
                    }
                } catch let error as OutputError {
                    throw CommandFailure(message: "cannot write \(error)")
                }
            } else {
                print(draft.text, terminator: "")
            }
            var report = "\(file): \(draft.rows) rows, \(draft.columns.count) columns, header on line \(draft.headerLine)\n"
            for guess in draft.guesses { report += "  guess: \(guess)\n" }
            if draft.questions.isEmpty {
                report += "no open questions: check the guesses, then 'tradeport formats check' and convert the file with --spec\n"
            } else {
                report +=
                    "\(draft.questions.count) open question\(draft.questions.count == 1 ? "" : "s") (TODO in the spec; 'formats check' refuses it until answered):\n"
                for q in draft.questions { report += "  TODO \(q)\n" }
            }
            printStandardError(report)
        }

        /// `Report 2024 (EN).csv` → `report-2024-en`.
        static func defaultID(_ path: String) -> String {
            let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
            var id = ""
            for ch in base {
                if ch.isASCII && (ch.isLetter || ch.isNumber) {
                    id.append(ch)
                } else if !id.isEmpty && id.last != "-" {
                    id.append("-")
                }
            }
            while id.hasSuffix("-") { id.removeLast() }
            return id.isEmpty ? "my-format" : id
        }
    }
}
