/// An asset's code, upper case: `BTC`, `EURS`, `AAPL`, `RUB`. Letters and digits only.
public struct AssetCode: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let text: String

    /// The code upper-cased, or `nil` when it is empty or holds anything but ASCII letters and
    /// digits (or is absurdly long).
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

    /// Whether `text` is a code `init` takes (ASCII letters and digits, 1 to 32 of them), without
    /// making one: a check on a hot path.
    @inlinable
    public static func isCode(_ text: some StringProtocol) -> Bool {
        isCode(utf8: text.utf8)
    }

    /// `isCode` over a code's UTF-8 bytes: the one statement of what a code is.
    @inlinable
    public static func isCode(utf8: some Collection<UInt8>) -> Bool {
        let count = utf8.count
        guard count > 0, count <= 32 else { return false }
        return utf8.allSatisfy { b in
            (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
        }
    }

    /// A byte of a code, upper case (digits and capitals are left as they are).
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

    /// The code for `bytes` (upper-cased), or `nil` when they are not letters and digits.
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
