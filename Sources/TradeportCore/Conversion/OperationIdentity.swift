import Crypto

/// How operations are identified: `<format>:<venue id>` when the source has an id, else a hash
/// of the normalized content plus the occurrence number of that content within its source.
public enum OperationIdentity {
    /// A hash of everything that makes an operation what it is (not its id, not where it was
    /// read), for telling a duplicate from a conflict within one process.
    public static func contentHash(_ operation: Operation) -> UInt64 {
        var h = FastHasher()
        switch operation {
        case .trade(let t):
            h.combine(0 as UInt64)
            h.combine(t.externalId)
            h.combine(t.time.secondsSinceEpoch)
            h.combine(t.side == .buy ? 1 as UInt64 : 2)
            h.combine(t.base.text)
            h.combine(t.quote.text)
            h.combine(t.quantity)
            h.combine(t.price)
            h.combine(t.amount)
            h.combine(t.accruedInterest)
            h.combine(UInt64(t.fees.count))
            for fee in t.fees {
                h.combine(fee.amount)
                h.combine(fee.currency.text)
                h.combine(fee.kind.rawValue)
            }
            h.combine(t.isin)
            h.combine(t.name)
            h.combine(t.venue)
            h.combine(t.settlementDate.map { UInt64(bitPattern: $0.daysSinceEpoch) } ?? .max)
            h.combine(t.account)
            h.combine(t.orderId)
        case .transaction(let t):
            h.combine(1 as UInt64)
            h.combine(t.externalId)
            h.combine(t.time.secondsSinceEpoch)
            h.combine(t.type.rawValue)
            h.combine(t.asset.text)
            h.combine(t.amount)
            h.combine(t.fee?.amount)
            h.combine(t.fee?.currency.text)
            h.combine(t.status.rawValue)
            h.combine(t.security)
            h.combine(t.note)
            h.combine(t.account)
            h.combine(t.counterparty)
            h.combine(t.txHash)
            h.combine(t.address)
        }
        return h.finalize()
    }

    /// Sets the operation's id. `occurrences` counts content-hashed operations within one source.
    static func assignId(to operation: inout Operation, format: String, occurrences: inout [String: Int]) {
        // The id is filled in where the adapter left it empty, in the operation's own storage:
        // the adapter's copy still references that storage, and a copy-on-write here would
        // duplicate every operation just to set one field.
        // An id the source carries (tradeport's own layouts write it) is kept: the operation is the
        // one it was when that id was given.
        switch operation {
        case .trade(let t):
            guard t.id.isEmpty else { return }
            t.storage.fields.id = id(format: format, externalId: t.externalId, content: { contentText(.trade(t)) }, occurrences: &occurrences)
        case .transaction(let t):
            guard t.id.isEmpty else { return }
            t.storage.fields.id = id(format: format, externalId: t.externalId, content: { contentText(.transaction(t)) }, occurrences: &occurrences)
        }
    }

    private static func id(format: String, externalId: String?, content: () -> [UInt8], occurrences: inout [String: Int]) -> String {
        if let externalId {
            var format = format, externalId = externalId
            return format.withUTF8 { f in
                externalId.withUTF8 { e in
                    String(unsafeUninitializedCapacity: f.count + 1 + e.count) { out in
                        _ = out.initialize(fromContentsOf: f)
                        out[f.count] = UInt8(ascii: ":")
                        _ = out[(f.count + 1)...].initialize(fromContentsOf: e)
                        return f.count + 1 + e.count
                    }
                }
            }
        }
        let hash = ByteBuffer.hex(SHA256.hash(data: content()).prefix(10))
        let n = (occurrences[hash] ?? 0) + 1
        occurrences[hash] = n
        return "\(format):~\(hash).\(n)"
    }

    /// The canonical JSON of the operation without its id and location: stable across runs.
    static func contentText(_ operation: Operation) -> [UInt8] {
        var out = ByteBuffer(capacity: 1024)
        defer { out.deallocate() }
        switch operation {
        case .trade(let t): CanonicalJSON.appendTradeFields(t, id: "", location: .nowhere, to: &out)
        case .transaction(let t): CanonicalJSON.appendTransactionFields(t, id: "", location: .nowhere, to: &out)
        }
        return out.array
    }
}
