/// Opt-in, for speed: a reader that can make operations ready on its own threads
/// (`OperationPreparation`) for a sink that takes them (`PreparedOperationSink`), so that the
/// conversion files and writes them without their model values.
///
/// A reader that does not adopt it is read through `FormatReader.read(_:options:emit:)` with
/// every sink, and is correct; the conversion calls this method instead only when the sink takes
/// prepared operations and the source prints no balances of its own.
public protocol PreparingReader: FormatReader {
    /// Reads the source as `read(_:options:emit:)` does, each row handed on either to `emit` as
    /// before or, when `preparation` made it ready, to `emitPrepared`: exactly one of the two per
    /// row, in the rows' order.
    func read(
        _ input: SourceInput, options: ReadOptions, preparation: OperationPreparation,
        emit: RecordHandler, emitPrepared: PreparedRecordHandler) throws
}

/// Receives an operation a `PreparingReader` made ready (a data row, as `.operation` is), and a
/// way to get its row's raw text.
public typealias PreparedRecordHandler = (_ operation: PreparedOperation, _ rawText: () -> String) throws -> Void

/// Opt-in, for speed: a sink that takes operations made ready on the reader's threads, their
/// bytes already in its form. It still takes model values (`ConversionSink.write(_:portfolio:)`)
/// from every reader that does not prepare, and in any order between the two.
public protocol PreparedOperationSink: ConversionSink {
    /// The form in which the sink takes prepared operations.
    var preparedForm: PreparedForm { get }
    /// An operation a reader made ready, its bytes in `preparedForm`, in the order operations come.
    func write(prepared operation: PreparedOperation) throws
}
