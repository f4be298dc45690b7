import ArgumentParser
import TradeportCore
import TradeportFormats

struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Print each file's detected format, or why none was: the nearest formats and what the file lacks for each.",
        discussion: "Exits 0 when every file's format is recognized, 2 otherwise."
    )

    @OptionGroup var formats: FormatOptions

    @Flag(help: "For a file no format matches, list every format considered with its reason (not only the nearest).")
    var verbose = false

    @Argument(help: "The files to look at.")
    var files: [String]

    func run() throws {
        let registry = try formats.catalog().registry
        var failed = false
        for path in files {
            let input: SourceInput
            do {
                input = try Inputs.open(path)
            } catch {
                failed = true
                print("\(path): not recognized: \(error.description)")
                continue
            }
            switch registry.detect(input.probe) {
            case .detected(let reader):
                print("\(path): \(reader.id)")
            case .none(let reasons):
                failed = true
                if verbose {
                    print("\(path): not recognized; considered:\n" + reasons.map { "  \($0.id): \($0.reason)" }.joined(separator: "\n"))
                } else {
                    print("\(path): not recognized: " + registry.unrecognized(input.probe, path: path))
                }
            case .ambiguous(let ids):
                failed = true
                print("\(path): not recognized: more than one format matches (\(ids.joined(separator: ", ")))")
            }
        }
        if failed { throw CommandFailure(message: "") }
    }
}
