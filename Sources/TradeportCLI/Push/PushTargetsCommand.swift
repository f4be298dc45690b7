import Dispatch
import Foundation
import Logging
import TradeportCore
import TradeportFormats
import TradeportPrimitives
import TradeportPush

#if canImport(Glibc)
import Glibc
#endif

/// `push --to ghostfolio` and `push --watch DIR`: the targets other than the balances server's
/// one-off push, and the long-running watcher that feeds any of them.
extension PushCommand {
    /// The Ghostfolio instance of `--server` or GHOSTFOLIO_URL, logged in with GHOSTFOLIO_TOKEN
    /// or `--token-file`.
    func ghostfolioClient(environment: [String: String]) throws -> GhostfolioClient {
        guard let url = (server ?? environment["GHOSTFOLIO_URL"]).flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw CommandFailure(message: "no Ghostfolio: give --server URL or set GHOSTFOLIO_URL (e.g. http://localhost:3333)")
        }
        var token = environment["GHOSTFOLIO_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let tokenFile { token = try Self.readToken(tokenFile) }
        guard let token else {
            throw CommandFailure(message: "no credentials: set GHOSTFOLIO_TOKEN to the user's security token, or give --token-file")
        }
        return GhostfolioClient(base: url, securityToken: token, retry: RetryPolicy(attempts: requestAttempts))
    }

    func ghostfolioOptions() throws -> GhostfolioTarget.Options {
        var write = WriteOptions()
        if let dataSource {
            if let problem = WriterOptionGroup.problem(dataSource: dataSource) { throw CommandFailure(message: problem) }
            write.dataSource = dataSource
        }
        if let symbols {
            do { write.symbols = try SymbolMapFile.read(symbols) } catch { throw CommandFailure(message: error.description) }
        }
        return GhostfolioTarget.Options(batchSize: batchSize ?? 100, dryRun: dryRun, write: write)
    }

    /// `push --to ghostfolio FILE…`: one push, its summary, the exit status of a push.
    func runGhostfolio(environment: [String: String]) async throws {
        let client = try ghostfolioClient(environment: environment)
        let options = try ghostfolioOptions()
        let registry = try formats.catalog(only: manifest == nil ? source.format : nil).registry
        let plan = try makePlan(registry: registry)
        let result = await GhostfolioTarget(client: client, options: options).push(plan, rejected: nil)
        await client.shutdown()
        if !quiet {
            for report in result.conversion?.reports ?? [] { printStandardError(SummaryText.make(report, output: "-", written: true, strict: false)) }
            for line in result.conversion?.notLoaded ?? [] { printError(line) }
            var lines = [dryRun ? "dry run against Ghostfolio at \(client.base) (nothing written):" : "pushed to Ghostfolio at \(client.base):"]
            for o in result.outcomes {
                lines.append("  \(o.name)  \(o.sent) \(dryRun ? "would be imported" : "sent"), \(o.alreadyPresent) already present")
            }
            for note in result.notes { lines.append("  ghostfolio: \(note)") }
            printStandardError(lines.joined(separator: "\n") + "\n")
        }
        try finish(result, at: "in Ghostfolio")
    }

    /// The plan of the FILEs or the manifest given.
    private func makePlan(registry: FormatRegistry) throws -> PushPlan {
        do throws(PushPlanError) {
            if let path = manifest { return try PushPlan.fromManifest(try PushManifest.read(path), registry: registry) }
            return try PushPlan.fromFiles(
                files, format: source.format, portfolio: source.portfolio, splitAccounts: source.splitAccounts,
                timezone: source.timezone, parameters: source.parameters, registry: registry)
        } catch {
            throw CommandFailure(message: error.description)
        }
    }

    /// The exit status of a push's result (shared by the targets); `place` says where what was
    /// sent stays (`on the server`).
    func finish(_ result: PushResult, at place: String) throws {
        if let inputFailure = result.inputFailure {
            let sent = result.outcomes.reduce(0) { $0 + $1.sent }
            let message =
                inputFailure.description
                + (sent == 0
                    ? "; nothing was sent"
                    : "; the \(Wording.count(sent, "operation")) sent before it stay \(place), and a re-run sends the rest")
            // The target's refusal, when there was one too, is the exit status (3); both are said.
            guard result.failure != nil else { throw CommandFailure(message: message) }
            printError(message)
        }
        if let failure = result.failure { throw CommandFailure(message: failure.description, status: ExitStatus.serverFailure) }
        if (result.conversion?.rejectedRows ?? 0) > 0 || result.outcomes.contains(where: { $0.failed > 0 }) {
            throw CommandFailure(message: "", status: ExitStatus.rowsRejected)
        }
    }

    /// `push --watch DIR`: until SIGTERM or SIGINT (or, with --once, until every file is taken).
    func runWatch(_ directory: String, environment: [String: String]) async throws {
        let json = logFormat == "json"
        LoggingSystem.bootstrap { label in
            json ? JSONLogHandler(label: label) as any LogHandler : StreamLogHandler.standardError(label: label)
        }
        let logger = Logger(label: "tradeport.watch")
        let registry = try formats.catalog(only: source.format).registry
        let stop = StopFlag()
        let signals = Self.stopOnSignals(stop)
        defer { for s in signals { s.cancel() } }
        let connect: @Sendable () async throws -> any PushTarget
        let shutdown: @Sendable () async -> Void
        if to == "ghostfolio" {
            let client = try ghostfolioClient(environment: environment)
            let options = try ghostfolioOptions()
            connect = {
                // A token the instance refuses stops the watcher (exit 3), not each file.
                _ = try await client.logIn()
                return GhostfolioTarget(client: client, options: options)
            }
            shutdown = { await client.shutdown() }
        } else {
            guard let url = (server ?? environment["TRADEPORT_SERVER"]).flatMap({ $0.isEmpty ? nil : $0 }) else {
                throw CommandFailure(message: "no server: give --server URL or set TRADEPORT_SERVER (e.g. http://localhost:9999/bcv)")
            }
            let client = BalancesClient(base: url, connections: concurrency, retry: RetryPolicy(attempts: requestAttempts))
            shutdown = { await client.shutdown() }
            let (register, tokenFile) = (register, tokenFile)
            let options = PushOptions(concurrency: concurrency, batchSize: batchSize ?? 1000, createPortfolios: !noCreate)
            var logIn: (@Sendable () async throws -> String)?
            if let username = environment["TRADEPORT_USERNAME"], !username.isEmpty,
                let password = environment["TRADEPORT_PASSWORD"], !password.isEmpty
            {
                logIn = { try await client.logIn(username: username, password: password) }
            }
            let renew = logIn
            connect = {
                let token = try await Self.authenticate(client, environment: environment, register: register, tokenFile: tokenFile)
                // A token given (not logged in for) is tried once: one the server refuses stops
                // the watcher (exit 3), not each file.
                _ = try await client.with(token: token).portfolios()
                return BalancesServerTarget(client: client.with(token: token), options: options, logIn: renew)
            }
        }
        let options = FolderWatcher.Options(
            directory: directory, portfolio: source.portfolio, format: source.format, timezone: source.timezone, parameters: source.parameters,
            registry: registry, interval: .milliseconds(Int(interval * 1000)), settle: .milliseconds(Int(settle * 1000)), once: once)
        let summary: FolderWatcher.Summary
        do {
            summary = try await FolderWatcher(options: options, stop: stop, logger: logger, connect: connect).run()
            await shutdown()
        } catch let fatal as FolderWatcher.Fatal {
            await shutdown()
            throw CommandFailure(message: fatal.description)
        } catch let failure as ServerFailure {
            await shutdown()
            throw CommandFailure(message: failure.description, status: ExitStatus.serverFailure)
        } catch {
            await shutdown()
            throw error
        }
        if once && (summary.failed > 0 || summary.loadedWithRejects > 0) {
            throw CommandFailure(message: "", status: ExitStatus.rowsRejected)
        }
    }

    /// SIGTERM and SIGINT raise `stop` (the file in hand is finished first); a second one ends
    /// the process at once.
    static func stopOnSignals(_ stop: StopFlag) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.isRaised { Foundation.exit(128 + number) }
                stop.raise()
            }
            source.resume()
            return source
        }
    }
}

/// One JSON object per log line on standard error (`--log-format json`): `time`, `level`,
/// `label`, `message` and the metadata's members.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var object: [String: Any] = [
            "time": ISO8601DateFormatter().string(from: Date()), "level": event.level.rawValue, "label": label,
            "message": event.message.description
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) { object[key] = Self.plain(value) }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        FileHandle.standardError.write(data + Data([0x0A]))
    }

    /// A metadata value as JSON: numbers as numbers, lists and dictionaries as such.
    static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let s): return Int(s).map { $0 as Any } ?? s
        case .stringConvertible(let c): return c.description
        case .array(let a): return a.map(plain)
        case .dictionary(let d): return d.mapValues(plain)
        }
    }
}
