import TradeportCore

/// A member's value as the record readers take it: the text of a string or of a number, or
/// another kind (named for messages). A null member is an absent one.
enum MemberValue {
    case string(String)
    case number(String)
    case other(kind: String)
}

/// Where a record's members come from: a parsed `JSONValue` object, or a batch read straight from
/// its bytes (`RecordBatch`). Both answer a repeated key with its last value.
protocol MemberSource {
    /// The member named `key`; nil when it is absent or null.
    func member(_ key: String) -> MemberValue?
}

/// A `JSONValue` object's members.
struct TreeMembers: MemberSource {
    let object: JSONValue

    func member(_ key: String) -> MemberValue? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let s)?: return .string(s)
        case .number(let n)?: return .number(n)
        case let other?: return .other(kind: other.kind)
        }
    }
}

/// Reads the members of a JSON object, naming the field in every error.
struct ObjectReader<Source: MemberSource> {
    let source: Source

    init(_ source: Source) { self.source = source }

    func member(_ key: String) -> MemberValue? { source.member(key) }

    func optionalString(_ key: String) throws(RecordError) -> String? {
        switch member(key) {
        case nil: return nil
        case .string(let s)?: return s
        // Ids written as numbers are taken as their text.
        case .number(let n)?: return n
        case .other(let kind)?: throw RecordError(.wrongType, field: key, "expected a string, found \(kind)")
        }
    }

    func string(_ key: String) throws(RecordError) -> String {
        guard let s = try optionalString(key) else { throw RecordError(.missing, field: key, "missing") }
        return s
    }

    func optionalInteger(_ key: String) throws(RecordError) -> Int64? {
        switch member(key) {
        case nil: return nil
        case .number(let n)?:
            guard let i = Int64(n) else { throw RecordError(.wrongType, field: key, "expected an integer, found a number", text: n) }
            return i
        case .string?: throw RecordError(.wrongType, field: key, "expected an integer, found a string")
        case .other(let kind)?: throw RecordError(.wrongType, field: key, "expected an integer, found \(kind)")
        }
    }

    func integer(_ key: String) throws(RecordError) -> Int64 {
        guard let i = try optionalInteger(key) else { throw RecordError(.missing, field: key, "missing") }
        return i
    }

    func optionalDecimal(_ key: String) throws(RecordError) -> ExactDecimal? {
        let text: String
        switch member(key) {
        case nil: return nil
        case .number(let n)?: text = n
        // BigDecimal fields also accept a string holding the number.
        case .string(let s)?: text = s
        case .other(let kind)?: throw RecordError(.wrongType, field: key, "expected a number, found \(kind)")
        }
        guard let d = ExactDecimal(jsonNumber: text) else {
            throw RecordError(.invalidValue, field: key, "'\(text)' is not a decimal number of at most 38 digits", text: text)
        }
        return d
    }

    func decimal(_ key: String) throws(RecordError) -> ExactDecimal {
        guard let d = try optionalDecimal(key) else { throw RecordError(.missing, field: key, "missing") }
        return d
    }

    func optionalCode(_ key: String) throws(RecordError) -> String? {
        guard let s = try optionalString(key) else { return nil }
        guard AssetCode.isPlainCode(utf8: s.utf8) else {
            throw RecordError(.invalidValue, field: key, "'\(s)' is not a currency code (letters and digits)", text: s)
        }
        return s.lowercased()
    }

    func code(_ key: String) throws(RecordError) -> String {
        guard let s = try optionalCode(key) else { throw RecordError(.missing, field: key, "missing") }
        return s
    }

    func dateTime(_ key: String) throws(RecordError) -> ServerDateTime {
        let s = try string(key)
        guard let t = ServerDateTime(s) else {
            throw RecordError(.invalidValue, field: key, "expected a date-time like 2019-11-25T08:08:44 or 2019-11-25T08:08, found '\(s)'", text: s)
        }
        return t
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws(RecordError) -> E where E.RawValue == String {
        let s = try string(key)
        guard let e = E(rawValue: s) else {
            throw RecordError(.invalidValue, field: key, "expected \(E.allCases.map(\.rawValue).joined(separator: " or ")), found '\(s)'", text: s)
        }
        return e
    }
}

extension ObjectReader where Source == TreeMembers {
    /// The reader of `value`, which must be an object (`what` names the record it should be).
    init(_ value: JSONValue, what: String) throws(RecordError) {
        guard case .object = value else { throw RecordError(.wrongType, "expected a \(what) object, found \(value.kind)") }
        self.init(TreeMembers(object: value))
    }
}
