import Foundation
import Testing

@testable import TradeportCore

@Suite("Canonical JSON")
struct CanonicalJSONTests {
    func text(_ body: (inout OutputBuffer) -> Void) -> String {
        var buffer = OutputBuffer(capacity: 16)
        body(&buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test func stringsAreEscaped() {
        #expect(text { CanonicalJSON.appendString("a\"b\\c\nd\u{1}é", to: &$0) } == #""a\"b\\c\nd\u0001é""#)
    }

    @Test func operationsDecodeBackToThemselves() throws {
        let source = SourceLocation(path: "dir/\"odd\" name.csv", row: 7)
        let trade = Trade(
            id: "dsx-trades:1", externalId: "1", time: Timestamp(secondsSinceEpoch: 1_600_000_000), side: .sell,
            base: AssetCode("eurs")!, quote: AssetCode("USD")!, quantity: ExactDecimal(mantissa: 25, scale: 1)!,
            price: ExactDecimal(mantissa: 12034, scale: 4)!, amount: ExactDecimal(mantissa: 3_008_500, scale: 6)!,
            accruedInterest: nil, fees: [TradeFee(amount: ExactDecimal(mantissa: 75, scale: 2)!, currency: AssetCode("USD")!, kind: .exchange)],
            name: "Name; with \"quotes\"", venue: "DSX", settlementDate: CalendarDate(year: 2020, month: 9, day: 15),
            account: "Main", orderId: "9", source: source)
        let transaction = CashTransaction(
            id: "x:2", externalId: nil, time: Timestamp(secondsSinceEpoch: 0), type: .dividendCharge, asset: AssetCode("RUB")!,
            amount: ExactDecimal(15), fee: CashFee(amount: ExactDecimal(1), currency: AssetCode("RUB")!), status: .complete,
            security: "AAPL", note: "line\nbreak", source: source)
        let movement = Movement(
            id: "x:3", externalId: "m1", time: Timestamp(secondsSinceEpoch: 86_400), direction: .out, asset: AssetCode("RU000A100YD8")!,
            quantity: ExactDecimal(mantissa: 15, scale: 1)!, reason: .redemption, isin: "RU000A100YD8", name: "Нафтатранс плюс-БО-02",
            note: "redeemed", account: "IIS", source: source)
        for operation in [PortfolioOperation.trade(trade), .transaction(transaction), .movement(movement)] {
            let json = text { out in
                out.append(UInt8(ascii: "{"))
                CanonicalJSON.appendOperationFields(operation, to: &out)
                out.append(UInt8(ascii: "}"))
            }
            switch operation {
            case .trade(let t): #expect(try JSONDecoder().decode(Trade.self, from: Data(json.utf8)) == t)
            case .transaction(let t): #expect(try JSONDecoder().decode(CashTransaction.self, from: Data(json.utf8)) == t)
            case .movement(let m):
                #expect(try JSONDecoder().decode(Movement.self, from: Data(json.utf8)) == m)
                #expect(json.contains(#""direction":"out","asset":"RU000A100YD8","quantity":"1.5","reason":"redemption""#))
            }
        }
    }

    @Test func decimalsMustBeCanonicalStringsWhenDecoded() {
        #expect(throws: (any Error).self) { try JSONDecoder().decode([ExactDecimal].self, from: Data(#"["1,5"]"#.utf8)) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode([ExactDecimal].self, from: Data(#"[1.5]"#.utf8)) }
        #expect((try? JSONDecoder().decode([ExactDecimal].self, from: Data(#"["1.5"]"#.utf8))) == [ExactDecimal(mantissa: 15, scale: 1)!])
    }
}
