import ArgumentParser
import Foundation
import TradeportCore
import TradeportFormats

/// The documented exit codes of every subcommand.
enum ExitStatus {
    /// Every row converted or skipped with a reason.
    static let success: Int32 = 0
    /// Some rows rejected (the output still written, rejects in it; with --strict, nothing written).
    static let rowsRejected: Int32 = 1
    /// Usage, I/O, an unreadable or unrecognized input: nothing written.
    static let failure: Int32 = 2
    /// `push`: the server refused a call (4xx) or could not be reached after retries.
    static let serverFailure: Int32 = 3
}

/// A failure that ends the run with a message and an exit status.
struct CommandFailure: Error {
    let message: String
    var status: Int32 = ExitStatus.failure
}

struct TradeportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tradeport",
        abstract: "Turn broker and exchange exports into canonical portfolio operations.",
        discussion: exitCodeHelp,
        version: "0.1.0",
        subcommands: [ConvertCommand.self, DetectCommand.self, FormatsCommand.self, PushCommand.self, ServeCommand.self]
    )

    static let exitCodeHelp = """
        EXIT CODES:
          0  every row converted, or skipped with a reason
          1  some rows rejected: the output is still written, with the rejects in it
             (with --strict nothing is written)
          2  usage error, I/O error, or an unreadable or unrecognized input: nothing written
          3  push: the server refused a call or could not be reached
        """

    /// Runs the command line and exits with a documented status: argument errors are usage
    /// errors (2), not ArgumentParser's own 64.
    static func runAndExit() async -> Never {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Foundation.exit(ExitStatus.success)
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty { printError(failure.message) }
            Foundation.exit(failure.status)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success { Self.exit(withError: error) }
            printError(fullMessage(for: error))
            Foundation.exit(ExitStatus.failure)
        }
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data(("tradeport: " + message + "\n").utf8))
}

func printStandardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
