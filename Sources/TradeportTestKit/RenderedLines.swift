import TradeportCore

extension TestKit {
    /// A sink that has operations rendered from their model values on the reader's threads
    /// (`PreparedForm.rendered`, what push does), as their canonical lines; skips and rejects as
    /// lines too, in the order they come. Read in one go (nothing prepared) it writes every
    /// operation from its model value here: so a reading that prepares operations must give the
    /// same text, or its model values differ.
    public final class RenderedLines: PreparedOperationSink {
        struct Renderer: OperationRenderer {
            func append(_ operation: PortfolioOperation, portfolio: String, to out: inout OutputBuffer) {
                CanonicalJSON.appendLine(operation, portfolio: portfolio, to: &out)
            }
        }

        public private(set) var lines: [UInt8] = []
        public var preparedForm: PreparedForm { .rendered(Renderer()) }

        public init() {}

        public func write(_ operation: PortfolioOperation, portfolio: String) throws {
            var out = OutputBuffer(capacity: 1024)
            Renderer().append(operation, portfolio: portfolio, to: &out)
            lines += out.array
        }

        public func write(prepared operation: PreparedOperation) throws {
            operation.withBytes { lines += $0 }
        }

        public func write(_ skipped: SkippedRow) throws {
            var out = OutputBuffer(capacity: 256)
            CanonicalJSON.appendSkippedFields(skipped, to: &out)
            lines += out.array + [0x0A]
        }

        public func write(_ rejected: RejectedRow) throws {
            var out = OutputBuffer(capacity: 256)
            CanonicalJSON.appendRejectedFields(rejected, to: &out)
            lines += out.array + [0x0A]
        }

        public func finish(_ report: ConversionReport) throws {}
    }
}
