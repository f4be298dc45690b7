/// A JSON value whose numbers keep their text, so that a BigDecimal the server sends
/// (`0.00000051`, `1E-8`) reaches an `ExactDecimal` without passing through a binary float.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number exactly as written.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order (a repeated key: the last one wins on lookup).
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o):
            for (k, v) in o {
                hasher.combine(k)
                hasher.combine(v)
            }
        }
    }

    /// The member named `key` of an object (the last one, when repeated).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// What kind of value this is, for messages.
    public var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// Why a text is not JSON: where, and what was expected.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 0-based byte offset of the problem.
    public let offset: Int
    public let message: String

    public var description: String { "malformed JSON at byte \(offset): \(message)" }

    /// The 1-based line and column (in bytes) of the problem in the text `bytes` it was found in.
    public func lineAndColumn(in bytes: some Collection<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for b in bytes.prefix(offset) {
            if b == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    /// The problem with its place in `bytes`: `line 3, column 17 (byte 52): …`.
    public func located(in bytes: some Collection<UInt8>) -> String {
        let at = lineAndColumn(in: bytes)
        return "line \(at.line), column \(at.column) (byte \(offset)): \(message)"
    }
}

extension JSONValue {
    /// Parses one JSON value (RFC 8259) from `bytes`, with nothing but whitespace after it.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var holdsNul = false
        return try parse(bytes, holdsNul: &holdsNul)
    }

    /// `parse`, also telling whether a string or member name holds U+0000 (only a `\u0000` escape
    /// can put it there), so that a caller refusing it looks for it only then.
    public static func parse(_ bytes: some Collection<UInt8>, holdsNul: inout Bool) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes))
        defer { holdsNul = parser.sawNul }
        return try parser.document()
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

extension JSONValue {
    /// For a JSON array of objects, the string (or number text) of member `key` in each element
    /// (`nil` where it is absent or null), without building the rest: reading which value ids a
    /// portfolio of 100,000 trades holds is then a scan, not a tree of 1.1 million values. The
    /// structure of the whole text is still checked; escapes in skipped strings are not decoded.
    public static func member(_ key: String, ofEachElementOf bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> [String?] {
        var parser = JSONParser(bytes: Array(bytes))
        return try parser.memberOfEachElement(Array(key.utf8))
    }

    /// For a JSON object, how many elements each of the members named `keys` holds (`nil` where
    /// the member is absent or not an array; the last one, when repeated), without building
    /// anything: counting what a batch answer created and found is then a scan, not a tree of
    /// records. The structure of the whole text is still checked; escapes in skipped strings are
    /// not decoded.
    public static func elementCounts(ofMembers keys: [String], of bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> [Int?] {
        var parser = JSONParser(bytes: Array(bytes))
        return try parser.elementCounts(keys.map { Array($0.utf8) })
    }
}

/// A member of a flat object found in place by `JSONValue.forEachFlatObject`: the byte ranges of
/// its name and of its value (a string's without its quotes).
public struct JSONFlatMember: Sendable {
    public enum Kind: Sendable { case string, number, null, boolean }
    public var name: Range<Int>
    public var kind: Kind
    public var value: Range<Int>
}

extension JSONValue {
    /// For a JSON array of flat objects, each object's members in place, handed to `body` in
    /// document order (true to go on); no tree is built. An object is flat when its members are
    /// named in ASCII and their values are strings without escapes, numbers or literals: what a
    /// client writes for records. True when every element was such an object and `body` took it;
    /// false, with nothing more handed over, at anything else (a nested value, an escape, a name
    /// not in ASCII, invalid UTF-8, a syntax fault, `body` saying no). The tree then reads the
    /// text, and names any fault.
    public static func forEachFlatObject(in bytes: [UInt8], _ body: ([JSONFlatMember]) -> Bool) -> Bool {
        var parser = JSONParser(bytes: bytes)
        do {
            try parser.flatObjects(body)
            return true
        } catch {
            return false
        }
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var i = 0
    var depth = 0
    static let maxDepth = 256
    /// Member names by their place in an object, without escapes: the objects of an array of
    /// records share their names instead of each making (and allocating) them anew.
    var names: [String] = []
    /// How many members the last object had: the next one's list is made that large at once.
    var lastMemberCount = 0
    /// Whether a `\u0000` escape was decoded.
    var sawNul = false

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        let value = try self.value()
        skipSpace()
        guard i == bytes.count else { throw fail("unexpected '\(printable(bytes[i]))' after the value") }
        return value
    }

    func fail(_ message: String) -> JSONSyntaxError { JSONSyntaxError(offset: i, message: message) }

    func printable(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "\\u{\(String(b, radix: 16))}"
    }

    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    mutating func value() throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        guard i < bytes.count else { throw fail("the text ends where a value was expected") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("expected a value, found '\(printable(bytes[i]))'")
        }
    }

    mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let w = Array(word.utf8)
        guard bytes.count - i >= w.count, bytes[i..<i + w.count].elementsEqual(w) else {
            throw fail("expected \(word)")
        }
        i += w.count
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maxDepth { throw fail("nested deeper than \(Self.maxDepth) levels") }
    }

    mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            return .object(members)
        }
        members.reserveCapacity(lastMemberCount)
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
            let key = try memberName(at: members.count)
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
            i += 1
            members.append((key, try value()))
            skipSpace()
            guard i < bytes.count else { throw fail("the text ends inside an object") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                lastMemberCount = members.count
                return .object(members)
            }
            throw fail("expected ',' or '}' in an object")
        }
    }

    /// The member name at `i` (its opening quote), the `place`-th of its object: the name the last
    /// object had there when its bytes are the same, else read as any string.
    mutating func memberName(at place: Int) throws(JSONSyntaxError) -> String {
        if place < names.count {
            let known = names[place]
            let n = known.utf8.count
            let end = i + 1 + n
            // The known names hold no backslash, so equal bytes are the same unescaped text.
            if end < bytes.count, bytes[end] == UInt8(ascii: "\""), bytes[(i + 1)..<end].elementsEqual(known.utf8) {
                i = end + 1
                return known
            }
        }
        let start = i
        let name = try string()
        let plain = !bytes[start..<i].contains(UInt8(ascii: "\\"))
        if place < names.count {
            if plain { names[place] = name }
        } else if place == names.count, place < 64, plain {
            names.append(name)
        }
        return name
    }

    mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipSpace()
            guard i < bytes.count else { throw fail("the text ends inside an array") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            throw fail("expected ',' or ']' in an array")
        }
    }

    mutating func number() throws(JSONSyntaxError) -> String {
        let start = i
        try skipNumber()
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    mutating func skipNumber() throws(JSONSyntaxError) {
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while p.i < p.bytes.count, p.bytes[p.i] >= 0x30, p.bytes[p.i] <= 0x39 { p.i += 1 }
            return p.i - s
        }
        let intStart = i
        let n = digits(&self)
        guard n > 0 else { throw fail("expected a digit") }
        if n > 1, bytes[intStart] == UInt8(ascii: "0") { throw JSONSyntaxError(offset: intStart, message: "a number cannot start with 0") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw fail("expected a digit after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw fail("expected a digit in the exponent") }
        }
    }

    // MARK: Skimming

    /// `JSONValue.forEachFlatObject`: gives up by throwing at what is not flat, and where `body`
    /// says no.
    mutating func flatObjects(_ body: ([JSONFlatMember]) -> Bool) throws(JSONSyntaxError) {
        var found: [JSONFlatMember] = []
        found.reserveCapacity(16)
        try objectsOfArray { (p: inout JSONParser) throws(JSONSyntaxError) in
            found.removeAll(keepingCapacity: true)
            try p.members { (p: inout JSONParser) throws(JSONSyntaxError) in found.append(try p.flatMember()) }
            guard body(found) else { throw p.fail("the object was not taken") }
        }
    }

    /// The member at `i` (its name's quote) of a flat object, `i` left after its value.
    mutating func flatMember() throws(JSONSyntaxError) -> JSONFlatMember {
        // Names in ASCII only: compared as bytes, they match as the tree's strings do (which
        // compare by canonical equivalence: U+212A is "K" there).
        let name = try plainString(asciiOnly: true)
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
        i += 1
        skipSpace()
        guard i < bytes.count else { throw fail("the text ends where a value was expected") }
        let start = i
        switch bytes[i] {
        case UInt8(ascii: "\""):
            return JSONFlatMember(name: name, kind: .string, value: try plainString(asciiOnly: false))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
            return JSONFlatMember(name: name, kind: .number, value: start..<i)
        case UInt8(ascii: "n"):
            try literal("null")
            return JSONFlatMember(name: name, kind: .null, value: start..<i)
        case UInt8(ascii: "t"):
            try literal("true")
            return JSONFlatMember(name: name, kind: .boolean, value: start..<i)
        case UInt8(ascii: "f"):
            try literal("false")
            return JSONFlatMember(name: name, kind: .boolean, value: start..<i)
        default:
            throw fail("not a flat value")
        }
    }

    /// The string at `i` (its quote): the range of its text, when it holds no escape and is valid
    /// UTF-8 (ASCII, when `asciiOnly`).
    mutating func plainString(asciiOnly: Bool) throws(JSONSyntaxError) -> Range<Int> {
        i += 1
        let start = i
        var ascii = true
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let text = start..<i
                i += 1
                if !ascii && (asciiOnly || String(validating: bytes[text], as: UTF8.self) == nil) { throw fail("not plain text") }
                return text
            }
            if b == UInt8(ascii: "\\") { throw fail("an escape") }
            if b < 0x20 { throw fail("a control character inside a string must be escaped") }
            if b >= 0x80 { ascii = false }
            i += 1
        }
        throw fail("the text ends inside a string")
    }

    mutating func memberOfEachElement(_ key: [UInt8]) throws(JSONSyntaxError) -> [String?] {
        var result: [String?] = []
        try objectsOfArray { (p: inout JSONParser) throws(JSONSyntaxError) in result.append(try p.memberOfObject(key)) }
        return result
    }

    /// The whole text as an array of objects: `object` reads each one from its `{` and leaves `i`
    /// after it; only space may follow the array.
    mutating func objectsOfArray(_ object: (inout JSONParser) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { throw fail("expected an array") }
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
        } else {
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { throw fail("expected an object in the array") }
                try object(&self)
                skipSpace()
                guard i < bytes.count else { throw fail("the text ends inside an array") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    break
                }
                throw fail("expected ',' or ']' in an array")
            }
        }
        skipSpace()
        guard i == bytes.count else { throw fail("unexpected '\(printable(bytes[i]))' after the value") }
    }

    /// The object at `i`: the text of member `key` (the last one, when repeated); the rest skipped.
    mutating func memberOfObject(_ key: [UInt8]) throws(JSONSyntaxError) -> String? {
        var found: String?
        try members { (p: inout JSONParser) throws(JSONSyntaxError) in
            if try p.memberName(matching: [key]) != nil {
                switch try p.value() {
                case .string(let s): found = s
                case .number(let n): found = n
                default: found = nil
                }
            } else {
                try p.skipValue()
            }
        }
        return found
    }

    /// The object at the end of the text: the element count of each member of `keys` that is an
    /// array.
    mutating func elementCounts(_ keys: [[UInt8]]) throws(JSONSyntaxError) -> [Int?] {
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { throw fail("expected an object") }
        var counts = [Int?](repeating: nil, count: keys.count)
        try members { (p: inout JSONParser) throws(JSONSyntaxError) in
            if let k = try p.memberName(matching: keys) {
                if p.i < p.bytes.count, p.bytes[p.i] == UInt8(ascii: "[") {
                    counts[k] = try p.skipArray()
                } else {
                    try p.skipValue()
                    counts[k] = nil
                }
            } else {
                try p.skipValue()
            }
        }
        skipSpace()
        guard i == bytes.count else { throw fail("unexpected '\(printable(bytes[i]))' after the value") }
        return counts
    }

    /// The object at `i` (its `{`), member by member: `member` is called with `i` at each
    /// member's name, and must leave `i` after the member's value.
    mutating func members(_ member: (inout JSONParser) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        try enter()
        defer { depth -= 1 }
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            return
        }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
            try member(&self)
            skipSpace()
            guard i < bytes.count else { throw fail("the text ends inside an object") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                return
            }
            throw fail("expected ',' or '}' in an object")
        }
    }

    /// Reads a member's name and its `:` (leaving `i` at the value): which of `keys` it is.
    mutating func memberName(matching keys: [[UInt8]]) throws(JSONSyntaxError) -> Int? {
        let nameStart = i + 1
        try skipString()
        let raw = bytes[nameStart..<(i - 1)]
        // A name with escapes is compared decoded; plain ones (all of the server's) as bytes.
        let matched: Int?
        if keys.isEmpty {
            matched = nil
        } else if raw.contains(UInt8(ascii: "\\")) {
            var nameParser = JSONParser(bytes: Array(bytes[(nameStart - 1)..<i]))
            let name = Array(try nameParser.string().utf8)
            matched = keys.firstIndex(of: name)
        } else {
            matched = keys.firstIndex { raw.elementsEqual($0) }
        }
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
        i += 1
        skipSpace()
        return matched
    }

    mutating func skipString() throws(JSONSyntaxError) {
        i += 1
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return
            }
            if b < 0x20 { throw fail("a control character inside a string must be escaped") }
            i += b == UInt8(ascii: "\\") ? 2 : 1
        }
        throw fail("the text ends inside a string")
    }

    mutating func skipValue() throws(JSONSyntaxError) {
        skipSpace()
        guard i < bytes.count else { throw fail("the text ends where a value was expected") }
        switch bytes[i] {
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        case UInt8(ascii: "{"):
            try members { (p: inout JSONParser) throws(JSONSyntaxError) in
                _ = try p.memberName(matching: [])
                try p.skipValue()
            }
        case UInt8(ascii: "["): _ = try skipArray()
        default: _ = try value()
        }
    }

    /// Skips the array at `i`: how many elements it holds.
    mutating func skipArray() throws(JSONSyntaxError) -> Int {
        try enter()
        defer { depth -= 1 }
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            return 0
        }
        var count = 0
        while true {
            try skipValue()
            count += 1
            skipSpace()
            guard i < bytes.count else { throw fail("the text ends inside an array") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return count
            }
            throw fail("expected ',' or ']' in an array")
        }
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        i += 1
        let start = i
        // Most strings hold no escape: the text is their bytes, not copied first.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\\") {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let end = i
                i += 1
                guard let text = String(validating: bytes[start..<end], as: UTF8.self) else { throw fail("a string is not valid UTF-8") }
                return text
            }
            if b < 0x20 { throw fail("a control character inside a string must be escaped") }
            i += 1
        }
        var out: [UInt8] = []
        var runStart = start
        while true {
            guard i < bytes.count else { throw fail("the text ends inside a string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[runStart..<i])
                i += 1
                break
            }
            if b < 0x20 { throw fail("a control character inside a string must be escaped") }
            if b != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            out.append(contentsOf: bytes[runStart..<i])
            i += 1
            guard i < bytes.count else { throw fail("the text ends inside a string") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar == 0 { sawNul = true }
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw fail("a lone high surrogate in a \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("a high surrogate not followed by a low one") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw fail("a lone low surrogate in a \\u escape")
                }
                out.append(contentsOf: Array(String(Character(UnicodeScalar(scalar)!)).utf8))
            default:
                throw fail("unknown escape '\\\(printable(e))'")
            }
            runStart = i
        }
        guard let text = String(validating: out, as: UTF8.self) else { throw fail("a string is not valid UTF-8") }
        return text
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - i >= 4 else { throw fail("expected 4 hex digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw fail("expected 4 hex digits after \\u")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }
}
