import TradeportCSV
import TradeportCore

/// A complete reader of a small CSV layout: a header `time,side,quantity,base,price,quote`, then
/// one trade per row (`2024-01-02T10:00:00Z,buy,0.5,BTC,42000,USD`). Every row ends as a trade, a
/// skip with its reason (the header) or a reject naming the column, the raw text and what was
/// expected. The conversion gives ids, drops duplicates and counts; this type only reads.
public struct ExampleTradesReader: FormatReader {
    public let id = "example-trades"
    public let summary = "Example trades (time,side,quantity,base,price,quote CSV)"
    static let header = "time,side,quantity,base,price,quote"

    public init() {}

    public func detect(_ probe: FormatProbe) -> Detection {
        let firstLine = probe.head.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        return String(decoding: firstLine, as: UTF8.self) == Self.header ? .match : .noMatch("the first line is not \(Self.header)")
    }

    public func read(_ input: SourceInput, options: ReadOptions, emit: RecordHandler) throws {
        let reader = CSVReader(dialect: .comma) { buffer in try input.read(into: buffer) }
        try reader.forEachRecord { record in
            let location = SourceLocation(path: input.path, row: record.line)
            if record.line == 1 {
                return try emit(.skipped(SkippedRow(source: location, reason: "the header")), { record.rawText })
            }
            var errors: [FieldError] = []
            /// Column `i`'s text made a value by `make`, or an error saying what was expected.
            func value<T>(_ i: Int, _ expected: String, _ make: (String) -> T?) -> T? {
                let text = record.string(i) ?? ""
                if let value = make(text) { return value }
                errors.append(FieldError(column: i + 1, field: nil, message: "'\(text)': expected \(expected)"))
                return nil
            }
            let decimal = { (text: String) in try? ExactDecimal.parse(text, style: .canonical).get() }
            let time = value(0, "an RFC 3339 time", Timestamp.init(rfc3339:))
            let side = value(1, "buy or sell", TradeSide.init(rawValue:))
            let quantity = value(2, "a positive decimal") { decimal($0).flatMap { $0.isPositive ? $0 : nil } }
            let base = value(3, "an asset code", AssetCode.init)
            let price = value(4, "a decimal of 0 or more") { decimal($0).flatMap { $0.isNegative ? nil : $0 } }
            let quote = value(5, "an asset code", AssetCode.init)
            guard let time, let side, let quantity, let base, let price, let quote, errors.isEmpty else {
                return try emit(.rejected(RejectedRow(source: location, raw: record.rawText, errors: errors)), { record.rawText })
            }
            let trade = Trade(
                externalId: nil, time: time, side: side, base: base, quote: quote,
                quantity: quantity, price: price, amount: nil, source: location)
            try emit(.operation(.trade(trade)), { record.rawText })
        }
    }
}
