import TradeportCore

/// Writes JSON text by hand, so that decimals go out as the exact digits of an `ExactDecimal`
/// (`JSONEncoder` would write a `Decimal` or `Double` through binary floating point). Strings,
/// decimals and integers are written by the core's canonical JSON writing.
///
/// `@unchecked Sendable`: the bytes live in a buffer that a write copies first when another
/// writer shares it (copy on write), so copies of a writer never see each other's writes.
public struct JSONWriter: @unchecked Sendable {
    /// Owns the buffer's memory.
    private final class Storage {
        /// Unchecked: only the writer that holds the storage alone reaches it (`write`), so the
        /// run-time exclusivity check on every append (a sixth of a batch's writing) proves nothing.
        @exclusivity(unchecked) var buffer: OutputBuffer

        init(capacity: Int) { buffer = OutputBuffer(capacity: capacity) }

        init(copying other: borrowing OutputBuffer) {
            buffer = OutputBuffer(capacity: other.capacity)
            buffer.append(other.bytes)
        }

    }

    private var storage: Storage
    /// Per open object or array: whether the next member or element follows another.
    private var needsComma: [Bool] = []
    /// A member name was written: the value that follows is not preceded by a comma.
    private var pendingValueAfterKey = false

    public init(capacity: Int = 256) {
        storage = Storage(capacity: capacity)
    }

    /// The text written so far.
    public var bytes: [UInt8] { storage.buffer.array }

    /// Runs `body` on the buffer, copied first when another writer shares it.
    @inline(__always)
    private mutating func write(_ body: (inout OutputBuffer) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage.buffer) }
        body(&storage.buffer)
    }

    private mutating func separate() {
        guard let last = needsComma.last else { return }
        if last { write { $0.append(UInt8(ascii: ",")) } }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func beforeValue() {
        if pendingValueAfterKey {
            pendingValueAfterKey = false
        } else {
            separate()
        }
    }

    public mutating func beginObject() {
        beforeValue()
        write { $0.append(UInt8(ascii: "{")) }
        needsComma.append(false)
    }

    public mutating func endObject() {
        needsComma.removeLast()
        write { $0.append(UInt8(ascii: "}")) }
    }

    public mutating func beginArray() {
        beforeValue()
        write { $0.append(UInt8(ascii: "[")) }
        needsComma.append(false)
    }

    public mutating func endArray() {
        needsComma.removeLast()
        write { $0.append(UInt8(ascii: "]")) }
    }

    /// A member name; the value written next belongs to it.
    public mutating func key(_ name: String) {
        separate()
        write {
            CanonicalJSON.appendString(name, to: &$0)
            $0.append(UInt8(ascii: ":"))
        }
        pendingValueAfterKey = true
    }

    /// A value written straight into the buffer by `body`, separated from the value before as
    /// any other: for an object whose members the caller writes in a fixed order (a record),
    /// without a call per key, comma and value.
    public mutating func raw(_ body: (inout OutputBuffer) -> Void) {
        beforeValue()
        write(body)
    }

    /// `text` as a JSON string, or `null`: what `string(_:)` writes, for `raw`'s bodies.
    public static func append(_ text: String?, to out: inout OutputBuffer) {
        CanonicalJSON.append(text, to: &out)
    }

    /// `value`'s digits, or `null`: what `number(_:)` writes, for `raw`'s bodies.
    public static func append(_ value: ExactDecimal?, to out: inout OutputBuffer) {
        if let value { value.appendText(to: &out) } else { out.append("null") }
    }

    public mutating func string(_ text: String) {
        beforeValue()
        write { CanonicalJSON.appendString(text, to: &$0) }
    }

    public mutating func string(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    /// A date-time's text as a string, written straight into the buffer: `2019-11-25T08:08:44`,
    /// or `2019-11-25T08:08` when `seconds` is false (digits, `-`, `T` and `:`: nothing to escape).
    public mutating func dateTime(_ value: LocalDateTime, seconds: Bool) {
        beforeValue()
        write {
            $0.append(UInt8(ascii: "\""))
            value.appendISO(to: &$0, seconds: seconds)
            $0.append(UInt8(ascii: "\""))
        }
    }

    public mutating func number(_ value: ExactDecimal) {
        beforeValue()
        write { value.appendText(to: &$0) }
    }

    public mutating func number(_ value: Int64) {
        beforeValue()
        write { $0.appendInt(Int(value)) }
    }

    public mutating func bool(_ value: Bool) {
        beforeValue()
        write { $0.append(value ? "true" : "false") }
    }

    public mutating func null() {
        beforeValue()
        write { $0.append("null") }
    }
}
