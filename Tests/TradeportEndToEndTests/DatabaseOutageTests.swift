import Foundation
import Testing
import TradeportBalances
import TradeportPush

#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server of the test's own, which it can stop and start again: `TRADEPORT_TEST_PG_BIN`
/// names the directory of its programs (`initdb`, `pg_ctl`), as `.ci/run` sets it. As root, the
/// programs run as the `postgres` user, which PostgreSQL requires.
final class PostgresCluster: @unchecked Sendable {
    static let bin: String? = ProcessInfo.processInfo.environment["TRADEPORT_TEST_PG_BIN"].flatMap {
        FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") ? $0 : nil
    }

    let directory: String
    let port: Int
    var url: String { "postgres://tradeport@127.0.0.1:\(port)/postgres?sslmode=disable" }

    init() throws {
        guard let bin = Self.bin else { throw Failure(message: "no TRADEPORT_TEST_PG_BIN") }
        directory = try CLI.temporaryDirectory() + "/pg"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        try run("'\(bin)/initdb' -D '\(directory)/data' -U tradeport -A trust > '\(directory)/initdb.log' 2>&1")
        try start()
    }

    struct Failure: Error { let message: String }

    /// A port nothing listens on now.
    static func freePort() throws -> Int {
        let r = try CLI.shell("python3", ["-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
        guard let port = Int(r.output.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw Failure(message: r.output) }
        return port
    }

    /// Runs a shell command as the user PostgreSQL runs as, through Python's `subprocess` with
    /// every descriptor but the standard three closed: the server it starts outlives the command,
    /// and must not hold open a pipe of this process (another test's output would never end).
    private func run(_ command: String) throws {
        if getuid() == 0 {
            _ = try CLI.shell("chown", ["-R", "postgres", directory])
            _ = try CLI.shell("chmod", ["755", (directory as NSString).deletingLastPathComponent])
        }
        let argv = getuid() == 0 ? ["su", "postgres", "-s", "/bin/sh", "-c", command] : ["sh", "-c", command]
        let script =
            "import subprocess, sys; r = subprocess.run(sys.argv[1:], close_fds=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT); sys.exit(r.returncode)"
        let r = try CLI.shell("python3", ["-c", script] + argv)
        guard r.status == 0 else { throw Failure(message: "\(command): \(r.output)") }
    }

    func start() throws {
        try run(
            "'\(Self.bin!)/pg_ctl' -D '\(directory)/data' -l '\(directory)/server.log' -w -o \"-c listen_addresses=127.0.0.1 -p \(port) -c unix_socket_directories='\(directory)' -c fsync=off\" start > /dev/null 2>&1"
        )
    }

    /// Stops it at once, as a crash would (`-m immediate`): connections are dropped, nothing waits.
    func stop() throws {
        try run("'\(Self.bin!)/pg_ctl' -D '\(directory)/data' -m immediate -w stop > /dev/null 2>&1")
    }

    deinit { try? stop() }
}

/// `serve` over a PostgreSQL server that goes away mid-push and comes back: no request hangs,
/// every operation is stored once, and a stop during the outage ends in bounded time.
@Suite("serve when its database goes away", .enabled(if: PostgresCluster.bin != nil, "TRADEPORT_TEST_PG_BIN is not set (.ci/run sets it)"))
struct DatabaseOutageTests {
    /// `count` DSX trades with distinct venue ids.
    static func trades(_ count: Int) throws -> String {
        var text = ""
        for i in 0..<count {
            text +=
                "2021-03-02 14:\(String(format: "%02d", i / 60 % 60)):\(String(format: "%02d", i % 60));eursusd;Buy;\(i + 1);EURS;1,2;USD;\(i + 1),2;USD;0,5;EURS;Main;\(70_000_000 + i);\(90_000_000 + i)\n"
        }
        let path = try CLI.temporaryDirectory() + "/trades.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A call's status, or nil when it did not answer in `seconds`.
    static func status(_ server: ServerProcess, _ path: String, token: String?, seconds: Int = 5) -> (status: Int, retryAfter: String?)? {
        let r = try? CLI.shell(
            "curl", ["-s", "-o", "/dev/null", "-D", "-", "--max-time", "\(seconds)", "-H", "Authorization: Token_\(token ?? "")", server.base + path])
        guard let r, r.status == 0 else { return nil }
        let lines = r.output.split(separator: "\r\n")
        guard let first = lines.first, let code = Int(first.split(separator: " ").dropFirst().first ?? "") else { return nil }
        let retry = lines.first { $0.lowercased().hasPrefix("retry-after:") }.map { $0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces) }
        return (code, retry)
    }

    @Test func aPushCompletesAcrossAnOutageAndNothingIsStoredTwice() async throws {
        let cluster = try PostgresCluster()
        let server = try ServerProcess(backend: .postgres, database: cluster.url)
        defer { server.kill() }
        let token = try await server.register("alice")
        #expect(Self.status(server, "/ready", token: nil)?.status == 200)
        // A start says nothing false: no warning of a lease before the client's run loop.
        #expect(!server.log.contains("hasn't been called yet"), "\(server.log)")
        let count = 20_000
        let input = try Self.trades(count)

        // The push runs while the database is killed at 0.5 s and started again at 2.5 s.
        let push = Process()
        push.executableURL = URL(fileURLWithPath: CLI.executable)
        push.arguments = ["push", "--server", server.base, "--portfolio", "main", "--batch-size", "500", input]
        var environment = ProcessInfo.processInfo.environment
        environment["TRADEPORT_TOKEN"] = token
        push.environment = environment
        let log = try CLI.temporaryDirectory() + "/push.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        push.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        push.standardOutput = FileHandle.nullDevice
        let started = Date()
        try push.run()
        try await Task.sleep(for: .milliseconds(500))
        try cluster.stop()
        // While it is down: answered 503 with Retry-After within a few seconds, never left hanging.
        try await Task.sleep(for: .milliseconds(1500))
        let down = Self.status(server, "/portfolios", token: token)
        #expect(down?.status == 503 && down?.retryAfter == "2", "\(String(describing: down))")
        #expect(Self.status(server, "/ready", token: nil)?.status == 503)
        try cluster.start()
        while push.isRunning && Date().timeIntervalSince(started) < 180 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!push.isRunning, "the push did not end within 180 s")
        push.terminate()
        push.waitUntilExit()
        let pushed = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(push.terminationStatus == 0, "\(pushed)")
        #expect(Self.status(server, "/ready", token: nil)?.status == 200)

        // Each operation stored exactly once: the database's count, and a re-run that sends nothing.
        let stored = try CLI.shell("psql", [cluster.url, "-tAc", "SELECT count(*), count(DISTINCT value_key) FROM trades"])
        #expect(stored.output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(count)|\(count)", "\(stored.output)")
        let again = try CLI.run(["push", "--server", server.base, "--portfolio", "main", input], environment: ["TRADEPORT_TOKEN": token])
        #expect(again.status == 0 && again.stderr.contains("0 sent, \(count) already present"), "\(again.stderr)")
    }

    @Test func aStopDuringAnOutageEndsInBoundedTime() async throws {
        let cluster = try PostgresCluster()
        let server = try ServerProcess(backend: .postgres, database: cluster.url)
        defer { server.kill() }
        let token = try await server.register("bob")
        try cluster.stop()
        // Requests in flight while it stops.
        let callers = (0..<4).map { _ in Task.detached { Self.status(server, "/portfolios", token: token, seconds: 30) } }
        try await Task.sleep(for: .milliseconds(300))
        let stopping = Date()
        server.stop()
        let took = Date().timeIntervalSince(stopping)
        #expect(took < 15, "serve took \(took) s to stop")
        for caller in callers {
            // Answered (503) or cut off by the stop, not left waiting for the database.
            if let answer = await caller.value { #expect(answer.status == 503) }
        }
    }
}
