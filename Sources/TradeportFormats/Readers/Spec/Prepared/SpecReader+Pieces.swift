import Foundation
import TradeportCSV
import TradeportCore
import TradeportPrimitives
import TradeportSpec

/// Reading a CSV source in pieces on several threads: the source's thread cuts it into pieces
/// of whole lines, workers read each piece's rows into records (each with a `ReadState` of its
/// own), and the source's thread hands the records on in the source's order. The records, their
/// rows and lines, and every reject are those of reading the source in one go:
///
/// - a piece ends after a line break, and its first line is counted from the breaks before it;
/// - a piece whose last record is not whole (a line break inside quotes) is not a place to cut:
///   the pieces after it are dropped and the rest of the source is read in one go from that
///   record on (as it is when no line break is found in a piece's bytes);
/// - what is kept from row to row (the header, `skip-lines`) is read in one go, in the first
///   piece, and sources whose rows depend on the rows before them (`group:`) are not cut.
///
/// On where the machine has more than one core. Measured on 1M DSX trades to JSON Lines (2 cores,
/// output identical): pieces of 512 KiB took 2.77-2.92 s against 2.93-3.19 s in one go, with
/// 4.8-5.1 s of CPU against 4.0-4.6 and 126-129 MB against 112 MB (1 MiB pieces: the same time,
/// 135-142 MB; 256 KiB: the same time, more CPU, 122 MB). The bound is then the CPU of both cores,
/// and the thread that keeps the balances and writes the output (and frees what the workers
/// allocated): the pieces' hand-over costs about 0.8 s of CPU.
extension SpecReader {
    /// The bytes of a piece, when reading in pieces (0: in one go, as on one core). At most a
    /// record's limit, so that a record read whole from a piece is never one the reader in one go
    /// refuses as too long.
    static let defaultPieceSize = ProcessInfo.processInfo.activeProcessorCount > 1 ? 1 << 19 : 0

    /// Workers for the pieces: the machine's cores, at most 8.
    static var pieceWorkers: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8) }

    /// What a worker made of one row of a piece: a record, or an operation it prepared.
    enum PieceOutput {
        case record(SourceRecord)
        case prepared(PreparedOperation)
    }

    /// A record read from a piece, with where its row's text is in the piece.
    struct PieceRecord {
        var record: PieceOutput
        var rawStart: Int32
        var rawCount: Int32
    }

    /// A worker's `ReadState`, handed to its thread, which alone uses it from then on.
    final class WorkerState: @unchecked Sendable {
        var state: ReadState
        init(_ state: ReadState) { self.state = state }
    }

    /// A piece of the source and, once a worker has read it, its records.
    final class Piece: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer
        var count = 0
        var firstLine = 1
        var final = false
        // Written by the worker, read by the source's thread once `read` is signalled.
        var records: [PieceRecord] = []
        /// Where the piece's last record, not whole, begins (`count` when every record is whole),
        /// and the line breaks before it.
        var end = 0
        var lines = 0
        var failure: (any Error)?
        /// Signalled by the worker once it has read the piece (once per hand-over).
        let read = DispatchSemaphore(value: 0)

        init(capacity: Int) {
            bytes = .allocate(byteCount: capacity, alignment: 16)
        }

        deinit { bytes.deallocate() }

        var filled: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[..<count]) }

        func rawText(_ r: PieceRecord) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[Int(r.rawStart)..<Int(r.rawStart + r.rawCount)]), as: UTF8.self)
        }
    }

    /// Fills pieces with whole lines of the source, a piece's last bytes carried to the next.
    struct PieceCutter {
        let read: (UnsafeMutableRawBufferPointer) throws -> Int
        private var carry: [UInt8] = []
        private var atEnd = false
        private(set) var nextLine = 1
        private var first = true

        init(read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
            self.read = read
        }

        /// Whether everything read has been handed out.
        var exhausted: Bool { atEnd && carry.isEmpty }

        /// Fills `piece` with the next lines: false when a piece's bytes hold no line break to cut
        /// after (the piece then holds them, uncut, for the reading in one go).
        mutating func fill(_ piece: Piece) throws -> Bool {
            var n = carry.count
            carry.withUnsafeBytes { piece.bytes.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: n) }
            carry.removeAll(keepingCapacity: true)
            while n < piece.bytes.count && !atEnd {
                let got = try read(UnsafeMutableRawBufferPointer(rebasing: piece.bytes[n...]))
                if got == 0 { atEnd = true } else { n += got }
            }
            var start = 0
            if first {
                first = false
                if n >= 3, piece.bytes[0] == 0xEF, piece.bytes[1] == 0xBB, piece.bytes[2] == 0xBF { start = 3 }
            }
            if start > 0 {
                piece.bytes.baseAddress!.copyMemory(from: piece.bytes.baseAddress! + start, byteCount: n - start)
                n -= start
            }
            piece.firstLine = nextLine
            if atEnd {
                piece.count = n
                piece.final = true
                nextLine += Self.lineBreaks(UnsafeRawBufferPointer(rebasing: piece.bytes[..<n]), final: true)
                return true
            }
            // After the last LF, or the last CR whose next byte is here and is not an LF.
            var cut = -1
            var j = n - 1
            while j >= 0 {
                let c = piece.bytes[j]
                if c == 0x0A || (c == 0x0D && j + 1 < n && piece.bytes[j + 1] != 0x0A) {
                    cut = j + 1
                    break
                }
                j -= 1
            }
            guard cut > 0 else {
                piece.count = n
                return false
            }
            carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: piece.bytes[cut..<n]))
            piece.count = cut
            piece.final = false
            nextLine += Self.lineBreaks(UnsafeRawBufferPointer(rebasing: piece.bytes[..<cut]), final: false)
            return true
        }

        /// The bytes read but not yet in a piece, taken out (for the reading in one go).
        mutating func takeCarry() -> [UInt8] {
            defer { carry = [] }
            return carry
        }

        /// Line breaks as the CSV reader counts them: LF, CR LF and a CR alone, inside quotes too.
        static func lineBreaks(_ b: UnsafeRawBufferPointer, final: Bool) -> Int {
            var lf = 0
            for c in b { lf &+= c == 0x0A ? 1 : 0 }
            guard b.contains(0x0D) else { return lf }
            var lone = 0
            for i in b.indices where b[i] == 0x0D && (i + 1 == b.count ? final : b[i + 1] != 0x0A) { lone += 1 }
            return lf + lone
        }
    }

    /// Reads a CSV source: the first piece here, the rest in pieces on workers when the source
    /// is larger and its rows do not depend on those before them; else in one go (always, when
    /// `pieceSize` is 0).
    func readCSV(
        _ csv: CSVSource, dialect: CSVDialect, state: inout ReadState,
        read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int, emit: RecordHandler,
        emitPrepared: PreparedRecordHandler
    ) throws {
        var ordinal = 0
        var cutter = PieceCutter(read: read)
        var pending: [UInt8] = []
        // Where the reading in one go takes over (nil: at the source's start).
        var resumeLine: Int?
        if pieceSize > 0 {
            let first = Piece(capacity: pieceSize)
            if try cutter.fill(first) {
                let (end, lines) = try CSVReader.forEachRecord(in: first.filled, firstLine: 1, final: first.final, dialect: dialect) { record in
                    ordinal += 1
                    try readRecord(record, csv, dialect, ordinal: ordinal, state: &state, emit: emit)
                }
                resumeLine = 1 + lines
                if end == first.count {
                    if cutter.exhausted { return }
                    if plan.group == nil && spec.balance == nil && spec.wrapped == nil && state.headerFound && ordinal > csv.skipLines {
                        guard let stop = try readPieces(csv, dialect: dialect, state: state, cutter: &cutter, emit: emit, emitPrepared: emitPrepared) else {
                            return
                        }
                        pending = stop.bytes
                        resumeLine = stop.line
                    }
                } else {
                    pending = Array(UnsafeRawBufferPointer(rebasing: first.bytes[end..<first.count]))
                }
            } else {
                // No line break to cut after: a BOM, if any, is already taken off.
                pending = Array(first.filled)
                resumeLine = 1
            }
            pending += cutter.takeCarry()
        }
        // The rest in one go, from a record's start: what was read and not yet read whole, then the source.
        var offset = 0
        let rest = CSVReader(dialect: dialect, partWay: resumeLine) { buffer in
            if offset < pending.count {
                let n = min(buffer.count, pending.count - offset)
                pending.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
                offset += n
                return n
            }
            return try read(buffer)
        }
        try rest.forEachRecord { record in
            ordinal += 1
            try readRecord(record, csv, dialect, ordinal: ordinal, state: &state, emit: emit)
        }
    }

    /// One record, as reading in one go and in pieces both take it (`ordinal`: the record's
    /// number in the source, empty lines included).
    func readRecord(
        _ record: CSVRecord, _ csv: CSVSource, _ dialect: CSVDialect, ordinal: Int,
        state: inout ReadState, emit: RecordHandler
    ) throws {
        if ordinal <= csv.skipLines || record.isEmptyLine { return }
        if record.tooLong, !state.headerFound {
            // Past the record limit before the header: where the header should be, the input
            // cannot be read, and the message names the row and the limit.
            let why = record.malformation ?? "the record is too long"
            if case .row(let n) = csv.header, ordinal - csv.skipLines == n {
                throw InputError(path: state.path, message: "row \(record.line), where the format \(id) expects its header, cannot be read: \(why)")
            }
            state.unreadableBeforeHeader = state.unreadableBeforeHeader ?? "row \(record.line) cannot be read: \(why)"
        }
        if record.tooLong {
            let error = FieldError(column: nil, field: nil, message: record.malformation ?? "the record is too long")
            try emit(.rejected(RejectedRow(source: state.origin.at(record.line), raw: record.rawText, errors: [error])), { record.rawText })
            return
        }
        if let n = csv.fields, record.count != n, state.headerFound {
            let message = "expected \(n) fields separated by \(Self.delimiterName(dialect.delimiter)), found \(record.count)"
            var errors = [FieldError(column: nil, field: nil, message: message)]
            if let malformation = record.malformation { errors.insert(FieldError(column: nil, field: nil, message: malformation), at: 0) }
            try emit(.rejected(RejectedRow(source: state.origin.at(record.line), raw: record.rawText, errors: errors)), { record.rawText })
            return
        }
        try state.handle(
            record, number: record.line, ordinal: ordinal - csv.skipLines, malformation: record.malformation,
            header: csv.header, raw: { record.rawText }, emit: emit)
    }

    /// Where reading in pieces stopped before the source's end: the bytes from the first record
    /// no piece held whole, and its line.
    struct PiecesStop {
        var bytes: [UInt8]
        var line: Int
    }

    /// Reads the rest of the source in pieces on workers, each piece's records handed to `emit`
    /// here in order. Returns nil at the source's end, or where to go on in one go.
    private func readPieces(
        _ csv: CSVSource, dialect: CSVDialect, state base: ReadState, cutter: inout PieceCutter,
        emit: RecordHandler, emitPrepared: PreparedRecordHandler
    ) throws -> PiecesStop? {
        let workers = Self.pieceWorkers
        // Pieces in flight, oldest first: one per worker ahead of the one being handed on.
        let ahead = workers + 1
        let queue = Handoff<Piece, Never>(capacity: ahead)
        let running = DispatchGroup()
        // The memory of the pieces' prepared bytes, shared by the workers and given back by the
        // conversion as it is done with them.
        let memory = PreparedMemory()
        for _ in 0..<workers {
            // The worker's own state: the header's columns, and values (with their caches) of its own.
            let owned = WorkerState(base)
            owned.state.values = SpecRowValues(plan: plan, codes: AssetCodeCache())
            owned.state.values.dateSystem = base.values.dateSystem
            owned.state.values.parameters = base.values.parameters
            let reader = self
            running.enter()
            let thread = Thread {
                defer { running.leave() }
                while let piece = queue.receive() {
                    reader.readPiece(piece, csv, dialect, state: &owned.state, memory: memory)
                    piece.read.signal()
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        defer {
            // The pieces not taken are dropped; those being read are finished first.
            queue.cancel()
            queue.close()
            running.wait()
        }

        var inFlight: [Piece] = []
        var spare: [Piece] = []
        var cutFailed: Piece?
        while true {
            while inFlight.count < ahead && cutFailed == nil && !cutter.exhausted {
                let piece = spare.popLast() ?? Piece(capacity: pieceSize)
                piece.records.removeAll(keepingCapacity: true)
                piece.failure = nil
                if try cutter.fill(piece) {
                    inFlight.append(piece)
                    _ = queue.send(piece)
                } else {
                    cutFailed = piece
                }
            }
            guard !inFlight.isEmpty else { break }
            let piece = inFlight.removeFirst()
            piece.read.wait()
            if let failure = piece.failure { throw failure }
            for r in piece.records {
                switch r.record {
                case .record(let record): try emit(record, { piece.rawText(r) })
                case .prepared(let operation): try emitPrepared(operation, { piece.rawText(r) })
                }
            }
            if piece.end < piece.count {
                // Not a place to cut: the pieces after it were read from the wrong state. Their
                // bytes are taken (workers only read them); what the workers made is dropped.
                var bytes = Array(UnsafeRawBufferPointer(rebasing: piece.bytes[piece.end..<piece.count]))
                for later in inFlight { bytes.append(contentsOf: later.filled) }
                if let cutFailed { bytes.append(contentsOf: cutFailed.filled) }
                return PiecesStop(bytes: bytes, line: piece.firstLine + piece.lines)
            }
            piece.records.removeAll(keepingCapacity: true)
            spare.append(piece)
        }
        if let cutFailed {
            return PiecesStop(bytes: Array(cutFailed.filled), line: cutFailed.firstLine)
        }
        return nil
    }

    /// A worker's reading of one piece into its records.
    private func readPiece(_ piece: Piece, _ csv: CSVSource, _ dialect: CSVDialect, state: inout ReadState, memory: PreparedMemory) {
        let base = UnsafeRawPointer(piece.bytes.baseAddress!)
        var records = piece.records
        piece.records = []
        var rawStart: Int32 = 0
        var rawCount: Int32 = 0
        let preparation = state.preparation
        let store = preparation.map { _ in PreparedStore(origin: state.origin.at(0), memory: memory) }
        var parts = preparation == nil ? PreparedParts(capacity: 0) : memory.parts(capacity: piece.count * 5 / 2 + 4096)
        // A plain spec's trades read straight from the row's bytes (`CompiledTradePlan`): a row the
        // plan does not read is read by `readRecord`, as without it.
        let compiled = preparation != nil ? compiledTrades : nil
        let path = state.path
        var scratch = compiled.map { CompiledTradePlan.Scratch($0, path: path) }
        let codes = state.values.codes
        do {
            let (end, lines) = try CSVReader.forEachRecord(
                in: piece.filled, firstLine: piece.firstLine, final: piece.final,
                dialect: dialect
            ) { record in
                rawStart = Int32(record.raw.baseAddress.map { $0 - base } ?? 0)
                rawCount = Int32(record.raw.count)
                if let compiled, let preparation, let store, !record.tooLong, !record.isEmptyLine, record.malformation == nil,
                    csv.fields.map({ $0 == record.count }) ?? true, state.headerFound,
                    let prepared = compiled.read(
                        record, positions: state.positions, zone: &state.zone, codes: codes, path: path,
                        scratch: &scratch!, preparation: preparation, into: &parts, of: store)
                {
                    records.append(PieceRecord(record: .prepared(prepared), rawStart: rawStart, rawCount: rawCount))
                    return
                }
                // Past `skip-lines` and the header: the record's number no longer matters.
                try readRecord(record, csv, dialect, ordinal: Int.max, state: &state) { r, _ in
                    if let preparation, let store {
                        var prepared: PreparedOperation?
                        switch r {
                        case .operation(let operation): prepared = preparation.prepare(operation, placedIn: nil, into: &parts, of: store)
                        case .placed(let operation, let portfolio): prepared = preparation.prepare(operation, placedIn: portfolio, into: &parts, of: store)
                        default: break
                        }
                        if let prepared {
                            records.append(PieceRecord(record: .prepared(prepared), rawStart: rawStart, rawCount: rawCount))
                            return
                        }
                    }
                    records.append(PieceRecord(record: .record(r), rawStart: rawStart, rawCount: rawCount))
                }
            }
            piece.end = end
            piece.lines = lines
        } catch {
            piece.failure = error
        }
        if let store { store.seal(parts) }
        piece.records = records
    }
}
