import ArgumentParser
import Foundation
import TradeportBalances
import TradeportCore
import TradeportPrimitives
import TradeportPush

#if canImport(Glibc)
import Glibc
#endif

struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Load exports into portfolios of a balances server or a Ghostfolio instance, sending only what it lacks.",
        discussion: """
            --to names the target: balances (a balances server, the default) or ghostfolio (a \
            Ghostfolio instance: --server or GHOSTFOLIO_URL, the user's security token in \
            GHOSTFOLIO_TOKEN or --token-file; each portfolio is the account of its name; \
            --symbols maps securities to the symbols its data sources know).

            --watch DIR runs until stopped (SIGTERM, SIGINT): every export that lands in DIR (a \
            portfolio per subfolder, --portfolio for the files at its top) is pushed once it is \
            complete, and its outcome recorded in DIR/.tradeport/state.jsonl. See docs/push-and-serve.md.

            The inputs are FILEs as for 'convert' (exports, or canonical JSON documents ending in \
            .json), or a --manifest naming, per server portfolio, its inputs, formats and options. \
            Each portfolio is found by name (created when missing unless --no-create); what it \
            already holds is read first, and only the operations whose value id (the operation's \
            external id, else its canonical id) it lacks are sent: a re-run sends nothing, and a \
            re-run after an interruption sends exactly the rest.

            The server is --server or TRADEPORT_SERVER, with its context path \
            (http://localhost:9999/bcv). Credentials never go on the command line: \
            TRADEPORT_TOKEN, or a token in --token-file, or TRADEPORT_USERNAME and \
            TRADEPORT_PASSWORD (with --register to create the account first).

            A summary per portfolio goes to standard error: sent, already present, failed.

            EXIT CODES:
              0  every operation is on the server (sent now or already there)
              1  some rows were rejected by the conversion, or some operations could not be
                 mapped to the server's model: the rest was loaded
              2  usage error, or an unreadable or unrecognized input: nothing sent; an input
                 that fails part-way through reading (what is sent as it is read) stops the
                 push: what was sent before stays, a re-run sends the rest
              3  the server refused (a 4xx answer, shown with its message) or could not be
                 reached after retries: what was sent before stays, a re-run sends the rest
            With --watch: 0 when stopped by a signal (or, with --once, when every file loaded),
            1 with --once when a file had rejected rows or failed, 2 for a folder that cannot
            be watched, 3 when the target refuses the credentials.
            """
    )

    @Argument(help: ArgumentHelp("Exports or canonical JSON documents to push.", valueName: "FILE"))
    var files: [String] = []

    @Option(help: ArgumentHelp("The target: \(PushTargets.all.map(\.id).joined(separator: " or ")).", valueName: "ID"))
    var to = "balances"

    @Option(help: ArgumentHelp("Watch DIR and push every export that lands there (until SIGTERM or SIGINT).", valueName: "DIR"))
    var watch: String?

    @Option(help: ArgumentHelp("--watch: how often DIR is looked at, in seconds.", valueName: "SECONDS"))
    var interval = 1.0

    @Option(help: ArgumentHelp("--watch: how long a file must stay unchanged before it is read, in seconds.", valueName: "SECONDS"))
    var settle = 2.0

    @Flag(help: "--watch: take the files there, then stop.")
    var once = false

    @Option(help: ArgumentHelp("--watch: log lines as text or json.", valueName: "FORMAT"))
    var logFormat = "text"

    @Option(
        help: ArgumentHelp(
            "ghostfolio: the symbol map, a CSV file of isin, code, venue, target, symbol, data_source, name (see docs/writers.md).", valueName: "FILE"))
    var symbols: String?

    @Option(
        help: ArgumentHelp(
            "ghostfolio: the data source of the securities --symbols does not map, by their code (YAHOO, COINGECKO, …); by default each is a custom (MANUAL) profile of its own.",
            valueName: "SOURCE"))
    var dataSource: String?

    @Option(help: ArgumentHelp("A JSON manifest naming, per portfolio, its inputs (see the README).", valueName: "FILE"))
    var manifest: String?

    @OptionGroup var source: SourceOptions

    @Option(help: ArgumentHelp("The server with its context path (default: TRADEPORT_SERVER).", valueName: "URL"))
    var server: String?

    @Option(help: ArgumentHelp("A file holding the token (instead of TRADEPORT_TOKEN or a username and password).", valueName: "FILE"))
    var tokenFile: String?

    @Flag(help: "Create the account TRADEPORT_USERNAME with TRADEPORT_PASSWORD first (log in when it exists).")
    var register = false

    @Flag(help: "Stop when a portfolio does not exist instead of creating it.")
    var noCreate = false

    @Flag(help: "Print what would be sent (JSON Lines on standard output) and send nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("Requests in flight at once.", valueName: "N"))
    var concurrency = 4

    @Option(help: ArgumentHelp("Operations per batch request, when the server takes batches (balances: 1000; ghostfolio: 100).", valueName: "N"))
    var batchSize: Int?

    @Option(
        help: ArgumentHelp(
            "Attempts per request on connection errors and 5xx answers, pausing 0.5 s, 1, 2, 4, 8 between them (6; 2 with --watch).", valueName: "N"))
    var attempts: Int?

    /// Attempts per request: 6 (about 15 s), or 2 with --watch, whose own waiting (1 s doubling
    /// to 60 s, with a warning each time) takes over from there.
    var requestAttempts: Int { attempts ?? (watch == nil ? 6 : 2) }

    @OptionGroup var formats: FormatOptions

    @Flag(name: [.short, .long], help: "Print no summary and no progress.")
    var quiet = false

    func validate() throws {
        guard PushTargets.info(to) != nil else {
            throw ValidationError("--to \(to): unknown target (expected \(PushTargets.all.map(\.id).joined(separator: " or ")))")
        }
        if let watch {
            if manifest != nil || !files.isEmpty {
                throw ValidationError("--watch \(watch) takes no FILEs and no --manifest: it pushes what lands in the folder")
            }
            if dryRun { throw ValidationError("--watch does not take --dry-run") }
            if !(interval > 0 && interval <= 3600) { throw ValidationError("--interval must be more than 0 and at most 3600 seconds") }
            if !(settle >= 0 && settle <= 86400) { throw ValidationError("--settle must be 0 to 86400 seconds") }
            if logFormat != "text" && logFormat != "json" { throw ValidationError("--log-format must be text or json") }
            if source.splitAccounts { throw ValidationError("--watch takes a portfolio per subfolder, not --split-accounts") }
        } else if once || logFormat != "text" {
            throw ValidationError("--once and --log-format go with --watch")
        }
        if (symbols != nil || dataSource != nil) && to != "ghostfolio" { throw ValidationError("--symbols and --data-source go with --to ghostfolio") }
        if to == "ghostfolio" && (register || noCreate) { throw ValidationError("--register and --no-create go with --to balances") }
        if watch == nil && manifest == nil && files.isEmpty { throw ValidationError("give FILEs to push or a --manifest") }
        if manifest != nil && !files.isEmpty { throw ValidationError("give either FILEs or a --manifest, not both") }
        if files.contains("-") { throw ValidationError("push reads files, not standard input") }
        if concurrency < 1 || concurrency > 64 { throw ValidationError("--concurrency must be 1 to 64") }
        if let batchSize, batchSize < 1 || batchSize > 10_000 { throw ValidationError("--batch-size must be 1 to 10000") }
        if let attempts, attempts < 1 { throw ValidationError("--attempts must be at least 1") }
    }

    func run() async throws {
        ProcessMemory.keepMidsizeBlocksOnHeap()
        let environment = ProcessInfo.processInfo.environment
        if let watch { return try await runWatch(watch, environment: environment) }
        if to == "ghostfolio" { return try await runGhostfolio(environment: environment) }
        let batchSize = self.batchSize ?? 1000
        let serverURL = (server ?? environment["TRADEPORT_SERVER"]).flatMap { $0.isEmpty ? nil : $0 }
        var manifest: PushManifest?
        if let path = self.manifest {
            do { manifest = try PushManifest.read(path) } catch { throw CommandFailure(message: error.description) }
        }
        // A manifest names formats of its own: every spec is loaded then.
        let registry = try formats.catalog(only: manifest == nil ? source.format : nil).registry
        // Opens every input and gives it its reader: a problem here stops the push before
        // anything is sent (exit 2).
        let prepare: @Sendable () throws -> PushPlan = { [files, source, manifest] in
            do throws(PushPlanError) {
                if let manifest { return try PushPlan.fromManifest(manifest, registry: registry) }
                return try PushPlan.fromFiles(
                    files, format: source.format, portfolio: source.portfolio, splitAccounts: source.splitAccounts,
                    timezone: source.timezone, parameters: source.parameters, registry: registry)
            } catch {
                throw CommandFailure(message: error.description)
            }
        }
        guard !dryRun, let serverURL else {
            let plan = try await offload(prepare)
            let (loads, conversion): ([PortfolioLoad], PushConversion)
            do { (loads, conversion) = try plan.loads() } catch { throw CommandFailure(message: error.description) }
            printConversion(conversion)
            guard dryRun else {
                throw CommandFailure(message: "no server: give --server URL or set TRADEPORT_SERVER (e.g. http://localhost:9999/bcv)")
            }
            try await printDryRun(loads, server: serverURL, environment: environment)
            if conversion.rejectedRows > 0 || conversion.refusedAny {
                throw CommandFailure(message: "", status: ExitStatus.rowsRejected)
            }
            return
        }
        // The portfolios whose names are known before converting: read ahead while it runs.
        let known =
            manifest.map { $0.portfolios.filter { $0.account == nil }.map { $0.name } }
            ?? (source.splitAccounts ? [] : [source.portfolio])
        let client = BalancesClient(base: serverURL, connections: concurrency, retry: RetryPolicy(attempts: requestAttempts))
        let result = try await Self.using(client) { () async throws -> PushResult in
            // Logging in and reading what the named portfolios hold go on while the inputs are
            // opened and detected (off the concurrency pool); a failure of either is reported
            // after an input's problem, as it was when they came after it. Not with --register:
            // that creates the account, which an unreadable input must not leave behind.
            let early = register ? nil : Task { try await makeEngine(client, environment: environment, prefetching: known) }
            let plan: PushPlan
            do {
                plan = try await offload(prepare)
            } catch {
                early?.cancel()
                _ = await early?.result
                throw error
            }
            // The conversion runs on a thread of its own from here, and what it makes is sent as
            // it comes (a few batches wait for the sending at most).
            let feed = PushFeed()
            let conversion = Task { await offload { feed.produce(plan, batchSize: batchSize) } }
            let (engine, progress): (PushEngine, TerminalProgress?)
            do {
                if let early {
                    (engine, progress) = try await early.value
                } else {
                    (engine, progress) = try await makeEngine(client, environment: environment, prefetching: [])
                }
            } catch {
                feed.cancel()
                await conversion.value
                throw error
            }
            let result = await engine.push(feed)
            await conversion.value
            await progress?.finish()
            return result
        }
        if let conversion = result.conversion { printConversion(conversion) }
        if !quiet { printStandardError(summary(result.outcomes, conversion: result.conversion, server: serverURL)) }
        try finish(result, at: "on the server")
    }

    /// The conversions' summaries and what no portfolio takes, on standard error.
    private func printConversion(_ conversion: PushConversion) {
        guard !quiet else { return }
        for report in conversion.reports { printStandardError(conversionSummary(report)) }
        for line in conversion.notLoaded { printError(line) }
    }

    /// A logged-in engine, already reading what the portfolios `names` hold, and its progress line.
    private func makeEngine(
        _ client: BalancesClient, environment: [String: String],
        prefetching names: [String]
    ) async throws -> (PushEngine, TerminalProgress?) {
        let token = try await authenticate(client, environment: environment)
        var logIn: (@Sendable () async throws -> String)?
        if let username = environment["TRADEPORT_USERNAME"], !username.isEmpty,
            let password = environment["TRADEPORT_PASSWORD"], !password.isEmpty
        {
            logIn = { try await client.logIn(username: username, password: password) }
        }
        let progress = !quiet && isatty(STDERR_FILENO) == 1 ? TerminalProgress() : nil
        let engine = PushEngine(
            client: client.with(token: token),
            options: PushOptions(concurrency: concurrency, batchSize: batchSize ?? 1000, createPortfolios: !noCreate),
            progress: progress, logIn: logIn)
        await engine.prefetch(names)
        return (engine, progress)
    }

    /// Runs `body` with `client` and shuts the client down after; a server's refusal becomes exit 3.
    private static func using<T>(_ client: BalancesClient, _ body: () async throws -> T) async throws -> T {
        do {
            return try await client.shutdownAfter { _ in try await body() }
        } catch let failure as ServerFailure {
            throw CommandFailure(message: failure.description, status: ExitStatus.serverFailure)
        }
    }

    /// A token: TRADEPORT_TOKEN, --token-file, or a login (after registering, with --register).
    private func authenticate(_ client: BalancesClient, environment: [String: String]) async throws -> String {
        try await Self.authenticate(client, environment: environment, register: register, tokenFile: tokenFile)
    }

    /// The token `--token-file` holds (either target's), without the spaces around it.
    static func readToken(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure(message: "cannot read the token file \(path)") }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if token.isEmpty { throw CommandFailure(message: "the token file \(path) is empty") }
        return token
    }

    /// A token: TRADEPORT_TOKEN, `tokenFile`, or a login (after registering, with `register`).
    static func authenticate(_ client: BalancesClient, environment: [String: String], register: Bool, tokenFile: String?) async throws -> String {
        if !register {
            if let token = environment["TRADEPORT_TOKEN"], !token.isEmpty { return token }
            if let tokenFile { return try readToken(tokenFile) }
        }
        guard let username = environment["TRADEPORT_USERNAME"], !username.isEmpty,
            let password = environment["TRADEPORT_PASSWORD"], !password.isEmpty
        else {
            throw CommandFailure(
                message: register
                    ? "--register needs TRADEPORT_USERNAME and TRADEPORT_PASSWORD in the environment"
                    : "no credentials: set TRADEPORT_TOKEN, give --token-file, or set TRADEPORT_USERNAME and TRADEPORT_PASSWORD")
        }
        if register {
            let email = environment["TRADEPORT_EMAIL"] ?? ""
            if let token = try await client.register(username: username, password: password, email: email) { return token }
        }
        return try await client.logIn(username: username, password: password)
    }

    /// Prints, as JSON Lines, the records that would be sent: all of them, or, when a server and
    /// credentials are at hand, those the server lacks (reading only).
    private func printDryRun(_ loads: [PortfolioLoad], server: String?, environment: [String: String]) async throws {
        guard let server, !server.isEmpty else {
            try await printPlanned(loads, reader: nil)
            return
        }
        if register { throw CommandFailure(message: "--dry-run does not register; drop --register") }
        let client = BalancesClient(base: server, connections: concurrency, retry: RetryPolicy(attempts: requestAttempts))
        try await Self.using(client) {
            try await printPlanned(loads, reader: client.with(token: try await authenticate(client, environment: environment)))
        }
    }

    private func printPlanned(_ loads: [PortfolioLoad], reader: BalancesClient?) async throws {
        var out = FileHandleOutput()
        for planned in try await PlannedLoad.planned(loads, reader: reader) {
            let load = planned.load
            for r in planned.trades { out.line(portfolio: load.name, resource: "trades", record: r) }
            for r in planned.transactions { out.line(portfolio: load.name, resource: "transactions", record: r) }
            if !quiet {
                let note = planned.exists.map { $0 ? " (the server lacks these)" : " (the portfolio would be created)" } ?? ""
                printError(
                    "dry run: \(load.name): would send \(Wording.count(planned.trades.count, "trade")) and \(Wording.count(planned.transactions.count, "transaction"))\(note)"
                        + (load.tally.refused.isEmpty ? "" : "; \(load.tally.refused.count) cannot be mapped"))
                for r in load.tally.refused.prefix(10) { printError("  not sent: \(r)") }
                if load.tally.movements > 0 { printError("  not sent: \(Self.movementsNotSent(load.tally.movements))") }
            }
        }
        out.flush()
    }

    static func movementsNotSent(_ count: Int) -> String {
        "\(Wording.count(count, "movement")) of positions without money not sent (the server holds trades and transactions only)"
    }

    private func conversionSummary(_ report: ConversionReport) -> String {
        SummaryText.make(report, output: "-", written: true, strict: false)
    }

    private func summary(_ outcomes: [PortfolioOutcome], conversion: PushConversion?, server: String) -> String {
        var lines = ["pushed to \(server):"]
        let width = outcomes.map(\.name.count).max() ?? 0
        for o in outcomes {
            var line =
                "  \(o.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(o.sent) sent, \(o.alreadyPresent) already present, \(o.failed) failed"
            if o.heldTwice > 0 { line += " (\(o.heldTwice) held more than once by the server before this run)" }
            if let stopped = o.stopped { line += " — stopped: \(stopped)" }
            lines.append(line)
        }
        if outcomes.count > 1 {
            let sent = outcomes.reduce(0) { $0 + $1.sent }
            let present = outcomes.reduce(0) { $0 + $1.alreadyPresent }
            let failed = outcomes.reduce(0) { $0 + $1.failed }
            lines.append("  total: \(sent) sent, \(present) already present, \(failed) failed")
        }
        for name in conversion?.portfolios ?? [] {
            guard let tally = conversion?.tallies[name] else { continue }
            if tally.incomplete > 0 {
                lines.append("  \(name): \(Wording.count(tally.incomplete, "transaction")) not complete, not sent (the server takes complete ones only)")
            }
            if tally.movements > 0 { lines.append("  \(name): \(Self.movementsNotSent(tally.movements))") }
            for r in tally.refused.prefix(10) { lines.append("  \(name): not sent: \(r)") }
            if tally.refused.count > 10 { lines.append("  \(name): … and \(tally.refused.count - 10) more not sent") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Buffered JSON Lines on standard output.
private struct FileHandleOutput {
    private var buffer: [UInt8] = []

    mutating func line<R: OperationRecord>(portfolio: String, resource: String, record: R) {
        var w = JSONWriter()
        w.beginObject()
        w.key("portfolio")
        w.string(portfolio)
        w.key("resource")
        w.string(resource)
        w.key("record")
        record.write(to: &w, secondsAlways: true)
        w.endObject()
        buffer += w.bytes
        buffer.append(0x0A)
        if buffer.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A one-line progress display on standard error (a terminal).
actor TerminalProgress: PushProgress {
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var drawn = false

    func update(portfolio: String, settled: Int, of total: Int?) {
        let now = ContinuousClock.now
        guard settled == total || now - lastDraw > .milliseconds(100) else { return }
        lastDraw = now
        drawn = true
        FileHandle.standardError.write(Data("\r\u{1B}[K\(portfolio): \(settled)\(total.map { "/\($0)" } ?? "")".utf8))
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
