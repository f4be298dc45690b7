import ArgumentParser
import TradeportCore
import TradeportFormats

struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List the formats tradeport reads: their ids and descriptions."
    )

    func run() throws {
        let adapters = FormatRegistry.builtIn.adapters
        let width = adapters.map(\.id.count).max() ?? 0
        for adapter in adapters {
            print(adapter.id.padding(toLength: width + 2, withPad: " ", startingAt: 0) + adapter.summary)
        }
    }
}
