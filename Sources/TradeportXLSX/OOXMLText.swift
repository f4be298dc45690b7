import CXLSXSupport

/// OOXML's `_xHHHH_` escapes: how a spreadsheet file carries a character it cannot hold (a NUL,
/// which XML cannot hold at all and which makes a CSV look binary), `_x005F_` standing for a `_`
/// that would otherwise start one. The XLSX reader decodes them in every string; tradeport's own
/// CSV writes its NULs so (`values.escapes: ooxml` reads them back).
public enum OOXMLText {
    /// `bytes` as UTF-8 text with its escapes decoded; nil when it is not UTF-8.
    public static func unescaped(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.contains(UInt8(ascii: "_")) else { return String(validating: bytes, as: UTF8.self) }
        var copy = Array(bytes)
        let count = copy.withUnsafeMutableBufferPointer { Int(cx_unescape($0.baseAddress!, UInt32($0.count))) }
        return String(validating: copy[..<count], as: UTF8.self)
    }

    /// `text` with each NUL as `_x0000_`, and each `_` that would read as the start of an escape
    /// as `_x005F_`: what `unescaped` reads back as `text`.
    public static func escapedNUL(_ text: String) -> String {
        var bytes = Array(text.utf8)
        guard bytes.contains(0) || bytes.contains(UInt8(ascii: "_")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0 {
                out += Array("_x0000_".utf8)
            } else if bytes.withUnsafeBytes({ startsEscape($0, at: i) }) {
                out += Array("_x005F_".utf8)
            } else {
                out.append(b)
            }
            i += 1
        }
        bytes = out
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether an escape (`_x` four hex digits `_`) begins at `i`: a `_` there is written as
    /// `_x005F_` so that it does not read back as one.
    static func startsEscape(_ bytes: UnsafeRawBufferPointer, at i: Int) -> Bool {
        func isHex(_ b: UInt8) -> Bool { b &- 48 < 10 || (b | 0x20) &- 97 < 6 }
        return i + 6 < bytes.count && bytes[i] == UInt8(ascii: "_") && bytes[i + 1] == UInt8(ascii: "x")
            && isHex(bytes[i + 2]) && isHex(bytes[i + 3]) && isHex(bytes[i + 4]) && isHex(bytes[i + 5])
            && bytes[i + 6] == UInt8(ascii: "_")
    }
}
