/// Makes the locations of one input's rows, on the thread that reads it.
///
/// Every `refreshInterval` rows it starts again from a fresh copy of the path and sheet texts:
/// locations are made on the reading thread and let go on the writing one, and one text's
/// reference count touched by both threads for every row costs more than the rest of the row
/// (measured: a million DSX rows 10% slower). With a copy per run of rows, the two threads touch
/// the same count only where the runs meet. The locations are plain values all the same.
public struct RowLocations: Sendable {
    private var origin: SourceLocation
    private var made = 0
    /// About a batch of the conversion's hand-over between its threads.
    public static let refreshInterval = 1024

    public init(path: String, sheet: String? = nil) {
        origin = SourceLocation(path: path, row: 0, sheet: sheet)
    }

    /// The location of `row`.
    public mutating func at(_ row: Int) -> SourceLocation {
        made += 1
        if made == Self.refreshInterval {
            made = 0
            origin = SourceLocation(path: Self.copy(origin.path), row: 0, sheet: origin.sheet.map(Self.copy))
        }
        return origin.atRow(row)
    }

    /// The same text in storage of its own.
    private static func copy(_ text: String) -> String {
        var text = text
        return text.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }
}
