/// How a source writes its numbers: the decimal separator and an optional thousands separator.
///
/// Parsing is strict: the whole field must be a number in this style, or it is an error. There is
/// no prefix matching (`"1,5"` under a point style is an error, not 1) and no exponent.
public struct NumberStyle: Sendable, Hashable {
    /// The byte between the integer and the fraction: `.` or `,`.
    public var decimalSeparator: UInt8
    /// The bytes between groups of three integer digits (`" "`, `","`, `"."`, a no-break space),
    /// or `nil` when the source never groups digits. A space (`" "`) also accepts a no-break space
    /// and a narrow no-break space in its place.
    public var groupingSeparator: [UInt8]?
    /// Whether a leading `+` is accepted.
    public var allowsPlusSign: Bool

    public init(decimalSeparator: UInt8, groupingSeparator: [UInt8]? = nil, allowsPlusSign: Bool = false) {
        self.decimalSeparator = decimalSeparator
        self.groupingSeparator = groupingSeparator
        self.allowsPlusSign = allowsPlusSign
    }

    /// The canonical model's own form: `-`, digits, `.`, digits.
    public static let canonical = NumberStyle(decimalSeparator: UInt8(ascii: "."))
    /// A decimal comma and no grouping, as DSX writes `0,0003597`.
    public static let decimalComma = NumberStyle(decimalSeparator: UInt8(ascii: ","))

    /// An example of a number in this style, for error messages.
    public var example: String {
        let sep = String(decoding: [decimalSeparator], as: UTF8.self)
        if let group = groupingSeparator {
            let g = group == [0xC2, 0xA0] ? "\u{A0}" : String(decoding: group, as: UTF8.self)
            return "1\(g)234\(sep)56"
        }
        return "1234\(sep)56"
    }
}

/// Why a text is not a number in the expected style.
public struct NumberParseError: Error, Sendable, Hashable {
    public let message: String

    public init(message: String) { self.message = message }
}

extension ExactDecimal {
    /// Parses `text` strictly in `style`.
    public static func parse(_ text: String, style: NumberStyle) -> Result<ExactDecimal, NumberParseError> {
        var copy = text
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0), style: style) }
    }

    /// Parses the bytes of one field strictly in `style`: optional sign, digits (grouped by three
    /// when the style has a thousands separator), and an optional fraction after the decimal
    /// separator. Anything else anywhere in the field is an error.
    public static func parse(_ bytes: UnsafeRawBufferPointer, style: NumberStyle) -> Result<ExactDecimal, NumberParseError> {
        if let value = parseSimple(bytes, decimalSeparator: style.decimalSeparator) { return .success(value) }
        return parseGeneral(bytes, style: style)
    }

    /// The common case in one tight loop: `-`?, up to 18 digits in all, an optional separator and
    /// fraction, nothing else. `nil` means "not this simple", not "invalid": the general parser
    /// then decides, with a message.
    @inline(__always)
    static func parseSimple(_ bytes: UnsafeRawBufferPointer, decimalSeparator: UInt8) -> ExactDecimal? {
        let n = bytes.count
        guard n > 0, n <= 19 else { return nil }
        var i = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var value: UInt64 = 0
        var digits = 0
        var scale = 0
        var fraction = false
        var trailingZeros = 0
        while i < n {
            let b = bytes[i]
            let d = b &- 48
            if d < 10 {
                value = value &* 10 &+ UInt64(d)
                digits += 1
                if fraction {
                    scale += 1
                    trailingZeros = d == 0 ? trailingZeros + 1 : 0
                }
            } else if b == decimalSeparator && !fraction && digits > 0 {
                fraction = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0, !(fraction && scale == 0) else { return nil }
        // Drop the fraction's trailing zeros.
        for _ in 0..<trailingZeros { value /= 10 }
        scale -= trailingZeros
        let m = Int128(value)
        return ExactDecimal(normalizedMantissa: negative ? -m : m, scale: value == 0 ? 0 : scale)
    }

    static func parseGeneral(_ bytes: UnsafeRawBufferPointer, style: NumberStyle) -> Result<ExactDecimal, NumberParseError> {
        let n = bytes.count
        if n == 0 { return .failure(NumberParseError(message: "empty; expected a number like \(style.example)")) }
        var i = 0
        var negative = false
        let first = bytes[0]
        if first == UInt8(ascii: "-") {
            negative = true
            i = 1
        } else if first == UInt8(ascii: "+"), style.allowsPlusSign {
            i = 1
        }
        var mantissa: Int128 = 0
        var small: UInt64 = 0  // fast accumulator while the digits fit
        var useSmall = true
        var significant = 0
        var integerDigits = 0
        var groupDigits = 0  // digits since the last group separator
        var sawGroup = false
        var scale = 0
        var pendingZeros = 0  // fraction zeros not yet known to be followed by a digit

        @inline(__always) func push(_ d: UInt8) -> Bool {
            if significant == 0 && d == 0 { return true }
            significant += 1
            if significant > ExactDecimal.maxDigits { return false }
            if useSmall {
                if significant <= 19 {
                    small = small &* 10 &+ UInt64(d)
                    return true
                }
                mantissa = Int128(small)
                useSmall = false
            }
            mantissa = mantissa * 10 + Int128(d)
            return true
        }

        let group = style.groupingSeparator
        // Integer part.
        while i < n {
            let b = bytes[i]
            if b &- 48 < 10 {
                guard push(b &- 48) else { return .failure(tooManyDigits) }
                integerDigits += 1
                groupDigits += 1
                if sawGroup && groupDigits > 3 { return .failure(badGrouping(style)) }
                i += 1
                continue
            }
            if let g = group, let length = separatorLength(bytes, at: i, g) {
                // A group separator needs 1...3 digits before the first one and exactly 3 after each.
                if integerDigits == 0 || (sawGroup ? groupDigits != 3 : groupDigits > 3) {
                    return .failure(badGrouping(style))
                }
                sawGroup = true
                groupDigits = 0
                i += length
                continue
            }
            break
        }
        if integerDigits == 0 {
            return .failure(NumberParseError(message: "not a number; expected a number like \(style.example)"))
        }
        if sawGroup && groupDigits != 3 { return .failure(badGrouping(style)) }
        if i < n && bytes[i] == style.decimalSeparator {
            i += 1
            var fractionDigits = 0
            while i < n, bytes[i] &- 48 < 10 {
                let d = bytes[i] &- 48
                fractionDigits += 1
                if d == 0 {
                    pendingZeros += 1
                } else {
                    for _ in 0..<pendingZeros {
                        guard push(0) else { return .failure(tooManyDigits) }
                    }
                    guard push(d) else { return .failure(tooManyDigits) }
                    scale += pendingZeros + 1
                    pendingZeros = 0
                }
                i += 1
            }
            if fractionDigits == 0 {
                return .failure(NumberParseError(message: "no digits after the decimal separator; expected a number like \(style.example)"))
            }
            if scale > ExactDecimal.maxDigits { return .failure(tooManyDigits) }
        }
        if i < n {
            let rest = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i...]), as: UTF8.self)
            let what = rest.first.map { "'\($0)'" } ?? "byte"
            return .failure(
                NumberParseError(
                    message: "unexpected \(what) at position \(i + 1); expected a number like \(style.example)"))
        }
        if useSmall { mantissa = Int128(small) }
        if negative { mantissa = -mantissa }
        return .success(ExactDecimal(normalizedMantissa: mantissa, scale: mantissa == 0 ? 0 : scale))
    }

    private static let tooManyDigits = NumberParseError(message: "more than \(maxDigits) significant digits or decimal places")

    private static func badGrouping(_ style: NumberStyle) -> NumberParseError {
        NumberParseError(message: "digits are not grouped by three; expected a number like \(style.example)")
    }

    /// The length of the group separator at `i`, or nil. A space also stands for the spaces
    /// spreadsheets and reports group with: the no-break space (U+00A0) and the narrow no-break
    /// space (U+202F).
    @inline(__always)
    private static func separatorLength(_ bytes: UnsafeRawBufferPointer, at i: Int, _ pattern: [UInt8]) -> Int? {
        if matches(bytes, at: i, pattern) { return pattern.count }
        guard pattern.count == 1, pattern[0] == 0x20 else { return nil }
        if matches(bytes, at: i, noBreakSpace) { return 2 }
        if matches(bytes, at: i, narrowNoBreakSpace) { return 3 }
        return nil
    }

    private static let noBreakSpace: [UInt8] = [0xC2, 0xA0]
    private static let narrowNoBreakSpace: [UInt8] = [0xE2, 0x80, 0xAF]

    @inline(__always)
    private static func matches(_ bytes: UnsafeRawBufferPointer, at i: Int, _ pattern: [UInt8]) -> Bool {
        if i + pattern.count > bytes.count { return false }
        for (k, p) in pattern.enumerated() where bytes[i + k] != p { return false }
        return true
    }
}
