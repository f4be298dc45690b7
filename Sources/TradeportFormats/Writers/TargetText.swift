import TradeportCore

/// The one rule for control characters in the text tradeport writes into another tool's format
/// (Beancount, hledger, Ghostfolio, Portfolio Performance): the text goes on one line — a line
/// break or a tab becomes a space — and every other control character (NUL, BEL, ESC, the C0
/// range, DEL) is dropped: none of those tools needs one, and some pass them on (hledger prints an
/// ESC to the terminal; Ghostfolio's PostgreSQL cannot store a NUL). tradeport's own outputs (its
/// JSON, CSV and XLSX) keep text exactly as read.
enum TargetText {
    /// What the byte `b` of UTF-8 text becomes: itself, a space, or nothing (nil).
    @inline(__always)
    static func map(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x09, 0x0A, 0x0D: return UInt8(ascii: " ")
        case 0..<0x20, 0x7F: return nil
        default: return b
        }
    }

    /// `text` after the rule, each remaining byte put through `replace` (a target's own
    /// characters: hledger's `;`), appended without intermediate strings.
    static func append(_ text: String, to out: inout OutputBuffer, _ replace: (UInt8) -> UInt8 = { $0 }) {
        for b in text.utf8 {
            if let m = map(b) { out.append(replace(m)) }
        }
    }

    /// `text` after the rule.
    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
        return String(decoding: text.utf8.compactMap(map), as: UTF8.self)
    }
}
