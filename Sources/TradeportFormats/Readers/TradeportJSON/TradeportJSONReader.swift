import TradeportCore

/// tradeport's own canonical JSON, read back: the document `convert` writes (`--to json`) and its
/// JSON Lines form (`--to jsonl`), recognized by their content. Each operation goes to the
/// portfolio the document puts it in and keeps its id; its location is where it is in this file
/// (the line its object starts on). The rows the document records as skipped or rejected by the
/// conversion that wrote it are rows of this file too: they are skipped, saying so. The document
/// is read as it streams, an operation at a time.
public struct TradeportJSONReader: FormatReader {
    public let id = "tradeport-json"
    public let summary = "tradeport's canonical JSON document or JSON Lines, as convert writes them (read back with their portfolios and ids)"

    public init() {}

    private enum Form { case document, lines }

    /// Whether the first bytes are a canonical document (`{` with a `tradeport` member) or
    /// canonical JSON Lines (a first line that is an object with a `kind` of the model's).
    private static func form(_ head: [UInt8]) -> Form? {
        var i = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        guard i < head.count, head[i] == UInt8(ascii: "{") else { return nil }
        if let end = head[i...].firstIndex(of: 0x0A), let first = try? JSONValue.parse(head[i..<end]),
            case .string(let kind)? = first["kind"], lineKinds.contains(kind)
        {
            return .lines
        }
        // A document: the member `tradeport` at the top level, among the first ones.
        var found = false
        var scanner = JSONStreamScanner(
            wants: { path in
                if path == [.member("tradeport")] { found = true }
                return false
            }, take: { _, _, _, _ in })
        try? head[i...].withUnsafeBytes { try scanner.feed($0) }
        return found ? .document : nil
    }

    private static let lineKinds: Set<String> = ["trade", "transaction", "skipped", "rejected", "warning", "summary"]

    public func detect(_ probe: FormatProbe) -> Detection {
        if Self.form(probe.head) != nil { return .match }
        return .noMatch("not tradeport's JSON (no object with a 'tradeport' member, nor JSON Lines with 'kind')")
    }

    public func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws {
        try withoutActuallyEscaping(emit) { emit in try read(input, emit: emit) }
    }

    private func read(_ input: SourceInput, emit: @escaping RecordHandler) throws {
        guard let form = Self.form(input.probe.head) else {
            throw InputError(path: input.path, message: "not tradeport's canonical JSON document nor its JSON Lines")
        }
        var locations = RowLocations(path: input.path)
        func raw(_ bytes: [UInt8]) -> String { String(decoding: bytes.prefix(64 << 10), as: UTF8.self) }
        /// One operation, skipped or rejected row: its object (`parsed`, when already parsed), its
        /// kind, and its portfolio.
        func row(_ bytes: [UInt8], parsed: JSONValue? = nil, kind: String, portfolio: String?, line: Int, column: Int = 1) throws {
            let location = locations.at(line)
            let value: JSONValue
            if let parsed {
                value = parsed
            } else {
                do {
                    value = try JSONValue.parse(bytes)
                } catch {
                    // Where in the file: the value starts at `line`, `column`.
                    let at = error.lineAndColumn(in: bytes)
                    let where_ = "line \(line + at.line - 1), column \(at.line == 1 ? column + at.column - 1 : at.column)"
                    let message = "malformed JSON at \(where_): \(error.message)"
                    try emit(
                        .rejected(RejectedRow(source: location, raw: raw(bytes), errors: [FieldError(column: nil, field: nil, message: message)])),
                        { raw(bytes) })
                    return
                }
            }
            func record() throws(CanonicalJSONError) -> SourceRecord {
                switch kind {
                case "trade", "transaction", "movement":
                    var operation: PortfolioOperation
                    if kind == "trade" {
                        var trade = try Trade(json: value)
                        trade.source = location
                        operation = .trade(trade)
                    } else if kind == "transaction" {
                        var transaction = try CashTransaction(json: value)
                        transaction.source = location
                        operation = .transaction(transaction)
                    } else {
                        var movement = try Movement(json: value)
                        movement.source = location
                        operation = .movement(movement)
                    }
                    guard let portfolio, !portfolio.isEmpty else {
                        throw CanonicalJSONError(.missing, field: "portfolio", "missing; expected the operation's portfolio")
                    }
                    return .placed(operation, portfolio: portfolio)
                case "skipped", "rejected":
                    var origin = ""
                    if case .location(let l) = try FieldValue(json: value["source"], field: "source", definition: .init(.location, .required, "")) {
                        origin = l.description + ": "
                    }
                    let why: String
                    if kind == "skipped" {
                        guard case .string(let reason)? = value["reason"] else { throw CanonicalJSONError(.missing, field: "reason", "missing") }
                        why = reason
                    } else {
                        var messages: [String] = []
                        if case .array(let errors)? = value["errors"] {
                            for e in errors { if case .string(let m)? = e["message"] { messages.append(m) } }
                        }
                        why = "rejected: " + messages.joined(separator: "; ")
                    }
                    return .skipped(SkippedRow(source: location, reason: "\(kind) by the conversion that wrote this file (\(origin)\(why))"))
                default:
                    throw CanonicalJSONError(
                        field: "kind", "'\(kind)' is not trade, transaction, movement, skipped, rejected, warning, reconciliation or summary")
                }
            }
            let made: SourceRecord
            do {
                made = try record()
            } catch {
                made = .rejected(RejectedRow(source: location, raw: raw(bytes), errors: [FieldError(column: nil, field: error.field, message: error.message)]))
            }
            try emit(made, { raw(bytes) })
        }

        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { chunk.deallocate() }
        switch form {
        case .lines:
            var current: [UInt8] = []
            var lineNumber = 0
            func line(_ bytes: [UInt8], _ number: Int) throws {
                var text = bytes[...]
                while let last = text.last, last == 0x0D || last == 0x20 || last == 0x09 { text.removeLast() }
                if number == 1, text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
                guard !text.isEmpty else { return }
                guard let value = try? JSONValue.parse(text), case .string(let kind)? = value["kind"] else {
                    try row(Array(text), kind: "", portfolio: nil, line: number)
                    return
                }
                if kind == "warning" || kind == "summary" || kind == "reconciliation" { return }  // about the conversion, not rows
                var portfolio: String?
                if case .string(let p)? = value["portfolio"] { portfolio = p }
                try row(Array(text), parsed: value, kind: kind, portfolio: portfolio, line: number)
            }
            while true {
                let n = try input.read(into: chunk)
                if n == 0 { break }
                for b in UnsafeRawBufferPointer(rebasing: chunk[0..<n]) {
                    if b == 0x0A {
                        lineNumber += 1
                        try line(current, lineNumber)
                        current.removeAll(keepingCapacity: true)
                    } else {
                        current.append(b)
                        if current.count > JSONStreamScanner.captureLimit {
                            throw InputError(path: input.path, message: "line \(lineNumber + 1) is longer than \(JSONStreamScanner.captureLimit >> 20) MiB")
                        }
                    }
                }
            }
            if !current.isEmpty { try line(current, lineNumber + 1) }
        case .document:
            // Operations under portfolios[i].trades / .transactions / .movements, the portfolio's name read
            // first (convert writes it first; operations before it wait for it).
            var names: [Int: String] = [:]
            var waiting: [(index: Int, bytes: [UInt8], kind: String, line: Int, column: Int)] = []
            var scanner = JSONStreamScanner(
                wants: { path in
                    switch path.count {
                    case 2: return path[0] == .member("skipped") || path[0] == .member("rejected")
                    case 3:
                        if case .member("portfolios") = path[0], path[2] == .member("name") { return true }
                        return false
                    case 4:
                        if case .member("portfolios") = path[0],
                            path[2] == .member("trades") || path[2] == .member("transactions") || path[2] == .member("movements")
                        {
                            return true
                        }
                        return false
                    default: return false
                    }
                },
                take: { path, bytes, line, column in
                    if path.count == 2, case .member(let list) = path[0] {
                        try row(bytes, kind: list == "skipped" ? "skipped" : "rejected", portfolio: nil, line: line, column: column)
                        return
                    }
                    guard case .element(let index) = path[1] else { return }
                    if path[2] == .member("name") {
                        guard case .string(let name)? = try? JSONValue.parse(bytes) else {
                            throw InputError(path: input.path, message: "line \(line): portfolios[\(index)].name is not a text")
                        }
                        names[index] = name
                        for w in waiting where w.index == index { try row(w.bytes, kind: w.kind, portfolio: name, line: w.line, column: w.column) }
                        waiting.removeAll { $0.index == index }
                        return
                    }
                    let kind = path[2] == .member("trades") ? "trade" : path[2] == .member("transactions") ? "transaction" : "movement"
                    if let name = names[index] {
                        try row(bytes, kind: kind, portfolio: name, line: line, column: column)
                    } else {
                        waiting.append((index, bytes, kind, line, column))
                    }
                })
            do {
                while true {
                    let n = try input.read(into: chunk)
                    if n == 0 { break }
                    try scanner.feed(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
                }
                try scanner.finish()
            } catch let e as JSONStreamScanner.Malformed {
                throw InputError(path: input.path, message: "line \(e.line), column \(e.column): not JSON: \(e.message)")
            }
            for w in waiting {
                try row(w.bytes, kind: w.kind, portfolio: nil, line: w.line)
            }
        }
    }
}
