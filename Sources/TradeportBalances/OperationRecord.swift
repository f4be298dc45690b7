import TradeportCore

/// A trade or a transaction record: what the client and the server treat alike.
public protocol OperationRecord: Sendable, Hashable {
    /// The resource's path: `trades` or `transactions`.
    static var resource: String { get }
    /// The server's id; ignored when posting.
    var id: Int64? { get set }
    /// `tradeValueId` or `transactionValueId`.
    var valueId: String? { get }
    /// The value id's member name in the JSON.
    static var valueIdKey: String { get }
    init(json: JSONValue) throws(RecordError)
    /// The records of a batch (a JSON array) read straight from its bytes; nil when only the tree
    /// (`JSONValue.parse`, then `init(json:)`) can read it or say what is wrong with it.
    static func records(inBatch bytes: [UInt8]) -> [Self]?
    func write(to w: inout JSONWriter, secondsAlways: Bool)
    /// The record's JSON object appended to `out` (what `write` writes).
    func append(to out: inout OutputBuffer, secondsAlways: Bool)
}

extension OperationRecord {
    /// The same record without the server's id, for comparing content.
    public var withoutId: Self {
        var copy = self
        copy.id = nil
        return copy
    }
}

/// How a record's object begins: `{`, its id when it has one, and `"dateTime":"…"` (`:00` seconds
/// written when `secondsAlways`, else dropped).
func appendHead(id: Int64?, dateTime: ServerDateTime, secondsAlways: Bool, to out: inout OutputBuffer) {
    out.append(UInt8(ascii: "{"))
    if let id {
        out.append("\"id\":")
        out.appendInt(Int(id))
        out.append(UInt8(ascii: ","))
    }
    out.append("\"dateTime\":\"")
    dateTime.local.appendISO(to: &out, seconds: secondsAlways || dateTime.local.second != 0)
    out.append(UInt8(ascii: "\""))
}
