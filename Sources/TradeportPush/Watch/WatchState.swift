import Foundation
import TradeportBalances
import TradeportCore

#if canImport(Glibc)
import Glibc
#endif

/// What a watched folder's files became: `DIR/.tradeport/state.jsonl`, one JSON object per file
/// taken (per content: a file changed since gets a line of its own), appended and synced to disk
/// before the next file is taken. A user reads it to see what happened to each file; the watcher
/// reads it at start so that a restart takes again only what it has no line for.
///
/// A line: `file` (relative to the folder), `sha256`, `size`, `portfolio`, `format`, `status`
/// (`loaded`: every row read and every operation at the target; `loaded-with-rejects`: the rows
/// in `rejects` were not read, the rest is at the target; `failed`: nothing could be loaded,
/// `errors` says why), `at`, and the counts `operations`, `sent`, `present` (at the target
/// before), `skipped`, `rejected`; `errors`; `notes`, what the target did not take and why;
/// `rejects` lists the rejected rows (the first 1000), each with
/// its `row`, `column`, `field`, `text` (the raw row), `expected` and the whole located
/// `message`.
struct WatchState {
    static let path = ".tradeport/state.jsonl"

    enum Status: String, Sendable {
        case loaded
        case loadedWithRejects = "loaded-with-rejects"
        case failed
    }

    struct Record: Sendable {
        var file: String
        var sha256: String
        var size: Int64
        var portfolio: String
        var format: String?
        var status: Status = .loaded
        var operations = 0
        var sent = 0
        var present = 0
        var skipped = 0
        var rejected = 0
        var errors: [String] = []
        /// What the target did not take, and why (movements, what it cannot hold, securities
        /// without a symbol in the map).
        var notes: [String] = []
        var rejects: [RejectedRow] = []

        init(file: String, sha256: String, size: Int64, portfolio: String) {
            self.file = file
            self.sha256 = sha256
            self.size = size
            self.portfolio = portfolio
        }

        /// The counts and the status a push's result gives.
        mutating func fill(from result: PushResult, rejects: [RejectedRow], rejectCount: Int) {
            let reports = result.conversion?.reports ?? []
            operations = reports.reduce(0) { $0 + $1.operations }
            skipped = reports.reduce(0) { $0 + $1.skipped }
            rejected = max(reports.reduce(0) { $0 + $1.rejected }, rejectCount)
            sent = result.outcomes.reduce(0) { $0 + $1.sent }
            present = result.outcomes.reduce(0) { $0 + $1.alreadyPresent }
            self.rejects = rejects
            notes = result.notes + (result.conversion?.notLoaded ?? [])
            for (name, tally) in (result.conversion?.tallies ?? [:]).sorted(by: { $0.key < $1.key }) {
                if tally.movements > 0 { notes.append("\(name): \(Wording.count(tally.movements, "movement")) of positions without money not sent") }
                if tally.incomplete > 0 { notes.append("\(name): \(Wording.count(tally.incomplete, "transaction")) not complete, not sent") }
                notes += tally.refused.map { "\(name): not sent: \($0)" }
            }
            errors = [result.inputFailure?.description, result.failure?.description].compactMap { $0 }
            errors += result.outcomes.filter { $0.failed > 0 }.map { "\($0.name): \($0.failed) operations could not be loaded" }
            if !errors.isEmpty && sent == 0 && present == 0 {
                status = .failed
            } else if rejected > 0 || !errors.isEmpty {
                status = .loadedWithRejects
            } else {
                status = .loaded
            }
        }

        func json() -> [UInt8] {
            var w = JSONWriter()
            w.beginObject()
            w.key("file")
            w.string(file)
            w.key("sha256")
            w.string(sha256)
            w.key("size")
            w.number(size)
            w.key("portfolio")
            w.string(portfolio)
            w.key("format")
            w.string(format)
            w.key("status")
            w.string(status.rawValue)
            w.key("at")
            w.string(ISO8601DateFormatter().string(from: Date()))
            for (key, value) in [("operations", operations), ("sent", sent), ("present", present), ("skipped", skipped), ("rejected", rejected)] {
                w.key(key)
                w.number(Int64(value))
            }
            w.key("errors")
            w.beginArray()
            for e in errors { w.string(e) }
            w.endArray()
            w.key("notes")
            w.beginArray()
            for n in notes { w.string(n) }
            w.endArray()
            w.key("rejects")
            w.beginArray()
            for r in rejects {
                w.beginObject()
                w.key("row")
                w.number(Int64(r.source.row))
                if let column = r.errors.first?.column {
                    w.key("column")
                    w.number(Int64(column))
                }
                if let field = r.errors.first?.field {
                    w.key("field")
                    w.string(field)
                }
                w.key("text")
                w.string(r.raw)
                w.key("expected")
                w.string(r.errors.map(\.message).joined(separator: "; "))
                w.key("message")
                w.string(
                    "\(r.source): "
                        + r.errors.map { e in (e.column.map { "column \($0): " } ?? e.field.map { "\($0): " } ?? "") + e.message }.joined(separator: "; "))
                w.endObject()
            }
            w.endArray()
            w.endObject()
            return Array(w.bytes)
        }
    }

    /// The state file, open for appending (`O_APPEND`: a line goes at the end whatever else
    /// wrote), and the folder's lock, held while the watcher runs.
    private let descriptor: Int32
    private let lock: Int32
    private var recorded: Set<String> = []

    var count: Int { recorded.count }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads what the folder's state file holds (creating `.tradeport/` when missing), opens it
    /// for appending and locks the folder: a second watcher of the same folder is refused, since
    /// two would push the same file at once.
    init(directory: String) throws(Failure) {
        let folder = directory + "/.tradeport"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "\(folder): cannot be made (\(error.localizedDescription))")
        }
        lock = open(folder + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw Failure(description: "\(folder)/lock: cannot be opened (\(String(cString: strerror(errno))))") }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            _ = Glibc.close(lock)
            throw Failure(description: "\(directory) is watched by another tradeport already (\(folder)/lock is held)")
        }
        let path = directory + "/" + Self.path
        descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            _ = Glibc.close(lock)
            throw Failure(description: "\(path): cannot be opened for writing (\(String(cString: strerror(errno))))")
        }
        let data = FileManager.default.contents(atPath: path) ?? Data()
        for line in data.split(separator: 0x0A) where !line.isEmpty {
            // A line cut short by a crash is not a record: its file is taken again.
            guard let json = try? JSONValue.parse(line), case .string(let name)? = json["file"], case .string(let sha)? = json["sha256"] else {
                continue
            }
            recorded.insert(Self.key(name, sha))
        }
        // A line cut short is ended, so that the next one starts on a line of its own.
        if let last = data.last, last != 0x0A { try write([0x0A]) }
    }

    /// Closes the state file and lets the folder's lock go.
    func close() {
        _ = Glibc.close(descriptor)
        _ = Glibc.close(lock)
    }

    private static func key(_ file: String, _ sha: String) -> String { file + "\u{0}" + sha }

    func holds(file: String, sha256: String) -> Bool { recorded.contains(Self.key(file, sha256)) }

    private func write(_ bytes: [UInt8]) throws(Failure) {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "\(Self.path): \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }

    /// Appends `record` as a line and syncs it to disk.
    mutating func append(_ record: Record) throws(Failure) {
        try write(record.json() + [0x0A])
        guard fsync(descriptor) == 0 else { throw Failure(description: "\(Self.path): \(String(cString: strerror(errno)))") }
        recorded.insert(Self.key(record.file, record.sha256))
    }
}
