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
        ("0,00000000000000000000000000000000000001", "0.00000000000000000000000000000000000001"),
    ])
    func parsesDecimalCommaExactly(input: String, canonical: String) {
        #expect(parse(input, .decimalComma)?.description == canonical)
    }

    @Test(arguments: ["1,2,3", "1 000,5", "", "-", ",5", "5,", "5abc", "1.5", "+1", "1e5", " 1", "1 ", "--1",
                      "123456789012345678901234567890123456789"])
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
