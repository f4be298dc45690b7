/// How often and how patiently to retry connection errors and 5xx answers.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included.
    public var attempts = 6
    /// The first pause; each next one doubles, up to `maximumDelay` (by default 0.5 s, 1, 2, 4,
    /// 8: about 15 s before giving up).
    public var initialDelay: Duration = .milliseconds(500)
    public var maximumDelay: Duration = .seconds(8)

    public init(attempts: Int = 6, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(8)) {
        self.attempts = attempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// Runs `attempt` (given its number, from 1) until it returns. An error `retrying` accepts
    /// is followed by a pause and the next attempt, while attempts remain; any other error, or
    /// the last attempt's, is thrown.
    public func run<T>(_ attempt: (Int) async throws -> T, retrying: (any Error) -> Bool) async throws -> T {
        var delay = initialDelay
        var number = 1
        while true {
            do {
                return try await attempt(number)
            } catch {
                guard number < attempts, retrying(error) else { throw error }
                try await Task.sleep(for: delay)
                delay = min(delay * 2, maximumDelay)
                number += 1
            }
        }
    }
}
