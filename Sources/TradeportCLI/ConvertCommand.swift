import ArgumentParser
import Foundation
import TradeportCore
import TradeportFormats

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert exports into canonical JSON, JSON Lines, or tradeport's own CSV or XLSX.",
        discussion: """
            Each FILE's format is detected from its first bytes and name, or given with --format \
            (which then applies to every FILE). '-' reads standard input and needs --format. A \
            summary goes to standard error: per source, its rows, operations, skipped, rejected \
            and duplicates; then warnings; then the first rejects with file:row:column.

            \(TradeportCommand.exitCodeHelp)
            """
    )

    @Argument(help: ArgumentHelp("The exports to convert ('-' for standard input).", valueName: "FILE"))
    var files: [String]

    @Option(name: [.short, .long], help: ArgumentHelp("Write to FILE (atomically) instead of standard output ('-').", valueName: "FILE"))
    var output: String?

    @Flag(help: "Write JSON Lines: one object per operation, then skipped, rejected, warnings and a summary line (--to jsonl).")
    var jsonl = false

    @Option(help: ArgumentHelp("What to write: \(FormatCatalog.writers.ids.joined(separator: ", ")) (see 'tradeport formats'; json, the canonical document, by default).", valueName: "FORMAT"))
    var to: String?

    @OptionGroup var source: SourceOptions

    @Flag(help: "Output failed and rejected transactions with their status instead of skipping them.")
    var keepFailed = false

    @Flag(help: "Write nothing if any row is rejected.")
    var strict = false

    @OptionGroup var formats: FormatOptions

    @Flag(name: [.short, .long], help: "Print no summary.")
    var quiet = false

    func validate() throws {
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("'-' (standard input) can be given once") }
        if files.contains("-") && source.format == nil { throw ValidationError("reading standard input ('-') needs --format") }
        if jsonl, let to, to != "jsonl" { throw ValidationError("--jsonl and --to \(to) ask for different outputs") }
        if let to, FormatCatalog.writers.writer(id: to) == nil {
            throw ValidationError("--to \(to): unknown; tradeport writes \(FormatCatalog.writers.ids.joined(separator: ", "))")
        }
    }

    func run() throws {
        let registry = try formats.catalog().registry
        let writer = FormatCatalog.writers.writer(id: to ?? (jsonl ? "jsonl" : "json"))!
        // Every input is opened and recognized before anything is written.
        let inputs: [PreparedInput]
        let read: ReadOptions
        do {
            read = try Converter.readOptions(timezone: source.timezone)
            inputs = try Converter.prepare(files.map { InputRequest(path: $0, format: source.format) }, registry: registry)
        } catch {
            throw CommandFailure(message: error.message)
        }

        let out: OutputFile
        do {
            if let output, output != "-" {
                out = try OutputFile.atomic(path: output)
            } else {
                out = try OutputFile.standardOutput(holdUntilCommit: strict)
            }
        } catch let error as OutputError {
            throw CommandFailure(message: "cannot write \(error)")
        }
        let options = ConversionOptions(portfolio: source.portfolio, splitAccounts: source.splitAccounts, keepFailed: keepFailed, read: read)
        let report: ConversionReport
        do {
            report = try Converter.run(inputs, options: options, into: try writer.makeSink(output: out, options: WriteOptions()))
        } catch {
            out.discard()
            throw CommandFailure(message: describe(error))
        }
        let written: Bool
        if strict && report.rejected > 0 {
            out.discard()
            written = false
        } else {
            do {
                try out.commit()
            } catch {
                throw CommandFailure(message: describe(error))
            }
            written = true
        }
        if !quiet {
            printStandardError(SummaryText.make(report, output: output ?? "-", written: written, strict: strict))
        }
        if report.rejected > 0 { throw CommandFailure(message: "", status: ExitStatus.rowsRejected) }
    }

    private func describe(_ error: any Error) -> String {
        switch error {
        case let e as InputError: return "cannot read \(e)"
        case let e as OutputError: return "cannot write \(e)"
        default: return "\(error)"
        }
    }
}
