public indirect enum FieldSource: Sendable, Equatable {
    case column(String)
    case constant(String)
    /// A date column and a time column, read together in the source's zone.
    case dateAndTime(date: String, time: String)
    /// Several columns joined (an external id made of two), with constant texts among them
    /// (`{join: [{const: withheld}, tax, taxCurrency], separator: ' '}`).
    case join([JoinPart], separator: String)
    /// One part of an instrument column: 0 the base, 1 the quote.
    case part(String, Int)
    /// Different per transaction type (`deposit: to, withdrawal: from`).
    case byType([(type: String, source: FieldSource)])
    /// The absolute value of a signed decimal column.
    case absolute(String)
    /// One text or another by the sign of a decimal column (`deposit` when ≥ 0, `withdrawal` below).
    case bySign(String, positive: String, negative: String)
    /// Arithmetic on decimal values (`{div: [amount, units], round: 6}`); `round` digits after the
    /// point, half away from zero (a quotient needs it).
    case arithmetic(ArithmeticOperation, [FieldSource], round: Int?)
    /// The first of these that has a value (`{first: [isin, symbol]}`).
    case first([FieldSource])
    /// One value or another by what other columns hold (`{if: {side: sell}, then: …, else: …}`):
    /// `then` when every condition holds, else `otherwise` (none: no value).
    case conditional(Condition, then: FieldSource, otherwise: FieldSource?)
    /// A value the user gives when converting (`--param name=value`), or its default
    /// (`{param: account-currency}`; the spec declares it under `parameters:`).
    case parameter(String)

    public static func == (a: FieldSource, b: FieldSource) -> Bool {
        switch (a, b) {
        case (.column(let x), .column(let y)), (.constant(let x), .constant(let y)), (.absolute(let x), .absolute(let y)):
            return x == y
        case (.dateAndTime(let d1, let t1), .dateAndTime(let d2, let t2)):
            return d1 == d2 && t1 == t2
        case (.join(let c1, let s1), .join(let c2, let s2)):
            return c1 == c2 && s1 == s2
        case (.part(let c1, let i1), .part(let c2, let i2)):
            return c1 == c2 && i1 == i2
        case (.bySign(let c1, let p1, let n1), .bySign(let c2, let p2, let n2)):
            return c1 == c2 && p1 == p2 && n1 == n2
        case (.byType(let x), .byType(let y)):
            return x.map(\.type) == y.map(\.type) && x.map(\.source) == y.map(\.source)
        case (.arithmetic(let o1, let a1, let r1), .arithmetic(let o2, let a2, let r2)):
            return o1 == o2 && a1 == a2 && r1 == r2
        case (.first(let x), .first(let y)):
            return x == y
        case (.conditional(let c1, let t1, let o1), .conditional(let c2, let t2, let o2)):
            return c1 == c2 && t1 == t2 && o1 == o2
        case (.parameter(let x), .parameter(let y)):
            return x == y
        default:
            return false
        }
    }
}

/// What `{if: …}` asks of a row: each column's value (as the row reads it: a map column's word, a
/// text, an asset code, a number in the canonical notation; `''` for an empty cell) is one of its
/// texts. All must hold.
public struct Condition: Sendable, Equatable {
    public var tests: [(column: String, values: [String])]
    /// `near: [a, b], within: d`: two numbers differ by at most `d` (both must have a value).
    public var near: (a: FieldSource, b: FieldSource, within: String)?

    public init(_ tests: [(column: String, values: [String])], near: (a: FieldSource, b: FieldSource, within: String)? = nil) {
        self.tests = tests
        self.near = near
    }

    public static func == (a: Condition, b: Condition) -> Bool {
        a.tests.map(\.column) == b.tests.map(\.column) && a.tests.map(\.values) == b.tests.map(\.values)
            && a.near?.a == b.near?.a && a.near?.b == b.near?.b && a.near?.within == b.near?.within
    }
}

/// A value the user may give when converting (`parameters:`), with the one taken when not.
public struct SpecParameter: Sendable, Equatable {
    public var name: String
    public var defaultValue: String
    /// What it is, for `formats show` and the warning when it is not given.
    public var about: String

    public init(name: String, defaultValue: String, about: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.about = about
    }
}

/// One part of a `join`: a column's value, or a constant text (a join whose columns are all empty
/// is no value, constants and all).
public enum JoinPart: Sendable, Equatable {
    case column(String)
    case text(String)
}
