import Foundation
import Testing
import TradeportCore
import TradeportSpec
import TradeportTestKit

@testable import TradeportFormats

/// A CSV source read in pieces on several threads reads as it does in one go: the same
/// operations, skips and rejects, with the same rows and raw text, whatever the piece size.
@Suite("CSV sources read in pieces")
struct PiecesTests {
    static let sizes = [64, 97, 128, 211, 256, 1000, 4096]
    static var dsx: SpecReader { BuiltIn.reader("dsx-trades").specReader! }

    /// The document of `bytes` read in one go, and the piece sizes that read it otherwise.
    func differences(_ reader: SpecReader, _ bytes: [UInt8]) throws -> [Int] {
        let path = try TestKit.writeTemporaryFile(Data(bytes))
        var whole = reader
        whole.pieceSize = 0
        let expected = try TestKit.convert(paths: [path], with: whole)
        var differing: [Int] = []
        for size in Self.sizes {
            var pieces = reader
            pieces.pieceSize = size
            if try TestKit.convert(paths: [path], with: pieces) != expected { differing.append(size) }
        }
        return differing
    }

    /// What the file at `path` converts to with `reader`: JSON Lines (`JSONLinesSink`), or the
    /// canonical document (`JSONDocumentSink`), both of which take operations the workers prepare
    /// (`OperationPreparation`); twice over when `twice` (the second time all duplicates).
    func written(
        _ reader: SpecReader, _ path: String, options: ConversionOptions = ConversionOptions(), twice: Bool = false,
        document: Bool = false
    ) throws -> [UInt8] {
        let out = try TestKit.makeTemporaryDirectory() + "/out.jsonl"
        let file = try OutputFile.atomic(path: out)
        let sink: any ConversionSink = document ? try JSONDocumentSink(output: file) : try JSONLinesSink(output: file)
        let input = { PreparedInput(input: try SourceInput(path: path), reader: reader) }
        _ = try Inputs.convert(twice ? [try input(), try input()] : [try input()], options: options, into: sink)
        try file.commit()
        return Array(try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// Operations prepared on the workers (no model value past them) are written byte for byte as
    /// the operations read in one go: bad rows, duplicates, long lines, other portfolios and ids
    /// met before among them.
    @Test(arguments: [false, true])
    func preparedOperationsWriteTheSameJSONLines(splitAccounts: Bool) throws {
        var lines = try Self.dsxLines()
        // An id met before with other content: a conflict, rejected.
        var fields = lines[0].split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        fields[3] = "7,5"
        lines.append(fields.joined(separator: ";"))
        let text = lines.joined(separator: "\n") + "\n"
        let path = try TestKit.writeTemporaryFile(Data(text.utf8))
        let options = ConversionOptions(portfolio: "main", splitAccounts: splitAccounts)
        var whole = Self.dsx
        whole.pieceSize = 0
        for (twice, document) in [(false, false), (true, false), (false, true), (true, true)] {
            let expected = try written(whole, path, options: options, twice: twice, document: document)
            for size in Self.sizes {
                var pieces = Self.dsx
                pieces.pieceSize = size
                let got = try written(pieces, path, options: options, twice: twice, document: document)
                // The first line that differs, not every byte.
                let a = got.split(separator: 0x0A, omittingEmptySubsequences: false)
                let b = expected.split(separator: 0x0A, omittingEmptySubsequences: false)
                let at = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? (a.count == b.count ? nil : min(a.count, b.count))
                #expect(
                    at == nil,
                    """
                    pieces of \(size) bytes, twice: \(twice), document: \(document): line \((at ?? 0) + 1) is
                    \(at.map { $0 < a.count ? String(decoding: a[$0], as: UTF8.self) : "missing" } ?? "")
                    instead of
                    \(at.map { $0 < b.count ? String(decoding: b[$0], as: UTF8.self) : "missing" } ?? "")
                    """)
            }
        }
    }

    /// Every built-in CSV format's sample (`formats/samples/<id>-example.csv`) written the same
    /// through pieces as in one go; and the quoted cells of one with `""` inside, which the
    /// reader unescapes outside the row's raw text.
    @Test func everySampleWritesTheSameJSONLinesThroughPieces() throws {
        var checked: [String] = []
        var planned: [String] = []
        for reader in FormatRegistry.builtIn.readers.compactMap({ $0.specReader }) where reader.csv != nil {
            guard let text = try? Self.sample("\(reader.id)-example.csv") else { continue }
            var texts = [text]
            if reader.csv?.quote != nil {
                // An escaped quote at the end of every quoted field followed by another: a text
                // then holds a quote (a number or a date no longer reads, and is rejected).
                texts.append(text.replacingOccurrences(of: "\",\"", with: "\"\"\",\""))
            }
            for text in texts {
                let path = try TestKit.writeTemporaryFile(Data(text.utf8))
                var whole = reader
                whole.pieceSize = 0
                // What was written, or the error that stopped it (a header the change spoilt).
                func outcome(_ reader: SpecReader, _ document: Bool) -> String {
                    do { return String(decoding: try written(reader, path, document: document), as: UTF8.self) } catch { return "error: \(error)" }
                }
                for document in [false, true] {
                    let expected = outcome(whole, document)
                    for size in Self.sizes {
                        var pieces = reader
                        pieces.pieceSize = size
                        #expect(outcome(pieces, document) == expected, "\(reader.id), pieces of \(size) bytes, document: \(document)")
                    }
                }
            }
            checked.append(reader.id)
            if reader.compiledTrades != nil { planned.append(reader.id) }
        }
        #expect(checked.count >= 10, "samples checked: \(checked)")
        #expect(planned.contains("dsx-trades"), "formats read by a compiled plan: \(planned)")
    }

    func rendered(_ reader: SpecReader, _ path: String, options: ConversionOptions = ConversionOptions()) -> String {
        let sink = TestKit.RenderedLines()
        do {
            _ = try Inputs.convert([PreparedInput(input: try SourceInput(path: path), reader: reader)], options: options, into: sink)
        } catch {
            return "error: \(error)"
        }
        return String(decoding: sink.lines, as: UTF8.self)
    }

    /// Operations rendered from their model values on the workers (push's form) are the
    /// operations read in one go: the compiled plan makes the same trade from a row's cells as
    /// the reading before (every sample, and DSX's lines with bad rows and duplicates).
    @Test func operationsRenderedOnTheWorkersAreTheModelValuesReadInOneGo() throws {
        var paths: [(SpecReader, String)] = []
        for reader in FormatRegistry.builtIn.readers.compactMap({ $0.specReader }) where reader.csv != nil {
            guard let text = try? Self.sample("\(reader.id)-example.csv") else { continue }
            paths.append((reader, try TestKit.writeTemporaryFile(Data(text.utf8))))
        }
        let dsx = try Self.dsxLines().joined(separator: "\n") + "\n"
        paths.append((Self.dsx, try TestKit.writeTemporaryFile(Data(dsx.utf8))))
        #expect(paths.count >= 11)
        var planned = 0
        for (reader, path) in paths {
            for split in [false, true] {
                let options = ConversionOptions(portfolio: "main", splitAccounts: split)
                var whole = reader
                whole.pieceSize = 0
                let expected = rendered(whole, path, options: options)
                #expect(!expected.hasPrefix("error"), "\(reader.id): \(expected)")
                for size in Self.sizes {
                    var pieces = reader
                    pieces.pieceSize = size
                    #expect(rendered(pieces, path, options: options) == expected, "\(reader.id), pieces of \(size) bytes, split accounts: \(split)")
                }
            }
            if reader.compiledTrades != nil { planned += 1 }
        }
        #expect(planned >= 2, "the compiled plan's reading is among them")
    }

    /// DSX's layout with quoted fields: quoted cells with `""` inside are unescaped by the reader
    /// outside the row's raw text, and the plan compiled from the spec reads them there.
    @Test func quotedCellsWithEscapedQuotesWriteTheSameJSONLines() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../formats/dsx-trades.yaml").standardized
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "quote: none", with: "quote: '\"'")
        let reader = SpecReader(try SpecLoader.load(text: text.replacingOccurrences(of: "id: dsx-trades", with: "id: dsx-quoted"), file: "q.yaml"))
        #expect(reader.compiledTrades != nil)
        var lines: [String] = []
        for (k, line) in try Self.dsxLines().enumerated() {
            var fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 14 else {
                lines.append(line)
                continue
            }
            fields[11] = "\"\(fields[11]) \"\"\(k)\"\"\""  // the account, quoted, with quotes inside
            fields[13] = "\"\(fields[13])\""  // the order id, quoted
            lines.append(fields.joined(separator: ";"))
        }
        let path = try TestKit.writeTemporaryFile(Data((lines.joined(separator: "\n") + "\n").utf8))
        for split in [false, true] {
            let options = ConversionOptions(portfolio: "main", splitAccounts: split)
            var whole = reader
            whole.pieceSize = 0
            for document in [false, true] {
                let expected = try written(whole, path, options: options, document: document)
                #expect(String(decoding: expected, as: UTF8.self).contains(#"Main \"0\""#))
                for size in Self.sizes {
                    var pieces = reader
                    pieces.pieceSize = size
                    #expect(
                        try written(pieces, path, options: options, document: document) == expected,
                        "pieces of \(size) bytes, split accounts: \(split), document: \(document)")
                }
            }
        }
    }

    static func sample(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../formats/samples/\(name)").standardized
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// DSX trades many times over: duplicates, bad rows, empty lines and long ones among them.
    static func dsxLines() throws -> [String] {
        let rows = try sample("dsx-trades-example.csv").split(whereSeparator: \.isNewline).map(String.init)
        var lines: [String] = []
        for k in 0..<40 {
            for (i, row) in rows.enumerated() {
                var fields = row.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
                fields[12] = "\(k * 100 + i)"  // a new external id
                switch (k * rows.count + i) % 11 {
                case 3: fields[3] = "1,2,3"  // a bad number
                case 5: fields[0] = "2021-02-30 8:00:00"  // no such day
                case 7: fields.removeLast()  // a field short
                case 9: fields[11] = String(repeating: "x", count: 150)  // a long account
                default: break
                }
                lines.append(fields.joined(separator: ";"))
                if (k + i) % 13 == 0 { lines.append("") }
                if (k + i) % 17 == 0 { lines.append(row) }  // the same trade again: a duplicate
            }
        }
        return lines
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func dsxTradesReadTheSameInPieces(lineBreak: String) throws {
        let text = try Self.dsxLines().joined(separator: lineBreak) + lineBreak
        #expect(try differences(Self.dsx, Array(text.utf8)) == [])
    }

    @Test func aByteOrderMarkAndNoLastLineBreak() throws {
        let text = try Self.dsxLines().joined(separator: "\n")
        #expect(try differences(Self.dsx, [0xEF, 0xBB, 0xBF] + Array(text.utf8)) == [])
    }

    @Test func aLineLongerThanAPieceIsReadInOneGoFromThere() throws {
        var lines = try Self.dsxLines()
        lines.insert(String(repeating: "7", count: 5000), at: 200)
        #expect(try differences(Self.dsx, Array(lines.joined(separator: "\n").utf8)) == [])
    }

    /// Quoted fields with line breaks inside, under a header found among the first lines: a
    /// piece cut inside quotes is not a place to cut, and the reading goes on in one go.
    @Test func quotedLineBreaksUnderAHeader() throws {
        let lines = try Self.sample("coinbase-example.csv").split(whereSeparator: \.isNewline).map(String.init)
        var text = "Transactions\nUser,someone@example.com\n" + lines[0] + "\n"
        for k in 0..<30 {
            for (i, row) in lines.dropFirst().enumerated() {
                // A new id, and on some rows a note over several lines.
                var row = "\(k)x\(i)" + row.drop { $0 != "," }
                if (k + i) % 4 == 0, let comma = row.lastIndex(of: ",") {
                    row = row[..<comma] + ",\"Note \"\"quoted\"\"\nline two\r\nline three\""
                }
                text += row + "\n"
            }
        }
        let reader = try #require(BuiltIn.reader("coinbase").specReader)
        #expect(try differences(reader, Array(text.utf8)) == [])
    }
}
