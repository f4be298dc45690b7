import TradeportBalances

/// What a server portfolio lacks of `records`, by value id: what push sends, and what a dry run
/// prints.
public struct MissingRecords<R: OperationRecord>: Sendable {
    /// The records whose value id the portfolio does not hold (and those without a value id).
    public var missing: [R] = []
    /// The records it already holds.
    public var present = 0
    /// Of those, the ones it holds more than once.
    public var heldTwice = 0

    /// `held`: the value ids the portfolio holds, one per stored record (as
    /// `BalancesClient.valueIds` answers them).
    public init(_ records: [R], held: [String?]) {
        self.init(records, counts: Self.counts(held))
    }

    /// `counts`: how many stored records hold each value id (`counts(_:)`).
    public init(_ records: [R], counts: [String: Int]) {
        let lacking = MissingEncoded(valueIds: records.map(\.valueId), counts: counts)
        missing = lacking.missing.map { records[$0] }
        present = lacking.present
        heldTwice = lacking.heldTwice
    }

    /// How many of `held` hold each value id.
    public static func counts(_ held: [String?]) -> [String: Int] {
        var ids: [String: Int] = [:]
        ids.reserveCapacity(held.count)
        for v in held { if let v { ids[v, default: 0] += 1 } }
        return ids
    }
}

/// What a server portfolio lacks of a batch's records (`EncodedRecords`), by value id: the
/// positions of those to send, in order. `MissingRecords` is decided by it.
public struct MissingEncoded: Sendable {
    /// The positions of the records whose value id the portfolio does not hold (and those without one).
    public var missing: [Int] = []
    public var present = 0
    public var heldTwice = 0

    /// `counts`: how many stored records hold each value id (`MissingRecords.counts`).
    public init(_ records: EncodedRecords, counts: [String: Int]) {
        self.init(valueIds: records.valueIds, counts: counts)
    }

    /// Of records with these value ids: which the portfolio lacks, by position.
    init(valueIds: [String?], counts: [String: Int]) {
        for (i, v) in valueIds.enumerated() {
            guard let v, let n = counts[v] else {
                missing.append(i)
                continue
            }
            present += 1
            if n > 1 { heldTwice += 1 }
        }
    }
}
