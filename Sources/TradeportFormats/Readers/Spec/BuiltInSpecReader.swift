import Foundation
import TradeportBuiltInSpecs
import TradeportCore
import TradeportSpec

/// A built-in spec, loaded the first time it is needed: every command starts with every built-in
/// format, and loading one (its YAML, its checks, its plan) is what a start costs — 29 specs took
/// ~25 ms of a 50 ms conversion of a small file. Detection looks first for the header texts the
/// spec's files hold (found when the spec was built, `BuiltInSpecs.files`): a file that lacks one
/// is answered with the spec's own message without loading it, so a conversion loads only the
/// specs whose headers its file has.
public struct BuiltInSpecReader: PreparingReader, NearMissDetecting {
    public let id: String
    let file: String
    /// The header texts, each entry its alternatives folded (`HeaderText.fold`), and as written.
    private let headerTexts: (folded: [[[UInt8]]], written: [[String]])?
    private let box: Box

    init(name: String, id: String, text: String, detect: [[String]]?) {
        self.id = id
        file = "formats/" + name
        headerTexts = detect.map { ($0.map { $0.map { HeaderText.fold($0) } }, $0) }
        box = Box(text: text, file: file)
    }

    /// The spec's reader, loaded on first use.
    public var loaded: SpecReader { box.reader }

    public var summary: String { loaded.summary }
    public var printsBalances: Bool { loaded.printsBalances }

    public func detect(_ probe: FormatProbe) -> Detection {
        if let (folded, written) = headerTexts {
            // The same answers the loaded spec gives (`SpecReader.detect`) to a file it cannot be.
            if let nul = probe.head.firstIndex(of: 0) {
                return .noMatch("binary data (a NUL byte at offset \(nul)), not a text export")
            }
            // A header cell folds to a run of the folded head: a text that is no run of it is in
            // no line of it.
            let head = probe.opened.shared("BuiltInSpecReader.foldedHead") { probe.head.withUnsafeBytes { HeaderText.fold($0) } }
            let held = folded.allSatisfy { alternatives in alternatives.contains { Self.occurs($0, in: head) } }
            if !held { return .noMatch("no line among the first holds the header \(SpecReader.headerText(written))") }
        }
        return loaded.detect(probe)
    }

    public func nearMiss(_ probe: FormatProbe) -> NearMiss? { loaded.nearMiss(probe) }

    public func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws {
        try loaded.read(input, options: options, emit: emit)
    }

    public func read(
        _ input: SourceInput, options: ReadOptions, preparation: OperationPreparation,
        emit: RecordHandler, emitPrepared: PreparedRecordHandler
    ) throws {
        try loaded.read(input, options: options, preparation: preparation, emit: emit, emitPrepared: emitPrepared)
    }

    /// Whether `needle` is a run of `haystack`: memchr to each place its first byte is, memcmp there.
    static func occurs(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        return haystack.withUnsafeBytes { h in
            needle.withUnsafeBytes { n in
                let base = h.baseAddress!
                let last = h.count - n.count
                var at = 0
                while at <= last {
                    guard let found = memchr(base + at, Int32(n[0]), last - at + 1) else { return false }
                    let i = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + i, n.baseAddress!, n.count) == 0 { return true }
                    at = i + 1
                }
                return false
            }
        }
    }

    /// The spec's reader, made once, whichever thread asks first.
    private final class Box: @unchecked Sendable {
        let text: String
        let file: String
        private var made: SpecReader?
        private let lock = NSLock()

        init(text: String, file: String) {
            self.text = text
            self.file = file
        }

        var reader: SpecReader {
            lock.withLock {
                if let made { return made }
                // Checked when tradeport was built (the EmbedFormatSpecs plugin), so it loads.
                guard let spec = try? SpecLoader.load(text: text, file: file, patternsChecked: true) else {
                    preconditionFailure("the built-in spec \(file) was checked at build time and must load")
                }
                let reader = SpecReader(spec)
                made = reader
                return reader
            }
        }
    }
}

extension FormatReader {
    /// The spec reader this format is, loaded if it is a built-in spec not loaded yet; nil for a
    /// code reader.
    public var specReader: SpecReader? { (self as? SpecReader) ?? (self as? BuiltInSpecReader)?.loaded }
}
