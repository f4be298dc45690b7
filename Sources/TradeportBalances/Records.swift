import TradeportCore

/// A value the server's API cannot take or an answer the client cannot read: which field, and why.
public struct RecordError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// `Buy` or `Sell`, spelled as the server spells them.
public enum ServerTradeType: String, Sendable, Hashable, CaseIterable {
    case buy = "Buy"
    case sell = "Sell"
}

/// `Deposit` or `Withdraw`.
public enum ServerTransactionType: String, Sendable, Hashable, CaseIterable {
    case deposit = "Deposit"
    case withdraw = "Withdraw"
}

/// A portfolio as the server answers it.
public struct PortfolioRecord: Sendable, Hashable {
    public var id: Int64
    public var name: String

    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }

    public init(json: JSONValue) throws(RecordError) {
        let r = try ObjectReader(json, what: "portfolio")
        id = try r.integer("id")
        name = try r.string("name")
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("id")
        w.number(id)
        w.key("name")
        w.string(name)
        w.endObject()
    }
}

/// The server's TradeVO.
public struct TradeRecord: Sendable, Hashable {
    /// The server's id; ignored when posting.
    public var id: Int64?
    public var dateTime: ServerDateTime
    /// `base-quote`, lower case.
    public var instrument: String
    public var tradeType: ServerTradeType
    public var tradedQuantity: ExactDecimal
    public var tradedQuantityCurrency: String
    public var tradedPrice: ExactDecimal
    public var tradedPriceCurrency: String
    public var commission: ExactDecimal?
    public var commissionCurrency: String?
    /// The venue's id of the trade: what makes a post idempotent.
    public var tradeValueId: String?

    public init(
        id: Int64? = nil, dateTime: ServerDateTime, instrument: String, tradeType: ServerTradeType,
        tradedQuantity: ExactDecimal, tradedQuantityCurrency: String, tradedPrice: ExactDecimal,
        tradedPriceCurrency: String, commission: ExactDecimal?, commissionCurrency: String?, tradeValueId: String?
    ) {
        self.id = id
        self.dateTime = dateTime
        self.instrument = instrument
        self.tradeType = tradeType
        self.tradedQuantity = tradedQuantity
        self.tradedQuantityCurrency = tradedQuantityCurrency
        self.tradedPrice = tradedPrice
        self.tradedPriceCurrency = tradedPriceCurrency
        self.commission = commission
        self.commissionCurrency = commissionCurrency
        self.tradeValueId = tradeValueId
    }

    /// Reads a TradeVO, checking what the original server checks: an instrument of two codes
    /// joined by `-`, a known trade type. Codes are lower-cased, as the server stores them.
    public init(json: JSONValue) throws(RecordError) {
        try self.init(reading: try ObjectReader(json, what: "trade"))
    }

    /// Reads a TradeVO's members, wherever they come from (`init(json:)`, `RecordBatch`).
    init(reading r: ObjectReader<some MemberSource>) throws(RecordError) {
        id = try r.optionalInteger("id")
        dateTime = try r.dateTime("dateTime")
        let instrument = try r.string("instrument").lowercased()
        guard Self.isInstrument(instrument) else {
            throw RecordError("instrument: expected two codes joined by '-' (eos-btc), found '\(instrument)'")
        }
        self.instrument = instrument
        tradeType = try r.enumeration("tradeType", ServerTradeType.self)
        tradedQuantity = try r.decimal("tradedQuantity")
        tradedQuantityCurrency = try r.code("tradedQuantityCurrency")
        tradedPrice = try r.decimal("tradedPrice")
        tradedPriceCurrency = try r.code("tradedPriceCurrency")
        commission = try r.optionalDecimal("commission")
        commissionCurrency = try r.optionalCode("commissionCurrency")
        tradeValueId = try r.optionalString("tradeValueId")
    }

    /// Two codes joined by one `-` (what splitting at `-` into two codes would find).
    static func isInstrument(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let dash = utf8.firstIndex(of: UInt8(ascii: "-")) else { return false }
        return AssetCode.isPlainCode(utf8: utf8[..<dash]) && AssetCode.isPlainCode(utf8: utf8[utf8.index(after: dash)...])
    }

    /// The TradeVO's JSON. `secondsAlways`: write `:00` seconds (what the client sends); without
    /// it zero seconds are dropped (what the server answers).
    public func write(to w: inout JSONWriter, secondsAlways: Bool) {
        w.raw { append(to: &$0, secondsAlways: secondsAlways) }
    }

    /// The TradeVO's JSON object appended to `out`, member after member (measured: a writer's call
    /// per key, comma and value was half the time of a push client's writing of its records).
    public func append(to out: inout OutputBuffer, secondsAlways: Bool) {
        appendHead(id: id, dateTime: dateTime, secondsAlways: secondsAlways, to: &out)
        out.append(",\"instrument\":")
        JSONWriter.append(instrument, to: &out)
        out.append(",\"tradeType\":")
        JSONWriter.append(tradeType.rawValue, to: &out)
        out.append(",\"tradedQuantity\":")
        tradedQuantity.appendText(to: &out)
        out.append(",\"tradedQuantityCurrency\":")
        JSONWriter.append(tradedQuantityCurrency, to: &out)
        out.append(",\"tradedPrice\":")
        tradedPrice.appendText(to: &out)
        out.append(",\"tradedPriceCurrency\":")
        JSONWriter.append(tradedPriceCurrency, to: &out)
        out.append(",\"commission\":")
        JSONWriter.append(commission, to: &out)
        out.append(",\"commissionCurrency\":")
        JSONWriter.append(commissionCurrency, to: &out)
        out.append(",\"tradeValueId\":")
        JSONWriter.append(tradeValueId, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}

/// The server's TransactionVO.
public struct TransactionRecord: Sendable, Hashable {
    public var id: Int64?
    public var dateTime: ServerDateTime
    public var transactionType: ServerTransactionType
    public var currency: String
    public var amount: ExactDecimal
    public var commission: ExactDecimal?
    /// The original accepts only `Complete`.
    public var transactionStatus: String
    public var transactionValueId: String?

    public init(
        id: Int64? = nil, dateTime: ServerDateTime, transactionType: ServerTransactionType, currency: String,
        amount: ExactDecimal, commission: ExactDecimal?, transactionValueId: String?
    ) {
        self.id = id
        self.dateTime = dateTime
        self.transactionType = transactionType
        self.currency = currency
        self.amount = amount
        self.commission = commission
        self.transactionStatus = "Complete"
        self.transactionValueId = transactionValueId
    }

    public init(json: JSONValue) throws(RecordError) {
        try self.init(reading: try ObjectReader(json, what: "transaction"))
    }

    /// Reads a TransactionVO's members, wherever they come from.
    init(reading r: ObjectReader<some MemberSource>) throws(RecordError) {
        id = try r.optionalInteger("id")
        dateTime = try r.dateTime("dateTime")
        transactionType = try r.enumeration("transactionType", ServerTransactionType.self)
        currency = try r.code("currency")
        amount = try r.decimal("amount")
        commission = try r.optionalDecimal("commission")
        let status = try r.optionalString("transactionStatus") ?? "Complete"
        guard status == "Complete" else {
            throw RecordError("transactionStatus: expected Complete, found '\(status)'")
        }
        transactionStatus = status
        transactionValueId = try r.optionalString("transactionValueId")
    }

    public func write(to w: inout JSONWriter, secondsAlways: Bool) {
        w.raw { append(to: &$0, secondsAlways: secondsAlways) }
    }

    /// The TransactionVO's JSON object appended to `out`, as a trade's record is.
    public func append(to out: inout OutputBuffer, secondsAlways: Bool) {
        appendHead(id: id, dateTime: dateTime, secondsAlways: secondsAlways, to: &out)
        out.append(",\"transactionType\":")
        JSONWriter.append(transactionType.rawValue, to: &out)
        out.append(",\"currency\":")
        JSONWriter.append(currency, to: &out)
        out.append(",\"amount\":")
        amount.appendText(to: &out)
        out.append(",\"commission\":")
        JSONWriter.append(commission, to: &out)
        out.append(",\"transactionStatus\":")
        JSONWriter.append(transactionStatus, to: &out)
        out.append(",\"transactionValueId\":")
        JSONWriter.append(transactionValueId, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}

/// What the batch endpoint answers: the records it created and those it already held.
public struct BatchAnswer<Record: Sendable>: Sendable {
    public var created: [Record]
    public var existing: [Record]

    public init(created: [Record], existing: [Record]) {
        self.created = created
        self.existing = existing
    }
}

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

extension TradeRecord: OperationRecord {
    public static var resource: String { "trades" }
    public var valueId: String? { tradeValueId }
    public static var valueIdKey: String { "tradeValueId" }
}

extension TransactionRecord: OperationRecord {
    public static var resource: String { "transactions" }
    public var valueId: String? { transactionValueId }
    public static var valueIdKey: String { "transactionValueId" }
}

/// How a record's object begins: `{`, its id when it has one, and `"dateTime":"…"` (`:00` seconds
/// written when `secondsAlways`, else dropped).
private func appendHead(id: Int64?, dateTime: ServerDateTime, secondsAlways: Bool, to out: inout OutputBuffer) {
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
