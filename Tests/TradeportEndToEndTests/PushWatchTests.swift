import Crypto
import Foundation
import Testing
import TradeportBalances
import TradeportPush

#if canImport(Glibc)
import Glibc
#endif

/// `tradeport push --watch DIR` against a real `serve` on loopback, as a user runs it: files
/// dropped into the folder (whole, by a rename, as a finished download appears, or written slowly
/// in place), the watcher killed and started again, and what ends up on the server, in
/// `DIR/.tradeport/state.jsonl` and in the log.
@Suite("push --watch, end to end", .serialized)
struct PushWatchTests {
    /// The issue's scenario. Beta's file (two bad rows) is loaded first; then the two overlapping
    /// Alpha exports are dropped and the watcher is killed while it pushes them; the restarted
    /// watcher takes them again, then a Gamma file written slowly in pieces. Every operation is
    /// stored once, each file has exactly one record, the bad rows are reported.
    @Test func filesDroppedIntoAWatchedFolderAreStoredOnceThroughAKillAndARestart() async throws {
        let dir = try CLI.temporaryDirectory()
        let watched = dir + "/in"
        try FileManager.default.createDirectory(atPath: watched, withIntermediateDirectories: true)
        let server = try ServerProcess(directory: dir)
        defer { server.kill() }
        let client = server.client().with(token: try await server.register("alice"))
        // The first watcher talks through a proxy that stops forwarding at the 8th post of trades.
        // With batches of 20, Beta's 38 good rows take two posts and each Alpha file 15: the
        // freeze lands inside the first Alpha file whatever the machine's speed, so the kill
        // below is mid-way for sure (waiting for a count instead, a fast machine is done first).
        let proxy = try FreezingProxy(for: server, freezingAtPost: 8, to: "trades")
        defer { proxy.stop() }
        let options = [
            "--watch", watched, "--interval", "0.2", "--settle", "1", "--log-format", "json", "--batch-size", "20", "--concurrency", "1"
        ]

        // Two exports of one account that overlap: 500 distinct trades, 100 of them in both.
        let alpha = WatchedFolder.rows(500)
        let alphaFiles = [
            "Alpha/export-1.csv": WatchedFolder.csv(Array(alpha[0..<300])),
            "Alpha/export-2.csv": WatchedFolder.csv(Array(alpha[200..<500]))
        ]
        // Row 6 has a quantity that is no number, row 13 a side that is neither Buy nor Sell.
        var beta = WatchedFolder.rows(40, firstId: 71_000_000)
        beta[5] = WatchedFolder.setting(field: 3, of: beta[5], to: "abc")
        beta[12] = WatchedFolder.setting(field: 2, of: beta[12], to: "Hold")
        let betaFile = WatchedFolder.csv(beta)
        let gammaFile = WatchedFolder.csv(WatchedFolder.rows(60, firstId: 72_000_000))
        let contents = alphaFiles.merging(["Beta/bad.csv": betaFile, "Gamma/slow.csv": gammaFile]) { $1 }
        let logs = [dir + "/watch-1.log", dir + "/watch-2.log"]

        let first = try WatchedFolder.start(options, base: proxy.base, log: logs[0])
        defer { WatchedFolder.end(first) }
        try WatchedFolder.drop(betaFile, at: "Beta/bad.csv", in: watched)
        let betaRecorded = try await WatchedFolder.waitUntil(30) { !WatchedFolder.records(in: watched).isEmpty }
        try #require(betaRecorded, "no record: \(WatchedFolder.log(logs[0]))")
        for (name, text) in alphaFiles.sorted(by: { $0.key < $1.key }) {
            try WatchedFolder.drop(text, at: name, in: watched)
        }
        let firstWave: Set = ["Alpha/export-1.csv", "Alpha/export-2.csv", "Beta/bad.csv"]
        _ = try await WatchedFolder.waitUntil(30) {
            proxy.frozen || firstWave.isSubset(of: WatchedFolder.records(in: watched).map(\.file))
        }
        #expect(proxy.frozen, "the first watcher was done before the kill: nothing was cut mid-way\n\(WatchedFolder.log(logs[0]))")
        Glibc.kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        proxy.stop()
        let atKill = WatchedFolder.records(in: watched)
        let storedAtKill = try await WatchedFolder.settledCount(in: "Alpha", client)
        if proxy.frozen {
            // Part of an Alpha file is on the server, and no Alpha file has a record.
            #expect(storedAtKill > 0 && storedAtKill < 500, "\(storedAtKill) stored at the kill")
            #expect(atKill.map(\.file) == ["Beta/bad.csv"], "\(atKill.map(\.json))")
        }

        // The restart, straight to the server (the proxy is gone): it takes the Alpha files again.
        let second = try WatchedFolder.start(options, base: server.base, log: logs[1])
        defer { WatchedFolder.end(second) }
        let alphaRecorded = try await WatchedFolder.waitUntil(60) {
            firstWave.isSubset(of: WatchedFolder.records(in: watched).map(\.file))
        }
        try #require(alphaRecorded, "\(WatchedFolder.log(logs[1]))")
        // Written while the watcher is idle and polling, paused for less than --settle: a watcher
        // that read it before it was whole would record it twice (and store cut rows).
        try await WatchedFolder.writeSlowly(gammaFile, at: "Gamma/slow.csv", in: watched)
        let every = firstWave.union(["Gamma/slow.csv"])
        let gammaRecorded = try await WatchedFolder.waitUntil(30) { every.isSubset(of: WatchedFolder.records(in: watched).map(\.file)) }
        try #require(gammaRecorded, "\(WatchedFolder.log(logs[1]))")
        // Longer than --settle and a few polls: a file taken again would show by then.
        try await Task.sleep(for: .milliseconds(1500))
        second.terminate()
        let status = try await WatchedFolder.exitStatus(second, within: 15)
        #expect(status == 0, "\(WatchedFolder.log(logs[1]))")

        // On the server: every operation exactly once, the bad rows nowhere.
        let alphaHeld = try await WatchedFolder.trades(in: "Alpha", client)
        #expect(alphaHeld.count == 500)
        #expect(Set(alphaHeld.compactMap(\.tradeValueId)) == WatchedFolder.ids(0..<500, firstId: 70_000_000))
        let betaHeld = try await WatchedFolder.trades(in: "Beta", client)
        #expect(betaHeld.count == 38)
        #expect(Set(betaHeld.compactMap(\.tradeValueId)) == WatchedFolder.ids(0..<40, firstId: 71_000_000).subtracting(["71000005", "71000012"]))
        let gammaHeld = try await WatchedFolder.trades(in: "Gamma", client)
        #expect(gammaHeld.count == 60)
        #expect(Set(gammaHeld.compactMap(\.tradeValueId)) == WatchedFolder.ids(0..<60, firstId: 72_000_000))
        await client.shutdown()

        // The state: one record per file (the one cut by the kill recorded once, by the restart),
        // each naming the file's whole content; what the first watcher recorded kept as it was.
        let state = WatchedFolder.jsonLines(file: WatchedFolder.statePath(watched))
        #expect(state.unreadable == 0)
        let records = state.objects.map(WatchedFolder.Record.init(json:))
        #expect(records.map(\.file).sorted() == every.sorted(), "\(records.map(\.json))")
        #expect(Set(records.map(\.key)).count == records.count)
        #expect(records.prefix(atKill.count).map(\.key) == atKill.map(\.key))
        for r in records {
            let text = try #require(contents[r.file], "\(r.json)")
            #expect(r.sha256 == WatchedFolder.digest(text) && r.size == text.utf8.count, "\(r.json)")
            #expect(r.portfolio == String(r.file.prefix { $0 != "/" }) && r.format == "dsx-trades", "\(r.json)")
            #expect(r.at.map(WatchedFolder.isRFC3339) == true, "\(r.json)")
            #expect(r.errors.isEmpty, "\(r.json)")
            #expect((r.sent ?? -1) + (r.present ?? -1) == r.operations, "\(r.json)")
        }
        for r in records where r.file != "Beta/bad.csv" {
            #expect(r.status == "loaded" && r.rejected == 0 && r.rejects.isEmpty, "\(r.json)")
            #expect(r.operations == (r.file == "Gamma/slow.csv" ? 60 : 300), "\(r.json)")
        }
        let gamma = try #require(records.first { $0.file == "Gamma/slow.csv" })
        #expect(gamma.sent == 60 && gamma.present == 0, "\(gamma.json)")
        // The restart sent exactly what the killed watcher had not stored: the rest was present.
        let resent = records.dropFirst(atKill.count).filter { $0.file.hasPrefix("Alpha/") }.reduce(0) { $0 + ($1.sent ?? 0) }
        #expect(resent == 500 - storedAtKill, "\(records.map(\.json))")

        // The bad file: loaded but for its two rows, which are named with their text.
        let bad = try #require(records.first { $0.file == "Beta/bad.csv" })
        #expect(bad.status == "loaded-with-rejects", "\(bad.json)")
        #expect(bad.rejected == 2 && bad.operations == 38 && bad.sent == 38 && bad.present == 0, "\(bad.json)")
        let rejects = bad.rejects.sorted { ($0["row"] as? Int ?? 0) < ($1["row"] as? Int ?? 0) }
        #expect(rejects.map { $0["row"] as? Int } == [6, 13], "\(bad.json)")
        for (reject, value) in zip(rejects, ["abc", "Hold"]) {
            let row = reject["row"] as? Int ?? 0
            let text = reject["text"] as? String ?? ""
            let message = reject["message"] as? String ?? ""
            #expect(text.contains(value) && reject["expected"] is String, "\(reject)")
            #expect(message.contains(value) && message.contains("bad.csv:\(row)"), "\(reject)")
        }

        // The log: one JSON line per file taken, with its outcome.
        let outcomes = logs.flatMap { WatchedFolder.outcomes(in: WatchedFolder.jsonLines(file: $0).objects, watched: watched) }
        #expect(outcomes.map { "\($0.file) \($0.status)" }.sorted() == records.map { "\($0.file) \($0.status)" }.sorted(), "\(logs.map(WatchedFolder.log))")
        for line in outcomes {
            #expect(["level", "message", "portfolio", "sent", "present", "rejected"].allSatisfy { line.json[$0] != nil }, "\(line.json)")
        }
        #expect(outcomes.first { $0.file == "Beta/bad.csv" }?.rejected == 2)
    }

    /// What is recorded is not taken again: the state file, not the server's answers, says what
    /// was done, so a new run over a folder it has all seen sends and records nothing.
    @Test func aRunOverRecordedFilesTakesNothingAgain() async throws {
        let (server, watched, client) = try await WatchedFolder.loadedAlphaFolder()
        defer { server.kill() }
        let before = try Data(contentsOf: URL(fileURLWithPath: WatchedFolder.statePath(watched)))
        let again = try WatchedFolder.once(watched, server: server)
        #expect(again.status == 0, "\(again.stderr)")
        let after = try Data(contentsOf: URL(fileURLWithPath: WatchedFolder.statePath(watched)))
        #expect(after == before, "\(again.stderr)")
        let held = try await WatchedFolder.trades(in: "Alpha", client)
        #expect(held.count == 500)
        await client.shutdown()
    }

    /// An export saved again with more rows is a new content: it is taken again, and push sends
    /// only the rows the portfolio lacks.
    @Test func aChangedFileIsTakenAgainAndSendsOnlyItsNewRows() async throws {
        let (server, watched, client) = try await WatchedFolder.loadedAlphaFolder()
        defer { server.kill() }
        let before = WatchedFolder.records(in: watched)
        let path = watched + "/Alpha/export-1.csv"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        _ = try handle.seekToEnd()
        try handle.write(contentsOf: Data(WatchedFolder.csv(Array(WatchedFolder.rows(550)[500..<550])).utf8))
        try handle.close()
        let changed = try String(contentsOfFile: path, encoding: .utf8)

        let r = try WatchedFolder.once(watched, server: server)
        #expect(r.status == 0, "\(r.stderr)")
        let after = WatchedFolder.records(in: watched)
        #expect(after.count == 3 && after.prefix(2).map(\.key) == before.map(\.key), "\(after.map(\.json))")
        let retaken = try #require(after.last)
        let old = before.first { $0.file == "Alpha/export-1.csv" }?.sha256
        #expect(retaken.file == "Alpha/export-1.csv" && retaken.sha256 == WatchedFolder.digest(changed) && retaken.sha256 != old, "\(retaken.json)")
        #expect(retaken.status == "loaded" && retaken.size == changed.utf8.count, "\(retaken.json)")
        #expect(retaken.operations == 350 && retaken.sent == 50 && retaken.present == 300, "\(retaken.json)")
        let held = try await WatchedFolder.trades(in: "Alpha", client)
        #expect(held.count == 550)
        #expect(Set(held.compactMap(\.tradeValueId)) == WatchedFolder.ids(0..<550, firstId: 70_000_000))
        await client.shutdown()
    }

    /// A server that cannot be reached is an outage to wait out, not a file's failure: nothing is
    /// recorded while it lasts (a stop then ends the watcher cleanly), and once a server listens
    /// there the file is loaded by the watcher that was waiting.
    @Test func aServerThatIsDownIsWaitedForAndNotRecordedAsFailed() async throws {
        let dir = try CLI.temporaryDirectory()
        let watched = dir + "/in"
        // alice's account is made beforehand, in the database the server later comes up on.
        let earlier = try ServerProcess(directory: dir)
        _ = try await earlier.register("alice")
        earlier.stop()
        let port = try WatchedFolder.freePort()
        let base = earlier.base.replacingOccurrences(of: "127.0.0.1:\(earlier.port)", with: "127.0.0.1:\(port)")
        let options = ["--watch", watched, "--portfolio", "Waiting", "--interval", "0.1", "--settle", "0.3", "--log-format", "json"]
        try WatchedFolder.drop(WatchedFolder.csv(WatchedFolder.rows(20, firstId: 75_000_000)), at: "trades.csv", in: watched)

        let waiting = try WatchedFolder.start(options, base: base, log: dir + "/waiting.log")
        defer { WatchedFolder.end(waiting) }
        let started = Date()
        let warned = try await WatchedFolder.waitUntil(10) {
            WatchedFolder.jsonLines(file: dir + "/waiting.log").objects.contains(where: WatchedFolder.tellsOfRetrying)
        }
        #expect(warned, "\(WatchedFolder.log(dir + "/waiting.log"))")
        let rest = 3 - Date().timeIntervalSince(started)
        if rest > 0 { try await Task.sleep(for: .milliseconds(Int(rest * 1000))) }
        #expect(waiting.isRunning && WatchedFolder.records(in: watched).isEmpty, "\(WatchedFolder.log(dir + "/waiting.log"))")
        waiting.terminate()
        let stopped = try await WatchedFolder.exitStatus(waiting, within: 10)
        #expect(stopped == 0, "\(WatchedFolder.log(dir + "/waiting.log"))")
        #expect(WatchedFolder.records(in: watched).isEmpty)

        // Again, and the server comes up on that port while the watcher waits.
        let patient = try WatchedFolder.start(options, base: base, log: dir + "/patient.log")
        defer { WatchedFolder.end(patient) }
        try await Task.sleep(for: .milliseconds(1500))
        #expect(WatchedFolder.records(in: watched).isEmpty)
        let server = try ServerProcess(directory: dir, arguments: ["--port", "\(port)"])
        defer { server.kill() }
        #expect(server.port == port)
        let loaded = try await WatchedFolder.waitUntil(30) { !WatchedFolder.records(in: watched).isEmpty }
        try #require(loaded, "\(WatchedFolder.log(dir + "/patient.log"))")
        let records = WatchedFolder.records(in: watched)
        #expect(records.count == 1, "\(records.map(\.json))")
        let record = try #require(records.first)
        #expect(record.file == "trades.csv" && record.status == "loaded" && record.portfolio == "Waiting", "\(record.json)")
        #expect(record.sent == 20 && record.present == 0, "\(record.json)")
        patient.terminate()
        let status = try await WatchedFolder.exitStatus(patient, within: 10)
        #expect(status == 0, "\(WatchedFolder.log(dir + "/patient.log"))")
        let client = try await server.logIn("alice")
        let held = try await WatchedFolder.trades(in: "Waiting", client)
        #expect(held.count == 20)
        await client.shutdown()
    }

    /// A file no format reads is that file's failure, recorded with why, not the watcher's: the
    /// other files still load. Files still being written or not the user's (by their names) are
    /// never taken, though their rows are good.
    @Test func anUnrecognisedFileIsRecordedAsFailedAndTheOthersStillLoad() async throws {
        let dir = try CLI.temporaryDirectory()
        let watched = dir + "/in"
        let server = try ServerProcess(directory: dir)
        defer { server.kill() }
        let client = server.client().with(token: try await server.register("alice"))
        try WatchedFolder.drop(
            "Call the broker on Monday about the dividend.\nThe February statement is still missing.\n", at: "notes.txt", in: watched)
        try WatchedFolder.drop(WatchedFolder.csv(WatchedFolder.rows(10, firstId: 73_000_000)), at: "trades.csv", in: watched)
        let ignored = WatchedFolder.csv(WatchedFolder.rows(5, firstId: 74_000_000))
        for name in [
            ".hidden.csv", "~$trades.csv", "trades.csv.part", "trades.tmp", "trades.csv.crdownload", "trades.csv.download",
            "trades.csv.partial", "trades.csv~"
        ] {
            try WatchedFolder.drop(ignored, at: name, in: watched)
        }

        let r = try WatchedFolder.once(watched, server: server)
        #expect(r.status == 1, "\(r.stderr)")
        let records = WatchedFolder.records(in: watched)
        #expect(records.map(\.file).sorted() == ["notes.txt", "trades.csv"], "\(records.map(\.json))")
        let notes = try #require(records.first { $0.file == "notes.txt" })
        #expect(notes.status == "failed" && (notes.sent ?? 0) == 0, "\(notes.json)")
        #expect(notes.errors.joined(separator: "\n").contains("notes.txt"), "\(notes.json)")
        let trades = try #require(records.first { $0.file == "trades.csv" })
        #expect(trades.status == "loaded" && trades.portfolio == "main" && trades.sent == 10, "\(trades.json)")
        let logged = WatchedFolder.outcomes(in: WatchedFolder.jsonLines(Data(r.stderr.utf8)).objects, watched: watched)
        #expect(logged.contains { $0.file == "notes.txt" && $0.status == "failed" }, "\(r.stderr)")
        let held = try await WatchedFolder.trades(in: "main", client)
        #expect(held.count == 10)
        #expect(Set(held.compactMap(\.tradeValueId)) == WatchedFolder.ids(0..<10, firstId: 73_000_000))
        await client.shutdown()
    }
}

/// What the tests of `push --watch` share: the watcher run as a user runs it, files put in the
/// folder, and the state file and log read back.
private enum WatchedFolder {
    struct Failure: Error { let message: String }

    static let credentials = ["TRADEPORT_USERNAME": "alice", "TRADEPORT_PASSWORD": "secret-password"]

    /// One line of `.tradeport/state.jsonl` (or an outcome line of the log).
    struct Record {
        let json: [String: Any]
        var file: String { json["file"] as? String ?? "" }
        var sha256: String { json["sha256"] as? String ?? "" }
        var status: String { json["status"] as? String ?? "" }
        var portfolio: String? { json["portfolio"] as? String }
        var format: String? { json["format"] as? String }
        var at: String? { json["at"] as? String }
        var size: Int? { json["size"] as? Int }
        var operations: Int? { json["operations"] as? Int }
        var sent: Int? { json["sent"] as? Int }
        var present: Int? { json["present"] as? Int }
        var rejected: Int? { json["rejected"] as? Int }
        var errors: [String] { json["errors"] as? [String] ?? [] }
        var rejects: [[String: Any]] { json["rejects"] as? [[String: Any]] ?? [] }
        /// What may have one record only: the file and its content.
        var key: String { file + " " + sha256 }
    }

    static func statePath(_ watched: String) -> String { watched + "/.tradeport/state.jsonl" }

    /// The JSON objects of JSON Lines, and how many lines are not one (while the writer runs,
    /// the last line may be half written).
    static func jsonLines(_ data: Data) -> (objects: [[String: Any]], unreadable: Int) {
        var objects: [[String: Any]] = []
        var unreadable = 0
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] {
                objects.append(object)
            } else {
                unreadable += 1
            }
        }
        return (objects, unreadable)
    }

    /// None while there is no file.
    static func jsonLines(file path: String) -> (objects: [[String: Any]], unreadable: Int) {
        jsonLines(FileManager.default.contents(atPath: path) ?? Data())
    }

    /// The records of the watched folder's state file so far.
    static func records(in watched: String) -> [Record] {
        jsonLines(file: statePath(watched)).objects.map(Record.init(json:))
    }

    /// The log lines that give a file's outcome, their file named relative to the folder.
    static func outcomes(in lines: [[String: Any]], watched: String) -> [Record] {
        lines.compactMap { line in
            guard let status = line["status"] as? String, ["loaded", "loaded-with-rejects", "failed"].contains(status) else { return nil }
            var object = line
            if let file = line["file"] as? String, file.hasPrefix(watched + "/") { object["file"] = String(file.dropFirst(watched.count + 1)) }
            return Record(json: object)
        }
    }

    /// Whether a log line tells of a server not reached: a warning or an error, or a retry.
    static func tellsOfRetrying(_ line: [String: Any]) -> Bool {
        let level = (line["level"] as? String ?? "").lowercased()
        let message = (line["message"] as? String ?? "").lowercased()
        return ["warning", "warn", "error"].contains(level) || message.contains("retr")
    }

    static func log(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// Starts `tradeport push --server base arguments…` with alice's credentials in its
    /// environment and standard error to `log`; `end(_:)` it in a `defer`.
    static func start(_ arguments: [String], base: String, log: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = ["push", "--server", base] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(credentials) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: CLI.repositoryRoot)
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardError = handle
        try process.run()
        try handle.close()
        return process
    }

    /// Kills `process` if it still runs: no watcher outlives its test.
    static func end(_ process: Process) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `process`'s exit status once it has ended (128 + the signal when a signal ended it), or
    /// `nil` when it still runs after `seconds`.
    static func exitStatus(_ process: Process, within seconds: Double) async throws -> Int32? {
        guard try await waitUntil(seconds, { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// `push --watch watched --once` to `server`, quick to settle; a run that had to be stopped by
    /// the timeout is an issue (stopped by SIGTERM, it would exit 0 as if done).
    static func once(_ watched: String, server: ServerProcess) throws -> CLI.Result {
        let started = Date()
        let r = try CLI.run(
            ["push", "--server", server.base, "--watch", watched, "--once", "--interval", "0.1", "--settle", "0.3", "--log-format", "json"],
            environment: credentials, timeout: 30)
        #expect(Date().timeIntervalSince(started) < 29, "--once did not end by itself: \(r.stderr)")
        return r
    }

    /// Polls `condition` every 100 ms until it holds or `seconds` have passed; whether it held.
    static func waitUntil(_ seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    /// The trades `portfolio` holds (none when there is no such portfolio).
    static func trades(in portfolio: String, _ client: BalancesClient) async throws -> [TradeRecord] {
        guard let p = try await client.portfolio(named: portfolio) else { return [] }
        return try await client.records(TradeRecord.self, portfolio: p.id)
    }

    /// How many trades `portfolio` holds once that has not changed for 300 ms (at most 20 s).
    static func settledCount(in portfolio: String, _ client: BalancesClient) async throws -> Int {
        var last = try await trades(in: portfolio, client).count
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            try await Task.sleep(for: .milliseconds(300))
            let now = try await trades(in: portfolio, client).count
            if now == last { return now }
            last = now
        }
        return last
    }

    /// A server with alice, and a watched folder whose two overlapping Alpha exports (500 trades)
    /// a `--once` run has loaded.
    static func loadedAlphaFolder() async throws -> (server: ServerProcess, watched: String, client: BalancesClient) {
        let dir = try CLI.temporaryDirectory()
        let watched = dir + "/in"
        let server = try ServerProcess(directory: dir)
        let client = server.client().with(token: try await server.register("alice"))
        let alpha = rows(500)
        try drop(csv(Array(alpha[0..<300])), at: "Alpha/export-1.csv", in: watched)
        try drop(csv(Array(alpha[200..<500])), at: "Alpha/export-2.csv", in: watched)
        let r = try once(watched, server: server)
        #expect(r.status == 0, "\(r.stderr)")
        let recorded = records(in: watched)
        #expect(recorded.map(\.file).sorted() == ["Alpha/export-1.csv", "Alpha/export-2.csv"], "\(recorded.map(\.json))")
        #expect(recorded.allSatisfy { $0.status == "loaded" }, "\(recorded.map(\.json))")
        #expect(recorded.reduce(0) { $0 + ($1.sent ?? 0) } == 500, "\(recorded.map(\.json))")
        return (server, watched, client)
    }

    /// The rows of `syntheticTrades(count, firstId:)`.
    static func rows(_ count: Int, firstId: Int = 70_000_000) -> [String] {
        syntheticTrades(count, firstId: firstId).split(separator: "\n").map(String.init)
    }

    /// A DSX export of `rows` (no header), ending in a newline.
    static func csv(_ rows: [String]) -> String { rows.joined(separator: "\n") + "\n" }

    /// `row` with its field at `index` (from 0) replaced.
    static func setting(field index: Int, of row: String, to value: String) -> String {
        var fields = row.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        fields[index] = value
        return fields.joined(separator: ";")
    }

    /// The value ids of synthetic rows `range`.
    static func ids(_ range: Range<Int>, firstId: Int) -> Set<String> { Set(range.map { String(firstId + $0) }) }

    static func digest(_ text: String) -> String { SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined() }

    /// Puts `text` at `name` in the watched folder whole: written beside the folder, then moved
    /// in, as a finished download appears.
    static func drop(_ text: String, at name: String, in watched: String) throws {
        let staging = URL(fileURLWithPath: watched).deletingLastPathComponent().appendingPathComponent("staging").path
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let draft = staging + "/" + UUID().uuidString
        try Data(text.utf8).write(to: URL(fileURLWithPath: draft))
        let target = watched + "/" + name
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: target).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: draft, toPath: target)
    }

    /// Writes `text` at `name` in the watched folder in place, in three pieces cut in the middle
    /// of a line, 0.4 s apart.
    static func writeSlowly(_ text: String, at name: String, in watched: String) async throws {
        let path = watched + "/" + name
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        let bytes = Array(text.utf8)
        let newline = UInt8(ascii: "\n")
        var cuts = [bytes.count / 3, bytes.count * 2 / 3]
        for i in cuts.indices {
            while bytes[cuts[i] - 1] == newline || bytes[cuts[i]] == newline { cuts[i] += 1 }
        }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        var start = 0
        for (i, end) in (cuts + [bytes.count]).enumerated() {
            if i > 0 { try await Task.sleep(for: .milliseconds(400)) }
            try handle.write(contentsOf: Data(bytes[start..<end]))
            start = end
        }
        try handle.close()
    }

    static func isRFC3339(_ text: String) -> Bool {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return ISO8601DateFormatter().date(from: text) != nil || fractional.date(from: text) != nil
    }

    /// A loopback port nothing listens on now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(message: "socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure(message: "bind: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A writer that pauses longer than the settle time while it holds the file open is waited for:
/// the file is read only once it is closed.
@Suite("push --watch: a file held open for writing")
struct PushWatchOpenFileTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fdinfo"), "no /proc to see open files by"))
    func aFileHeldOpenForWritingIsNotReadHalfWay() async throws {
        let dir = try CLI.temporaryDirectory()
        let folder = dir + "/in"
        try FileManager.default.createDirectory(atPath: folder + "/Slow", withIntermediateDirectories: true)
        let server = try ServerProcess(directory: dir)
        defer { server.kill() }
        _ = try await server.register("alice")
        let rows = syntheticTrades(40, firstId: 91_000_000)
        let lines = rows.split(separator: "\n", omittingEmptySubsequences: false)
        let path = folder + "/Slow/trades.csv"
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data((lines[..<15].joined(separator: "\n") + "\n").utf8))
        let log = dir + "/watch.log"
        let watcher = try Push.start(["--watch", folder, "--interval", "0.1", "--settle", "0.3"], server: server, stderr: log)
        defer { if watcher.isRunning { kill(watcher.processIdentifier, SIGKILL) } }
        // Ten times the settle time with the first 15 rows written and the file still open.
        try await Task.sleep(for: .seconds(3))
        let state = folder + "/.tradeport/state.jsonl"
        #expect(((try? String(contentsOfFile: state, encoding: .utf8)) ?? "").isEmpty, "the file was taken while open for writing")
        try handle.write(contentsOf: Data(lines[15...].joined(separator: "\n").utf8))
        try handle.close()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, ((try? String(contentsOfFile: state, encoding: .utf8)) ?? "").isEmpty { try await Task.sleep(for: .milliseconds(100)) }
        kill(watcher.processIdentifier, SIGTERM)
        watcher.waitUntilExit()
        #expect(watcher.terminationStatus == 0)
        let records = ((try? String(contentsOfFile: state, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(records.count == 1, "\(records)")
        #expect(records.first?.contains(#""status":"loaded""#) == true && records.first?.contains(#""sent":40"#) == true, "\(records)")
    }
}

/// One folder, one watcher: a second is refused (two would push the same file at once), and a
/// state file whose last line a crash cut short goes on, the cut line ended.
@Suite("push --watch: the folder's lock and state")
struct PushWatchLockTests {
    @Test func aSecondWatcherIsRefusedAndACutLineIsEnded() async throws {
        let dir = try CLI.temporaryDirectory()
        let folder = dir + "/in"
        try FileManager.default.createDirectory(atPath: folder + "/.tradeport", withIntermediateDirectories: true)
        try #"{"file":"gone.csv","sha256":"ab"#.write(toFile: folder + "/.tradeport/state.jsonl", atomically: true, encoding: .utf8)
        try syntheticTrades(5, firstId: 93_000_000).write(toFile: folder + "/trades.csv", atomically: true, encoding: .utf8)
        let server = try ServerProcess(directory: dir)
        defer { server.kill() }
        _ = try await server.register("alice")
        let first = try Push.start(["--watch", folder, "--interval", "0.1", "--settle", "0"], server: server, stderr: dir + "/first.log")
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        let state = folder + "/.tradeport/state.jsonl"
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !((try? String(contentsOfFile: state, encoding: .utf8)) ?? "").contains("trades.csv") {
            try await Task.sleep(for: .milliseconds(100))
        }
        let second = try Push.run(["--watch", folder, "--once", "--settle", "0"], server: server)
        #expect(second.status == 2 && second.stderr.contains("is watched by another tradeport already"), "\(second.stderr)")
        kill(first.processIdentifier, SIGTERM)
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        let lines = try String(contentsOfFile: state, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines[0] == #"{"file":"gone.csv","sha256":"ab"#, "\(lines)")
        #expect(lines.last?.hasPrefix(#"{"file":"trades.csv""#) == true, "\(lines)")
        // Once the first is gone, the folder is free again.
        let third = try Push.run(["--watch", folder, "--once", "--settle", "0"], server: server)
        #expect(third.status == 0, "\(third.stderr)")
    }
}
