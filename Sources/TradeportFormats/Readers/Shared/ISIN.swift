/// Whether `text` has the form of an ISIN: two letters, nine letters or digits, a digit.
func looksLikeISIN(_ text: String) -> Bool {
    guard text.utf8.count == 12 else { return false }
    func letter(_ c: UInt8) -> Bool { c >= 65 && c <= 90 }
    func digit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
    for (i, c) in text.utf8.enumerated() {
        switch i {
        case 0, 1: if !letter(c) { return false }
        case 11: if !digit(c) { return false }
        default: if !letter(c) && !digit(c) { return false }
        }
    }
    return true
}
