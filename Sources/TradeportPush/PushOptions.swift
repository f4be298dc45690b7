/// How `push` talks to the server.
public struct PushOptions: Sendable {
    /// Requests in flight at once.
    public var concurrency = 4
    /// Records per batch request.
    public var batchSize = 1000
    /// Create portfolios the server lacks.
    public var createPortfolios = true

    public init(concurrency: Int = 4, batchSize: Int = 1000, createPortfolios: Bool = true) {
        self.concurrency = concurrency
        self.batchSize = batchSize
        self.createPortfolios = createPortfolios
    }
}

/// Progress, as operations are settled (sent or found present). `total` is nil while the inputs
/// are still converting.
public protocol PushProgress: Sendable {
    func update(portfolio: String, settled: Int, of total: Int?) async
}
