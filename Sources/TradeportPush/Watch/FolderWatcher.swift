import Crypto
import Foundation
import Logging
import TradeportCore
import TradeportFormats

/// `tradeport push --watch DIR`: loads every export that lands in a folder into a push target,
/// once it is complete, and records each file's outcome beside the folder.
///
/// - **Which portfolio.** A file directly in the folder goes to `portfolio`; a file in a
///   subfolder goes to the portfolio of the subfolder's name (one level).
/// - **Complete files only.** A file is taken once its size and modification time have stayed
///   the same across two looks and for `settle` (a browser's or a mail client's download, a copy
///   in progress), and no process holds it open for writing (on Linux, `OpenForWriting`), and it
///   is read only if its content hash is the same before and after it is converted. Names that
///   downloads and editors use while writing (`.part`, `.crdownload`, `.tmp`, `~$…`, dot files)
///   are never taken.
/// - **Once per content.** Each outcome is a line of `DIR/.tradeport/state.jsonl` (`WatchState`)
///   naming the file and its SHA-256, written and synced after its push completed: a restart
///   takes again only what has no line, and a file changed since gets a new one. A process killed
///   part-way leaves no line, and the push's idempotence (only what the target lacks is sent)
///   makes taking the file again store every operation once.
/// - **A target that is down** is waited for with a growing pause (1 s doubling to 60 s), never
///   skipped: the file is taken again, not recorded as failed. A refusal (a 4xx answer) is
///   recorded as the file's failure, with the target's message.
public final class FolderWatcher: @unchecked Sendable {
    public struct Options: Sendable {
        public var directory: String
        /// The portfolio of files directly in the folder.
        public var portfolio: String
        public var format: String?
        public var timezone: String?
        public var parameters: [String]
        public var registry: FormatRegistry
        /// How often the folder is looked at.
        public var interval: Duration
        /// How long a file must stay unchanged before it is read.
        public var settle: Duration
        /// Take what is there, then stop (for cron and scripts).
        public var once: Bool

        public init(
            directory: String, portfolio: String = "main", format: String? = nil, timezone: String? = nil, parameters: [String] = [],
            registry: FormatRegistry = .builtIn, interval: Duration = .seconds(1), settle: Duration = .seconds(2), once: Bool = false
        ) {
            self.directory = directory
            self.portfolio = portfolio
            self.format = format
            self.timezone = timezone
            self.parameters = parameters
            self.registry = registry
            self.interval = interval
            self.settle = settle
            self.once = once
        }
    }

    /// What a run did: files taken by outcome.
    public struct Summary: Sendable {
        public var loaded = 0
        public var loadedWithRejects = 0
        public var failed = 0
    }

    /// A fault that stops the watcher: the state cannot be written, the target refuses the
    /// credentials.
    public struct Fatal: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    private let options: Options
    private let connect: @Sendable () async throws -> any PushTarget
    private let logger: Logger
    private let stop: StopFlag
    private var target: (any PushTarget)?
    private var state: WatchState
    /// Per file: its size and modification time when last looked at, and whether it was taken
    /// (or found recorded) in that version.
    private var seen: [String: (size: Int64, modified: Date, done: Bool)] = [:]

    /// - Parameter connect: makes the target (logging in): called before the first push and again
    ///   after the target could not be reached. What it throws but an unreachable target (a
    ///   refused login, missing credentials) stops the watcher.
    public init(
        options: Options, stop: StopFlag, logger: Logger, connect: @escaping @Sendable () async throws -> any PushTarget
    ) throws(Fatal) {
        self.options = options
        self.connect = connect
        self.logger = logger
        self.stop = stop
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: options.directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Fatal(description: "\(options.directory): no such folder to watch")
        }
        do {
            state = try WatchState(directory: options.directory)
        } catch {
            throw Fatal(description: error.description)
        }
    }

    deinit { state.close() }

    /// Watches until `stop` is raised (or, with `once`, until every file there is taken).
    public func run() async throws -> Summary {
        var summary = Summary()
        logger.info(
            "watching \(options.directory)",
            metadata: ["interval": "\(options.interval)", "settle": "\(options.settle)", "recorded": "\(state.count)"])
        while !stop.isRaised {
            let (ready, waiting) = look()
            for file in ready {
                if stop.isRaised { break }
                try await take(file, into: &summary)
            }
            if options.once && waiting == 0 && ready.isEmpty { break }
            await stop.sleep(options.interval)
        }
        logger.info(
            "stopped watching \(options.directory)",
            metadata: ["loaded": "\(summary.loaded)", "loaded-with-rejects": "\(summary.loadedWithRejects)", "failed": "\(summary.failed)"])
        return summary
    }

    /// Names a download or an editor gives a file while it writes it.
    static func isTransient(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasPrefix("~$") || name.hasSuffix("~") { return true }
        let lower = name.lowercased()
        return [".part", ".partial", ".tmp", ".crdownload", ".download", ".swp"].contains { lower.hasSuffix($0) }
    }

    /// The files ready to take (settled, not taken in this version), and how many others wait.
    private func look() -> (ready: [String], waiting: Int) {
        let manager = FileManager.default
        var files: [String] = []
        let top = (try? manager.contentsOfDirectory(atPath: options.directory)) ?? []
        for name in top.sorted() where !Self.isTransient(name) {
            let path = options.directory + "/" + name
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let inner = (try? manager.contentsOfDirectory(atPath: path)) ?? []
                for child in inner.sorted() where !Self.isTransient(child) {
                    var childIsDirectory: ObjCBool = false
                    if manager.fileExists(atPath: path + "/" + child, isDirectory: &childIsDirectory), !childIsDirectory.boolValue {
                        files.append(name + "/" + child)
                    }
                }
            } else {
                files.append(name)
            }
        }
        // What left the folder is forgotten: a long run holds only what is there.
        let present = Set(files)
        for file in seen.keys where !present.contains(file) { seen[file] = nil }
        var ready: [String] = []
        var waiting = 0
        let now = Date()
        let settle = Double(options.settle.components.seconds) + Double(options.settle.components.attoseconds) / 1e18
        for file in files {
            guard let attributes = try? manager.attributesOfItem(atPath: options.directory + "/" + file),
                let size = (attributes[.size] as? NSNumber)?.int64Value, let modified = attributes[.modificationDate] as? Date
            else { continue }
            if let before = seen[file], before.size == size, before.modified == modified {
                if before.done { continue }
                if now.timeIntervalSince(modified) >= settle { ready.append(file) } else { waiting += 1 }
            } else {
                // New or changed since the last look: looked at again before it is taken.
                seen[file] = (size, modified, false)
                waiting += 1
            }
        }
        // A file some process still holds open for writing waits, however long the writer pauses.
        let absolute = Dictionary(
            ready.map { (URL(fileURLWithPath: options.directory + "/" + $0).resolvingSymlinksInPath().path, $0) }, uniquingKeysWith: { a, _ in a })
        let writing = OpenForWriting.among(Set(absolute.keys))
        if !writing.isEmpty {
            let held = Set(writing.compactMap { absolute[$0] })
            ready.removeAll { held.contains($0) }
            waiting += held.count
        }
        return (ready, waiting)
    }

    private func hash(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { return nil }
            // The end of the file: no data (nil on some platforms, empty on others).
            guard let chunk, !chunk.isEmpty else { break }
            hasher.update(data: chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    private func markDone(_ file: String) {
        if var entry = seen[file] {
            entry.done = true
            seen[file] = entry
        }
    }

    /// Converts and pushes one settled file, and records its outcome.
    private func take(_ file: String, into summary: inout Summary) async throws {
        let path = options.directory + "/" + file
        guard let sha = hash(path) else {
            logger.warning("\(file) cannot be read; taken when it changes", metadata: ["file": "\(file)"])
            markDone(file)
            return
        }
        if state.holds(file: file, sha256: sha) {
            markDone(file)
            return
        }
        let portfolio = file.contains("/") ? String(file[..<file.firstIndex(of: "/")!]) : options.portfolio
        var record = WatchState.Record(file: file, sha256: sha, size: seen[file]?.size ?? 0, portfolio: portfolio)
        let plan: PushPlan
        do {
            plan = try PushPlan.fromFiles(
                [path], format: options.format, portfolio: portfolio, splitAccounts: false, timezone: options.timezone,
                parameters: options.parameters, registry: options.registry)
            record.format = plan.formats.first
        } catch {
            record.status = .failed
            record.errors = [error.description]
            try finish(record, into: &summary)
            return
        }
        var pause: Duration = .seconds(1)
        while true {
            if stop.isRaised { return }
            let rejects = RejectList()
            let result: PushResult
            do {
                if target == nil { target = try await connect() }
                result = await target!.push(plan, rejected: { rejects.add($0) })
            } catch let failure as ServerFailure where failure.kind == .unreachable {
                result = PushResult(outcomes: [], failure: failure)
            }
            // Credentials refused are no file's failure: the watcher stops (exit 3).
            if let failure = result.failure, failure.kind == .refused, failure.status == 401 || failure.status == 403 { throw failure }
            // A target down, or asking to slow down (429), is waited for.
            if let failure = result.failure, failure.kind == .unreachable || failure.status == 429 {
                logger.warning(
                    "the target cannot be reached; \(file) is taken again in \(pause)", metadata: ["file": "\(file)", "error": "\(failure.description)"])
                target = nil
                await stop.sleep(pause)
                pause = min(pause * 2, .seconds(60))
                continue
            }
            // A file that changed while it was read is taken again once it settles.
            guard hash(path) == sha else {
                logger.notice("\(file) changed while it was read; taken again once it settles", metadata: ["file": "\(file)"])
                return
            }
            record.fill(from: result, rejects: rejects.rows, rejectCount: rejects.count)
            try finish(record, into: &summary)
            return
        }
    }

    private func finish(_ record: WatchState.Record, into summary: inout Summary) throws {
        do {
            try state.append(record)
        } catch {
            throw Fatal(description: "cannot record \(record.file) in \(options.directory)/\(WatchState.path): \(error)")
        }
        markDone(record.file)
        switch record.status {
        case .loaded: summary.loaded += 1
        case .loadedWithRejects: summary.loadedWithRejects += 1
        case .failed: summary.failed += 1
        }
        var metadata: Logger.Metadata = [
            "file": "\(record.file)", "status": "\(record.status.rawValue)", "portfolio": "\(record.portfolio)",
            "operations": "\(record.operations)", "sent": "\(record.sent)", "present": "\(record.present)",
            "rejected": "\(record.rejected)", "skipped": "\(record.skipped)"
        ]
        if let format = record.format { metadata["format"] = "\(format)" }
        if !record.errors.isEmpty { metadata["errors"] = .array(record.errors.map { .string($0) }) }
        if !record.notes.isEmpty { metadata["notes"] = .array(record.notes.map { .string($0) }) }
        let line = "\(record.file) \(record.status.rawValue): \(record.sent) sent, \(record.present) already present, \(record.rejected) rejected"
        switch record.status {
        case .loaded: logger.info("\(line)", metadata: metadata)
        case .loadedWithRejects: logger.warning("\(line)", metadata: metadata)
        case .failed: logger.error("\(record.file) failed: \(record.errors.joined(separator: "; "))", metadata: metadata)
        }
    }
}

/// The rows a conversion rejected, as they come (from the conversion's thread): the first 1000
/// kept, all counted.
final class RejectList: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [RejectedRow] = []
    private var total = 0
    static let kept = 1000

    func add(_ row: RejectedRow) {
        lock.withLock {
            total += 1
            if kept.count < Self.kept { kept.append(row) }
        }
    }

    var rows: [RejectedRow] { lock.withLock { kept } }
    var count: Int { lock.withLock { total } }
}

/// Raised by a signal: the watcher finishes the file in hand and stops.
public final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    public init() {}

    public func raise() { lock.withLock { raised = true } }

    public var isRaised: Bool { lock.withLock { raised } }

    /// Sleeps `duration`, or less when the flag is raised meanwhile.
    public func sleep(_ duration: Duration) async {
        let end = ContinuousClock.now + duration
        while !isRaised, ContinuousClock.now < end {
            try? await Task.sleep(for: min(.milliseconds(100), end - ContinuousClock.now))
        }
    }
}
