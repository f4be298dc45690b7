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

    enum Target: String, ExpressibleByArgument, CaseIterable {
        case json, jsonl, csv, xlsx
    }

    @Option(help: ArgumentHelp("What to write: json (the canonical document), jsonl (JSON Lines), csv or xlsx (tradeport's own layout: a row per operation, read back as tradeport-csv or tradeport-xlsx).", valueName: "FORMAT"))
    var to: Target?

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
        if jsonl, let to, to != .jsonl { throw ValidationError("--jsonl and --to \(to.rawValue) ask for different outputs") }
    }

    func run() throws {
        let registry = try formats.catalog().registry
        let read = try Inputs.readOptions(timezone: source.timezone)
        // A named format is checked before any file is opened; every input is opened and
        // recognized before anything is written.
        let named = try source.format.map { try Inputs.named($0, in: registry) }
        var sources: [(SourceInput, any FormatAdapter)] = []
        for path in files {
            let input = try Inputs.open(path)
            sources.append((input, try named ?? Inputs.adapter(for: input, named: nil, registry: registry)))
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
            switch to ?? (jsonl ? .jsonl : .json) {
            case .json: report = try convert(sources, options: options, sink: try JSONDocumentSink(output: out))
            case .jsonl: report = try convert(sources, options: options, sink: try JSONLinesSink(output: out))
            case .csv: report = try convert(sources, options: options, sink: try CSVSink(output: out))
            case .xlsx: report = try convert(sources, options: options, sink: try XLSXSink(output: out))
            }
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

    private func convert<Sink: ConversionSink>(
        _ sources: [(SourceInput, any FormatAdapter)], options: ConversionOptions, sink: Sink
    ) throws -> ConversionReport {
        let conversion = Conversion(options: options, sink: sink)
        conversion.reserveCapacity(operations: sources.reduce(0) { $0 + estimatedRows($1.0) })
        for (input, adapter) in sources {
            try conversion.add(input, adapter: adapter)
        }
        return try conversion.finish()
    }

    /// About how many rows a file holds, from its size and the line length of its first bytes.
    private func estimatedRows(_ input: SourceInput) -> Int {
        let head = input.probe.head
        let lines = head.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        guard lines > 0, input.path != "-",
              let size = (try? FileManager.default.attributesOfItem(atPath: input.path))?[.size] as? Int
        else { return 0 }
        return size / max(head.count / lines, 1) + 1
    }

    private func describe(_ error: any Error) -> String {
        switch error {
        case let e as InputError: return "cannot read \(e)"
        case let e as OutputError: return "cannot write \(e)"
        default: return "\(error)"
        }
    }
}
