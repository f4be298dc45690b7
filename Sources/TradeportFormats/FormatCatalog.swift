import Foundation
import TradeportBuiltInSpecs
import TradeportCore
import TradeportSpec

/// Every format tradeport can read, and where each comes from: the code readers, the specs built
/// into the binary (from `formats/`), then the specs of `./formats/`, of the user's config
/// directory (`$XDG_CONFIG_HOME/tradeport/formats/`, else `~/.config/tradeport/formats/`), of each
/// `--formats-dir`, and each `--spec` file. A later spec with an id already known replaces it.
public struct FormatCatalog: Sendable {
    public struct Entry: Sendable {
        public let reader: any FormatReader
        /// `built-in`, `built-in spec`, or the spec file's path.
        public let origin: String
        /// The spec's YAML, for specs.
        public let specText: String?
    }

    public let entries: [Entry]

    public var registry: FormatRegistry { FormatRegistry(readers: entries.map(\.reader), writers: Self.writers) }

    public func entry(id: String) -> Entry? { entries.first { $0.reader.id == id } }

    /// The code readers and the built-in specs.
    public static let builtIn: FormatCatalog = {
        // Each loaded when first needed (`BuiltInSpecReader`): a start costs no spec's loading.
        var entries = BuiltInSpecs.files.map { file in
            Entry(reader: BuiltInSpecReader(name: file.name, id: file.id, text: file.text, detect: file.detect), origin: "built-in spec", specText: file.text)
        }
        for reader in codeReaders { entries.append(Entry(reader: reader, origin: "built-in", specText: nil)) }
        return FormatCatalog(entries: entries)
    }()

    /// The formats written as Swift code: one line each.
    static let codeReaders: [any FormatReader] = [
        TinkoffReportReader(),
        IBKRActivityReader(),
        TradeportJSONReader()
    ]

    /// The formats tradeport writes (`--to`): one line each, the first the default.
    public static let writers: [any FormatWriter] = [
        CanonicalJSONWriter(),
        JSONLinesWriter(),
        OwnCSVWriter(),
        OwnXLSXWriter(),
        BeancountWriter(),
        HledgerWriter(),
        GhostfolioWriter(),
        PortfolioPerformanceWriter()
    ]

    /// The built-in formats and the specs found in the usual places and the ones given.
    /// Throws `SpecErrors` (every problem of every spec) when a spec is wrong.
    ///
    /// With `only` (a command told the format: `convert --format ID`), a spec found in a folder
    /// whose top-level `id:` line names another format is not loaded at all: an unrelated spec
    /// there, however large or broken, costs that command nothing. A file whose id cannot be told
    /// from its lines, and every `--spec` file, is loaded and checked as always.
    public static func load(
        directories: [String] = [], specFiles: [String] = [], only: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws -> FormatCatalog {
        var entries = builtIn.entries
        var configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
        if configHome == nil, let home = environment["HOME"] { configHome = home + "/.config" }
        var folders = [workingDirectory + "/formats"]
        if let configHome { folders.append(configHome + "/tradeport/formats") }
        folders += directories
        var files: [String] = []
        for folder in folders {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                if directories.contains(folder) {
                    throw SpecErrors([SpecError(SpecLocation(file: folder, line: 1, column: 1), key: "", "--formats-dir: not a directory")])
                }
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            files += names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map { folder + "/" + $0 }
        }
        if let only { files = files.filter { declaredID(ofSpecAt: $0).map { $0 == only } ?? true } }
        files += specFiles
        var problems: [SpecError] = []
        for path in files {
            do {
                let (spec, text) = try SpecLoader.load(contentsOfFile: path)
                let entry = Entry(reader: SpecReader(spec), origin: path, specText: text)
                if let i = entries.firstIndex(where: { $0.reader.id == spec.id }) { entries[i] = entry } else { entries.append(entry) }
            } catch let errors as SpecErrors {
                problems += errors.errors
            }
        }
        if !problems.isEmpty { throw SpecErrors(problems) }
        return FormatCatalog(entries: entries)
    }

    /// The id a spec file declares on a top-level `id:` line (`id: schwab`, quoted or with a
    /// comment after it), read from its first 64 KiB without parsing the YAML; nil when there is
    /// no such line there (the spec must then be loaded to know).
    public static func declaredID(ofSpecAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 65536) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        var found: String?
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            guard line.hasPrefix("id:") else { continue }
            var value = line.dropFirst(3).drop { $0 == " " || $0 == "\t" }
            if let hash = value.firstIndex(of: "#") { value = value[..<hash] }
            while let last = value.last, last == " " || last == "\t" { value = value.dropLast() }
            if let first = value.first, first == "'" || first == "\"", value.count >= 2, value.last == first {
                value = value.dropFirst().dropLast()
            }
            // Two top-level ids (a YAML error) or an id the scan cannot read: load to know.
            guard found == nil, !value.isEmpty, value.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
                return nil
            }
            found = String(value)
        }
        return found
    }
}
