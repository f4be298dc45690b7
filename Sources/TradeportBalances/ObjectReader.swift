import TradeportCore

/// Reads the members of a JSON object, naming the field in every error.
struct ObjectReader {
    let value: JSONValue

    init(_ value: JSONValue, what: String) throws(RecordError) {
        guard case .object = value else { throw RecordError("expected a \(what) object, found \(value.kind)") }
        self.value = value
    }

    func member(_ key: String) -> JSONValue? {
        switch value[key] {
        case nil, .null?: return nil
        case let v?: return v
        }
    }

    func optionalString(_ key: String) throws(RecordError) -> String? {
        guard let v = member(key) else { return nil }
        switch v {
        case .string(let s): return s
        // Ids written as numbers are taken as their text.
        case .number(let n): return n
        default: throw RecordError("\(key): expected a string, found \(v.kind)")
        }
    }

    func string(_ key: String) throws(RecordError) -> String {
        guard let s = try optionalString(key) else { throw RecordError("\(key): missing") }
        return s
    }

    func optionalInteger(_ key: String) throws(RecordError) -> Int64? {
        guard let v = member(key) else { return nil }
        guard case .number(let n) = v, let i = Int64(n) else { throw RecordError("\(key): expected an integer, found \(v.kind)") }
        return i
    }

    func integer(_ key: String) throws(RecordError) -> Int64 {
        guard let i = try optionalInteger(key) else { throw RecordError("\(key): missing") }
        return i
    }

    func optionalDecimal(_ key: String) throws(RecordError) -> ExactDecimal? {
        guard let v = member(key) else { return nil }
        let text: String
        switch v {
        case .number(let n): text = n
        // BigDecimal fields also accept a string holding the number.
        case .string(let s): text = s
        default: throw RecordError("\(key): expected a number, found \(v.kind)")
        }
        guard let d = ExactDecimal(jsonNumber: text) else {
            throw RecordError("\(key): '\(text)' is not a decimal number of at most 38 digits")
        }
        return d
    }

    func decimal(_ key: String) throws(RecordError) -> ExactDecimal {
        guard let d = try optionalDecimal(key) else { throw RecordError("\(key): missing") }
        return d
    }

    func optionalCode(_ key: String) throws(RecordError) -> String? {
        guard let s = try optionalString(key) else { return nil }
        guard AssetCode(s) != nil else { throw RecordError("\(key): '\(s)' is not a currency code (letters and digits)") }
        return s.lowercased()
    }

    func code(_ key: String) throws(RecordError) -> String {
        guard let s = try optionalCode(key) else { throw RecordError("\(key): missing") }
        return s
    }

    func dateTime(_ key: String) throws(RecordError) -> ServerDateTime {
        let s = try string(key)
        guard let t = ServerDateTime(s) else {
            throw RecordError("\(key): expected a date-time like 2019-11-25T08:08:44 or 2019-11-25T08:08, found '\(s)'")
        }
        return t
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws(RecordError) -> E where E.RawValue == String {
        let s = try string(key)
        guard let e = E(rawValue: s) else {
            throw RecordError("\(key): expected \(E.allCases.map(\.rawValue).joined(separator: " or ")), found '\(s)'")
        }
        return e
    }
}
