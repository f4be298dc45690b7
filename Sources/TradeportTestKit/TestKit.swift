import Foundation
import TradeportCore
import TradeportFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Helpers that let a format's tests be a few lines each: write a small input, run it through an
/// reader and the whole conversion, and look at the canonical document that comes out.
public enum TestKit {
    /// A new empty directory for a test: under this process's own root in the system's temporary
    /// directory, which is removed when the process exits.
    public static func makeTemporaryDirectory(prefix: String = "test") throws -> String {
        let path = root + "/" + prefix + "-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private static let rootPrefix = "tradeport-tests-"

    /// `TMPDIR/tradeport-tests-PID`: every temporary directory of this test process is in it.
    /// Made on first use, removed at exit; the roots of test processes that are gone (killed, so
    /// that their exit handler never ran) are removed then too. A run used to leave some 240
    /// directories and 115 MB behind.
    private static let root: String = {
        let base = NSTemporaryDirectory()
        removeRootsOfEndedProcesses(in: base)
        let path = base + rootPrefix + String(getpid())
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { TestKit.removeOwnRoot() }
        return path
    }()

    private static func removeOwnRoot() {
        try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + rootPrefix + String(getpid()))
    }

    private static func removeRootsOfEndedProcesses(in base: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix(rootPrefix) {
            guard let pid = Int32(name.dropFirst(rootPrefix.count)), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: base + name)
            }
        }
    }

    /// Writes `contents` to a new file named `name` in a temporary directory; returns its path.
    @discardableResult
    public static func writeTemporaryFile(_ contents: String, name: String = "input.csv") throws -> String {
        try writeTemporaryFile(Data(contents.utf8), name: name)
    }

    @discardableResult
    public static func writeTemporaryFile(_ contents: Data, name: String = "input.csv") throws -> String {
        let path = try makeTemporaryDirectory() + "/" + name
        try contents.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Converts `text` (written to a temporary file) with `reader`.
    public static func convert(
        _ text: String, with reader: any FormatReader, name: String = "input.csv",
        options: ConversionOptions = ConversionOptions()
    ) throws -> CanonicalDocument {
        try convert(paths: [try writeTemporaryFile(text, name: name)], with: reader, options: options)
    }

    /// Converts files with `reader`, into a document as `convert` would write it.
    public static func convert(
        paths: [String], with reader: any FormatReader, options: ConversionOptions = ConversionOptions()
    ) throws -> CanonicalDocument {
        try Inputs.document(try paths.map { PreparedInput(input: try SourceInput(path: $0), reader: reader) }, options: options).0
    }

    /// Whether `probe`-sized head of `text` is claimed by `reader`.
    public static func detects(_ reader: any FormatReader, _ text: String, name: String = "input.csv") -> Bool {
        let head = Array(text.utf8.prefix(FormatProbe.size))
        return reader.detect(FormatProbe(name: name, head: head, isWholeInput: head.count == text.utf8.count)) == .match
    }
}

extension CanonicalDocument {
    /// Every trade of every portfolio, in document order.
    public var allTrades: [Trade] { portfolios.flatMap(\.trades) }
    /// Every cash transaction of every portfolio, in document order.
    public var allTransactions: [CashTransaction] { portfolios.flatMap(\.transactions) }
    /// The portfolio named `name`.
    public func portfolio(_ name: String) -> Portfolio? { portfolios.first { $0.name == name } }
}

extension ExactDecimal {
    /// A decimal from canonical text, for tests (`"0.0003597"`); traps on anything else.
    public init(_ text: String) {
        guard case .success(let value) = ExactDecimal.parse(text, style: .canonical) else {
            preconditionFailure("not a canonical decimal: \(text)")
        }
        self = value
    }
}

/// A small deterministic generator for property tests: the same seed gives the same cases on
/// every machine and run (a linear congruential generator; not for anything but tests).
public struct SeededGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next value, 31 bits wide.
    public mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }

    /// One of `items`.
    public mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
}
