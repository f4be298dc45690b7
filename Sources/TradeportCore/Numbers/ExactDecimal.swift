/// An exact decimal number, `mantissa × 10^-scale`, with up to 38 significant digits.
///
/// Values are always normalized: no trailing zeros after the decimal point and a zero of scale 0,
/// so equal numbers have equal representations and `==`/`hash` are structural. Nothing here goes
/// through binary floating point; arithmetic that would overflow returns `nil` instead of rounding.
public struct ExactDecimal: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Stored as two words and a byte (24 bytes, 8-aligned) rather than an Int128 (16-aligned,
    // 32 bytes): operations carry several of these and are copied between threads.
    private let low: UInt64
    private let high: Int64
    private let storedScale: UInt8

    /// The digits, with the sign.
    @inline(__always)
    public var mantissa: Int128 { Int128(high) << 64 | Int128(low) }
    /// How many of the digits are after the decimal point (0...38).
    @inline(__always)
    public var scale: Int { Int(storedScale) }

    /// The most digits a value can hold.
    public static let maxDigits = 38

    public static let zero = ExactDecimal(normalizedMantissa: 0, scale: 0)

    /// `mantissa × 10^-scale`, normalized. `nil` when the scale is out of range.
    public init?(mantissa: Int128, scale: Int) {
        guard scale >= 0, scale <= Self.maxDigits else { return nil }
        var m = mantissa
        var s = scale
        while s > 0, m % 10 == 0 {
            m /= 10
            s -= 1
        }
        self.init(normalizedMantissa: m, scale: m == 0 ? 0 : s)
    }

    /// An integer value.
    public init(_ integer: Int) {
        self.init(normalizedMantissa: Int128(integer), scale: 0)
    }

    @usableFromInline
    init(normalizedMantissa: Int128, scale: Int) {
        low = UInt64(truncatingIfNeeded: normalizedMantissa)
        high = Int64(truncatingIfNeeded: normalizedMantissa >> 64)
        storedScale = UInt8(truncatingIfNeeded: scale)
    }

    public var isZero: Bool { low == 0 && high == 0 }
    public var isNegative: Bool { high < 0 }
    public var isPositive: Bool { high > 0 || (high == 0 && low != 0) }

    public var negated: ExactDecimal {
        ExactDecimal(normalizedMantissa: -mantissa, scale: scale)
    }

    /// The canonical text: optional `-`, digits, and `.` with digits when there is a fraction.
    public var description: String {
        var buffer = OutputBuffer(capacity: 48)
        appendText(to: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// Appends the canonical text to `buffer` (the fast path the writers use).
    public func appendText(to buffer: inout OutputBuffer) {
        buffer.reserve(42)
        if high < 0 { buffer.appendUnchecked(UInt8(ascii: "-")) }
        let magnitude = mantissa.magnitude
        if magnitude <= UInt64.max {
            buffer.appendDecimalDigits(UInt64(magnitude), scale: scale)  // the usual case
        } else {
            buffer.appendDecimalDigits(magnitude, scale: scale)
        }
    }

    // MARK: Arithmetic (checked)

    private static func powerOfTen(_ n: Int) -> Int128? {
        guard n >= 0, n <= 38 else { return nil }
        var p: Int128 = 1
        for _ in 0..<n { p *= 10 }
        return p
    }

    /// Both mantissas brought to the larger scale, or `nil` on overflow.
    private static func aligned(_ a: ExactDecimal, _ b: ExactDecimal) -> (Int128, Int128, Int)? {
        if a.scale == b.scale { return (a.mantissa, b.mantissa, a.scale) }
        if a.scale < b.scale {
            guard let p = powerOfTen(b.scale - a.scale) else { return nil }
            let (m, o) = a.mantissa.multipliedReportingOverflow(by: p)
            return o ? nil : (m, b.mantissa, b.scale)
        }
        guard let p = powerOfTen(a.scale - b.scale) else { return nil }
        let (m, o) = b.mantissa.multipliedReportingOverflow(by: p)
        return o ? nil : (a.mantissa, m, a.scale)
    }

    /// `self + other`, or `nil` when the result does not fit in 38 digits.
    public func adding(_ other: ExactDecimal) -> ExactDecimal? {
        guard let (x, y, s) = Self.aligned(self, other) else { return nil }
        let (sum, o) = x.addingReportingOverflow(y)
        guard !o, sum.magnitude < Self.limit else { return nil }
        return ExactDecimal(mantissa: sum, scale: s)
    }

    /// `self - other`, or `nil` when the result does not fit in 38 digits.
    public func subtracting(_ other: ExactDecimal) -> ExactDecimal? {
        adding(other.negated)
    }

    /// `self × other`, or `nil` when the exact result does not fit in 38 digits.
    public func multiplied(by other: ExactDecimal) -> ExactDecimal? {
        let (p, o) = mantissa.multipliedReportingOverflow(by: other.mantissa)
        guard !o, p.magnitude < Self.limit else { return nil }
        var m = p
        var s = scale + other.scale
        while s > Self.maxDigits {
            guard m % 10 == 0 else { return nil }
            m /= 10
            s -= 1
        }
        return ExactDecimal(mantissa: m, scale: s)
    }

    /// `self ÷ other` rounded half away from zero to `scale` digits after the point, or `nil` when
    /// `other` is zero or a value does not fit in 38 digits. (Used where a source states a value
    /// only through a quotient, like a bond's nominal through amount ÷ quantity ÷ percent.)
    public func divided(by other: ExactDecimal, roundedToScale scale: Int) -> ExactDecimal? {
        guard !other.isZero, scale >= 0, scale <= Self.maxDigits else { return nil }
        var numerator = mantissa
        var denominator = other.mantissa
        // self / other = (m1 / m2) × 10^(s2 - s1); at `scale` digits: m1 × 10^(s2 + scale - s1) / m2.
        let exponent = other.scale + scale - self.scale
        for _ in 0..<abs(exponent) {
            if exponent > 0 {
                let (n, o) = numerator.multipliedReportingOverflow(by: 10)
                guard !o else { return nil }
                numerator = n
            } else {
                let (d, o) = denominator.multipliedReportingOverflow(by: 10)
                guard !o else { return nil }
                denominator = d
            }
        }
        var quotient = numerator / denominator
        let remainder = numerator % denominator
        if remainder.magnitude * 2 >= denominator.magnitude {
            quotient += (numerator < 0) == (denominator < 0) ? 1 : -1
        }
        guard quotient.magnitude < Self.limit else { return nil }
        return ExactDecimal(mantissa: quotient, scale: scale)
    }

    /// 10^38: every mantissa's magnitude stays below it.
    static let limit: UInt128 = {
        var p: UInt128 = 1
        for _ in 0..<38 { p *= 10 }
        return p
    }()

    public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        if let (x, y, _) = aligned(lhs, rhs) { return x < y }
        // Alignment overflows only when the scales differ by a lot: the integer parts decide,
        // and when they are equal the fractions (both below 1) align without overflow.
        let li = lhs.mantissa / powerOfTen(lhs.scale)!
        let ri = rhs.mantissa / powerOfTen(rhs.scale)!
        if li != ri { return li < ri }
        let lf = lhs.mantissa - li * powerOfTen(lhs.scale)!
        let rf = rhs.mantissa - ri * powerOfTen(rhs.scale)!
        return ExactDecimal(mantissa: lf, scale: lhs.scale)! < ExactDecimal(mantissa: rf, scale: rhs.scale)!
    }
}

extension ExactDecimal: Decodable {
    /// Decodes the canonical JSON form: a string holding the decimal (`"0.0003597"`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        switch ExactDecimal.parse(text, style: .canonical) {
        case .success(let value): self = value
        case .failure(let error):
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(error.message) (in \"\(text)\")")
        }
    }
}
