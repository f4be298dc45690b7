public enum TextEncoding: String, Sendable, Equatable, CaseIterable {
    /// With or without a byte-order mark.
    case utf8 = "utf-8"
    case windows1251 = "windows-1251"
    /// Western European (German, French, Dutch… exports of Windows programs); ISO 8859-1 files read as it too.
    case windows1252 = "windows-1252"
    case utf16le = "utf-16le"
    case utf16be = "utf-16be"
    /// Either UTF-16, by its byte-order mark.
    case utf16 = "utf-16"

    /// An encoding of one byte per character.
    public var isSingleByte: Bool { self == .windows1251 || self == .windows1252 }
}
