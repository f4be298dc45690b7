import Crypto

/// A name-based UUID (RFC 9562 version 5: SHA-1 of a namespace and a name): the same name gives
/// the same UUID on every run, as the ids of the accounts a writer names must be.
public enum NameBasedUUID {
    /// tradeport's namespace for the names it gives ids to.
    public static let tradeport: [UInt8] = [0x6b, 0x1f, 0x3c, 0x52, 0x9e, 0x47, 0x4d, 0x1a, 0x8b, 0x20, 0x51, 0x7c, 0x33, 0x0e, 0x6a, 0x90]

    public static func make(_ name: String, namespace: [UInt8] = tradeport) -> String {
        var hasher = Insecure.SHA1()
        hasher.update(data: namespace)
        hasher.update(data: Array(name.utf8))
        var bytes = Array(hasher.finalize().prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x50
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        let h = Array(hex)
        return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-" + String(h[20..<32])
    }
}
