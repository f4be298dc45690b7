import TradeportCore

/// What the batch endpoint answers: the records it created and those it already held.
public struct BatchAnswer<Record: Sendable>: Sendable {
    public var created: [Record]
    public var existing: [Record]

    public init(created: [Record], existing: [Record]) {
        self.created = created
        self.existing = existing
    }
}
