import TradeportCore

/// Where `tradeport push` loads operations (`push --to ID`): a balances server, a Ghostfolio
/// instance. Each target is a file of its own in `Targets/`, and one line in `PushTargets.all`;
/// `push --watch` feeds any of them.
public protocol PushTarget: Sendable {
    /// Converts what `plan` reads and loads it, sending only what the target lacks: a re-run
    /// sends nothing. Never throws: a failure (the target's refusal, an input failing part-way)
    /// is in the result, with what was done before it. `rejected` is told of every row the
    /// conversion rejects, as it comes.
    func push(_ plan: PushPlan, rejected: (@Sendable (RejectedRow) -> Void)?) async -> PushResult
}

/// A push target's name and what it is, for `--to` and the manual.
public struct PushTargetInfo: Sendable {
    public let id: String
    public let summary: String
    /// Where its address and credentials come from.
    public let environment: String
}

/// Every push target, by the id `--to` takes.
public enum PushTargets {
    public static let all: [PushTargetInfo] = [
        PushTargetInfo(
            id: "balances",
            summary: "a balances server (`tradeport serve`, or the original): portfolios by name, operations by value id",
            environment: "--server or TRADEPORT_SERVER; TRADEPORT_TOKEN, --token-file, or TRADEPORT_USERNAME and TRADEPORT_PASSWORD"),
        PushTargetInfo(
            id: "ghostfolio",
            summary: "a Ghostfolio instance's import API: an account per portfolio, activities by tradeport's ids in their comments",
            environment: "--server or GHOSTFOLIO_URL; GHOSTFOLIO_TOKEN (the user's security token) or --token-file")
    ]

    public static func info(_ id: String) -> PushTargetInfo? { all.first { $0.id == id } }
}
