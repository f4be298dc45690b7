/// Writes operations as tradeport's own CSV layout (`tradeport-csv`): a header row of canonical
/// field names, then one row per operation as it arrives, for people who keep or fix their
/// history in a spreadsheet. Skipped and rejected rows and warnings are not operations: they stay
/// in the summary on standard error.
public final class CSVSink: ConversionSink {
    /// The columns, in order: trades fill the trade fields, transactions theirs.
    public static let columns = [
        "kind", "portfolio", "id", "externalId", "time", "side", "base", "quote", "quantity", "price", "amount",
        "accruedInterest", "fee.broker", "fee.broker.currency", "fee.exchange", "fee.exchange.currency", "fee.clearing",
        "fee.clearing.currency", "fee.other", "fee.other.currency", "isin", "name", "venue", "settlementDate", "account",
        "orderId", "type", "asset", "fee", "feeCurrency", "status", "security", "note", "counterparty", "txHash", "address",
    ]

    private let output: OutputFile

    public init(output: OutputFile) throws {
        self.output = output
        try output.append { out in
            for (i, name) in Self.columns.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendField(name, to: &out)
            }
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// A field, quoted when it holds a comma, a quote, a line break or leading/trailing space.
    static func appendField(_ text: String, to out: inout ByteBuffer) {
        var t = text
        t.withUTF8 { bytes in
            let needsQuotes = bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
                || bytes.first == 0x20 || bytes.last == 0x20
            guard needsQuotes else {
                out.append(UnsafeRawBufferPointer(bytes))
                return
            }
            out.append(0x22)
            for b in bytes {
                if b == 0x22 { out.append(0x22) }
                out.append(b)
            }
            out.append(0x22)
        }
    }

    public func write(_ operation: Operation, portfolio: String) throws {
        var fields = [String](repeating: "", count: Self.columns.count)
        func set(_ name: String, _ value: String?) {
            if let value, let i = Self.columns.firstIndex(of: name) { fields[i] = value }
        }
        set("portfolio", portfolio)
        switch operation {
        case .trade(let t):
            set("kind", "trade")
            set("id", t.id); set("externalId", t.externalId); set("time", t.time.description)
            set("side", t.side.rawValue); set("base", t.base.text); set("quote", t.quote.text)
            set("quantity", t.quantity.description); set("price", t.price.description)
            set("amount", t.amount?.description); set("accruedInterest", t.accruedInterest?.description)
            for fee in t.fees {
                set("fee.\(fee.kind.rawValue)", fee.amount.description)
                set("fee.\(fee.kind.rawValue).currency", fee.currency.text)
            }
            set("isin", t.isin); set("name", t.name); set("venue", t.venue)
            set("settlementDate", t.settlementDate?.description); set("account", t.account); set("orderId", t.orderId)
        case .transaction(let t):
            set("kind", "transaction")
            set("id", t.id); set("externalId", t.externalId); set("time", t.time.description)
            set("type", t.type.rawValue); set("asset", t.asset.text); set("amount", t.amount.description)
            set("fee", t.fee?.amount.description); set("feeCurrency", t.fee?.currency.text)
            set("status", t.status.rawValue); set("security", t.security); set("note", t.note)
            set("account", t.account); set("counterparty", t.counterparty); set("txHash", t.txHash); set("address", t.address)
        }
        try output.append { out in
            for (i, field) in fields.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendField(field, to: &out)
            }
            out.append(UInt8(ascii: "\n"))
        }
    }

    public func write(_ skipped: SkippedRow) throws {}
    public func write(_ rejected: RejectedRow) throws {}

    public func finish(_ report: ConversionReport) throws {
        try output.flush()
    }
}
