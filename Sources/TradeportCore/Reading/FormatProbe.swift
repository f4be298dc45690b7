import Foundation

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
