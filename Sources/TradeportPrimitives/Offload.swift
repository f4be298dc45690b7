import Dispatch

/// Runs long synchronous work (a conversion, bcrypt) on a thread of the global queue, off the
/// concurrency pool's few threads, which the network's tasks need meanwhile.
public func offload<T: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
        DispatchQueue.global().async { continuation.resume(returning: Result { () throws(Failure) in try work() }) }
    }
    return try result.get()
}
