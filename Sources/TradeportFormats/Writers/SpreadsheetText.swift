/// The one policy for CSV cells a spreadsheet would evaluate (OWASP's guidance on CSV injection):
/// a text that begins with `=`, `+`, `-`, `@`, a tab or a carriage return — the characters that
/// make Excel, LibreOffice or Google Sheets read a cell as a formula — is written with a single
/// quote before it (`'=HYPERLINK(…)`), which spreadsheets show as text. A plain number (`-5`,
/// `-0.25`) is not a formula and is written as it is.
///
/// tradeport's own CSV also quotes a text that begins with `'`, so that reading it back
/// (`values.formula-quote` in `tradeport-csv`) takes exactly one quote off every text that has
/// one and gives back what was written, byte for byte.
enum SpreadsheetText {
    /// Whether a spreadsheet would take `text` for a formula.
    static func looksLikeFormula(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "@"), 0x09, 0x0D: return true
        case UInt8(ascii: "-"): return !isPlainNumber(text)
        default: return false
        }
    }

    /// `-`, then digits with at most one `.`: what a number column holds.
    static func isPlainNumber(_ text: String) -> Bool {
        let b = Array(text.utf8)
        var i = b.first == UInt8(ascii: "-") ? 1 : 0
        guard i < b.count else { return false }
        var digits = 0
        var points = 0
        while i < b.count {
            if b[i] >= UInt8(ascii: "0") && b[i] <= UInt8(ascii: "9") { digits += 1 } else if b[i] == UInt8(ascii: ".") { points += 1 } else { return false }
            i += 1
        }
        return digits > 0 && points <= 1
    }

    /// `text` as a cell of another tool's CSV: quoted when it looks like a formula.
    static func guarded(_ text: String) -> String { looksLikeFormula(text) ? "'" + text : text }

    /// `text` as a cell of tradeport's own CSV: quoted when it looks like a formula or already
    /// begins with a quote (read back, one quote is taken off).
    static func guardedForReadingBack(_ text: String) -> String {
        looksLikeFormula(text) || text.utf8.first == UInt8(ascii: "'") ? "'" + text : text
    }
}
