import ArgumentParser
import Foundation
import TradeportCore
import TradeportFormats

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract:
            "Convert exports into canonical JSON, JSON Lines, tradeport's own CSV or XLSX, or the books of Beancount, hledger, Ghostfolio and Portfolio Performance.",
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

    @Option(
        help: ArgumentHelp(
            "What to write: \(FormatRegistry.builtIn.writerIDs.joined(separator: ", ")) (see 'tradeport formats'; json, the canonical document, by default).",
            valueName: "FORMAT"))
    var to: String?

    @OptionGroup var source: SourceOptions

    @Flag(help: "Output failed and rejected transactions with their status instead of skipping them.")
    var keepFailed = false

    @Flag(help: "Write nothing if any row is rejected.")
    var strict = false

    @OptionGroup var formats: FormatOptions

    @OptionGroup(title: "Writers") var writing: WriterOptionGroup

    @Flag(name: [.short, .long], help: "Print no summary.")
    var quiet = false

    func validate() throws {
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("'-' (standard input) can be given once") }
        if files.contains("-") && source.format == nil { throw ValidationError("reading standard input ('-') needs --format") }
        if jsonl, let to, to != "jsonl" { throw ValidationError("--jsonl and --to \(to) ask for different outputs") }
        if let to, FormatRegistry.builtIn.writer(id: to) == nil {
            throw ValidationError("--to \(to): unknown; tradeport writes \(FormatRegistry.builtIn.writerIDs.joined(separator: ", "))")
        }
        if let to, let writer = FormatRegistry.builtIn.writer(id: to), !writer.files.isEmpty, output == nil || output == "-" {
            throw ValidationError("--to \(to) writes \(writer.files.joined(separator: " and ")): give the directory to write them in with -o DIR")
        }
        if writing.symbolsFile != nil && to != "ghostfolio" && to != "portfolio-performance" {
            throw ValidationError("--symbols goes with --to ghostfolio or --to portfolio-performance")
        }
        if writing.dataSource != nil && to != "ghostfolio" { throw ValidationError("--data-source goes with --to ghostfolio") }
        _ = try writing.writeOptions()
    }

    func run() throws {
        let registry = try formats.catalog(only: source.format).registry
        let writer = FormatRegistry.builtIn.writer(id: to ?? (jsonl ? "jsonl" : "json"))!
        // Every input is opened and recognized before anything is written.
        let inputs: [PreparedInput]
        let read: ReadOptions
        do {
            var options = try Inputs.readOptions(timezone: source.timezone)
            inputs = try Inputs.prepare(files.map { InputRequest(path: $0, format: source.format) }, registry: registry)
            options.parameters = try Inputs.parameters(source.parameters, for: inputs)
            read = options
        } catch {
            throw CommandFailure(message: error.description)
        }

        // A writer of several files writes them into the directory -o names, each atomically;
        // they are put in place together once all are written.
        var outs: [OutputFile] = []
        do {
            if !writer.files.isEmpty, let output {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) {
                    guard isDirectory.boolValue else {
                        throw OutputError(
                            .wrongKindOfPath, path: output, message: "--to \(writer.id) writes several files: -o names a directory, and this is a file")
                    }
                } else {
                    do {
                        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                    } catch {
                        throw OutputError(.wrongKindOfPath, path: output, message: "the directory cannot be made")
                    }
                }
                for name in writer.files { outs.append(try OutputFile.atomic(path: output + "/" + name)) }
            } else if let output, output != "-" {
                outs = [try OutputFile.atomic(path: output)]
            } else {
                outs = [try OutputFile.standardOutput(holdUntilCommit: strict)]
            }
        } catch let error as OutputError {
            for out in outs { out.discard() }
            throw CommandFailure(message: "cannot write \(error)")
        }
        let options = ConversionOptions(portfolio: source.portfolio, splitAccounts: source.splitAccounts, keepFailed: keepFailed, read: read)
        let report: ConversionReport
        var notes: [String] = []
        do {
            let sink =
                try writer.files.isEmpty
                ? writer.makeSink(output: outs[0], options: try writing.writeOptions())
                : writer.makeSink(outputs: outs, options: try writing.writeOptions())
            report = try Inputs.convert(inputs, options: options, into: sink)
            notes = (sink as? any WriterNotes)?.notes ?? []
        } catch {
            for out in outs { out.discard() }
            throw CommandFailure(message: describe(error))
        }
        let written: Bool
        if strict && report.rejected > 0 {
            for out in outs { out.discard() }
            written = false
        } else {
            do {
                for out in outs { try out.commit() }
            } catch {
                for out in outs { out.discard() }
                throw CommandFailure(message: describe(error))
            }
            written = true
        }
        if !quiet {
            let target = writer.files.isEmpty ? output ?? "-" : writer.files.map { (output ?? ".") + "/" + $0 }.joined(separator: " and ")
            var text = SummaryText.make(report, output: target, written: written, strict: strict)
            for note in notes { text += "\(writer.id): \(note)\n" }
            printStandardError(text)
        }
        if report.rejected > 0 { throw CommandFailure(message: "", status: ExitStatus.rowsRejected) }
    }

    private func describe(_ error: any Error) -> String {
        switch error {
        case let e as InputError: return e.description
        case let e as OutputError: return "cannot write \(e)"
        default: return "\(error)"
        }
    }
}
