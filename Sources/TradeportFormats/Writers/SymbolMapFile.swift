import Foundation
import TradeportCSV
import TradeportCore

/// Reads the symbol map a user keeps (`--symbols FILE`): a CSV file, comma or semicolon
/// separated, whose header names its columns, in any order:
///
/// ```
/// isin,code,venue,target,symbol,data_source,name
/// RU0009029540,,,,SBER.ME,YAHOO,
/// ,SBER,MOEX,portfolio-performance,SBER.ME,,
/// RU000A0JX0J2,,,ghostfolio,GF_OFZ26238,MANUAL,ОФЗ 26238
/// ```
///
/// `symbol` and one of `isin` or `code` are needed on every line; `venue` narrows a code to a
/// venue; `target` (`ghostfolio`, `portfolio-performance`, or empty for both) narrows the line to
/// one target; `data_source` is Ghostfolio's (`YAHOO` when empty); `name` names a custom profile.
/// Lines starting with `#`, and empty lines, are skipped. Every problem is an error naming the
/// file, the line and what was expected.
public enum SymbolMapFile {
    /// The targets a line may name.
    public static let targets = ["ghostfolio", "portfolio-performance"]
    static let columns = ["isin", "code", "venue", "target", "symbol", "data_source", "name"]

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public static func read(_ path: String) throws(Failure) -> SymbolMap {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "\(path): the symbol map cannot be read") }
        return try parse(Array(data), path: path)
    }

    public static func parse(_ bytes: [UInt8], path: String) throws(Failure) -> SymbolMap {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw Failure(description: "\(path): the symbol map is not UTF-8 text")
        }
        // The delimiter is the header's: comment lines above it may hold either.
        let firstLine = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .first { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("\u{FEFF}#") }
        let delimiter = firstLine.flatMap { CSVDialect.sniffDelimiter(Array($0.utf8)) } ?? UInt8(ascii: ",")
        var offset = 0
        let reader = CSVReader(dialect: CSVDialect(delimiter: delimiter == UInt8(ascii: ";") ? delimiter : UInt8(ascii: ","))) { buffer in
            let n = min(buffer.count, bytes.count - offset)
            if n > 0 { bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + n])) } }
            offset += n
            return n
        }
        var header: [String: Int]?
        var map = SymbolMap()
        var failure: Failure?
        do {
            try reader.forEachRecord { record in
                guard failure == nil else { return }
                let cells = (0..<record.count).map { (record.string($0) ?? "").trimmingCharacters(in: .whitespaces) }
                let at = "\(path):\(record.line)"
                if let malformed = record.malformation {
                    failure = Failure(description: "\(at): \(malformed)")
                    return
                }
                if cells.allSatisfy(\.isEmpty) || cells[0].hasPrefix("#") { return }
                guard let columns = header else {
                    do throws(Failure) { header = try readHeader(cells, at: at) } catch { failure = error }
                    return
                }
                do {
                    try map.add(entry(cells, columns: columns, at: at))
                } catch let error as Failure {
                    failure = error
                } catch {
                    failure = Failure(description: "\(error)")
                }
            }
        } catch {
            throw Failure(description: "\(path): \(error)")
        }
        if let failure { throw failure }
        if header == nil {
            throw Failure(description: "\(path): the symbol map has no header line (expected columns among \(columns.joined(separator: ", ")))")
        }
        return map
    }

    private static func readHeader(_ cells: [String], at: String) throws(Failure) -> [String: Int] {
        var found: [String: Int] = [:]
        for (i, cell) in cells.enumerated() {
            let name = cell.lowercased().replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "datasource", with: "data_source")
            guard columns.contains(name) else {
                throw Failure(description: "\(at): unknown column '\(cell)' (expected columns among \(columns.joined(separator: ", ")))")
            }
            guard found[name] == nil else { throw Failure(description: "\(at): the column '\(cell)' is named twice") }
            found[name] = i
        }
        guard found["symbol"] != nil, found["isin"] != nil || found["code"] != nil else {
            throw Failure(description: "\(at): the header needs a symbol column and an isin or a code column")
        }
        return found
    }

    private static func entry(_ cells: [String], columns: [String: Int], at: String) throws(Failure) -> SymbolMap.Entry {
        func cell(_ name: String) -> String? {
            guard let i = columns[name], i < cells.count, !cells[i].isEmpty else { return nil }
            return cells[i]
        }
        guard let symbol = cell("symbol") else { throw Failure(description: "\(at): no symbol") }
        guard cell("isin") != nil || cell("code") != nil else { throw Failure(description: "\(at): an isin or a code is needed to find the security by") }
        if let isin = cell("isin"), !ISIN.looksLike(isin.uppercased()) {
            throw Failure(description: "\(at): '\(isin)' is not an ISIN (two letters, nine letters or digits, a digit)")
        }
        let target = cell("target")?.lowercased()
        if let target, !targets.contains(target) {
            throw Failure(description: "\(at): unknown target '\(target)' (expected \(targets.joined(separator: ", ")), or empty for every target)")
        }
        let source = cell("data_source")
        if let source, !source.allSatisfy({ $0.isASCII && ($0.isUppercase || $0 == "_") }) {
            throw Failure(description: "\(at): data source '\(source)': expected a Ghostfolio data source in capitals, like YAHOO or MANUAL")
        }
        if source == "MANUAL", target != "portfolio-performance", !GhostfolioActivities.isCustomSymbol(symbol) {
            throw Failure(description: "\(at): symbol '\(symbol)': Ghostfolio takes a MANUAL symbol only when it starts with GF_ or is a UUID")
        }
        return SymbolMap.Entry(
            isin: cell("isin"), code: cell("code"), venue: cell("venue"), target: target, symbol: symbol, dataSource: source, name: cell("name"),
            location: at)
    }
}
