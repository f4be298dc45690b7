import TradeportCore

/// Writes JSON text by hand, so that decimals go out as the exact digits of an `ExactDecimal`
/// (`JSONEncoder` would write a `Decimal` or `Double` through binary floating point).
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    private mutating func separate() {
        guard let last = needsComma.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    public mutating func beginObject() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    public mutating func endObject() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    public mutating func endArray() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// A member name; the value written next belongs to it.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        // The value that follows is not preceded by a comma.
        needsComma[needsComma.count - 1] = false
        pendingValueAfterKey = true
    }

    private var pendingValueAfterKey = false

    private mutating func beforeValue() {
        if pendingValueAfterKey {
            pendingValueAfterKey = false
            needsComma[needsComma.count - 1] = true
        } else {
            separate()
        }
    }

    public mutating func string(_ text: String) {
        beforeValue()
        appendQuoted(text)
    }

    public mutating func string(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    public mutating func number(_ value: ExactDecimal) {
        beforeValue()
        bytes.append(contentsOf: value.description.utf8)
    }

    public mutating func number(_ value: Int64) {
        beforeValue()
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func bool(_ value: Bool) {
        beforeValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func null() {
        beforeValue()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Text that already is one JSON value.
    public mutating func raw(_ json: [UInt8]) {
        beforeValue()
        bytes.append(contentsOf: json)
    }

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
