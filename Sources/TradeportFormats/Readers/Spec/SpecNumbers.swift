import Foundation
import TradeportCore
import TradeportSpec

/// Numbers as exports write them beyond plain digits (`values:` in a spec): currency symbols
/// (`-$1,259.59`, `€88.94`), negatives in parentheses (`(6.97)`), powers of ten (`4.615E-06`), and
/// either decimal separator value by value (`4,581.91`, `1 757,95`, `0,76672417` in one file).
/// Surrounding spaces are dropped. The digits are then read exactly, as every number is.
struct SpecNumberReader: Sendable {
    let notation: NumberNotation
    /// The spec's separators, when it does not take either.
    let style: NumberStyle
    private let symbols: [[UInt8]]

    init(notation: NumberNotation, style: NumberStyle) {
        self.notation = notation
        self.style = style
        // Longest first, so that `US$` is taken whole before `$`.
        symbols = notation.symbols.map { Array($0.utf8) }.sorted { $0.count > $1.count }
    }

    private static func isSpace(_ f: UnsafeRawBufferPointer, _ i: Int) -> Int {
        if f[i] == 0x20 || f[i] == 0x09 { return 1 }
        if f[i] == 0xC2, i + 1 < f.count, f[i + 1] == 0xA0 { return 2 }
        if f[i] == 0xE2, i + 2 < f.count, f[i + 1] == 0x80, f[i + 2] == 0xAF { return 3 }
        return 0
    }

    private static func trailingSpace(_ f: UnsafeRawBufferPointer, _ hi: Int) -> Int {
        if f[hi - 1] == 0x20 || f[hi - 1] == 0x09 { return 1 }
        if hi >= 2, f[hi - 2] == 0xC2, f[hi - 1] == 0xA0 { return 2 }
        if hi >= 3, f[hi - 3] == 0xE2, f[hi - 2] == 0x80, f[hi - 1] == 0xAF { return 3 }
        return 0
    }

    private func symbol(at i: Int, _ f: UnsafeRawBufferPointer, before hi: Int) -> Int {
        for s in symbols where i + s.count <= hi {
            var k = 0
            while k < s.count, f[i + k] == s[k] { k += 1 }
            if k == s.count { return s.count }
        }
        return 0
    }

    private func symbol(endingAt hi: Int, _ f: UnsafeRawBufferPointer, after lo: Int) -> Int {
        for s in symbols where hi - s.count >= lo {
            var k = 0
            while k < s.count, f[hi - s.count + k] == s[k] { k += 1 }
            if k == s.count { return s.count }
        }
        return 0
    }

    /// The value of `f`, or why it is none.
    func parse(_ f: UnsafeRawBufferPointer) -> Result<ExactDecimal, NumberParseError> {
        var lo = 0
        var hi = f.count
        func trim() {
            while lo < hi, case let n = Self.isSpace(f, lo), n > 0 { lo += n }
            while hi > lo, case let n = Self.trailingSpace(f, hi), n > 0 { hi -= n }
        }
        trim()
        guard lo < hi else { return .failure(NumberParseError(message: "empty; expected a number like \(style.example)")) }
        var negative = false
        if notation.parentheses, f[lo] == UInt8(ascii: "("), f[hi - 1] == UInt8(ascii: ")") {
            negative = true
            lo += 1
            hi -= 1
            trim()
        }
        var signed = false
        func sign() {
            guard !signed, lo < hi else { return }
            if f[lo] == UInt8(ascii: "-") {
                negative.toggle()
                signed = true
                lo += 1
            } else if f[lo] == UInt8(ascii: "+") {
                signed = true
                lo += 1
            }
        }
        sign()
        if !symbols.isEmpty, lo < hi {
            let n = symbol(at: lo, f, before: hi)
            if n > 0 {
                lo += n
                trim()
                sign()  // `$-5` as well as `-$5`
            } else {
                let m = symbol(endingAt: hi, f, after: lo)
                hi -= m
                trim()
            }
        }
        var exponent = 0
        var scientific = false
        if notation.exponent, let e = (lo..<hi).first(where: { f[$0] | 0x20 == UInt8(ascii: "e") }) {
            var i = e + 1
            var negativeExponent = false
            if i < hi, f[i] == UInt8(ascii: "-") || f[i] == UInt8(ascii: "+") {
                negativeExponent = f[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < hi, (i..<hi).allSatisfy({ f[$0] &- 48 < 10 }) else {
                return .failure(
                    NumberParseError(message: "no power of ten after '\(String(decoding: [f[e]], as: UTF8.self))'; expected a number like 4.615E-06"))
            }
            // A power past 3 digits puts any number beyond 38 digits, or below the smallest.
            guard hi - i <= 3 else { return .failure(Self.tooLarge) }
            for k in i..<hi { exponent = exponent * 10 + Int(f[k] - 48) }
            if negativeExponent { exponent = -exponent }
            hi = e
            scientific = true
        }
        guard lo < hi else { return .failure(NumberParseError(message: "no digits; expected a number like \(style.example)")) }
        if f[lo] == UInt8(ascii: "-") || f[lo] == UInt8(ascii: "+") {
            return .failure(NumberParseError(message: "a second sign at position \(lo + 1)"))
        }
        var digitsStyle = style
        if notation.eitherDecimal {
            switch decimalSeparator(f, lo, hi, scientific: scientific) {
            case .success(let s): digitsStyle = s
            case .failure(let e): return .failure(e)
            }
        }
        let parsed = ExactDecimal.parse(UnsafeRawBufferPointer(rebasing: f[lo..<hi]), style: digitsStyle)
        guard case .success(var value) = parsed else { return parsed }
        if exponent != 0 {
            let scale = value.scale - exponent
            if scale >= 0 {
                guard let v = ExactDecimal(mantissa: value.mantissa, scale: scale) else { return .failure(Self.tooLarge) }
                value = v
            } else {
                var m = value.mantissa
                for _ in 0..<(-scale) {
                    let (n, o) = m.multipliedReportingOverflow(by: 10)
                    guard !o else { return .failure(Self.tooLarge) }
                    m = n
                }
                guard let v = ExactDecimal(mantissa: m, scale: 0) else { return .failure(Self.tooLarge) }
                value = v
            }
        }
        return .success(negative ? value.negated : value)
    }

    private static let tooLarge = NumberParseError(message: "beyond 38 digits once its power of ten is applied")

    /// With `decimal: either`: the last of `.` and `,` when both appear, the one that appears
    /// once when only one does (unless it would read `1,234` either way: refused), and the other
    /// (or a space) groups thousands.
    private func decimalSeparator(_ f: UnsafeRawBufferPointer, _ lo: Int, _ hi: Int, scientific: Bool) -> Result<NumberStyle, NumberParseError> {
        var dots = 0
        var commas = 0
        var last: UInt8 = 0
        var lastIndex = 0
        for i in lo..<hi where f[i] == UInt8(ascii: ".") || f[i] == UInt8(ascii: ",") {
            if f[i] == UInt8(ascii: ".") { dots += 1 } else { commas += 1 }
            last = f[i]
            lastIndex = i
        }
        let dot = UInt8(ascii: ".")
        let comma = UInt8(ascii: ",")
        if dots > 0 && commas > 0 {
            return .success(NumberStyle(decimalSeparator: last, groupingSeparator: [last == dot ? comma : dot]))
        }
        if dots + commas == 0 { return .success(NumberStyle(decimalSeparator: dot, groupingSeparator: [0x20])) }
        if dots + commas > 1 {
            // Several of one: they group thousands.
            return .success(NumberStyle(decimalSeparator: last == dot ? comma : dot, groupingSeparator: [last]))
        }
        let after = hi - lastIndex - 1
        var integer = 0
        var leadingZero = true
        for i in lo..<lastIndex where f[i] &- 48 < 10 {
            integer += 1
            if f[i] != 48 { leadingZero = false }
        }
        // Before a power of ten (`4.615E-06`) a separator is never a thousands one.
        if after == 3 && integer >= 1 && integer <= 3 && !leadingZero && !scientific {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: f[lo..<hi]), as: UTF8.self)
            return .failure(
                NumberParseError(
                    message:
                        "'\(String(decoding: [last], as: UTF8.self))' may be a decimal separator or group thousands in \(text); with decimal: either a single separator before three digits is ambiguous (give values: {decimal: '\(String(decoding: [last], as: UTF8.self))'} or the other)"
                ))
        }
        return .success(NumberStyle(decimalSeparator: last, groupingSeparator: [0x20]))
    }

    /// What in a number a plain reading cannot hold, and the construct that reads it.
    struct Hint {
        let text: String
        /// Whether a notation of `values` reads it (symbols, parentheses, exponent, empty texts),
        /// which the core's message cannot know of; otherwise it is a matter of separators.
        let notation: Bool
    }

    /// What in `f` a plain number cannot hold, and the construct of the spec language that reads
    /// it: for the message of a number that does not read.
    static func hint(_ f: UnsafeRawBufferPointer, style: NumberStyle) -> Hint? {
        func notation(_ text: String) -> Hint { Hint(text: text, notation: true) }
        func separators(_ text: String) -> Hint { Hint(text: text, notation: false) }
        let text = String(decoding: f, as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        if trimmed.unicodeScalars.allSatisfy({ !("0"..."9").contains($0) }) {
            return notation(
                "'\(trimmed)' holds no digits; a text that stands for no value is read as empty with empty: ['\(trimmed)'] (on the column, or in values)")
        }
        if trimmed != text {
            return notation("spaces around the digits are dropped with a notation in values (decimal: either, symbols, parentheses or exponent)")
        }
        var position = 0
        var previousDigit = false
        for c in text {
            position += 1
            let isDigit = ("0"..."9").contains(c)
            defer { previousDigit = isDigit }
            if isDigit || (c == "-" && position == 1) { continue }
            if c == "(" || c == ")" {
                return notation("'\(c)' at position \(position): a negative number in parentheses is read with values: {parentheses: true}")
            }
            if (c == "E" || c == "e") && previousDigit {
                return notation("'\(c)' at position \(position): a power of ten is read with values: {exponent: true}")
            }
            if c == "." || c == "," {
                let separator = UInt8(ascii: c == "." ? "." : ",")
                if separator == style.decimalSeparator { continue }
                if style.groupingSeparator == [separator] { continue }
                return separators(
                    "'\(c)' at position \(position): the spec's decimal separator is '\(String(decoding: [style.decimalSeparator], as: UTF8.self))'; values: {decimal: '\(c)'} reads '\(c)' as the decimal separator, {thousands: '\(c)'} as grouping thousands, {decimal: either} takes either value by value"
                )
            }
            if c == " " || c == "\u{A0}" || c == "\u{202F}" {
                return separators("a space at position \(position): values: {thousands: space} reads spaces that group thousands")
            }
            if c == "+" {
                return notation(
                    "'+' at position \(position): a leading plus is dropped with a notation in values (symbols, parentheses, exponent or decimal: either)")
            }
            if c.isLetter {
                return separators(
                    "'\(c)' at position \(position): a letter where digits are expected (a code before or after the number is taken off with the column's match)"
                )
            }
            return notation("'\(c)' at position \(position): a currency symbol is read with values: {symbols: ['\(c)']}")
        }
        return nil
    }
}
