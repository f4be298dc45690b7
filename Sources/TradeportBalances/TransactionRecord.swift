import TradeportCore

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
            throw RecordError(.invalidValue, field: "transactionStatus", "expected Complete, found '\(status)'", text: status)
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

extension TransactionRecord: OperationRecord {
    public static var resource: String { "transactions" }
    public var valueId: String? { transactionValueId }
    public static var valueIdKey: String { "transactionValueId" }
}
