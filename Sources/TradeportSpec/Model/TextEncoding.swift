public enum TextEncoding: String, Sendable, Equatable, CaseIterable {
    /// With or without a byte-order mark.
    case utf8 = "utf-8"
    case windows1251 = "windows-1251"
    case utf16le = "utf-16le"
    case utf16be = "utf-16be"
    /// Either UTF-16, by its byte-order mark.
    case utf16 = "utf-16"
}
