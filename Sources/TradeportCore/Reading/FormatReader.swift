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

/// A reader's answer to a probe.
/// How near an input came to a format it is not: the header entries a line among its first held,
/// and those it lacks (`NearMissDetecting`).
public struct NearMiss: Sendable, Equatable {
    /// The header entries the nearest line holds, of those the format looks for.
    public var found: Int
    public var wanted: Int
    /// The entries it lacks, as the format names them (alternatives joined by `|`).
    public var missing: [String]
    /// That line's number in the input (1-based) and its text (cut at 300 characters).
    public var line: Int
    public var text: String

    public init(found: Int, wanted: Int, missing: [String], line: Int, text: String) {
        self.found = found
        self.wanted = wanted
        self.missing = missing
        self.line = line
        self.text = text
    }
}

/// A reader that can say how near an input it does not match came (opt-in: detection's message
/// names the nearest formats and what their files have that this one lacks).
public protocol NearMissDetecting: FormatReader {
    /// How near `probe` comes, or nil when it does not come near at all.
    func nearMiss(_ probe: FormatProbe) -> NearMiss?
}

public enum Detection: Sendable, Equatable {
    case match
    /// Not this format, and the reason, for the message listing what was considered.
    case noMatch(String)
}
