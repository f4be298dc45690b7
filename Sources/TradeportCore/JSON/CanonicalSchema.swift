/// The JSON Schema of an operation kind's fields, derived from its field table: what
/// `schema/tradeport.schema.json` holds under `$defs.trade`, `$defs.transaction` and their JSON
/// Lines forms (a test holds the published file equal to it). The rest of the schema (the
/// document, its summaries, skipped and rejected rows) is written by hand beside it.
public enum CanonicalSchema {
    /// The schema of one field's value: a reference to one of the published `$defs`, an
    /// enumeration of words, or an array of fees; null allowed when the field is optional.
    public static func property(_ definition: FieldDefinition) -> JSONValue {
        let value: JSONValue
        switch definition.type {
        case .id: value = ref("id")
        case .text:
            return .object([("type", definition.presence == .optional ? .array([.string("string"), .string("null")]) : .string("string"))])
        case .asset: value = ref("assetCode")
        case .decimal(.any): value = ref("decimal")
        case .decimal(.nonNegative): value = ref("nonNegativeDecimal")
        case .decimal(.positive): value = ref("positiveDecimal")
        case .time: value = ref("time")
        case .date: value = ref("date")
        case .choice(let words): value = .object([("enum", .array(words.map { .string($0) }))])
        case .tradeFees: value = .object([("type", .string("array")), ("items", ref("fee"))])
        case .cashFee: value = ref("cashFee")
        case .location: value = ref("location")
        }
        guard definition.presence == .optional else { return value }
        return .object([("anyOf", .array([.object([("type", .string("null"))]), value]))])
    }

    /// The `properties` of an operation of the kind whose table is `table`; with `line`, those of
    /// its JSON Lines form (`kind` and `portfolio` first).
    public static func properties(_ table: [FieldEntry], line kind: OperationKind? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let kind {
            members.append(("kind", .object([("const", .string(kind.rawValue))])))
            members.append(("portfolio", ref("portfolioName")))
        }
        for entry in table { members.append((entry.name, property(entry.definition))) }
        return .object(members)
    }

    /// The members every operation of the kind has: all of its fields, except those added after
    /// the model's first version (written only when they have a value).
    public static func required(_ table: [FieldEntry], line kind: OperationKind? = nil) -> JSONValue {
        let names = (kind == nil ? [] : ["kind", "portfolio"]) + table.filter { $0.definition.since == 1 }.map(\.name)
        return .array(names.map { .string($0) })
    }

    private static func ref(_ name: String) -> JSONValue { .object([("$ref", .string("#/$defs/\(name)"))]) }
}
