import Foundation
import Testing
import TradeportBalances
import TradeportCore
import TradeportFormats

@testable import TradeportSpec

/// A canonical field is declared once, in its kind's table (`TradeField`, `TransactionField`), and
/// everything else derives from it. A new case in a table without its stored property fails the
/// build (`Trade.Fields`'s accessor switches are exhaustive); what follows shows that a field added
/// to a table and nowhere else reaches every place a field is used, and that the published
/// artefacts (the JSON Schema, the own-layout specs, the manual's balances list) are the derived ones.
@Suite("One field table")
struct FieldTableTests {
    /// A kind like a trade with one field more than any real one: a bond's price quoted in percent.
    enum BondField: String, CanonicalField {
        case id, time, base, quantity, price, pricePercent, source

        var definition: FieldDefinition {
            switch self {
            case .id: return .init(.id, .required, identity: false, assigned: true, "id")
            case .time: return .init(.time, .required, "when")
            case .base: return .init(.asset, .required, "what")
            case .quantity: return .init(.decimal(.positive), .required, "how many")
            case .price: return .init(.decimal(.nonNegative), .required, "per unit")
            case .pricePercent: return .init(.decimal(.positive), .optional, "the price quoted in percent of nominal")
            case .source: return .init(.location, .required, identity: false, assigned: true, "where")
            }
        }
    }

    /// A record stored as its table's values: nothing about `pricePercent` is written here.
    struct Bond: CanonicalRecord {
        var values: [FieldValue]
        static let kind = OperationKind.trade
        static let layout = RecordLayout<Bond>()
        static var placeholder: Bond { Bond(values: BondField.allCases.map { _ in .null }) }
        subscript(field: BondField) -> FieldValue {
            get { values[BondField.allCases.firstIndex(of: field)!] }
            set { values[BondField.allCases.firstIndex(of: field)!] = newValue }
        }
        static func make<E: Error>(_ value: (BondField) throws(E) -> FieldValue) throws(E) -> Bond {
            var b = placeholder
            for field in BondField.allCases { b[field] = try value(field) }
            return b
        }
    }

    static func bond(percent: String?) -> Bond {
        Bond.make { field in
            switch field {
            case .id: return .text("bonds:1")
            case .time: return .time(Timestamp(secondsSinceEpoch: 1_600_000_000))
            case .base: return .asset(AssetCode("SU26238")!)
            case .quantity: return .decimal(ExactDecimal(2))
            case .price: return .decimal(ExactDecimal("1015"))
            case .pricePercent: return .decimal(percent.map { ExactDecimal($0) })
            case .source: return .location(SourceLocation(path: "b.csv", row: 2))
            }
        }
    }

    static func json(_ record: Bond, content: Bool = false) -> String {
        var out = OutputBuffer(capacity: 256)
        if content { CanonicalJSON.appendContentFields(of: record, to: &out) } else { CanonicalJSON.appendFields(of: record, to: &out) }
        return String(decoding: out.array, as: UTF8.self)
    }

    @Test("a field added to a table reaches the JSON writer and reader, the content hash and text, the columns, the specs, the schema and the balances mapping")
    func anAddedFieldReachesEveryUse() throws {
        let bond = Self.bond(percent: "101.5")
        // The canonical JSON writer and reader.
        let text = Self.json(bond)
        #expect(text.contains(#""pricePercent":"101.5""#))
        #expect(try Bond(json: JSONValue.parse(Array(("{" + text + "}").utf8))) == bond)
        // The content hash and the content text behind ids: a different percent is a different operation.
        func hash(_ b: Bond) -> UInt64 {
            var h = FastHasher()
            OperationIdentity.combineIdentity(of: b, into: &h)
            return h.finalize()
        }
        #expect(hash(bond) != hash(Self.bond(percent: "101.6")))
        #expect(hash(bond) != hash(Self.bond(percent: nil)))
        #expect(Self.json(bond, content: true).contains(#""pricePercent":"101.5""#))
        // The own CSV/XLSX columns, and the specs that read them back.
        let columns = OperationColumns.columns(for: [BondField.table])
        #expect(columns.map(\.name).contains("pricePercent"))
        let spec = OwnLayoutSpecs.text(.csv, columns: columns, tables: [.trade: BondField.table])
        #expect(spec.contains("  - {name: pricePercent, header: pricePercent, type: decimal, check: positive, required: false}\n"))
        #expect(spec.contains("\n  pricePercent: pricePercent\n"))
        // The spec language's vocabulary.
        #expect(SpecParser.mappable(BondField.table).contains("pricePercent"))
        // The JSON Schema.
        #expect(
            CanonicalSchema.properties(BondField.table)["pricePercent"]
                == .object([("anyOf", .array([.object([("type", .string("null"))]), .object([("$ref", .string("#/$defs/positiveDecimal"))])]))]))
        #expect(CanonicalSchema.required(BondField.table) == .array(["id", "time", "base", "quantity", "price", "pricePercent", "source"].map { .string($0) }))
        // The balances mapping's list of what the server does not carry.
        #expect(BalancesMapping.notCarried(.trade, table: BondField.table) == ["pricePercent"])
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test("the published JSON Schema's operations are the ones derived from the tables", arguments: OperationKind.allCases)
    func theSchemaIsDerived(_ kind: OperationKind) throws {
        let schema = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Self.root + "/schema/tradeport.schema.json"))))
        let defs = try #require(schema["$defs"])
        let record = try #require(defs[kind.rawValue])
        let line = try #require(defs[kind.rawValue + "Line"])
        #expect(record["properties"] == CanonicalSchema.properties(kind.fields))
        #expect(record["required"] == CanonicalSchema.required(kind.fields))
        #expect(line["properties"] == CanonicalSchema.properties(kind.fields, line: kind))
        #expect(line["required"] == CanonicalSchema.required(kind.fields, line: kind))
    }

    @Test("the model's stored fields are its tables' fields")
    func storedFieldsAreTheTables() {
        let source = SourceLocation(path: "x", row: 1)
        let trade = Trade(
            externalId: nil, time: Timestamp(secondsSinceEpoch: 0), side: .buy, base: AssetCode("A")!,
            quote: AssetCode("B")!, quantity: ExactDecimal(1), price: ExactDecimal(1), amount: nil, source: source)
        let transaction = CashTransaction(
            externalId: nil, time: Timestamp(secondsSinceEpoch: 0), type: .deposit,
            asset: AssetCode("A")!, amount: ExactDecimal(1), source: source)
        #expect(Mirror(reflecting: trade.fields).children.map(\.label) == TradeField.allCases.map(\.rawValue))
        #expect(Mirror(reflecting: transaction.fields).children.map(\.label) == TransactionField.allCases.map(\.rawValue))
        let movement = Movement(
            externalId: nil, time: Timestamp(secondsSinceEpoch: 0), direction: .in, asset: AssetCode("A")!,
            quantity: ExactDecimal(1), reason: .transfer, source: source)
        #expect(Mirror(reflecting: movement.fields).children.map(\.label) == MovementField.allCases.map(\.rawValue))
        #expect(SpecParser.tradeFields == TradeField.allCases.filter { $0 != .source }.map(\.rawValue) + ["portfolio"])
    }

    @Test("the manual's list of what the server does not carry is the derived one")
    func theManualListsWhatIsNotCarried() throws {
        let manual = try String(contentsOfFile: Self.root + "/docs/push-and-serve.md", encoding: .utf8)
        #expect(manual.contains(BalancesMapping.notCarriedSummary), "docs/push-and-serve.md should say: \(BalancesMapping.notCarriedSummary)")
    }
}
