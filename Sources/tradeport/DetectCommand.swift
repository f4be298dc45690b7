import ArgumentParser
import TradeportCore
import TradeportFormats

struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Print each file's detected format, or why none was.",
        discussion: "Exits 0 when every file's format is recognized, 2 otherwise."
    )

    @Argument(help: "The files to look at.")
    var files: [String]

    func run() throws {
        let registry = FormatRegistry.builtIn
        var failed = false
        for path in files {
            do {
                let input = try Inputs.open(path)
                let adapter = try Inputs.adapter(for: input, named: nil, registry: registry)
                print("\(path): \(adapter.id)")
            } catch let failure as CommandFailure {
                failed = true
                print("\(path): not recognized")
                printError(failure.message)
            }
        }
        if failed { throw CommandFailure(message: "") }
    }
}
