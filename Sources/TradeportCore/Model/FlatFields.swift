/// A record's fields laid flat, one value per field in its table's order, without the record: what
/// a reader fills row after row (the same array) when it hands on prepared operations, and what
/// the JSON writer, the content hash and the balance changes read as they read the record.
public struct FlatFields<Record: CanonicalRecord> {
    public var values: [FieldValue]

    public init() {
        values = Array(repeating: .null, count: Record.layout.fields.count)
    }

    /// The record itself (made only where a prepared operation cannot be: see `OperationPreparation`).
    public var record: Record {
        var i = 0
        return Record.make { _ in
            defer { i += 1 }
            return values[i]
        }
    }
}

/// Where each field of a trade sits in its table (`Trade.layout`), for reading `FlatFields<Trade>`.
enum TradeFieldIndex {
    static func of(_ field: TradeField) -> Int { Trade.layout.fields.firstIndex(of: field)! }
    static let id = of(.id), externalId = of(.externalId), time = of(.time), side = of(.side), base = of(.base)
    static let quote = of(.quote), quantity = of(.quantity), price = of(.price), amount = of(.amount)
    static let accruedInterest = of(.accruedInterest), fees = of(.fees), account = of(.account), source = of(.source)
}
