import TradeportCore

extension ExactDecimal {
    /// A JSON number's exact value (`0.0003597`, `-12`, `1.5E-7`), or `nil` when it has more
    /// digits than 38 or is not a number.
    public init?(jsonNumber text: String) {
        var text = text
        guard let value = text.withUTF8({ Self.jsonNumber(UnsafeRawBufferPointer($0)) }) else { return nil }
        self = value
    }

    /// `init(jsonNumber:)` over the number's bytes: the mantissa in the canonical style, then an
    /// optional exponent (`e` or `E`, a sign, 1 to 4 digits, at most 100).
    public static func jsonNumber(_ bytes: UnsafeRawBufferPointer) -> ExactDecimal? {
        // Only ASCII can be a number (the canonical style and the exponent's digits are ASCII).
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var mantissaEnd = bytes.count
        var exponent = 0
        if let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            mantissaEnd = e
            var i = e + 1
            var negative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                negative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            let digits = bytes.count - i
            guard digits > 0, digits <= 4 else { return nil }
            var magnitude = 0
            while i < bytes.count {
                let d = bytes[i] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                magnitude = magnitude * 10 + Int(d)
                i += 1
            }
            guard magnitude <= 100 else { return nil }
            exponent = negative ? -magnitude : magnitude
        }
        guard case .success(let base) = ExactDecimal.parse(UnsafeRawBufferPointer(rebasing: bytes[..<mantissaEnd]), style: .canonical) else {
            return nil
        }
        if exponent == 0 { return base }
        var mantissa = base.mantissa
        var scale = base.scale - exponent
        while scale < 0 {
            let (m, o) = mantissa.multipliedReportingOverflow(by: 10)
            guard !o, m.magnitude < 100_000_000_000_000_000_000_000_000_000_000_000_000 else { return nil }
            mantissa = m
            scale += 1
        }
        // Trailing zeros of a large scale go first (normalization), then the scale must fit.
        while scale > ExactDecimal.maxDigits, mantissa % 10 == 0, mantissa != 0 {
            mantissa /= 10
            scale -= 1
        }
        if mantissa == 0 { scale = 0 }
        return ExactDecimal(mantissa: mantissa, scale: scale)
    }
}
