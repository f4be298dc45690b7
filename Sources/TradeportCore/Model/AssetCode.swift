/// An asset's code, upper case: `BTC`, `EURS`, `AAPL`, `RUB`, and the tickers real exchanges
/// print: `BRK.B`, `BF-B`, `BRK/B`, `TGLD@` (SPB Exchange), `RDS_A`, `XETR:SAP`.
///
/// The rule (`AssetCode.rule`): 1 to 32 ASCII letters, digits and `. - / @ _ :`, the first a
/// letter or digit, the last a letter, a digit or `@`, and a letter among them where there is
/// punctuation (`11.05`, `01.01.2026` and `10:30` are numbers, dates and times, not codes; `0700`
/// is a code); no spaces, no control characters. A
/// target narrower than that (a Beancount commodity, the balances server's codes) writes its own
/// documented form or refuses the code by name; the model keeps the original.
public struct AssetCode: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let text: String

    /// What a code is, for messages.
    public static let rule = "1 to 32 letters, digits and . - / @ _ :, starting with a letter or digit, with a letter where there is punctuation"

    /// The code upper-cased, or `nil` when it breaks `rule`.
    public init?(_ text: some StringProtocol) {
        guard Self.isCode(utf8: text.utf8) else { return nil }
        self.text = String(decoding: text.utf8.map(Self.upperCased), as: UTF8.self)
    }

    /// Validates raw bytes of a field, upper-casing them.
    public init?(bytes: UnsafeRawBufferPointer) {
        guard Self.isCode(utf8: bytes) else { return nil }
        self.text = String(unsafeUninitializedCapacity: bytes.count) { out in
            for (i, b) in bytes.enumerated() { out[i] = Self.upperCased(b) }
            return bytes.count
        }
    }

    /// Whether `text` is a code `init` takes (`rule`), without making one: a check on a hot path.
    @inlinable
    public static func isCode(_ text: some StringProtocol) -> Bool {
        isCode(utf8: text.utf8)
    }

    /// `isCode` over a code's UTF-8 bytes: the one statement of what a code is.
    @inlinable
    public static func isCode(utf8: some Collection<UInt8>) -> Bool {
        let count = utf8.count
        guard count > 0, count <= 32, let first = utf8.first, isLetterOrDigit(first) else { return false }
        var last = first
        var letters = false
        var punctuation = false
        for b in utf8 {
            if isLetterOrDigit(b) {
                if b > UInt8(ascii: "9") { letters = true }
            } else if isPunctuation(b) {
                punctuation = true
            } else {
                return false
            }
            last = b
        }
        // A code ends in a letter, a digit or `@`: `BTC-` is half of a pair, not a code. Digits
        // with punctuation and no letter are a number, a date or a time.
        return (isLetterOrDigit(last) || last == UInt8(ascii: "@")) && (letters || !punctuation)
    }

    /// Whether the code is letters and digits only: what targets with plain codes take (the
    /// balances server's currencies and instruments).
    public var isPlain: Bool { Self.isPlainCode(utf8: text.utf8) }

    /// Whether `utf8` is 1 to 32 ASCII letters and digits.
    @inlinable
    public static func isPlainCode(utf8: some Collection<UInt8>) -> Bool {
        let count = utf8.count
        return count > 0 && count <= 32 && utf8.allSatisfy(isLetterOrDigit)
    }

    @inlinable
    static func isLetterOrDigit(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
    }

    /// The punctuation real tickers use inside a code.
    @inlinable
    static func isPunctuation(_ b: UInt8) -> Bool {
        b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "/") || b == UInt8(ascii: "@")
            || b == UInt8(ascii: "_") || b == UInt8(ascii: ":")
    }

    /// A byte of a code, upper case (digits, capitals and punctuation are left as they are).
    static func upperCased(_ b: UInt8) -> UInt8 { b >= UInt8(ascii: "a") ? b - 32 : b }

    public var description: String { text }

    /// A code that stands for none yet, in a record being filled field by field.
    public static let placeholder = AssetCode("XXX")!

    /// The code's bytes and their count in one word, for codes of up to 7 bytes (nearly all):
    /// a table keyed by it compares integers instead of strings.
    public var packedKey: UInt64? {
        var text = self.text
        return text.withUTF8 { AssetCode.packedKey(UnsafeRawBufferPointer($0)) }
    }

    /// The same key for raw bytes; the count is part of it, so `"\0BTC"` and `"BTC"` differ.
    @inline(__always)
    public static func packedKey(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard bytes.count <= 7, !bytes.isEmpty else { return nil }
        var key = UInt64(bytes.count) << 56
        for (i, b) in bytes.enumerated() { key |= UInt64(b) << (8 * UInt64(i)) }
        return key
    }
    public static func < (a: AssetCode, b: AssetCode) -> Bool { a.text < b.text }
}

extension AssetCode: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let code = AssetCode(text), code.text == text else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an asset code: \(text)")
        }
        self = code
    }
}

/// Turns field bytes into asset codes, remembering the last few: an export names the same few
/// codes on every row, and a remembered code costs a comparison instead of a new string.
public final class AssetCodeCache {
    private var keys: [UInt64] = []
    private var codes: [AssetCode] = []
    private var next = 0
    private static let size = 32

    public init() {}

    /// The code for `bytes` (upper-cased), or `nil` when they break `AssetCode.rule`.
    public func code(_ bytes: UnsafeRawBufferPointer) -> AssetCode? {
        guard let key = AssetCode.packedKey(bytes) else { return AssetCode(bytes: bytes) }
        for i in 0..<keys.count where keys[i] == key { return codes[i] }
        guard let code = AssetCode(bytes: bytes) else { return nil }
        if keys.count < Self.size {
            keys.append(key)
            codes.append(code)
        } else {
            keys[next] = key
            codes[next] = code
            next = (next + 1) % Self.size
        }
        return code
    }
}
