/// A growable byte buffer written through a raw pointer: what the writers serialize into.
///
/// Not copyable: it owns its memory, which it frees when it goes away, so there is never a second
/// copy pointing at memory the first one freed or moved. Pass it `inout` to write into it.
public struct OutputBuffer: ~Copyable {
    public private(set) var base: UnsafeMutablePointer<UInt8>
    public private(set) var count = 0
    public private(set) var capacity: Int

    public init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// An empty buffer over `capacity` bytes at `memory`, which it then owns (memory another
    /// buffer gave up: `takeMemory`).
    public init(memory: UnsafeMutablePointer<UInt8>, capacity: Int) {
        base = memory
        self.capacity = capacity
    }

    /// The buffer's memory and its capacity, handed over: the buffer is gone, and the caller owns
    /// the memory (to free, or to give to another buffer).
    public consuming func takeMemory() -> (memory: UnsafeMutablePointer<UInt8>, capacity: Int) {
        let taken = (base, capacity)
        discard self
        return taken
    }

    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
    public var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    public mutating func removeAll() { count = 0 }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    public mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    @inline(never)
    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends without checking room: the caller reserved it.
    @inline(__always)
    mutating func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inline(__always)
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func append(contentsOf array: [UInt8]) {
        array.withUnsafeBytes { append($0) }
    }

    /// Appends a string's UTF-8 as it is (no escaping).
    @inline(__always)
    public mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `value` as two decimal digits.
    @inline(__always)
    mutating func appendTwoDigits(_ value: Int) {
        reserve(2)
        base[count] = UInt8(truncatingIfNeeded: value / 10) &+ 48
        base[count + 1] = UInt8(truncatingIfNeeded: value % 10) &+ 48
        count += 2
    }

    /// Appends `THH:mm:ss` (`THH:mm` without a second): a date-time's time after its date.
    @inline(__always)
    mutating func appendTimeOfDay(hour: Int, minute: Int, second: Int?) {
        append(UInt8(ascii: "T"))
        appendTwoDigits(hour)
        append(UInt8(ascii: ":"))
        appendTwoDigits(minute)
        if let second {
            append(UInt8(ascii: ":"))
            appendTwoDigits(second)
        }
    }

    /// Appends `value × 10^-scale` in plain decimal (`0.0025`, `12`), writing the digits from the
    /// right straight into the buffer. The caller reserved room (at most 41 bytes).
    @inline(__always)
    mutating func appendDecimalDigits<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value, scale: Int) {
        var count = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            count += 1
        }
        let width = scale == 0 ? count : max(count, scale + 1) + 1  // with the point and a leading 0
        var v = value
        var p = base + self.count + width - 1
        if scale > 0 {
            for _ in 0..<scale {
                p.pointee = UInt8(truncatingIfNeeded: v % 10) &+ 48
                v /= 10
                p -= 1
            }
            p.pointee = UInt8(ascii: ".")
            p -= 1
        }
        repeat {
            p.pointee = UInt8(truncatingIfNeeded: v % 10) &+ 48
            v /= 10
            p -= 1
        } while p >= base + self.count
        self.count += width
    }

    public mutating func appendInt(_ value: Int) {
        reserve(21)
        if value < 0 { appendUnchecked(UInt8(ascii: "-")) }
        appendDecimalDigits(UInt64(value.magnitude), scale: 0)
    }

    /// Appends `byte` as two lower-case hex digits.
    @inline(__always)
    public mutating func appendHex(_ byte: UInt8) {
        let digits: StaticString = "0123456789abcdef"
        reserve(2)
        appendUnchecked(digits.utf8Start[Int(byte >> 4)])
        appendUnchecked(digits.utf8Start[Int(byte & 15)])
    }

    /// `bytes` in lower-case hex.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var buffer = OutputBuffer(capacity: 64)
        for b in bytes { buffer.appendHex(b) }
        return String(decoding: buffer.bytes, as: UTF8.self)
    }
}

/// A fast non-cryptographic 64-bit hash (multiply and fold, after wyhash), for in-process tables.
public struct FastHasher {
    private var state: UInt64

    public init(seed: UInt64 = 0x9E37_79B9_7F4A_7C15) { state = seed }

    @inline(__always)
    static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let p = a.multipliedFullWidth(by: b)
        return p.high ^ p.low
    }

    @inline(__always)
    public mutating func combine(_ value: UInt64) {
        // The previous state always survives in the result, even when the product is zero.
        let mixed = Self.fold(state ^ 0xA076_1D64_78BD_642F, value ^ 0xE703_7ED1_A0B4_28DB)
        state = mixed ^ (state << 23 | state >> 41) ^ value
    }

    @inline(__always)
    public mutating func combine(_ value: Int64) { combine(UInt64(bitPattern: value)) }

    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        let n = bytes.count
        while i + 8 <= n {
            combine(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            tail |= UInt64(bytes[i]) << shift
            shift += 8
            i += 1
        }
        combine(tail ^ (UInt64(n) << 56))
    }

    @inline(__always)
    public mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    public mutating func combine(_ text: String?) {
        if let text { combine(text) } else { combine(0xFFFF_FFFF_FFFF_FFFF as UInt64) }
    }

    @inline(__always)
    public mutating func combine(_ value: ExactDecimal) {
        combine(UInt64(truncatingIfNeeded: value.mantissa))
        combine(UInt64(truncatingIfNeeded: value.mantissa >> 64) ^ (UInt64(value.scale) << 56))
    }

    @inline(__always)
    public mutating func combine(_ value: ExactDecimal?) {
        if let value { combine(value) } else { combine(0xFFFF_FFFF_FFFF_FFFE as UInt64) }
    }

    public func finalize() -> UInt64 { Self.fold(state, 0x8EBC_6AF0_9C88_C6E3) }
}
