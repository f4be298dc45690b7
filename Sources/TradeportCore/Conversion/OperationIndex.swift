#if canImport(Glibc)
import Glibc
#endif

/// Every operation id seen in a conversion, with a hash of its content and where it was first
/// read: what duplicate and conflict detection needs, in 32 bytes an operation.
///
/// Ids are kept as 128-bit hashes (two differently seeded 64-bit hashes), so memory does not
/// depend on how long ids are.
struct OperationIndex {
    /// 24 bytes: 64 + 16 bits of the id's hash, the content hash, and where the id was first read.
    struct Slot {
        var key: UInt64 = 0
        var content: UInt64 = 0
        /// 16 more bits of the id's hash (never 0 in a used slot), the source index (16 bits)
        /// and the row (32 bits).
        var tagSourceRow: UInt64 = 0

        var isEmpty: Bool { tagSourceRow == 0 }
        var tag: UInt64 { tagSourceRow >> 48 }
        var source: Int { Int((tagSourceRow >> 32) & 0xFFFF) }
        var row: Int { Int(tagSourceRow & 0xFFFF_FFFF) }
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
        slots = Self.table(Self.capacity(for: max(expectedCount, 64)))
    }

    /// `count` empty slots. A large table is asked to be kept in huge pages (2 MiB) before it is
    /// first written: each insertion reads one slot at random, and with 4 KiB pages that is a
    /// TLB miss besides the cache miss (on a virtual machine, a walk of two page tables).
    private static func table(_ count: Int) -> [Slot] {
        Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            #if canImport(Glibc)
            let huge = 2 << 20
            if let base = buffer.baseAddress, count * MemoryLayout<Slot>.stride >= 2 * huge {
                let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
                let end = (Int(bitPattern: base) + count * MemoryLayout<Slot>.stride) & ~(huge - 1)
                // Advice only: where the kernel keeps no huge pages the table works as before.
                if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE) }
            }
            #endif
            buffer.initialize(repeating: Slot())
            initialized = count
        }
    }

    private static func capacity(for count: Int) -> Int { count + count / 3 + 1 }

    /// Sizes the table for `count` operations at once, so a large input is not rehashed on the way.
    mutating func reserve(_ total: Int) {
        if Self.capacity(for: total) > slots.count { rehash(to: Self.capacity(for: total)) }
    }

    /// 80 bits of hash of the id: a 64-bit key and a 16-bit tag (never 0). Two different ids
    /// share all 80 bits with a chance of about n²/2⁸¹ (10⁻¹² for a million operations).
    static func key(for id: String) -> (UInt64, UInt64) {
        var id = id
        return id.withUTF8 { key(for: UnsafeRawBufferPointer($0)) }
    }

    /// `key(for:)` of an id's UTF-8 bytes.
    static func key(for id: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var a = FastHasher(seed: 0x5A17_C0DE_2545_F491)
        a.combine(id)
        var b = FastHasher(seed: 0x0DDB_A115_9E37_79B9)
        b.combine(id)
        return (a.finalize(), (b.finalize() & 0xFFFF) | 1)
    }

    mutating func insert(id: String, content: UInt64, source: Int, row: Int) -> Outcome {
        let (key, tag) = Self.key(for: id)
        return insert(key: key, tag: tag, content: content, source: source, row: row)
    }

    /// `insert(id:…)` of an id already keyed (`key(for:)`).
    mutating func insert(key: UInt64, tag: UInt64, content: UInt64, source: Int, row: Int) -> Outcome {
        if (count + 1) * 5 > slots.count * 4 { rehash(to: slots.count * 2) }
        let n = slots.count
        var i = Int(key.multipliedFullWidth(by: UInt64(n)).high)
        let packed = tag << 48 | UInt64(UInt16(truncatingIfNeeded: source)) << 32 | UInt64(UInt32(truncatingIfNeeded: row))
        return slots.withUnsafeMutableBufferPointer { s in
            while true {
                if s[i].isEmpty {
                    s[i] = Slot(key: key, content: content, tagSourceRow: packed)
                    count += 1
                    return .new
                }
                if s[i].key == key && s[i].tag == tag {
                    return s[i].content == content ? .duplicate : .conflict(source: s[i].source, row: s[i].row)
                }
                i += 1
                if i == n { i = 0 }
            }
        }
    }

    private mutating func rehash(to newCapacity: Int) {
        let old = slots
        slots = Self.table(newCapacity)
        let n = newCapacity
        slots.withUnsafeMutableBufferPointer { s in
            for slot in old where !slot.isEmpty {
                var i = Int(slot.key.multipliedFullWidth(by: UInt64(n)).high)
                while !s[i].isEmpty {
                    i += 1
                    if i == n { i = 0 }
                }
                s[i] = slot
            }
        }
    }
}
