import TradeportBalances
import TradeportCore

/// Records of one kind as the server's JSON objects, each with its value id: what a batch holds
/// from the conversion to the request, with no record value per operation. The objects are
/// written once, by `TradeRecord.write`/`TransactionRecord.write` (the client's form, seconds
/// always), on the reader's threads when the conversion prepares operations
/// (`ServerRecordRenderer`), else where the router maps an operation.
public struct EncodedRecords: Sendable {
    /// The objects, back to back.
    private var json: [UInt8] = []
    /// Where each object ends in `json` (it begins where the one before ends).
    private var ends: [Int] = []
    /// Per record: its value id (`tradeValueId`/`transactionValueId`).
    public private(set) var valueIds: [String?] = []

    public init() {}

    public var count: Int { ends.count }
    public var isEmpty: Bool { ends.isEmpty }

    /// Adds one record's object and value id.
    public mutating func append(object: UnsafeRawBufferPointer, valueId: String?) {
        json.append(contentsOf: object)
        ends.append(json.count)
        valueIds.append(valueId)
    }

    /// Adds `record`, written as the client sends it.
    public mutating func append<R: OperationRecord>(_ record: R) {
        var out = OutputBuffer(capacity: 320)
        record.append(to: &out, secondsAlways: true)
        append(object: out.bytes, valueId: record.valueId)
    }

    /// Record `i`'s object.
    public func object(_ i: Int) -> ArraySlice<UInt8> {
        json[(i == 0 ? 0 : ends[i - 1])..<ends[i]]
    }

    /// A JSON array of the records at `indices`, in their order: a batch's body.
    public func array(_ indices: some Collection<Int>) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(indices.reduce(2) { $0 + object($1).count + 1 })
        body.append(UInt8(ascii: "["))
        for (n, i) in indices.enumerated() {
            if n > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: object(i))
        }
        body.append(UInt8(ascii: "]"))
        return body
    }

    /// The records read back from their objects (what a dry run prints), as the server reads them.
    public func records<R: OperationRecord>(_: R.Type) throws(RecordError) -> [R] {
        let body = array(0..<count)
        if let read = R.records(inBatch: body) { return read }
        let parsed: JSONValue
        do { parsed = try JSONValue.parse(body) } catch { throw RecordError(.malformed, field: R.resource, "\(error)") }
        guard case .array(let items) = parsed else { throw RecordError(.wrongType, field: R.resource, "expected an array") }
        var result: [R] = []
        for item in items { result.append(try R(json: item)) }
        return result
    }
}

/// What becomes of an operation on the server, written by `ServerRecordRenderer` into the bytes a
/// reader prepares and read back by the router: a tag byte, then for a record its value id's
/// length (4 bytes, little-endian; all ones for none), the value id and the record's object; for a refusal, its text.
enum ServerRecordBytes {
    /// What an operation's bytes say it is.
    enum Tag: UInt8 {
        case trade = 1
        case transaction, refused, incomplete, movement
    }

    /// Writes what `mapped` is (`BalancesMapping.map`).
    static func write(_ mapped: BalancesMapping.Mapped, to out: inout OutputBuffer) {
        func record<R: OperationRecord>(_ tag: Tag, _ r: R) {
            out.append(tag.rawValue)
            if let valueId = r.valueId {
                withUnsafeBytes(of: UInt32(valueId.utf8.count).littleEndian) { out.append($0) }
                out.append(utf8: valueId)
            } else {
                withUnsafeBytes(of: UInt32.max) { out.append($0) }
            }
            r.append(to: &out, secondsAlways: true)
        }
        switch mapped {
        case .trade(let r): record(.trade, r)
        case .transaction(let r): record(.transaction, r)
        case .refused(let refusal):
            out.append(Tag.refused.rawValue)
            out.append(utf8: refusal.description)
        case .incomplete: out.append(Tag.incomplete.rawValue)
        case .movement: out.append(Tag.movement.rawValue)
        }
    }

    /// What `write` wrote: the tag, and for a record its value id and object, for a refusal its text.
    static func read(_ bytes: UnsafeRawBufferPointer) -> (tag: Tag, valueId: String?, object: UnsafeRawBufferPointer, refusal: String?) {
        guard let tag = Tag(rawValue: bytes[0]) else { preconditionFailure("an operation's server bytes begin with an unknown tag \(bytes[0])") }
        switch tag {
        case .trade, .transaction:
            var n: UInt32 = 0
            withUnsafeMutableBytes(of: &n) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[1..<5])) }
            guard n != UInt32.max else { return (tag, nil, UnsafeRawBufferPointer(rebasing: bytes[5...]), nil) }
            let length = Int(UInt32(littleEndian: n))
            let id = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[5..<(5 + length)]), as: UTF8.self)
            return (tag, id, UnsafeRawBufferPointer(rebasing: bytes[(5 + length)...]), nil)
        case .refused:
            return (tag, nil, UnsafeRawBufferPointer(start: nil, count: 0), String(decoding: UnsafeRawBufferPointer(rebasing: bytes[1...]), as: UTF8.self))
        case .incomplete, .movement:
            return (tag, nil, UnsafeRawBufferPointer(start: nil, count: 0), nil)
        }
    }
}

/// Push's rendering of each operation on the reader's threads: the server's record, mapped once
/// (`BalancesMapping.map`), in `ServerRecordBytes`' form.
struct ServerRecordRenderer: OperationRenderer {
    func append(_ operation: PortfolioOperation, portfolio: String, to out: inout OutputBuffer) {
        ServerRecordBytes.write(BalancesMapping.map(operation), to: &out)
    }
}
