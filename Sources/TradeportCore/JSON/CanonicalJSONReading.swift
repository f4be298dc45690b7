/// Why a JSON value is not what a canonical field or operation must be: a kind, the field, and what
/// is wrong.
public struct CanonicalJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem (new kinds may be added).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// A required member is absent or null.
        public static let missing = Kind(name: "missing")
        /// A member of the wrong JSON type (a number where a string goes).
        public static let wrongType = Kind(name: "wrong type")
        /// A member of the right type whose value the field does not take.
        public static let invalidValue = Kind(name: "invalid value")
    }

    public var kind: Kind
    /// The field (`fees[1].kind`), or nil for the whole value.
    public var field: String?
    public var message: String

    public init(_ kind: Kind = .invalidValue, field: String?, _ message: String) {
        self.kind = kind
        self.field = field
        self.message = message
    }

    public var description: String { field.map { "\($0): \(message)" } ?? message }
}

extension CanonicalRecord {
    /// Reads a record from its canonical JSON object, field by field as the table says. A member
    /// an optional field lacks is null (a document written before the field was added); members
    /// the table does not name (`kind`, `portfolio` of JSON Lines) are left alone.
    public init(json: JSONValue) throws(CanonicalJSONError) {
        guard case .object = json else { throw CanonicalJSONError(.wrongType, field: nil, "expected an object, found \(json.kind)") }
        let layout = Self.layout
        var index = 0
        self = try Self.make { field throws(CanonicalJSONError) in
            defer { index += 1 }
            return try FieldValue(json: json[field.rawValue], field: field.rawValue, definition: layout.definitions[index])
        }
    }
}

extension FieldValue {
    /// The value of a field from its JSON member (`nil` when the member is absent), checked
    /// against the field's definition.
    public init(json: JSONValue?, field: String, definition: FieldDefinition) throws(CanonicalJSONError) {
        func fail(_ message: String) -> CanonicalJSONError { CanonicalJSONError(field: field, message) }
        func fail(_ kind: CanonicalJSONError.Kind, _ message: String) -> CanonicalJSONError { CanonicalJSONError(kind, field: field, message) }
        guard let json, json != .null else {
            if definition.presence == .optional {
                self = .null
                return
            }
            if case .id = definition.type {
                // An operation not yet given its id (a reader's record before the conversion).
                self = .text("")
                return
            }
            throw fail(.missing, "missing; expected \(Self.expectation(definition.type))")
        }
        func string() throws(CanonicalJSONError) -> String {
            guard case .string(let s) = json else { throw fail(.wrongType, "expected \(Self.expectation(definition.type)), found \(json.kind)") }
            return s
        }
        switch definition.type {
        case .id, .text:
            self = .text(try string())
        case .choice(let words):
            let s = try string()
            guard words.contains(s) else { throw fail("'\(s)' is not one of \(words.joined(separator: ", "))") }
            self = .text(s)
        case .asset:
            self = .asset(try Self.asset(try string(), fail))
        case .decimal(let sign):
            let d = try Self.decimal(try string(), fail)
            guard sign.admits(d) else { throw fail("'\(d)' is not \(sign.requirement)") }
            self = .decimal(d)
        case .time:
            let s = try string()
            guard let t = Timestamp(rfc3339: s) else { throw fail("'\(s)' is not an RFC 3339 time with an offset") }
            self = .time(t)
        case .date:
            let s = try string()
            guard let d = CalendarDate(iso: s) else { throw fail("'\(s)' is not a date YYYY-MM-DD") }
            self = .date(d)
        case .tradeFees:
            guard case .array(let items) = json else { throw fail(.wrongType, "expected a list of fees, found \(json.kind)") }
            var fees: [TradeFee] = []
            for (n, item) in items.enumerated() {
                func failFee(_ message: String) -> CanonicalJSONError { CanonicalJSONError(field: "\(field)[\(n)]", message) }
                guard case .string(let amount)? = item["amount"], case .string(let currency)? = item["currency"],
                    case .string(let kindText)? = item["kind"]
                else { throw CanonicalJSONError(.wrongType, field: "\(field)[\(n)]", "expected {\"amount\": decimal, \"currency\": asset, \"kind\": …}") }
                guard let kind = FeeKind(rawValue: kindText) else {
                    throw failFee("kind: '\(kindText)' is not one of \(FeeKind.words.joined(separator: ", "))")
                }
                let value = try Self.decimal(amount, failFee)
                guard !value.isNegative else { throw failFee("amount: '\(amount)' is negative") }
                fees.append(TradeFee(amount: value, currency: try Self.asset(currency, failFee), kind: kind))
            }
            self = .tradeFees(fees)
        case .cashFee:
            guard case .string(let amount)? = json["amount"], case .string(let currency)? = json["currency"] else {
                throw fail(.wrongType, "expected {\"amount\": decimal, \"currency\": asset} or null")
            }
            let value = try Self.decimal(amount, fail)
            guard !value.isNegative else { throw fail("amount: '\(amount)' is negative") }
            self = .cashFee(CashFee(amount: value, currency: try Self.asset(currency, fail)))
        case .location:
            guard case .string(let path)? = json["path"], case .number(let rowText)? = json["row"], let row = Int(rowText) else {
                throw fail(.wrongType, "expected {\"path\": text, \"row\": number, \"sheet\": text or null}")
            }
            var sheet: String?
            if case .string(let s)? = json["sheet"] { sheet = s }
            self = .location(SourceLocation(path: path, row: row, sheet: sheet))
        }
    }

    private static func asset(_ text: String, _ fail: (String) -> CanonicalJSONError) throws(CanonicalJSONError) -> AssetCode {
        guard let code = AssetCode(text), code.text == text else {
            throw fail("'\(text)' is not an asset code (\(AssetCode.rule), upper case)")
        }
        return code
    }

    private static func decimal(_ text: String, _ fail: (String) -> CanonicalJSONError) throws(CanonicalJSONError) -> ExactDecimal {
        switch ExactDecimal.parse(text, style: .canonical) {
        case .success(let d): return d
        case .failure(let e): throw fail("'\(text)': \(e.message)")
        }
    }

    /// What a value of `type` looks like, for messages.
    static func expectation(_ type: FieldValueType) -> String {
        switch type {
        case .id: return "an id"
        case .text: return "a text"
        case .asset: return "an asset code"
        case .decimal: return "a decimal as a string"
        case .time: return "an RFC 3339 time"
        case .date: return "a date YYYY-MM-DD"
        case .choice(let words): return "one of \(words.joined(separator: ", "))"
        case .tradeFees: return "a list of fees"
        case .cashFee: return "a fee"
        case .location: return "a location"
        }
    }
}

extension JSONValue: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Any JSON through a `Decoder` (Foundation's `JSONDecoder`), for decoding canonical operations:
    /// their numbers are integers (rows), kept as their text; any other number is an error, never
    /// read through a binary float (the canonical JSON writes decimals as strings).
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [(key: String, value: JSONValue)] = []
            for key in keyed.allKeys { members.append((key.stringValue, try keyed.decode(JSONValue.self, forKey: key))) }
            self = .object(members)
            return
        }
        if var list = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !list.isAtEnd { items.append(try list.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let b = try? single.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? single.decode(Int64.self) {
            self = .number(String(i))
        } else if let s = try? single.decode(String.self) {
            self = .string(s)
        } else {
            throw DecodingError.dataCorruptedError(
                in: single, debugDescription: "expected an integer, a text, true, false or null (canonical JSON writes decimals as strings)")
        }
    }
}

extension Trade: Decodable {
    public init(from decoder: any Decoder) throws { try self.init(json: JSONValue(from: decoder)) }
}

extension CashTransaction: Decodable {
    public init(from decoder: any Decoder) throws { try self.init(json: JSONValue(from: decoder)) }
}

extension Movement: Decodable {
    public init(from decoder: any Decoder) throws { try self.init(json: JSONValue(from: decoder)) }
}
