import Foundation

/// The one seam a format plugs into: it names itself, says whether a file is in its format, and
/// turns a source into canonical records, one per data row.
///
/// A reader knows nothing of sinks; adding a format is one type conforming to this protocol and
/// one line in the registry.
public protocol FormatReader: Sendable {
    /// A stable identifier, used in `--format`, in operation ids and in the output's `sources`.
    var id: String { get }
    /// One line for `tradeport formats`.
    var summary: String { get }

    /// Whether `probe` (a file's first bytes and its name) is in this format; when not, why not.
    func detect(_ probe: FormatProbe) -> Detection

    /// Reads the whole source, calling `emit` exactly once for every data row: an operation, a
    /// skip with its reason, or a reject with its errors, with a way to get the row's raw text
    /// (called only when needed). Throws only when the source as a whole cannot be read (I/O, not
    /// this format at all); a bad row is a `.rejected` record.
    func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws

    /// Whether the source prints its own balances (`SourceRecord.statement`), which the conversion
    /// then checks its reading against: the effect of every operation read is kept per asset.
    var printsBalances: Bool { get }
}

extension FormatReader {
    public var printsBalances: Bool { false }
}

/// Receives one record per data row (and, from a source that prints its balances, a `.statement`
/// per balance, which is not a row), and a way to get that row's raw text.
public typealias RecordHandler = (_ record: SourceRecord, _ rawText: () -> String) throws -> Void

/// What detection sees of an input.
public struct FormatProbe: Sendable {
    /// The file's name as given (for extensions), `-` for standard input.
    public let name: String
    /// The first bytes of the file (up to `FormatProbe.size`).
    public let head: [UInt8]
    /// Whether `head` is the whole file.
    public let isWholeInput: Bool
    /// The path of the input when it is a regular file, which a format may open for a deeper look
    /// (a workbook's content); nil for standard input and pipes.
    public let filePath: String?

    /// What detection opened that the read of the same input can use (a workbook whose shared
    /// strings it loaded). It belongs to this input and goes with it.
    public let opened: OpenedDuringDetection

    /// How many bytes detection reads.
    public static let size = 64 * 1024

    public init(name: String, head: [UInt8], isWholeInput: Bool, filePath: String? = nil) {
        self.name = name
        self.head = head
        self.isWholeInput = isWholeInput
        self.filePath = filePath
        opened = OpenedDuringDetection()
    }
}

/// Things a format opened while detecting an input, kept for reading it: one per key, taken out
/// while in use so that two threads never share one.
public final class OpenedDuringDetection: @unchecked Sendable {
    // Guarded by `lock`.
    private var kept: [String: Any] = [:]
    private let lock = NSLock()

    public init() {}

    /// Keeps `value` under `key` (replacing what was there).
    public func keep(_ value: Any, as key: String) {
        lock.lock()
        kept[key] = value
        lock.unlock()
    }

    /// The value kept under `key`, made by `make` and kept the first time it is asked for: what
    /// every format may look at alike (a value, not something in use, which `take` hands out).
    /// Made outside the lock, so that `make` may ask for another; two threads asking at once may
    /// both make it, and the first kept is the one given.
    public func shared<T>(_ key: String, make: () -> T) -> T {
        lock.lock()
        if let value = kept[key] as? T {
            lock.unlock()
            return value
        }
        lock.unlock()
        let made = make()
        lock.lock()
        defer { lock.unlock() }
        if let value = kept[key] as? T { return value }
        kept[key] = made
        return made
    }

    /// Takes out what is kept under `key`, when it is a `T`.
    public func take<T>(_ key: String, as type: T.Type) -> T? {
        lock.lock()
        defer { lock.unlock() }
        guard let value = kept[key] as? T else { return nil }
        kept[key] = nil
        return value
    }
}

/// An reader's answer to a probe.
public enum Detection: Sendable, Equatable {
    case match
    /// Not this format, and the reason, for the message listing what was considered.
    case noMatch(String)
}

/// Options that change how a source is read (pandoc's `ReaderOptions`).
public struct ReadOptions: Sendable {
    /// The zone of the source's local times; `nil` for the format's own default.
    public var timeZone: SourceTimeZone?

    public init(timeZone: SourceTimeZone? = nil) {
        self.timeZone = timeZone
    }
}
