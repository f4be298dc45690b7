import ArgumentParser
import TradeportCore
import TradeportFormats
import TradeportSpec

/// Where format specs come from besides the built-in ones (and ./formats and the config directory).
struct FormatOptions: ParsableArguments {
    @Option(name: .customLong("formats-dir"), help: ArgumentHelp("Also read the format specs (*.yaml) in DIR.", valueName: "DIR"))
    var formatsDirectories: [String] = []

    @Option(name: .customLong("spec"), help: ArgumentHelp("Also read the format spec FILE.", valueName: "FILE"))
    var specFiles: [String] = []

    /// The catalog, or a failure listing every problem of every spec (exit 2).
    /// With `only`, specs in folders that declare another id are not loaded (see `FormatCatalog.load`).
    func catalog(only: String? = nil) throws -> FormatCatalog {
        do {
            return try FormatCatalog.load(directories: formatsDirectories, specFiles: specFiles, only: only)
        } catch let errors as SpecErrors {
            throw CommandFailure(message: "a format spec has problems:\n" + errors.description)
        }
    }
}
