import Crypto

/// How operations are identified: `<format>:<venue id>` when the source has an id, else a hash
/// of the normalized content plus the occurrence number of that content within its source.
/// What counts as content is the field table's `identity` column.
public enum OperationIdentity {
    /// A hash of everything that makes an operation what it is (its identity fields: not its id,
    /// not where it was read), for telling a duplicate from a conflict within one process.
    public static func contentHash(_ operation: PortfolioOperation) -> UInt64 {
        var h = FastHasher()
        switch operation {
        case .trade(let t):
            h.combine(0 as UInt64)
            combineIdentity(of: t, into: &h)
        case .transaction(let t):
            h.combine(1 as UInt64)
            combineIdentity(of: t, into: &h)
        case .movement(let m):
            h.combine(2 as UInt64)
            combineIdentity(of: m, into: &h)
        }
        return h.finalize()
    }

    /// Combines every identity field of `record` into `h`, each with its position in the table.
    public static func combineIdentity<Record: CanonicalRecord>(of record: Record, into h: inout FastHasher) {
        let layout = Record.layout
        for i in layout.fields.indices where layout.identity[i] {
            h.combine(UInt64(i))
            h.combine(record[layout.fields[i]])
        }
    }

    /// The id an operation read without one gets (one that carries an id, as tradeport's own
    /// layouts write it, keeps it: the operation is the one it was when that id was given).
    /// `occurrences` counts content-hashed operations within one source.
    static func id(for operation: PortfolioOperation, format: String, occurrences: inout [String: Int]) -> String {
        id(format: format, externalId: operation.externalId, content: { contentText(operation) }, occurrences: &occurrences)
    }

    private static func id(format: String, externalId: String?, content: () -> [UInt8], occurrences: inout [String: Int]) -> String {
        if let externalId { return format + ":" + externalId }
        let hash = OutputBuffer.hex(SHA256.hash(data: content()).prefix(10))
        let n = (occurrences[hash] ?? 0) + 1
        occurrences[hash] = n
        return "\(format):~\(hash).\(n)"
    }

    /// The canonical JSON of the operation's content (`CanonicalJSON.appendContentFields`): stable
    /// across runs.
    static func contentText(_ operation: PortfolioOperation) -> [UInt8] {
        var out = OutputBuffer(capacity: 1024)
        switch operation {
        case .trade(let t): CanonicalJSON.appendContentFields(of: t, to: &out)
        case .transaction(let t): CanonicalJSON.appendContentFields(of: t, to: &out)
        case .movement(let m): CanonicalJSON.appendContentFields(of: m, to: &out)
        }
        return out.array
    }
}

extension FastHasher {
    /// A text field's value (`.text`), as `combine(_: FieldValue)` takes it.
    @inline(__always)
    public mutating func combineText(_ text: String) {
        combine(1 as UInt64)
        combine(text)
    }

    /// A text field's value given as its UTF-8 bytes: `combineText` of the text they hold.
    @inline(__always)
    public mutating func combineText(_ bytes: UnsafeRawBufferPointer) {
        combine(1 as UInt64)
        combine(bytes)
    }

    /// A field's value, its kind marked so that values of different kinds never collide.
    @inline(__always)
    public mutating func combine(_ value: FieldValue) {
        switch value {
        case .null: combine(0xFFFF_FFFF_FFFF_FFFF as UInt64)
        case .text(let t): combineText(t)
        case .asset(let a):
            combine(2 as UInt64)
            combine(a.text)
        case .decimal(let d):
            combine(3 as UInt64)
            combine(d)
        case .time(let t):
            // Whole seconds hash as they always did (ids stay stable); a fraction is marked apart.
            if t.nanoseconds == 0 {
                combine(4 as UInt64)
                combine(t.secondsSinceEpoch)
            } else {
                combine(12 as UInt64)
                combine(t.secondsSinceEpoch)
                combine(UInt64(t.nanoseconds))
            }
        case .date(let d):
            combine(5 as UInt64)
            combine(UInt64(bitPattern: d.daysSinceEpoch))
        case .tradeFees(let fees):
            combine(6 as UInt64)
            combine(UInt64(fees.count))
            for fee in fees {
                combine(fee.amount)
                combine(fee.currency.text)
                combine(fee.kind.rawValue)
            }
        case .cashFee(let fee):
            combine(7 as UInt64)
            combine(fee.amount)
            combine(fee.currency.text)
        case .location(let l):
            combine(8 as UInt64)
            combine(l.path)
            combine(Int64(l.row))
            combine(l.sheet)
        }
    }
}
