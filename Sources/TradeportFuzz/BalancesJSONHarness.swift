import TradeportBalances
import TradeportCore

/// `balances-json`: JSON as the balances server and its client read it.
///
/// The input is parsed as a `JSONValue`, the parser saying whether U+0000 occurs (which must be so
/// exactly when a string or member name holds it); the skimming readers (`member(_:ofEachElementOf:)`,
/// `elementCounts`) must agree with the tree on every text the parser takes; every number that fits
/// an `ExactDecimal` reads back from its text; the value written again with `JSONWriter` parses to the
/// same value. A batch the server reads straight from its bytes (`records(inBatch:)`) must be what
/// the tree gives, item by item. The value, and each element of an array, is read as a trade, a transaction and a
/// portfolio; a record that reads is written (both date-time forms) and must read back equal.
enum BalancesJSONHarness {
    static let countedKeys = ["created", "existing", "id"]
    static let memberKeys = ["tradeValueId", "transactionValueId", "id"]

    static func run(_ input: UnsafeRawBufferPointer) {
        let bytes = [UInt8](input)
        // What the server reads straight from a batch's bytes must be what the tree gives.
        let straightTrades = TradeRecord.records(inBatch: bytes)
        let straightTransactions = TransactionRecord.records(inBatch: bytes)
        let value: JSONValue
        var holdsNul = false
        do {
            value = try JSONValue.parse(bytes, holdsNul: &holdsNul)
        } catch {
            precondition(straightTrades == nil && straightTransactions == nil, "a batch read straight is not JSON: \(error)")
            precondition(error.offset >= 0 && error.offset <= bytes.count, "an error at byte \(error.offset) of \(bytes.count)")
            blackHole(error.description.utf8.count)
            blackHole(try? JSONValue.member("tradeValueId", ofEachElementOf: bytes))
            blackHole(try? JSONValue.elementCounts(ofMembers: countedKeys, of: bytes))
            return
        }
        precondition(holdsNul == hasNul(value), "the parser says \(holdsNul ? "a" : "no") string holds U+0000; the value says otherwise")
        checkStraight(straightTrades, value)
        checkStraight(straightTransactions, value)
        checkSkimming(value, bytes)
        checkNumbers(value)
        checkWritingBack(value)
        readRecords(value)
        if case .array(let items) = value {
            for item in items { readRecords(item) }
        }
    }

    /// Whether a string or member name of `value` holds U+0000.
    static func hasNul(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let s): return s.utf8.contains(0)
        case .array(let items): return items.contains(where: hasNul)
        case .object(let members): return members.contains { $0.key.utf8.contains(0) || hasNul($0.value) }
        default: return false
        }
    }

    // MARK: Batches read straight

    /// Records read straight from the bytes (`records(inBatch:)`) are the tree's, item by item.
    static func checkStraight<R: OperationRecord>(_ straight: [R]?, _ value: JSONValue) {
        guard let straight else { return }
        guard case .array(let items) = value else { preconditionFailure("a batch read straight is not an array") }
        precondition(items.count == straight.count, "\(straight.count) \(R.resource) read straight, the tree holds \(items.count) items")
        for (item, record) in zip(items, straight) {
            do {
                let tree = try R(json: item)
                precondition(tree == record, "read straight as \(record), through the tree as \(tree)")
            } catch {
                preconditionFailure("read straight as \(record), the tree refuses it: \(error)")
            }
        }
    }

    // MARK: The skimming readers

    /// What `member(_:ofEachElementOf:)` gives for a member's value.
    static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let s)?: return s
        case .number(let n)?: return n
        default: return nil
        }
    }

    static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }

    static func checkSkimming(_ value: JSONValue, _ bytes: [UInt8]) {
        if case .array(let items) = value, items.allSatisfy(isObject) {
            for key in memberKeys {
                let expected = items.map { text($0[key]) }
                do {
                    let skimmed = try JSONValue.member(key, ofEachElementOf: bytes)
                    precondition(skimmed == expected, "member(\(key)) skimmed \(skimmed), the tree holds \(expected)")
                } catch {
                    preconditionFailure("JSONValue.parse read the text, member(_:ofEachElementOf:) refused it: \(error)")
                }
            }
        }
        if case .object = value {
            var expected: [Int?] = []
            for key in countedKeys {
                if case .array(let items)? = value[key] { expected.append(items.count) } else { expected.append(nil) }
            }
            do {
                let counts = try JSONValue.elementCounts(ofMembers: countedKeys, of: bytes)
                precondition(counts == expected, "elementCounts skimmed \(counts), the tree holds \(expected)")
            } catch {
                preconditionFailure("JSONValue.parse read the text, elementCounts refused it: \(error)")
            }
        }
    }

    // MARK: Numbers and writing back

    static func checkNumbers(_ value: JSONValue) {
        switch value {
        case .number(let n):
            if let d = ExactDecimal(jsonNumber: n) { NumbersHarness.checkDecimal(d) }
        case .array(let items):
            for item in items { checkNumbers(item) }
        case .object(let members):
            for member in members { checkNumbers(member.value) }
        default:
            break
        }
    }

    /// Writes `value` with `JSONWriter`; false when a number does not fit an `ExactDecimal`.
    static func write(_ value: JSONValue, to w: inout JSONWriter) -> Bool {
        switch value {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .string(let s): w.string(s)
        case .number(let n):
            guard let d = ExactDecimal(jsonNumber: n) else { return false }
            w.number(d)
        case .array(let items):
            w.beginArray()
            for item in items {
                if !write(item, to: &w) { return false }
            }
            w.endArray()
        case .object(let members):
            w.beginObject()
            for member in members {
                w.key(member.key)
                if !write(member.value, to: &w) { return false }
            }
            w.endObject()
        }
        return true
    }

    /// Whether `a` and `b` are the same value, numbers compared by their exact value.
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return ExactDecimal(jsonNumber: x) == ExactDecimal(jsonNumber: y)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
        default:
            return a == b
        }
    }

    static func checkWritingBack(_ value: JSONValue) {
        var w = JSONWriter()
        guard write(value, to: &w) else { return }
        let written = w.bytes
        do {
            let back = try JSONValue.parse(written)
            precondition(same(value, back), "written back as \(String(decoding: written, as: UTF8.self)), which reads differently")
        } catch {
            preconditionFailure("JSONWriter wrote text that does not parse (\(error)): \(String(decoding: written, as: UTF8.self))")
        }
    }

    // MARK: Records

    static func readRecords(_ value: JSONValue) {
        if let trade = try? TradeRecord(json: value) { roundTrip(trade) }
        if let transaction = try? TransactionRecord(json: value) { roundTrip(transaction) }
        if let portfolio = try? PortfolioRecord(json: value) {
            var w = JSONWriter()
            portfolio.write(to: &w)
            do {
                let again = try PortfolioRecord(json: try JSONValue.parse(w.bytes))
                precondition(again == portfolio, "portfolio \(portfolio) read back as \(again)")
            } catch {
                preconditionFailure("a portfolio written does not read back: \(error)")
            }
        }
    }

    static func roundTrip<Record: OperationRecord>(_ record: Record) {
        for secondsAlways in [false, true] {
            var w = JSONWriter()
            record.write(to: &w, secondsAlways: secondsAlways)
            let written = w.bytes
            let json: JSONValue
            do {
                json = try JSONValue.parse(written)
            } catch {
                preconditionFailure("a record of \(Record.resource) was written as text that does not parse (\(error))")
            }
            do {
                let again = try Record(json: json)
                precondition(
                    again == record,
                    """
                    a record of \(Record.resource) written as \(String(decoding: written, as: UTF8.self)) reads back \
                    differently
                    """)
            } catch {
                preconditionFailure("a record of \(Record.resource) written as \(String(decoding: written, as: UTF8.self)) does not read back: \(error)")
            }
            let list = [UInt8(ascii: "[")] + written + [UInt8(ascii: "]")]
            do {
                let ids = try JSONValue.member(Record.valueIdKey, ofEachElementOf: list)
                precondition(ids == [record.valueId], "the value id skimmed is \(ids), the record's \(String(describing: record.valueId))")
            } catch {
                preconditionFailure("a written record does not skim: \(error)")
            }
        }
    }
}
