import ArgumentParser
import Foundation
import Logging
import TradeportServe

#if canImport(Glibc)
import Glibc
#endif

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a balances server (the API 'push' speaks) over a SQLite file or a PostgreSQL database.",
        discussion: """
            Speaks the original balances server's API under --context-path, plus: a post of a \
            trade or transaction whose value id (tradeValueId, transactionValueId) the portfolio \
            already holds is answered 409 with the held record and not stored again; and \
            POST /trades/batch and /transactions/batch take an array and answer \
            {"created": […], "existing": […]}. --compat-original turns both off, to behave as the \
            original. …/uploadFile reads DSX exports with tradeport's readers.

            The data is an SQLite file (created 0600, with its directory, on first start), or a \
            PostgreSQL database several instances share: --database \
            postgres://USER@HOST:5432/DATABASE[?sslmode=disable|prefer|require], or the same in \
            TRADEPORT_DATABASE; the password from PGPASSWORD rather than the command line. \
            Usernames, portfolio names and value ids are unique by the database's own indexes, so \
            instances sharing one store each operation once.

            Passwords are kept as bcrypt hashes. Tokens are JWTs (HS256, one hour, through jwt-kit) \
            signed with TRADEPORT_JWT_SECRET; without it, with a secret generated on first start and \
            kept beside the SQLite file (jwt-secret) or in the PostgreSQL database, which every \
            instance over it then shares. Once listening, a line 'listening on URL' goes to \
            standard error.

            Exits 0 when stopped by SIGTERM or SIGINT, 2 when it cannot start (a port in use, a \
            database that cannot be opened).
            """
    )

    /// The server's own defaults are the options' defaults.
    private static let defaults = BalancesServer.Configuration()

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "HOST"))
    var host = Self.defaults.host

    @Option(help: ArgumentHelp("The port (0: any free one, reported when listening).", valueName: "PORT"))
    var port = Self.defaults.port

    @Option(
        help: ArgumentHelp(
            "The SQLite file (created, with its directory, on first start), or a postgres:// URL (default: TRADEPORT_DATABASE, else \(Self.defaults.database)).",
            valueName: "FILE|URL"))
    var database = ProcessInfo.processInfo.environment["TRADEPORT_DATABASE"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaults.database

    @Option(help: ArgumentHelp("The path every call is under.", valueName: "PATH"))
    var contextPath = Self.defaults.contextPath

    @Flag(help: "Behave as the original server: store duplicate posts, no batch endpoint.")
    var compatOriginal = false

    @Option(help: ArgumentHelp("bcrypt's cost for new passwords (4 to 31).", valueName: "N"))
    var bcryptCost = Int(Self.defaults.bcryptCost)

    @Flag(help: "Log each request's problems (warnings and worse are always logged).")
    var verbose = false

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0 to 65535") }
        if !(4...31).contains(bcryptCost) { throw ValidationError("--bcrypt-cost must be 4 to 31") }
        if database.isEmpty { throw ValidationError("--database needs a file or a postgres:// URL") }
        do {
            _ = try DatabaseLocation(database, environment: ProcessInfo.processInfo.environment)
        } catch let error as ServeError {
            throw ValidationError(error.message)
        }
    }

    func run() async throws {
        ProcessMemory.keepMidsizeBlocksOnHeap()
        var configuration = BalancesServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.database = database
        configuration.contextPath = contextPath
        configuration.compatOriginal = compatOriginal
        configuration.bcryptCost = UInt8(bcryptCost)
        configuration.logLevel = verbose ? .info : .warning
        // The server stops gracefully on SIGTERM and SIGINT (its service group watches them);
        // the process-wide handlers that end a conversion at once must not run first.
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let listening = configuration
        do {
            try await BalancesServer.run(configuration) { port in
                printStandardError(
                    "tradeport serve: listening on \(listening.url(port: port)) (database \(listening.databaseDescription)\(listening.compatOriginal ? ", original's behaviour" : ""))\n"
                )
            }
        } catch let error as ServeError {
            throw CommandFailure(message: error.message)
        } catch {
            throw CommandFailure(message: "serve: \(error)")
        }
    }
}
