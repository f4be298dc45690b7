#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a value came from: the input as given on the command line, the 1-based line (CSV) or
/// row (XLSX), and the sheet for workbooks.
///
/// The path and sheet are kept as numbers in a process-wide table of names: a location is made
/// for every row, on the reading thread, and dropped on the writing one, and a shared string's
/// reference count touched from both threads for every row costs more than the rest of the row.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline let pathNumber: UInt32
    @usableFromInline let sheetNumber: UInt32  // 0 for none
    public var row: Int

    public init(path: String, row: Int, sheet: String? = nil) {
        pathNumber = SourceNames.shared.number(for: path)
        sheetNumber = sheet.map { SourceNames.shared.number(for: $0) + 1 } ?? 0
        self.row = row
    }

    /// An empty location, for comparing operations regardless of where they were read.
    static let nowhere = SourceLocation(path: "", row: 0)

    /// A location in the same input (and sheet) as `self`, at another row: no table lookup.
    @inlinable
    public func atRow(_ row: Int) -> SourceLocation {
        var copy = self
        copy.row = row
        return copy
    }

    public var path: String { SourceNames.shared.name(pathNumber) }
    public var sheet: String? { sheetNumber == 0 ? nil : SourceNames.shared.name(sheetNumber - 1) }

    /// `file:row` or `file[sheet]:row`.
    public var description: String {
        if let sheet { return "\(path)[\(sheet)]:\(row)" }
        return "\(path):\(row)"
    }
}

extension SourceLocation: Decodable {
    private enum CodingKeys: String, CodingKey { case path, row, sheet }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(path: try c.decode(String.self, forKey: .path), row: try c.decode(Int.self, forKey: .row),
                  sheet: try c.decodeIfPresent(String.self, forKey: .sheet))
    }
}

/// The names of inputs and sheets, numbered; names are only ever added.
final class SourceNames: @unchecked Sendable {
    static let shared = SourceNames()
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var names: [String] = []
    private var numbers: [String: UInt32] = [:]

    private init() {
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    func number(for name: String) -> UInt32 {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let n = numbers[name] { return n }
        let n = UInt32(names.count)
        names.append(name)
        numbers[name] = n
        return n
    }

    func name(_ number: UInt32) -> String {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return names[Int(number)]
    }
}
