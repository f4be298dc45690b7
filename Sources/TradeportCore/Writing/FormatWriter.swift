/// The one seam a target format plugs into (pandoc's writers): it names itself and makes the sink
/// that writes a conversion's output in its format. A writer knows nothing of readers; adding one
/// is one type conforming to this protocol and one line in the registry (`FormatCatalog.writers`, which `FormatRegistry.builtIn` lists).
public protocol FormatWriter: Sendable {
    /// A stable identifier, used in `--to`.
    var id: String { get }
    /// One line for `tradeport formats`.
    var summary: String { get }
    /// The usual file name extension of what it writes, without the dot.
    var fileExtension: String { get }
    /// The files a writer that writes several writes into the directory it is given (`-o DIR`),
    /// in the order `makeSink(outputs:options:)` takes them; empty (the default) for a writer of
    /// one file or stream.
    var files: [String] { get }
    /// Makes the sink writing to `output`.
    func makeSink(output: OutputFile, options: WriteOptions) throws -> any ConversionSink
    /// Makes the sink of a writer of several files, one output per name in `files`.
    func makeSink(outputs: [OutputFile], options: WriteOptions) throws -> any ConversionSink
}

extension FormatWriter {
    public var files: [String] { [] }

    public func makeSink(outputs: [OutputFile], options: WriteOptions) throws -> any ConversionSink {
        precondition(outputs.count == 1, "\(id) writes one file")
        return try makeSink(output: outputs[0], options: options)
    }
}

/// Options that change what a writer writes (pandoc's `WriterOptions`).
public struct WriteOptions: Sendable {
    /// The accounts the ledger writers (beancount, hledger) post to, and the names other writers
    /// give a portfolio's accounts.
    public var accounts: AccountNames
    /// The zone whose calendar gives the dates of writers that write days, not instants
    /// (beancount, hledger, Portfolio Performance); UTC by default.
    public var dates: SourceTimeZone
    /// Ghostfolio: the data source of the securities the symbol map has no entry for (`YAHOO`,
    /// `COINGECKO`, …); `nil`: each a custom (`MANUAL`) profile of its own.
    public var dataSource: String?
    /// The symbols the user gives securities in the targets (`--symbols FILE`).
    public var symbols: SymbolMap

    public init(accounts: AccountNames = AccountNames(), dates: SourceTimeZone = .utc, dataSource: String? = nil, symbols: SymbolMap = SymbolMap()) {
        self.accounts = accounts
        self.dates = dates
        self.dataSource = dataSource
        self.symbols = symbols
    }
}

/// A sink with something to say once it has written: what its target cannot carry, with counts.
/// The command line prints the notes after the summary.
public protocol WriterNotes: AnyObject {
    var notes: [String] { get }
}
