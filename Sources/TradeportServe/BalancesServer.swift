import Foundation
import Hummingbird
import HummingbirdBcrypt
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle

/// `tradeport serve`: the balances API over a SQLite file.
public enum BalancesServer {
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        /// 0 picks a free port (the one chosen is reported to `onListening`).
        public var port = 9999
        /// The SQLite file, created with its directory on first start, or a `postgres://` URL.
        public var database = "tradeport-data/balances.sqlite"
        /// The path every call is under; `bcv`, `/bcv/` and `//bcv` all mean `/bcv`.
        public var contextPath = "/bcv"
        /// No uniqueness rule and no batch endpoint, as the original server.
        public var compatOriginal = false
        public var bcryptCost: UInt8 = 10
        public var tokenLifetime: Int64 = 3600
        public var environment: [String: String] = ProcessInfo.processInfo.environment
        public var logLevel: Logger.Level = .warning

        public init() {}

        /// `database` as it may be printed (without a password).
        public var databaseDescription: String {
            (try? DatabaseLocation(database, environment: environment))?.description ?? DatabaseLocation.redacted(database)
        }

        /// `contextPath` as the routes are under it: `/bcv`, or empty for the root.
        public var normalizedContextPath: String {
            let segments = contextPath.split(separator: "/")
            return segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
        }

        /// The URL clients call (the base `push --server` takes) once listening on `port`.
        public func url(port: Int) -> String {
            "http://\(host):\(port)\(normalizedContextPath)"
        }
    }

    /// Opens the store and serves until the process is stopped. `onListening` gets the bound
    /// port once the server accepts connections.
    public static func run(_ configuration: Configuration, onListening: @escaping @Sendable (Int) -> Void) async throws {
        var logger = Logger(label: "tradeport.serve")
        logger.logLevel = configuration.logLevel
        let location = try DatabaseLocation(configuration.database, environment: configuration.environment)
        switch location {
        case .sqlite(let path):
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty {
                do {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                } catch {
                    throw ServeError(.dataDirectory, subject: directory, "cannot create the data directory \(directory): \(error.localizedDescription)")
                }
            }
            let store: SQLiteStore
            do {
                store = try SQLiteStore(path: path)
            } catch {
                throw ServeError(.database, subject: path, "cannot open the database \(path): \(error)")
            }
            let secret = try TokenSigner.secret(environment: configuration.environment, directory: directory.isEmpty ? "." : directory)
            try await serve(configuration, store: store, secret: secret, logger: logger, onListening: onListening)
        case .postgres(let host, let port, let user, let password, let database, let tls):
            let tlsMode: PostgresClient.Configuration.TLS =
                switch tls {
                case "disable": .disable
                case "require": .require(.makeClientConfiguration())
                default: .prefer(.makeClientConfiguration())
                }
            var background = logger
            background.handler = LeaseBeforeRunFilter(logger.handler)
            let client = PostgresClient(
                configuration: .init(host: host, port: port, username: user, password: password, database: database, tls: tlsMode),
                backgroundLogger: background)
            // The store's queries log only errors: a lease before the client's run loop has
            // started (at start-up) is expected, not a warning for the user.
            var storeLogger = logger
            storeLogger.logLevel = max(logger.logLevel, .error)
            let store = PostgresStore(client: client, logger: storeLogger)
            // The client's run loop and the database's watcher are not awaited when the server
            // stops: cancelled, they end on their own, and a database that is gone cannot keep
            // `serve` from exiting.
            let running = Task { await client.run() }
            let health = DatabaseHealth()
            let watcher = Task { await health.watch { try await store.ping() } }
            defer {
                watcher.cancel()
                running.cancel()
            }
            do {
                let secret: [UInt8]
                do {
                    try await store.prepare()
                    if let text = configuration.environment["TRADEPORT_JWT_SECRET"], !text.isEmpty {
                        secret = Array(text.utf8)
                    } else {
                        secret = try await store.sharedSecret()
                    }
                } catch {
                    throw ServeError(.database, subject: location.description, "cannot open the database \(location.description): \(String(reflecting: error))")
                }
                try await serve(configuration, store: store, health: health, secret: secret, logger: logger, onListening: onListening)
            }
        }
    }

    /// How long a stopping server waits for the requests in flight (they end within a second or
    /// two of their database going away) before it cancels them and exits.
    static let gracefulShutdown: Duration = .seconds(10)

    private static func serve(
        _ configuration: Configuration, store: any BalancesStorage, health: DatabaseHealth? = nil, secret: [UInt8],
        logger: Logger, onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        let api = BalancesAPI(
            store: store, signer: TokenSigner(secret: secret, lifetime: configuration.tokenLifetime),
            bcryptCost: configuration.bcryptCost, compatOriginal: configuration.compatOriginal,
            unknownUserHash: Bcrypt.hash(UUID().uuidString, cost: configuration.bcryptCost), health: health)
        let router = Router()
        api.register(on: router, contextPath: configuration.normalizedContextPath)
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "tradeport"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
        // SIGTERM and SIGINT stop it gracefully, within a bound whatever the database does.
        var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = gracefulShutdown
        group.maximumCancellationDuration = .seconds(5)
        try await ServiceGroup(configuration: group).run()
    }
}

/// The client's background log, less the one warning every start gave: a lease asked for before
/// the client's run loop (started just before, on another task) has marked itself running. The
/// lease waits for the loop and is served; nothing is wrong, so nothing is said.
struct LeaseBeforeRunFilter: LogHandler {
    private var inner: any LogHandler

    init(_ inner: any LogHandler) { self.inner = inner }

    static let dropped = "hasn't been called yet"

    func log(event: LogEvent) {
        if event.level == .warning, event.message.description.contains("PostgresClient.run()"), event.message.description.contains(Self.dropped) { return }
        inner.log(event: event)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }
}
