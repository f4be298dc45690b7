/// Reading fixed-width runs of ASCII digits out of a field's bytes (dates, times).
enum DecimalDigits {
    /// The value of the `count` digits at `at`, or nil when one is not a digit or the run passes the end.
    @inline(__always)
    static func value(_ b: UnsafeRawBufferPointer, _ at: Int, _ count: Int) -> Int? {
        guard at >= 0, at + count <= b.count else { return nil }
        var v = 0
        for k in at..<(at + count) {
            let d = b[k] &- 48
            guard d < 10 else { return nil }
            v = v * 10 + Int(d)
        }
        return v
    }
}
