import Foundation
import Testing
import TradeportCore
import TradeportFormats
import TradeportTestKit

/// A built-in format's own sample in `formats/samples/`, and its conversion by the built-in reader:
/// what every per-spec test file reads.
enum BuiltInSample {
    /// `formats/samples/` of this checkout.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("formats/samples")

    /// The path of the sample `file` (`binance-example.csv`).
    static func path(_ file: String) -> String { directory.appendingPathComponent(file).path }

    /// The sample at `path` converted by the built-in reader `format`.
    static func convert(_ format: String, _ path: String) throws -> CanonicalDocument {
        let reader = try #require(FormatRegistry.builtIn.reader(id: format))
        return try TestKit.convert(paths: [path], with: reader)
    }
}
