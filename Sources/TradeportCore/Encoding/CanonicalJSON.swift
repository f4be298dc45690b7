/// The canonical model written as JSON bytes, field by field in the contract's order.
///
/// Hand-written rather than `JSONEncoder` because it runs once per operation on million-row
/// inputs; `Tests/TradeportCoreTests` decodes what it writes and checks it against the schema.
public enum CanonicalJSON {
    /// Appends `text` as a JSON string literal.
    public static func appendString(_ text: String, to out: inout OutputBuffer) {
        var text = text
        text.withUTF8 { appendString(UnsafeRawBufferPointer($0), to: &out) }
    }

    /// Appends UTF-8 `bytes` as a JSON string literal.
    public static func appendString(_ bytes: UnsafeRawBufferPointer, to out: inout OutputBuffer) {
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
            out.append(bytes)
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

    @inline(__always)
    static func appendKey(_ key: StaticString, to out: inout OutputBuffer) {
        out.append(UInt8(ascii: "\""))
        out.append(key)
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    @inline(__always)
    public static func appendRaw(_ text: StaticString, to out: inout OutputBuffer) {
        out.append(text)
    }

    /// `text` as a JSON string, or `null`.
    @inline(__always)
    public static func append(_ text: String?, to out: inout OutputBuffer) {
        if let text { appendString(text, to: &out) } else { out.append("null") }
    }

    @inline(__always)
    static func append(_ value: ExactDecimal?, to out: inout OutputBuffer) {
        if let value {
            out.append(UInt8(ascii: "\""))
            value.appendText(to: &out)
            out.append(UInt8(ascii: "\""))
        } else {
            out.append("null")
        }
    }

    @inline(__always)
    static func appendInt(_ value: Int, to out: inout OutputBuffer) {
        out.appendInt(value)
    }

    /// `{"path": …, "row": …, "sheet": …}`
    public static func appendLocation(_ location: SourceLocation, to out: inout OutputBuffer) {
        appendLocationHead(path: location.path, to: &out)
        appendLocationTail(row: location.row, sheet: location.sheet, to: &out)
    }

    /// What `appendLocation` writes before the row: the same for every row of a source, so a
    /// reader that writes many may keep it (`locationHead`).
    public static func appendLocationHead(path: String, to out: inout OutputBuffer) {
        appendRaw("{\"path\":", to: &out)
        appendString(path, to: &out)
        appendRaw(",\"row\":", to: &out)
    }

    /// `appendLocationHead`'s bytes.
    public static func locationHead(path: String) -> [UInt8] {
        var out = OutputBuffer(capacity: path.utf8.count + 32)
        appendLocationHead(path: path, to: &out)
        return out.array
    }

    /// What `appendLocation` writes from the row on.
    public static func appendLocationTail(row: Int, sheet: String?, to out: inout OutputBuffer) {
        appendInt(row, to: &out)
        appendRaw(",\"sheet\":", to: &out)
        append(sheet, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The fields of an operation (without braces), after an optional prefix such as `"kind":…`.
    public static func appendOperationFields(_ operation: PortfolioOperation, to out: inout OutputBuffer) {
        appendOperationFields(operation, id: nil, to: &out)
    }

    /// The fields of an operation, with `id` written as its id when given (see `appendFields(of:id:to:)`).
    public static func appendOperationFields(_ operation: PortfolioOperation, id: UnsafeRawBufferPointer?, to out: inout OutputBuffer) {
        switch operation {
        case .trade(let t): appendFields(of: t, id: id, to: &out)
        case .transaction(let t): appendFields(of: t, id: id, to: &out)
        case .movement(let m): appendFields(of: m, id: id, to: &out)
        }
    }

    /// An operation as one line of JSON Lines: `{"kind":…,"portfolio":…,` its fields `}` and a line
    /// break. `id`: the id to write instead of the operation's own (nil: its own).
    public static func appendLine(
        _ operation: PortfolioOperation, id: UnsafeRawBufferPointer? = nil, portfolio: String,
        to out: inout OutputBuffer
    ) {
        appendLine(operation.kind, portfolio: portfolio, to: &out) { appendOperationFields(operation, id: id, to: &$0) }
    }

    /// A line of JSON Lines around the fields `fields` writes.
    @inline(__always)
    public static func appendLine(_ kind: OperationKind, portfolio: String, to out: inout OutputBuffer, fields: (inout OutputBuffer) -> Void) {
        switch kind {
        case .trade: appendRaw("{\"kind\":\"trade\",\"portfolio\":", to: &out)
        case .transaction: appendRaw("{\"kind\":\"transaction\",\"portfolio\":", to: &out)
        case .movement: appendRaw("{\"kind\":\"movement\",\"portfolio\":", to: &out)
        }
        appendString(portfolio, to: &out)
        out.append(UInt8(ascii: ","))
        fields(&out)
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: "\n"))
    }

    /// Every field of `record` in the table's order, as `"name":value` members separated by commas.
    @_specialize(where Record == Trade)
    @_specialize(where Record == CashTransaction)
    @_specialize(where Record == Movement)
    public static func appendFields<Record: CanonicalRecord>(of record: Record, to out: inout OutputBuffer) {
        appendFields(of: record, id: nil, to: &out)
    }

    /// Every field of `record`, as `appendFields(of:to:)` writes them, with `id` written as the id
    /// when it is given (the id the conversion gives a record read without one).
    @_specialize(where Record == Trade)
    @_specialize(where Record == CashTransaction)
    @_specialize(where Record == Movement)
    public static func appendFields<Record: CanonicalRecord>(of record: Record, id: UnsafeRawBufferPointer?, to out: inout OutputBuffer) {
        let layout = Record.layout
        let idField = id == nil ? -1 : layout.idField ?? -1
        for i in layout.fields.indices {
            if i == idField, let id {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                layout.appendKey(i, to: &out)
                appendString(id, to: &out)
                continue
            }
            let value = record[layout.fields[i]]
            // A field added after the model's first version is written only when it has a value.
            if layout.since[i] > 1 && value.isEmpty { continue }
            if i > 0 { out.append(UInt8(ascii: ",")) }
            layout.appendKey(i, to: &out)
            appendValue(value, to: &out)
        }
    }

    /// What an operation is without where it was read and the id it was given: the members of its
    /// canonical JSON, with the id written as `""` and the location as an empty one, and a field
    /// added to the model after its first version only when it has a value (so that the content
    /// ids of operations without it stay as they were). The text content ids are hashed from.
    @_specialize(where Record == Trade)
    @_specialize(where Record == CashTransaction)
    @_specialize(where Record == Movement)
    public static func appendContentFields<Record: CanonicalRecord>(of record: Record, to out: inout OutputBuffer) {
        let layout = Record.layout
        var first = true
        for i in layout.fields.indices {
            let identity = layout.identity[i]
            let value = identity ? record[layout.fields[i]] : FieldValue.null
            if layout.since[i] > 1 && (!identity || value.isEmpty) { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            layout.appendKey(i, to: &out)
            if identity {
                appendValue(value, to: &out)
            } else {
                switch layout.definitions[i].type {
                case .id: out.append("\"\"")
                case .location: appendLocation(.nowhere, to: &out)
                default: out.append("null")
                }
            }
        }
    }

    /// One field's value as JSON.
    public static func appendValue(_ value: FieldValue, to out: inout OutputBuffer) {
        switch value {
        case .null: out.append("null")
        case .text(let text): appendString(text, to: &out)
        case .asset(let code): appendString(code.text, to: &out)
        case .decimal(let d): append(d, to: &out)
        case .time(let t):
            out.append(UInt8(ascii: "\""))
            t.appendRFC3339(to: &out)
            out.append(UInt8(ascii: "\""))
        case .date(let d):
            out.append(UInt8(ascii: "\""))
            d.appendISO(to: &out)
            out.append(UInt8(ascii: "\""))
        case .tradeFees(let fees):
            out.append(UInt8(ascii: "["))
            for (i, fee) in fees.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendRaw("{\"amount\":", to: &out)
                append(fee.amount, to: &out)
                appendRaw(",\"currency\":", to: &out)
                appendString(fee.currency.text, to: &out)
                appendRaw(",\"kind\":", to: &out)
                appendString(fee.kind.rawValue, to: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        case .cashFee(let fee):
            appendRaw("{\"amount\":", to: &out)
            append(fee.amount, to: &out)
            appendRaw(",\"currency\":", to: &out)
            appendString(fee.currency.text, to: &out)
            out.append(UInt8(ascii: "}"))
        case .location(let location): appendLocation(location, to: &out)
        }
    }

    public static func appendSkippedFields(_ s: SkippedRow, to out: inout OutputBuffer) {
        appendKey("source", to: &out)
        appendLocation(s.source, to: &out)
        appendRaw(",\"reason\":", to: &out)
        appendString(s.reason, to: &out)
    }

    public static func appendRejectedFields(_ r: RejectedRow, to out: inout OutputBuffer) {
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

    public static func appendWarningFields(_ w: ConversionWarning, to out: inout OutputBuffer) {
        appendKey("code", to: &out)
        appendString(w.code, to: &out)
        appendRaw(",\"message\":", to: &out)
        appendString(w.message, to: &out)
        appendRaw(",\"source\":", to: &out)
        if let s = w.source { appendLocation(s, to: &out) } else { appendRaw("null", to: &out) }
    }

    /// A balance check's members (without braces): path, asset, type (its kind), opening, operations, count,
    /// closing, difference, reconciles, statement, rows.
    public static func appendBalanceCheckFields(_ c: BalanceCheck, to out: inout OutputBuffer) {
        appendKey("path", to: &out)
        appendString(c.path, to: &out)
        appendRaw(",\"asset\":", to: &out)
        appendString(c.asset, to: &out)
        appendRaw(",\"type\":", to: &out)
        appendString(c.kind.rawValue, to: &out)
        appendRaw(",\"opening\":", to: &out)
        append(c.opening, to: &out)
        appendRaw(",\"operations\":", to: &out)
        append(c.operations, to: &out)
        appendRaw(",\"count\":", to: &out)
        appendInt(c.count, to: &out)
        appendRaw(",\"closing\":", to: &out)
        append(c.closing, to: &out)
        appendRaw(",\"difference\":", to: &out)
        append(c.difference, to: &out)
        appendRaw(c.reconciles ? ",\"reconciles\":true,\"statement\":" : ",\"reconciles\":false,\"statement\":", to: &out)
        if let s = c.statement { appendLocation(s, to: &out) } else { appendRaw("null", to: &out) }
        appendRaw(",\"rows\":[", to: &out)
        for (i, row) in c.rows.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            appendInt(row, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    public static func appendSourceSummary(_ s: SourceSummary, to out: inout OutputBuffer) {
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
        // Only where a source has them: every other source's summary is as it always was.
        if s.merged != 0 {
            appendRaw(",\"merged\":", to: &out)
            appendInt(s.merged, to: &out)
        }
        if s.extra != 0 {
            appendRaw(",\"extra\":", to: &out)
            appendInt(s.extra, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
