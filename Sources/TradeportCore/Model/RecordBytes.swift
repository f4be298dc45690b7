import TradeportFields

/// A record's fields as compact bytes, for holding many records off the heap (in a
/// `Spool`) and reading them back exactly: each field of the record's layout in order, a tag
/// byte and its value. Not a format: what one build writes, the same build reads, within one run.
/// (A held Tinkoff deal took about 740 bytes on the heap; its bytes here are about 150.)
public enum RecordBytes {
    /// Why bytes could not be read back as a record: they were not written by `append`.
    public struct Malformed: Error, CustomStringConvertible {
        public var description: String { "held record bytes cannot be read back" }
    }

    private enum Tag: UInt8 {
        case null, text, asset, decimal, time, date, tradeFees, cashFee, location
    }

    /// Appends `record`'s fields to `out`.
    public static func append<R: CanonicalRecord>(_ record: R, to out: inout [UInt8]) {
        for field in R.layout.fields { append(record[field], to: &out) }
    }

    /// The record whose fields `bytes` hold, all of them.
    public static func read<R: CanonicalRecord>(_ type: R.Type, from bytes: UnsafeRawBufferPointer) throws(Malformed) -> R {
        var reader = Reader(bytes: bytes)
        let record = try R.make { (_: R.Field) throws(Malformed) in try reader.value() }
        guard reader.offset == bytes.count else { throw Malformed() }
        return record
    }

    static func append(_ value: FieldValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(Tag.null.rawValue)
        case .text(let text):
            out.append(Tag.text.rawValue)
            appendString(text, to: &out)
        case .asset(let code):
            out.append(Tag.asset.rawValue)
            appendString(code.text, to: &out)
        case .decimal(let d):
            out.append(Tag.decimal.rawValue)
            appendDecimal(d, to: &out)
        case .time(let t):
            out.append(Tag.time.rawValue)
            LEB128.put(signed: Int128(t.secondsSinceEpoch), &out)
            LEB128.put(UInt128(t.nanoseconds), &out)
        case .date(let d):
            out.append(Tag.date.rawValue)
            LEB128.put(signed: Int128(d.daysSinceEpoch), &out)
        case .tradeFees(let fees):
            out.append(Tag.tradeFees.rawValue)
            LEB128.put(UInt128(fees.count), &out)
            for fee in fees {
                appendDecimal(fee.amount, to: &out)
                appendString(fee.currency.text, to: &out)
                out.append(UInt8(FeeKind.allCases.firstIndex(of: fee.kind)!))
            }
        case .cashFee(let fee):
            out.append(Tag.cashFee.rawValue)
            appendDecimal(fee.amount, to: &out)
            appendString(fee.currency.text, to: &out)
        case .location(let location):
            out.append(Tag.location.rawValue)
            appendString(location.path, to: &out)
            LEB128.put(signed: Int128(location.row), &out)
            if let sheet = location.sheet {
                out.append(1)
                appendString(sheet, to: &out)
            } else {
                out.append(0)
            }
        }
    }

    private static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            LEB128.put(UInt128(utf8.count), &out)
            out.append(contentsOf: utf8)
        }
    }

    private static func appendDecimal(_ d: ExactDecimal, to out: inout [UInt8]) {
        out.append(UInt8(d.scale))
        LEB128.put(signed: d.mantissa, &out)
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func byte() throws(Malformed) -> UInt8 {
            guard offset < bytes.count else { throw Malformed() }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func unsigned() throws(Malformed) -> UInt128 {
            guard let value = LEB128.unsigned(checked: bytes, &offset) else { throw Malformed() }
            return value
        }

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type = T.self) throws(Malformed) -> T {
            guard let value = T(exactly: try unsigned()) else { throw Malformed() }
            return value
        }

        mutating func signed<T: FixedWidthInteger>(_ type: T.Type = T.self) throws(Malformed) -> T {
            guard let value = T(exactly: LEB128.unzigzag(try unsigned())) else { throw Malformed() }
            return value
        }

        mutating func string() throws(Malformed) -> String {
            let count: Int = try integer()
            guard count <= bytes.count - offset else { throw Malformed() }
            defer { offset += count }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]), as: UTF8.self)
        }

        mutating func asset() throws(Malformed) -> AssetCode {
            guard let code = AssetCode(try string()) else { throw Malformed() }
            return code
        }

        mutating func decimal() throws(Malformed) -> ExactDecimal {
            let scale = Int(try byte())
            guard let d = ExactDecimal(mantissa: try signed(Int128.self), scale: scale) else { throw Malformed() }
            return d
        }

        mutating func value() throws(Malformed) -> FieldValue {
            guard let tag = Tag(rawValue: try byte()) else { throw Malformed() }
            switch tag {
            case .null: return .null
            case .text: return .text(try string())
            case .asset: return .asset(try asset())
            case .decimal: return .decimal(try decimal())
            case .time:
                let seconds: Int64 = try signed()
                return .time(Timestamp(secondsSinceEpoch: seconds, nanoseconds: try integer()))
            case .date: return .date(CalendarDate(daysSinceEpoch: try signed()))
            case .tradeFees:
                let count: Int = try integer()
                guard count <= bytes.count - offset else { throw Malformed() }
                var fees: [TradeFee] = []
                fees.reserveCapacity(count)
                for _ in 0..<count {
                    let amount = try decimal()
                    let currency = try asset()
                    let kind = Int(try byte())
                    guard kind < FeeKind.allCases.count else { throw Malformed() }
                    fees.append(TradeFee(amount: amount, currency: currency, kind: FeeKind.allCases[kind]))
                }
                return .tradeFees(fees)
            case .cashFee:
                let amount = try decimal()
                return .cashFee(CashFee(amount: amount, currency: try asset()))
            case .location:
                let path = try string()
                let row: Int = try signed()
                let sheet = try byte() == 1 ? try string() : nil
                return .location(SourceLocation(path: path, row: row, sheet: sheet))
            }
        }
    }
}
