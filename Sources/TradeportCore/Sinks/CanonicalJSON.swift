/// The canonical model written as JSON bytes, field by field in the contract's order.
///
/// Hand-written rather than `JSONEncoder` because it runs once per operation on million-row
/// inputs; `Tests/TradeportCoreTests` decodes what it writes and checks it against the schema.
public enum CanonicalJSON {
    /// Appends `text` as a JSON string literal.
    public static func appendString(_ text: String, to out: inout ByteBuffer) {
        var text = text
        text.withUTF8 { bytes in
            let n = bytes.count
            // Most strings need no escaping: copy them whole.
            var clean = true
            for b in bytes where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                clean = false
                break
            }
            if clean {
                out.reserve(n + 2)
                out.appendUnchecked(UInt8(ascii: "\""))
                out.append(UnsafeRawBufferPointer(bytes))
                out.appendUnchecked(UInt8(ascii: "\""))
                return
            }
            out.reserve(n * 6 + 2)
            out.appendUnchecked(UInt8(ascii: "\""))
            for i in 0..<n {
                let b = bytes[i]
                if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
                    out.appendUnchecked(b)
                    continue
                }
                out.appendUnchecked(UInt8(ascii: "\\"))
                switch b {
                case UInt8(ascii: "\""): out.appendUnchecked(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.appendUnchecked(UInt8(ascii: "\\"))
                case 0x0A: out.appendUnchecked(UInt8(ascii: "n"))
                case 0x0D: out.appendUnchecked(UInt8(ascii: "r"))
                case 0x09: out.appendUnchecked(UInt8(ascii: "t"))
                default:
                    out.appendUnchecked(UInt8(ascii: "u"))
                    out.appendUnchecked(48)
                    out.appendUnchecked(48)
                    out.appendHex(b)
                }
            }
            out.appendUnchecked(UInt8(ascii: "\""))
        }
    }

    @inline(__always)
    static func appendKey(_ key: StaticString, to out: inout ByteBuffer) {
        out.append(UInt8(ascii: "\""))
        out.append(key)
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    @inline(__always)
    public static func appendRaw(_ text: StaticString, to out: inout ByteBuffer) {
        out.append(text)
    }

    @inline(__always)
    static func append(_ text: String?, to out: inout ByteBuffer) {
        if let text { appendString(text, to: &out) } else { out.append("null") }
    }

    @inline(__always)
    static func append(_ value: ExactDecimal?, to out: inout ByteBuffer) {
        if let value {
            out.append(UInt8(ascii: "\""))
            value.appendText(to: &out)
            out.append(UInt8(ascii: "\""))
        } else {
            out.append("null")
        }
    }

    @inline(__always)
    static func appendInt(_ value: Int, to out: inout ByteBuffer) {
        out.appendInt(value)
    }

    /// `{"path": …, "row": …, "sheet": …}`
    public static func appendLocation(_ location: SourceLocation, to out: inout ByteBuffer) {
        appendRaw("{\"path\":", to: &out)
        appendString(location.path, to: &out)
        appendRaw(",\"row\":", to: &out)
        appendInt(location.row, to: &out)
        appendRaw(",\"sheet\":", to: &out)
        append(location.sheet, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The fields of an operation (without braces), after an optional prefix such as `"kind":…`.
    public static func appendOperationFields(_ operation: Operation, to out: inout ByteBuffer) {
        switch operation {
        case .trade(let t): appendTradeFields(t, to: &out)
        case .transaction(let t): appendTransactionFields(t, to: &out)
        }
    }

    public static func appendTradeFields(_ t: Trade, to out: inout ByteBuffer) {
        appendTradeFields(t, id: t.id, location: t.source, to: &out)
    }

    /// The trade's fields with `id` and `location` in place of its own (for its content text,
    /// without copying the trade to change them).
    static func appendTradeFields(_ t: Trade, id: String, location: SourceLocation, to out: inout ByteBuffer) {
        appendKey("id", to: &out)
        appendString(id, to: &out)
        appendRaw(",\"externalId\":", to: &out)
        append(t.externalId, to: &out)
        appendRaw(",\"time\":\"", to: &out)
        t.time.appendRFC3339(to: &out)
        appendRaw("\",\"side\":", to: &out)
        appendRaw(t.side == .buy ? "\"buy\"" : "\"sell\"", to: &out)
        appendRaw(",\"base\":", to: &out)
        appendString(t.base.text, to: &out)
        appendRaw(",\"quote\":", to: &out)
        appendString(t.quote.text, to: &out)
        appendRaw(",\"quantity\":", to: &out)
        append(t.quantity, to: &out)
        appendRaw(",\"price\":", to: &out)
        append(t.price, to: &out)
        appendRaw(",\"amount\":", to: &out)
        append(t.amount, to: &out)
        appendRaw(",\"accruedInterest\":", to: &out)
        append(t.accruedInterest, to: &out)
        appendRaw(",\"fees\":[", to: &out)
        for (i, fee) in t.fees.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            appendRaw("{\"amount\":", to: &out)
            append(fee.amount, to: &out)
            appendRaw(",\"currency\":", to: &out)
            appendString(fee.currency.text, to: &out)
            appendRaw(",\"kind\":\"", to: &out)
            switch fee.kind {
            case .broker: appendRaw("broker", to: &out)
            case .exchange: appendRaw("exchange", to: &out)
            case .clearing: appendRaw("clearing", to: &out)
            case .other: appendRaw("other", to: &out)
            }
            appendRaw("\"}", to: &out)
        }
        appendRaw("],\"isin\":", to: &out)
        append(t.isin, to: &out)
        appendRaw(",\"name\":", to: &out)
        append(t.name, to: &out)
        appendRaw(",\"venue\":", to: &out)
        append(t.venue, to: &out)
        appendRaw(",\"settlementDate\":", to: &out)
        if let date = t.settlementDate {
            out.append(UInt8(ascii: "\""))
            date.appendISO(to: &out)
            out.append(UInt8(ascii: "\""))
        } else {
            appendRaw("null", to: &out)
        }
        appendRaw(",\"account\":", to: &out)
        append(t.account, to: &out)
        appendRaw(",\"orderId\":", to: &out)
        append(t.orderId, to: &out)
        appendRaw(",\"source\":", to: &out)
        appendLocation(location, to: &out)
    }

    public static func appendTransactionFields(_ t: CashTransaction, to out: inout ByteBuffer) {
        appendTransactionFields(t, id: t.id, location: t.source, to: &out)
    }

    /// The transaction's fields with `id` and `location` in place of its own.
    static func appendTransactionFields(_ t: CashTransaction, id: String, location: SourceLocation, to out: inout ByteBuffer) {
        appendKey("id", to: &out)
        appendString(id, to: &out)
        appendRaw(",\"externalId\":", to: &out)
        append(t.externalId, to: &out)
        appendRaw(",\"time\":\"", to: &out)
        t.time.appendRFC3339(to: &out)
        appendRaw("\",\"type\":\"", to: &out)
        out.append(utf8: t.type.rawValue)
        appendRaw("\",\"asset\":", to: &out)
        appendString(t.asset.text, to: &out)
        appendRaw(",\"amount\":", to: &out)
        append(t.amount, to: &out)
        appendRaw(",\"fee\":", to: &out)
        if let fee = t.fee {
            appendRaw("{\"amount\":", to: &out)
            append(fee.amount, to: &out)
            appendRaw(",\"currency\":", to: &out)
            appendString(fee.currency.text, to: &out)
            out.append(UInt8(ascii: "}"))
        } else {
            appendRaw("null", to: &out)
        }
        appendRaw(",\"status\":\"", to: &out)
        out.append(utf8: t.status.rawValue)
        appendRaw("\",\"security\":", to: &out)
        append(t.security, to: &out)
        appendRaw(",\"note\":", to: &out)
        append(t.note, to: &out)
        appendRaw(",\"account\":", to: &out)
        append(t.account, to: &out)
        appendRaw(",\"counterparty\":", to: &out)
        append(t.counterparty, to: &out)
        appendRaw(",\"txHash\":", to: &out)
        append(t.txHash, to: &out)
        appendRaw(",\"address\":", to: &out)
        append(t.address, to: &out)
        appendRaw(",\"source\":", to: &out)
        appendLocation(location, to: &out)
    }

    public static func appendSkippedFields(_ s: SkippedRow, to out: inout ByteBuffer) {
        appendKey("source", to: &out)
        appendLocation(s.source, to: &out)
        appendRaw(",\"reason\":", to: &out)
        appendString(s.reason, to: &out)
    }

    public static func appendRejectedFields(_ r: RejectedRow, to out: inout ByteBuffer) {
        appendKey("source", to: &out)
        appendLocation(r.source, to: &out)
        appendRaw(",\"raw\":", to: &out)
        appendString(r.raw, to: &out)
        appendRaw(",\"errors\":[", to: &out)
        for (i, e) in r.errors.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            appendRaw("{\"column\":", to: &out)
            if let c = e.column { appendInt(c, to: &out) } else { appendRaw("null", to: &out) }
            appendRaw(",\"field\":", to: &out)
            append(e.field, to: &out)
            appendRaw(",\"message\":", to: &out)
            appendString(e.message, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    public static func appendWarningFields(_ w: ConversionWarning, to out: inout ByteBuffer) {
        appendKey("code", to: &out)
        appendString(w.code, to: &out)
        appendRaw(",\"message\":", to: &out)
        appendString(w.message, to: &out)
        appendRaw(",\"source\":", to: &out)
        if let s = w.source { appendLocation(s, to: &out) } else { appendRaw("null", to: &out) }
    }

    public static func appendSourceSummary(_ s: SourceSummary, to out: inout ByteBuffer) {
        appendRaw("{\"path\":", to: &out)
        appendString(s.path, to: &out)
        appendRaw(",\"format\":", to: &out)
        appendString(s.format, to: &out)
        appendRaw(",\"sha256\":", to: &out)
        appendString(s.sha256, to: &out)
        appendRaw(",\"rows\":", to: &out)
        appendInt(s.rows, to: &out)
        appendRaw(",\"operations\":", to: &out)
        appendInt(s.operations, to: &out)
        appendRaw(",\"skipped\":", to: &out)
        appendInt(s.skipped, to: &out)
        appendRaw(",\"rejected\":", to: &out)
        appendInt(s.rejected, to: &out)
        appendRaw(",\"duplicates\":", to: &out)
        appendInt(s.duplicates, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}
