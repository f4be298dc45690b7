/// Every operation id seen in a conversion, with a hash of its content and where it was first
/// read: what duplicate and conflict detection needs, in 32 bytes an operation.
///
/// Ids are kept as 128-bit hashes (two independently seeded SipHashes), so memory does not
/// depend on how long ids are; two different ids sharing all 128 bits is not a practical concern
/// (about 10⁻²⁶ for a billion operations).
struct OperationIndex {
    struct Slot {
        var keyA: UInt64 = 0
        var keyB: UInt64 = 0  // never 0 in a used slot
        var content: UInt64 = 0
        var source: UInt32 = 0
        var row: UInt32 = 0
    }

    enum Outcome: Equatable {
        case new
        case duplicate
        /// The same id with other content, first seen at this source index and row.
        case conflict(source: Int, row: Int)
    }

    private var slots: [Slot]
    private(set) var count = 0

    init(expectedCount: Int = 0) {
        slots = Array(repeating: Slot(), count: Self.capacity(for: max(expectedCount, 64)))
    }

    private static func capacity(for count: Int) -> Int { count + count / 3 + 1 }

    /// Sizes the table for `count` operations at once, so a large input is not rehashed on the way.
    mutating func reserve(_ total: Int) {
        if Self.capacity(for: total) > slots.count { rehash(to: Self.capacity(for: total)) }
    }

    static func key(for id: String) -> (UInt64, UInt64) {
        var a = Hasher()
        a.combine(0x5A17_C0DE as UInt32)
        a.combine(id)
        var b = Hasher()
        b.combine(0x0DDB_A115 as UInt32)
        b.combine(id)
        return (UInt64(bitPattern: Int64(a.finalize())), UInt64(bitPattern: Int64(b.finalize())) | 1)
    }

    mutating func insert(id: String, content: Int, source: Int, row: Int) -> Outcome {
        let (ka, kb) = Self.key(for: id)
        if (count + 1) * 5 > slots.count * 4 { rehash(to: slots.count * 2) }
        let n = slots.count
        var i = Int(ka.multipliedFullWidth(by: UInt64(n)).high)
        let c = UInt64(bitPattern: Int64(content))
        return slots.withUnsafeMutableBufferPointer { s in
            while true {
                if s[i].keyB == 0 {
                    s[i] = Slot(keyA: ka, keyB: kb, content: c, source: UInt32(truncatingIfNeeded: source),
                                row: UInt32(truncatingIfNeeded: row))
                    count += 1
                    return .new
                }
                if s[i].keyA == ka && s[i].keyB == kb {
                    return s[i].content == c ? .duplicate : .conflict(source: Int(s[i].source), row: Int(s[i].row))
                }
                i += 1
                if i == n { i = 0 }
            }
        }
    }

    private mutating func rehash(to newCapacity: Int) {
        let old = slots
        slots = Array(repeating: Slot(), count: newCapacity)
        let n = newCapacity
        slots.withUnsafeMutableBufferPointer { s in
            for slot in old where slot.keyB != 0 {
                var i = Int(slot.keyA.multipliedFullWidth(by: UInt64(n)).high)
                while s[i].keyB != 0 {
                    i += 1
                    if i == n { i = 0 }
                }
                s[i] = slot
            }
        }
    }
}
