import TradeportCore
import TradeportPrimitives

/// The balances server as a push target (`push --to balances`, the default): each portfolio found
/// by name (created when missing unless told not to), and only the operations whose value id it
/// lacks sent (`PushEngine`), while the conversion runs on a thread of its own.
public struct BalancesServerTarget: PushTarget {
    public let client: BalancesClient
    public let options: PushOptions
    public let logIn: (@Sendable () async throws -> String)?

    /// `client` sends its token; `logIn`, when given, gets a new one when the server refuses it.
    public init(client: BalancesClient, options: PushOptions, logIn: (@Sendable () async throws -> String)? = nil) {
        self.client = client
        self.options = options
        self.logIn = logIn
    }

    public func push(_ plan: PushPlan, rejected: (@Sendable (RejectedRow) -> Void)? = nil) async -> PushResult {
        let feed = PushFeed()
        let batchSize = options.batchSize
        let conversion = Task { await offload { feed.produce(plan, batchSize: batchSize, rejected: rejected) } }
        let engine = PushEngine(client: client, options: options, logIn: logIn)
        let result = await engine.push(feed)
        await conversion.value
        return result
    }
}
