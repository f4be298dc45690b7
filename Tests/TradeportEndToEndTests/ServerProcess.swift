import Foundation
import TradeportPush

#if canImport(Glibc)
import Glibc
#endif

/// What a test server keeps its data in. PostgreSQL is tested when `TRADEPORT_TEST_POSTGRES`
/// names a server (`postgres://USER:PASSWORD@127.0.0.1:5432/postgres?sslmode=disable`, as
/// `.ci/run` starts one); each server gets a database of its own there.
enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres

    var description: String { rawValue }

    static let postgresURL: String? = ProcessInfo.processInfo.environment["TRADEPORT_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

    /// The backends this machine can test: SQLite always, PostgreSQL when one is named.
    static let available: [Backend] = postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]

    /// A new, empty PostgreSQL database's URL.
    static func newPostgresDatabase() throws -> String {
        guard let url = postgresURL, var components = URLComponents(string: url) else {
            throw ServerProcess.ServerStartFailure(log: "no TRADEPORT_TEST_POSTGRES")
        }
        let name = "tp_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let r = try CLI.shell("psql", [url, "-qc", "CREATE DATABASE \(name)"])
        guard r.status == 0 else { throw ServerProcess.ServerStartFailure(log: "psql: \(r.output)") }
        components.path = "/" + name
        return components.string!
    }
}

/// A real `tradeport serve` on a loopback port with its own database, for a test.
final class ServerProcess: @unchecked Sendable {
    /// The secret the test servers sign tokens with, so that tests can make expired ones.
    static let secret = "tradeport-test-secret-0123456789abcdef"

    let process: Process
    let directory: String
    let port: Int
    let compat: Bool
    let backend: Backend
    /// The SQLite file or the PostgreSQL URL the server keeps its data in.
    let database: String
    private let logPath: String

    /// The URL the server says it listens on: `http://127.0.0.1:PORT/bcv`.
    let base: String

    /// Starts a server on a free port (`--port 0`) over `directory/balances.sqlite` (a new
    /// directory when `nil`), with `arguments` besides, and waits until it listens.
    /// On PostgreSQL (`backend`), the database is a new one unless `database` names one (a
    /// second instance over the same data).
    init(directory: String? = nil, compat: Bool = false, arguments: [String] = [], backend: Backend = .sqlite, database: String? = nil) throws {
        self.directory = try directory ?? CLI.temporaryDirectory()
        self.backend = backend
        self.database = try database ?? (backend == .postgres ? Backend.newPostgresDatabase() : self.directory + "/balances.sqlite")
        self.compat = compat
        logPath = self.directory + "/serve-\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments =
            ["serve", "--port", "0", "--database", self.database, "--bcrypt-cost", "4"]
            + (compat ? ["--compat-original"] : []) + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TRADEPORT_JWT_SECRET"] = Self.secret
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = log
        try process.run()
        try log.close()
        let deadline = Date().addingTimeInterval(30)
        var found: (port: Int, url: String)?
        while found == nil {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"listening on http://127\.0\.0\.1:[0-9]+[^ ]*"#, options: .regularExpression) {
                let url = String(text[range].dropFirst("listening on ".count))
                let port = url.dropFirst("http://127.0.0.1:".count).prefix { $0.isNumber }
                found = (Int(port)!, url)
            } else if !process.isRunning || Date() > deadline {
                process.terminate()
                throw ServerStartFailure(log: text)
            } else {
                usleep(20_000)
            }
        }
        port = found!.port
        base = found!.url
    }

    struct ServerStartFailure: Error { let log: String }

    /// What the server wrote to standard error.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Stops the server at once (SIGKILL): nothing is flushed or closed on its behalf.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Stops the server as a user would (SIGTERM).
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { kill() }

    /// A client without a token.
    func client() -> BalancesClient {
        BalancesClient(base: base, retry: RetryPolicy(attempts: 1))
    }

    /// A new account's token.
    func register(_ username: String, password: String = "secret-password") async throws -> String {
        let token = try await client().shutdownAfter {
            try await $0.register(username: username, password: password, email: "\(username)@example.com")
        }
        guard let token else { throw ServerStartFailure(log: "username \(username) taken") }
        return token
    }

    /// A client logged in as `username` (shut it down at the end).
    func logIn(_ username: String, password: String = "secret-password") async throws -> BalancesClient {
        let client = client()
        do {
            return client.with(token: try await client.logIn(username: username, password: password))
        } catch {
            await client.shutdown()
            throw error
        }
    }
}

/// Runs `tradeport push` with the credentials in its environment, as a user would.
enum Push {
    static func run(
        _ arguments: [String], server: ServerProcess, username: String = "alice", password: String = "secret-password",
        in directory: String = CLI.repositoryRoot, environment: [String: String] = [:]
    ) throws -> CLI.Result {
        try CLI.run(
            ["push", "--server", server.base] + arguments, in: directory,
            environment: ["TRADEPORT_USERNAME": username, "TRADEPORT_PASSWORD": password].merging(environment) { $1 })
    }

    /// Starts `tradeport push` without waiting for it (to `base` instead of the server's own URL
    /// when given: a proxy's).
    static func start(
        _ arguments: [String], server: ServerProcess, base: String? = nil, username: String = "alice",
        stderr: String? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = ["push", "--server", base ?? server.base] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TRADEPORT_USERNAME"] = username
        environment["TRADEPORT_PASSWORD"] = "secret-password"
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: CLI.repositoryRoot)
        process.standardOutput = FileHandle.nullDevice
        if let stderr {
            _ = FileManager.default.createFile(atPath: stderr, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: stderr))
            process.standardError = handle
            try process.run()
            try handle.close()
        } else {
            process.standardError = FileHandle.nullDevice
            try process.run()
        }
        return process
    }
}
