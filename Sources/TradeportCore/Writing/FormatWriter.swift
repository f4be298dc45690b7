/// The one seam a target format plugs into (pandoc's writers): it names itself and makes the sink
/// that writes a conversion's output in its format. A writer knows nothing of readers; adding one
/// is one type conforming to this protocol and one line in the registry (`FormatCatalog.writers`).
public protocol FormatWriter: Sendable {
    /// A stable identifier, used in `--to`.
    var id: String { get }
    /// One line for `tradeport formats`.
    var summary: String { get }
    /// The usual file name extension of what it writes, without the dot.
    var fileExtension: String { get }
    /// Makes the sink writing to `output`.
    func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink
}

/// Options that change what a writer writes (pandoc's `WriterOptions`).
public struct WriteOptions: Sendable {
    public init() {}
}

/// The writers a conversion can write with, by id.
public struct WriterRegistry: Sendable {
    public let writers: [any FormatWriter]

    public init(_ writers: [any FormatWriter]) {
        self.writers = writers
    }

    public var ids: [String] { writers.map(\.id) }

    public func writer(id: String) -> (any FormatWriter)? {
        writers.first { $0.id == id }
    }
}
