/// Header texts compared without case, spaces and line breaks: `Номер поруче\nния` and
/// `номер поручения` are the same header. What a format's header row and its spec's (or reader's)
/// names are compared by, as bytes, without building strings.
enum HeaderText {
    /// The bytes without whitespace (space, tab, line breaks, no-break space) and byte-order marks, ASCII and Russian
    /// letters in lower case.
    static func fold(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        fold(bytes, into: &out)
        return out
    }

    static func fold(_ text: String) -> [UInt8] {
        var t = text
        return t.withUTF8 { fold(UnsafeRawBufferPointer($0)) }
    }

    /// Replaces the contents of `out` by the folded `bytes` (a buffer reused from row to row).
    static func fold(_ b: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            let (folded, second, used) = foldAt(b, i)
            i += used
            if folded != 0 { out.append(folded) }
            if second != 0 { out.append(second) }
        }
    }

    /// Whether `b` folds to `target` (already folded).
    static func matches(_ b: UnsafeRawBufferPointer, _ target: [UInt8]) -> Bool {
        guard b.count >= target.count else { return false }
        var i = 0
        var j = 0
        while i < b.count {
            let (first, second, used) = foldAt(b, i)
            i += used
            if first != 0 {
                guard j < target.count, target[j] == first else { return false }
                j += 1
            }
            if second != 0 {
                guard j < target.count, target[j] == second else { return false }
                j += 1
            }
        }
        return j == target.count
    }

    /// Folds the character at `i`: up to two bytes out (0 for none) and how many bytes it used.
    @inline(__always)
    private static func foldAt(_ b: UnsafeRawBufferPointer, _ i: Int) -> (UInt8, UInt8, Int) {
        let c = b[i]
        switch c {
        case 0x20, 0x09, 0x0A, 0x0D:
            return (0, 0, 1)
        case UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return (c | 0x20, 0, 1)
        case 0xC2 where i + 1 < b.count && b[i + 1] == 0xA0:
            return (0, 0, 2)
        case 0xEF where i + 2 < b.count && b[i + 1] == 0xBB && b[i + 2] == 0xBF:
            // U+FEFF, a byte-order mark; some exports write it several times before the header
            // (interactive investor's `\u{FEFF}\u{FEFF}\u{FEFF}Date,…`).
            return (0, 0, 3)
        case 0xD0 where i + 1 < b.count:
            let d = b[i + 1]
            switch d {
            case 0x90...0x9F: return (0xD0, d + 0x20, 2)  // А–П → а–п
            case 0xA0...0xAF: return (0xD1, d - 0x20, 2)  // Р–Я → р–я
            case 0x81: return (0xD1, 0x91, 2)  // Ё → ё
            default: return (0xD0, d, 2)
            }
        default:
            return (c, 0, 1)
        }
    }
}
