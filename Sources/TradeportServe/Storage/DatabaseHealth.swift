import Foundation

/// Whether the database answers, as a watcher that asks it every second finds (`watch`), and as
/// the failures of calls say (`noteUnreachable`). While it does not, the API answers 503 with
/// `Retry-After` at once, and a request already waiting on it is answered so within a second or
/// two (`BalancesAPI.respond`); `/ready` says which. Only a database across a network has one
/// (PostgreSQL); an SQLite file is always there.
final class DatabaseHealth: @unchecked Sendable {
    // Guarded by `lock`.
    private var down = false
    private let lock = NSLock()

    /// How long a ping may take before the database counts as not answering.
    static let pingDeadline: Duration = .seconds(2)
    /// How often the watcher asks.
    static let interval: Duration = .seconds(1)
    /// What `Retry-After` says, in seconds.
    static let retryAfter = 2

    init() {}

    var isDown: Bool {
        lock.lock()
        defer { lock.unlock() }
        return down
    }

    func set(up: Bool) {
        lock.lock()
        down = !up
        lock.unlock()
    }

    /// A call failed in a way that says the database is not there (a closed connection, the
    /// server shutting down): down until the watcher's next ping says otherwise.
    func noteUnreachable() { set(up: false) }

    /// Asks the database (`ping`) every `interval` until cancelled, a ping that takes longer
    /// than `pingDeadline` counting as no answer.
    func watch(_ ping: @escaping @Sendable () async throws -> Void) async {
        while !Task.isCancelled {
            let answered = (try? await Deadline.run(within: Self.pingDeadline) { try await ping() }) != nil
            set(up: answered)
            try? await Task.sleep(for: Self.interval)
        }
    }
}

/// Runs work with a deadline that holds whatever the work does: at the deadline the caller goes on
/// (the work is cancelled, and left to end on its own), where a task group would wait for a child
/// that does not heed cancellation — a query waiting on a connection to a database that is gone.
enum Deadline {
    /// `work`'s result, or nil when it did not end within `duration`.
    static func run<T: Sendable>(within duration: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        try await race(work) { try? await Task.sleep(for: duration) }
    }

    /// `work`'s result, or nil when `until` (which waits for whatever should end the wait)
    /// returns first.
    static func race<T: Sendable>(
        _ work: @escaping @Sendable () async throws -> T,
        until: @escaping @Sendable () async -> Void
    ) async throws -> T? {
        let once = Once()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T?, any Error>) in
            let task = Task {
                do {
                    let value = try await work()
                    if once.claim() { continuation.resume(returning: value) }
                } catch {
                    if once.claim() { continuation.resume(throwing: error) }
                }
            }
            Task {
                await until()
                if once.claim() {
                    task.cancel()
                    continuation.resume(returning: nil)
                }
            }
        }
    }
}

/// A flag that one caller claims.
private final class Once: @unchecked Sendable {
    private var claimed = false
    private let lock = NSLock()

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }

    var isClaimed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return claimed
    }
}
