/// Integers as LEB128 (seven bits a byte, low first, the top bit saying more follow); signed ones
/// zigzagged first, so that small magnitudes of either sign are short. What `OperationLog` and
/// `RecordBytes` hold their numbers in.
enum LEB128 {
    static func put(_ value: UInt128, _ out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func put(signed value: Int128, _ out: inout [UInt8]) {
        put(UInt128(bitPattern: (value << 1) ^ (value >> 127)), &out)
    }

    /// The value at `at` in bytes this process wrote (unchecked: they hold a whole value there).
    static func unsigned(_ bytes: [UInt8], _ at: inout Int) -> UInt128 {
        // Most values take a few bytes: 64-bit arithmetic up to nine of them.
        var small: UInt64 = 0
        var shift: UInt64 = 0
        while shift < 63 {
            let b = bytes[at]
            at += 1
            small |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return UInt128(small) }
            shift += 7
        }
        var v = UInt128(small)
        var wide = UInt128(shift)
        while true {
            let b = bytes[at]
            at += 1
            v |= UInt128(b & 0x7F) << wide
            if b < 0x80 { return v }
            wide += 7
        }
    }

    static func signed(_ bytes: [UInt8], _ at: inout Int) -> Int128 {
        unzigzag(unsigned(bytes, &at))
    }

    /// The value at `at`, or nil when the bytes end before it does or it runs past 128 bits.
    static func unsigned(checked bytes: UnsafeRawBufferPointer, _ at: inout Int) -> UInt128? {
        var v: UInt128 = 0
        var shift: UInt128 = 0
        while at < bytes.count, shift < 128 {
            let b = bytes[at]
            at += 1
            v |= UInt128(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
        return nil
    }

    static func unzigzag(_ u: UInt128) -> Int128 {
        Int128(bitPattern: u >> 1) ^ -Int128(bitPattern: u & 1)
    }
}
