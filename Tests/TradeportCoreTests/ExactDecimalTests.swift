import Testing
import TradeportCore
import TradeportTestKit

@Suite("Exact decimals")
struct ExactDecimalTests {
    func parse(_ text: String, _ style: NumberStyle) -> ExactDecimal? {
        if case .success(let v) = ExactDecimal.parse(text, style: style) { return v }
        return nil
    }

    func error(_ text: String, _ style: NumberStyle) -> String? {
        if case .failure(let e) = ExactDecimal.parse(text, style: style) { return e.message }
        return nil
    }

    @Test(arguments: [
        ("0,0003597", "0.0003597"), ("10000", "10000"), ("-1,50", "-1.5"), ("007", "7"), ("0,000", "0"),
        ("-0", "0"), ("123456789012345678,9", "123456789012345678.9"),
        ("12345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
        ("0,00000000000000000000000000000000000001", "0.00000000000000000000000000000000000001")
    ])
    func parsesDecimalCommaExactly(input: String, canonical: String) {
        #expect(parse(input, .decimalComma)?.description == canonical)
    }

    @Test(arguments: [
        "1,2,3", "1 000,5", "", "-", ",5", "5,", "5abc", "1.5", "+1", "1e5", " 1", "1 ", "--1",
        "123456789012345678901234567890123456789"
    ])
    func rejectsAnythingThatIsNotEntirelyANumber(input: String) {
        #expect(parse(input, .decimalComma) == nil)
        #expect(error(input, .decimalComma) != nil)
    }

    @Test func canonicalStyleRejectsTheCommaThatFoundationAccepts() {
        // Foundation.Decimal(string: "1,5") is 1; here it is an error naming the comma.
        #expect(parse("1,5", .canonical) == nil)
        #expect(error("1,5", .canonical)?.contains("','") == true)
        #expect(parse("1.5", .canonical) == ExactDecimal("1.5"))
    }

    @Test func thousandsSeparatorsMustGroupByThree() {
        let spaced = NumberStyle(decimalSeparator: UInt8(ascii: ","), groupingSeparator: [UInt8(ascii: " ")])
        #expect(parse("1 234,56", spaced) == ExactDecimal("1234.56"))
        #expect(parse("12 345 678", spaced) == ExactDecimal("12345678"))
        #expect(parse("1 23,5", spaced) == nil)
        #expect(parse("1234 567", spaced) == nil)
        #expect(parse(" 123", spaced) == nil)
        let commas = NumberStyle(decimalSeparator: UInt8(ascii: "."), groupingSeparator: [UInt8(ascii: ",")])
        #expect(parse("1,234.56", commas) == ExactDecimal("1234.56"))
        #expect(parse("1,2,3", commas) == nil)
        let nbsp = NumberStyle(decimalSeparator: UInt8(ascii: ","), groupingSeparator: [0xC2, 0xA0])
        #expect(parse("1\u{A0}000,5", nbsp) == ExactDecimal("1000.5"))
        // A space also takes the no-break spaces spreadsheets group with, still by three.
        #expect(parse("1\u{A0}234\u{202F}567,5", spaced) == ExactDecimal("1234567.5"))
        #expect(parse("1\u{A0}23", spaced) == nil)
        #expect(parse("1\u{A0}000", commas) == nil)
    }

    @Test func normalizedValuesCompareStructurally() {
        #expect(parse("1,50", .decimalComma) == parse("1,5", .decimalComma))
        #expect(ExactDecimal("0.1") < ExactDecimal("0.25"))
        #expect(ExactDecimal("-3") < ExactDecimal("0.001"))
        #expect(ExactDecimal("100000000000000000000") > ExactDecimal("0.00000000000000000001"))
    }

    @Test func arithmeticIsExactAndChecked() {
        #expect(ExactDecimal("0.1").adding(ExactDecimal("0.2")) == ExactDecimal("0.3"))
        #expect(ExactDecimal("0.0003597").multiplied(by: ExactDecimal("3")) == ExactDecimal("0.0010791"))
        #expect(ExactDecimal("1.5").subtracting(ExactDecimal("1.5")) == .zero)
        let big = ExactDecimal("99999999999999999999999999999999999999")
        #expect(big.adding(ExactDecimal("1")) == nil)
        #expect(big.multiplied(by: ExactDecimal("10")) == nil)
    }

    @Test func decodesOnlyCanonicalJSONStrings() throws {
        #expect(ExactDecimal("12.5").description == "12.5")
        #expect(ExactDecimal("-0.001").description == "-0.001")
    }
}

/// Random numbers written in several styles parse to what plain string arithmetic says.
@Suite("Exact decimals against a reference")
struct ExactDecimalPropertyTests {
    /// The canonical form by string manipulation alone: strip leading zeros of the integer part,
    /// trailing zeros of the fraction, and the sign of zero.
    func reference(negative: Bool, integer: String, fraction: String) -> String {
        var i = String(integer.drop { $0 == "0" })
        if i.isEmpty { i = "0" }
        var f = fraction
        while f.hasSuffix("0") { f.removeLast() }
        let body = f.isEmpty ? i : i + "." + f
        return negative && body != "0" ? "-" + body : body
    }

    @Test(arguments: 1...300)
    func parsesLikeTheReference(seed: Int) {
        var g = SeededGenerator(seed: UInt64(seed) &* 0xD134_2543_DE82_EF95)
        let digits = { (n: Int, g: inout SeededGenerator) in String((0..<n).map { _ in Character(String(g.next() % 10)) }) }
        let integer = digits(Int(1 + g.next() % 20), &g)
        let fraction = g.next() % 3 == 0 ? "" : digits(Int(1 + g.next() % 18), &g)
        let negative = g.next() % 4 == 0
        let expected = reference(negative: negative, integer: integer, fraction: fraction)
        let significant = expected.filter(\.isNumber).drop { $0 == "0" }.count
        for (style, separator) in [(NumberStyle.canonical, "."), (.decimalComma, ",")] {
            let text = (negative ? "-" : "") + integer + (fraction.isEmpty ? "" : separator + fraction)
            switch ExactDecimal.parse(text, style: style) {
            case .success(let value):
                #expect(value.description == expected, "\(text)")
                // Adding zero and multiplying by one change nothing.
                #expect(value.adding(.zero) == value && value.multiplied(by: ExactDecimal(1)) == value)
            case .failure:
                #expect(significant > 38, "\(text) was refused")
            }
        }
    }
}

@Suite("Decimal text at the edges")
struct DecimalTextTests {
    @Test(arguments: [
        "-9223372036854775808", "-9223372036854775807", "9223372036854775808", "18446744073709551615",
        "18446744073709551616", "-18446744073709551616", "0.0000000000000000000000000000000000001",
        "-99999999999999999999999999999999999999", "12345678901234567890.123456789012345678",
        "-0.5", "0.5", "10", "0"
    ])
    func writesWhatItRead(text: String) {
        #expect(ExactDecimal(text).description == text)
    }
}
