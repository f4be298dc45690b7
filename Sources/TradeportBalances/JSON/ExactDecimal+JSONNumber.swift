import TradeportCore

extension ExactDecimal {
    /// A JSON number's exact value (`0.0003597`, `-12`, `1.5E-7`), or `nil` when it has more
    /// digits than 38 or is not a number.
    public init?(jsonNumber text: String) {
        var mantissaText = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissaText = text[..<e]
            var exponentText = text[text.index(after: e)...]
            var negative = false
            if let sign = exponentText.first, sign == "+" || sign == "-" {
                negative = sign == "-"
                exponentText = exponentText.dropFirst()
            }
            guard !exponentText.isEmpty, exponentText.count <= 4, exponentText.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let magnitude = Int(exponentText), magnitude <= 100
            else { return nil }
            let x = negative ? -magnitude : magnitude
            exponent = x
        }
        guard case .success(let base) = ExactDecimal.parse(String(mantissaText), style: .canonical) else { return nil }
        if exponent == 0 {
            self = base
            return
        }
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
        guard let value = ExactDecimal(mantissa: mantissa, scale: scale) else { return nil }
        self = value
    }
}
