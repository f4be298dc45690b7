import ArgumentParser
import Foundation
import TradeportCore
import TradeportFormats
import TradeportSpec

struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List the formats tradeport reads; check or show a format spec.",
        subcommands: [List.self, Check.self, Show.self],
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
}
