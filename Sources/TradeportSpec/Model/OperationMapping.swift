/// Canonical field → where its value comes from.
public struct OperationMapping: Sendable, Equatable {
    public var fields: [(name: String, source: FieldSource)]
    /// Fees (trades): each an amount, a currency and a kind.
    public var fees: [FeeMapping]
    public var location: SpecLocation

    public static func == (a: OperationMapping, b: OperationMapping) -> Bool {
        a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.source) == b.fields.map(\.source)
            && a.fees == b.fees && a.location == b.location
    }

    public func source(of field: String) -> FieldSource? { fields.first { $0.name == field }?.source }
}
