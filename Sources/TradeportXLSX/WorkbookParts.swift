/// Parsers of the small parts that say where things are: relationships, the workbook, the styles.

/// `<Relationship Id Type Target/>` entries of a `.rels` part.
final class RelationshipsHandler: XMLEventHandler {
    struct Relationship {
        let id: String
        let type: String
        let target: String
        let isExternal: Bool
    }
    var relationships: [Relationship] = []

    override func startElement(_ name: UnsafePointer<CChar>, _ attributes: XMLAttributes) {
        guard XMLName.equals(name, "Relationship"), let id = attributes.string("Id"),
            let type = attributes.string("Type"), let target = attributes.string("Target")
        else { return }
        relationships.append(
            Relationship(
                id: id, type: type, target: target,
                isExternal: attributes.string("TargetMode") == "External"))
    }

    /// The target of the first relationship whose type ends with `/kind` (transitional and strict
    /// OOXML differ only in the type's prefix).
    func target(ofKind kind: String) -> String? {
        relationships.first { !$0.isExternal && $0.type.hasSuffix("/" + kind) }?.target
    }
}

/// The sheets listed by `workbook.xml` (name, relationship id, state) and its date system.
final class WorkbookHandler: XMLEventHandler {
    let part: String
    init(part: String) { self.part = part }

    struct SheetEntry {
        let name: String
        let relationshipId: String
        let state: String?
    }
    var sheets: [SheetEntry] = []
    var uses1904 = false

    override func startElement(_ name: UnsafePointer<CChar>, _ attributes: XMLAttributes) {
        if XMLName.equals(name, "sheet") {
            guard let sheetName = attributes.string("name"),
                let id = attributes.value("id", namespaceEndingWith: "relationships").map({ String(decoding: $0, as: UTF8.self) })
            else {
                stop(XLSXError(.malformed, "a <sheet> without a name or a relationship id", part: part))
                return
            }
            sheets.append(SheetEntry(name: sheetName, relationshipId: id, state: attributes.string("state")))
        } else if XMLName.equals(name, "workbookPr") {
            if let value = attributes.string("date1904") { uses1904 = value == "1" || value == "true" }
        }
    }
}

/// Which cell styles (`s` attributes, indexes into `cellXfs`) show numbers as dates or times.
final class StylesHandler: XMLEventHandler {
    private var customFormats: [Int: String] = [:]
    private var formatIds: [Int] = []
    private var inCellXfs = false

    override func startElement(_ name: UnsafePointer<CChar>, _ attributes: XMLAttributes) {
        if XMLName.equals(name, "numFmt") {
            if let id = attributes.string("numFmtId").flatMap(Int.init), let code = attributes.string("formatCode") {
                customFormats[id] = code
            }
        } else if XMLName.equals(name, "cellXfs") {
            inCellXfs = true
        } else if inCellXfs && XMLName.equals(name, "xf") {
            formatIds.append(attributes.string("numFmtId").flatMap(Int.init) ?? 0)
        }
    }

    override func endElement(_ name: UnsafePointer<CChar>) {
        if XMLName.equals(name, "cellXfs") { inCellXfs = false }
    }

    /// For each style index, whether it formats numbers as dates or times.
    var dateStyles: [Bool] {
        formatIds.map { id in
            if let code = customFormats[id] { return DateFormatCode.isDateOrTime(code) }
            return DateFormatCode.builtInDateFormats.contains(id)
        }
    }
}

/// Whether a number format shows a date or a time.
enum DateFormatCode {
    /// Built-in formats 14–22 (dates, times, both), 45–47 (minutes and seconds, elapsed hours), and
    /// the East Asian locales' date formats 27–36 and 50–58.
    static let builtInDateFormats: Set<Int> = Set(14...22).union(45...47).union(27...36).union(50...58)

    /// Whether `code` has a date or time token (d, m, y, h, s, or an elapsed `[h]`) outside quoted
    /// text, escapes and other bracketed parts (colors, conditions, locales), in its first section.
    static func isDateOrTime(_ code: String) -> Bool {
        if code.caseInsensitiveCompare("General") == .orderedSame { return false }
        var inQuote = false
        var inBracket = false
        var bracket = ""
        var escaped = false
        for ch in code {
            if escaped {
                escaped = false
                continue
            }
            if inQuote {
                if ch == "\"" { inQuote = false }
                continue
            }
            if inBracket {
                if ch == "]" {
                    inBracket = false
                    let b = bracket.lowercased()
                    if !b.isEmpty && b.allSatisfy({ "hms".contains($0) }) { return true }
                } else {
                    bracket.append(ch)
                }
                continue
            }
            switch ch {
            case "\"": inQuote = true
            case "\\", "_", "*": escaped = true
            case "[":
                inBracket = true
                bracket = ""
            case ";": return false
            case "d", "D", "m", "M", "y", "Y", "h", "H", "s", "S": return true
            default: continue
            }
        }
        return false
    }
}
