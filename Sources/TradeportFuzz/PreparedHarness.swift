import Foundation
import TradeportBuiltInSpecs
import TradeportCore
import TradeportFormats
import TradeportSpec
import TradeportTestKit

/// `prepared`: a CSV source cut into pieces and read on several threads, its operations prepared
/// there (`OperationPreparation`: ids, index keys, balance changes and the sink's bytes, and for
/// DSX's layout the plan compiled from the spec, `CompiledTradePlan`), writes exactly what the same
/// source read in one go writes, operation by operation and count by count: a differential check
/// of the fast path against the reading it replaces.
///
/// The first byte picks the format: `b % formats.count` of every built-in CSV spec (DSX's first),
/// and DSX's layout with quoted cells; when `b >= 240`, the one detection finds (else that pick).
/// The second picks the reading: the piece size by `b % 8` (`sizes`), then one bit each for split
/// accounts, the canonical document instead of JSON Lines, the source given twice (the second time
/// all duplicates), keeping failed transactions, and (the top bit) operations rendered from their
/// model values on the workers, push's form (`TestKit.RenderedLines`: the plan's trades made from a
/// row's cells must be the reading's). The rest is the source.
enum PreparedHarness {
    static let sizes = [64, 97, 128, 211, 256, 1000, 4096, 33]

    /// Every built-in CSV spec, DSX's trades first, then DSX's layout quoted (its quoted cells with
    /// `""` inside are unescaped outside the row's raw text, where the plan must find them).
    static let formats: [SpecReader] = {
        var all = FormatRegistry.builtIn.readers.compactMap { $0.specReader }.filter {
            if case .csv = $0.spec.source { return true } else { return false }
        }
        all.sort { ($0.id == "dsx-trades" ? 0 : 1, $0.id) < ($1.id == "dsx-trades" ? 0 : 1, $1.id) }
        precondition(all.first?.id == "dsx-trades", "no built-in dsx-trades spec")
        guard let dsx = BuiltInSpecs.files.first(where: { $0.id == "dsx-trades" }) else { preconditionFailure("no dsx-trades text") }
        let quoted = dsx.text.replacingOccurrences(of: "quote: none", with: "quote: '\"'")
            .replacingOccurrences(of: "id: dsx-trades", with: "id: dsx-quoted")
        precondition(quoted != dsx.text, "dsx-trades.yaml no longer says 'quote: none'")
        do {
            all.append(SpecReader(try SpecLoader.load(text: quoted, file: "dsx-quoted.yaml")))
        } catch {
            preconditionFailure("DSX's layout quoted does not load: \(error)")
        }
        return all
    }()

    static func run(_ input: UnsafeRawBufferPointer) {
        guard input.count >= 2 else { return }
        let pick = input[0]
        let reading = input[1]
        let body = Array(UnsafeRawBufferPointer(rebasing: input[2...]))
        var reader = formats[Int(pick) % formats.count]
        if pick >= 240, case .detected(let found) = FormatRegistry.builtIn.detect(SourceInput(bytes: body, name: "fuzz.csv").probe),
            let spec = found.specReader, case .csv = spec.spec.source
        {
            reader = spec
        }
        let size = sizes[Int(reading % 8)]
        let options = ConversionOptions(portfolio: "main", splitAccounts: reading & 8 != 0, keepFailed: reading & 64 != 0)
        let document = reading & 16 != 0
        let twice = reading & 32 != 0
        let rendered = reading & 128 != 0

        var whole = reader
        whole.pieceSize = 0
        var pieces = reader
        pieces.pieceSize = size
        let expected = written(whole, body, options: options, document: document, twice: twice, rendered: rendered)
        let got = written(pieces, body, options: options, document: document, twice: twice, rendered: rendered)
        guard got != expected else {
            blackHole(got.output.count)
            return
        }
        let what =
            "\(reader.id), pieces of \(size) bytes, split accounts \(options.splitAccounts), document \(document), twice \(twice), "
            + "keep failed \(options.keepFailed), rendered \(rendered)"
        guard got.report == expected.report else {
            preconditionFailure("\(what): read in pieces, \(got.report)\nin one go, \(expected.report)")
        }
        let a = got.output.split(separator: 0x0A, omittingEmptySubsequences: false)
        let b = expected.output.split(separator: 0x0A, omittingEmptySubsequences: false)
        let at = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        func line(_ lines: [ArraySlice<UInt8>]) -> String { at < lines.count ? String(decoding: lines[at], as: UTF8.self) : "(none)" }
        preconditionFailure("\(what): line \(at + 1) read in pieces is\n\(line(a))\nin one go\n\(line(b))")
    }

    /// What a conversion wrote (or the error that stopped it) and what its report counted.
    struct Outcome: Equatable {
        var output: [UInt8] = []
        var report = ""
    }

    static func written(
        _ reader: SpecReader, _ body: [UInt8], options: ConversionOptions, document: Bool, twice: Bool,
        rendered: Bool
    ) -> Outcome {
        let path = Scratch.path("prepared.out")
        var outcome = Outcome()
        do {
            let input = { PreparedInput(input: SourceInput(bytes: body, name: "fuzz.csv"), reader: reader) }
            let report: ConversionReport
            if rendered {
                let sink = TestKit.RenderedLines()
                report = try Inputs.convert(twice ? [input(), input()] : [input()], options: options, into: sink)
                outcome.output = sink.lines
            } else {
                let file = try OutputFile.atomic(path: path)
                let sink: any ConversionSink = document ? try JSONDocumentSink(output: file) : try JSONLinesSink(output: file)
                report = try Inputs.convert(twice ? [input(), input()] : [input()], options: options, into: sink)
                try file.commit()
                outcome.output = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
            for source in report.sources {
                precondition(source.addsUp, "\(reader.id): the counts of \(source.path) do not add up: \(source)")
                outcome.report +=
                    "\(source.rows) rows, \(source.operations) operations, \(source.skipped) skipped, \(source.rejected) rejected, "
                    + "\(source.duplicates) duplicates, \(source.merged) merged, \(source.extra) extra; "
            }
            outcome.report +=
                "\(report.trades) trades, \(report.transactions) transactions, \(report.movements) movements, "
                + "portfolios \(report.portfolios), first rejects \(report.firstRejects.map { "\($0)" }), "
                + "warnings \(report.warnings.map { "\($0)" }), balances \(report.balances), reconciliation \(report.reconciliation)"
        } catch {
            outcome.report = "error: \(error)"
        }
        return outcome
    }
}
