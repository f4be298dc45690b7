import Foundation
import HummingbirdBcrypt
import Hummingbird
import Logging
import NIOCore

/// `tradeport serve`: the balances API over a SQLite file.
public enum BalancesServer {
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        /// 0 picks a free port (the one chosen is reported to `onListening`).
        public var port = 9999
        /// The SQLite file, created with its directory on first start.
        public var databasePath = "tradeport-data/balances.sqlite"
        /// The path every call is under; `bcv`, `/bcv/` and `//bcv` all mean `/bcv`.
        public var contextPath = "/bcv"
        /// No uniqueness rule and no batch endpoint, as the original server.
        public var compatOriginal = false
        public var bcryptCost: UInt8 = 10
        public var tokenLifetime: Int64 = 3600
        public var environment: [String: String] = ProcessInfo.processInfo.environment
        public var logLevel: Logger.Level = .warning

        public init() {}

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
        let path = configuration.databasePath
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ServeError("cannot create the data directory \(directory): \(error.localizedDescription)")
            }
        }
        let store: BalancesStore
        do {
            store = try BalancesStore(path: path)
        } catch {
            throw ServeError("cannot open the database \(path): \(error)")
        }
        let secret = try TokenSigner.secret(environment: configuration.environment, directory: directory.isEmpty ? "." : directory)
        let api = BalancesAPI(
            store: store, signer: TokenSigner(secret: secret, lifetime: configuration.tokenLifetime),
            bcryptCost: configuration.bcryptCost, compatOriginal: configuration.compatOriginal,
            unknownUserHash: Bcrypt.hash(UUID().uuidString, cost: configuration.bcryptCost))
        let router = Router()
        api.register(on: router, contextPath: configuration.normalizedContextPath)

        var logger = Logger(label: "tradeport.serve")
        logger.logLevel = configuration.logLevel
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "tradeport"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
        try await app.runService()
    }
}
