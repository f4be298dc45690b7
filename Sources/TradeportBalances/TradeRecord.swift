import TradeportCore

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
            throw RecordError(.invalidValue, field: "instrument", "expected two codes joined by '-' (eos-btc), found '\(instrument)'", text: instrument)
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

extension TradeRecord: OperationRecord {
    public static var resource: String { "trades" }
    public var valueId: String? { tradeValueId }
    public static var valueIdKey: String { "tradeValueId" }
}
