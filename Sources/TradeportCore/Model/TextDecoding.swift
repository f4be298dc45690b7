/// Field bytes to text, fast for the ASCII that most exports hold.
public enum TextDecoding {
    /// The bytes as a `String` when they are valid UTF-8, else `nil` (never a silent U+FFFD).
    @inline(__always)
    public static func utf8(_ bytes: UnsafeRawBufferPointer) -> String? {
        var i = 0
        let n = bytes.count
        var high: UInt64 = 0
        while i + 8 <= n {
            high |= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < n {
            high |= UInt64(bytes[i])
            i += 1
        }
        if high & 0x8080_8080_8080_8080 == 0 {
            return String(unsafeUninitializedCapacity: n) { out in
                _ = out.initialize(from: bytes)
                return n
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
