#if canImport(Glibc)
import Glibc
#endif

/// Every operation id seen in a conversion, with a hash of its content and where it was first
/// read: what duplicate and conflict detection needs, in 16 bytes a slot (about 21 bytes an
/// operation at the table's load).
///
/// Ids are kept as 64-bit hashes, so memory does not depend on how long ids are. Two different
/// ids share a hash with a chance of about n²/2⁶⁵ (4·10⁻⁷ for four million operations); the
/// pair is then told apart by content, so it is a conflict reject, loud, unless the two
/// operations also agree in their 32-bit content hash. A changed content under an id seen
/// before passes as a duplicate with a chance of 2⁻³² per such pair.
///
/// Where an id was first read is one 32-bit ordinal across all sources (each source's rows
/// follow the previous source's last row), mapped back to the source and row on a conflict.
struct OperationIndex {
    /// The id's hash; the content hash (high 32 bits) and the first read's ordinal plus one (low
    /// 32 bits, never 0 in a used slot).
    struct Slot {
        var key: UInt64 = 0
        var contentPlace: UInt64 = 0

        var isEmpty: Bool { contentPlace == 0 }
        var content: UInt32 { UInt32(truncatingIfNeeded: contentPlace >> 32) }
        var place: UInt32 { UInt32(truncatingIfNeeded: contentPlace) }
    }

    /// Where an id was first read.
    struct FirstRead: Equatable {
        var source: Int
        var row: Int
    }

    enum Outcome: Equatable {
        case new
        case duplicate
        /// The same id with other content, first read there (nil: past the 4,294,967,294 rows
        /// a conversion's ordinals reach).
        case conflict(FirstRead?)
    }

    /// The ordinal stored for a read past the ordinals' reach.
    private static let unplaced = UInt32.max

    private var slots: [Slot]
    private(set) var count = 0
    /// Each source's first ordinal, by source index (sources are inserted in increasing order).
    private var bases: [UInt64] = [0]
    /// The next source's first ordinal: one past the current source's highest row.
    private var nextBase: UInt64 = 0

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

    /// A 64-bit hash of the id.
    static func key(for id: String) -> UInt64 {
        var id = id
        return id.withUTF8 { key(for: UnsafeRawBufferPointer($0)) }
    }

    /// `key(for:)` of an id's UTF-8 bytes.
    static func key(for id: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = FastHasher(seed: 0x5A17_C0DE_2545_F491)
        hasher.combine(id)
        return hasher.finalize()
    }

    mutating func insert(id: String, content: UInt64, source: Int, row: Int) -> Outcome {
        insert(key: Self.key(for: id), content: content, source: source, row: row)
    }

    /// `insert(id:…)` of an id already keyed (`key(for:)`). `source` never decreases from one
    /// call to the next.
    mutating func insert(key: UInt64, content: UInt64, source: Int, row: Int) -> Outcome {
        if (count + 1) * 5 > slots.count * 4 { rehash(to: slots.count * 2) }
        let packed = UInt64(UInt32(truncatingIfNeeded: content ^ content >> 32)) << 32 | UInt64(place(source: source, row: row))
        let n = slots.count
        var i = Int(key.multipliedFullWidth(by: UInt64(n)).high)
        // The slot met: nil when the id is new, else what it holds.
        let met: Slot? = slots.withUnsafeMutableBufferPointer { s in
            while true {
                if s[i].isEmpty {
                    s[i] = Slot(key: key, contentPlace: packed)
                    return nil
                }
                if s[i].key == key { return s[i] }
                i += 1
                if i == n { i = 0 }
            }
        }
        guard let met else {
            count += 1
            return .new
        }
        return met.content == UInt32(truncatingIfNeeded: packed >> 32) ? .duplicate : .conflict(firstRead(met.place))
    }

    /// The ordinal plus one of `row` of `source`, or `unplaced`.
    private mutating func place(source: Int, row: Int) -> UInt32 {
        precondition(source >= bases.count - 1, "sources are inserted in increasing order")
        while bases.count <= source { bases.append(nextBase) }
        let ordinal = bases[source] + UInt64(max(row, 0))
        nextBase = max(nextBase, ordinal + 1)
        return ordinal < UInt64(Self.unplaced) - 1 ? UInt32(ordinal + 1) : Self.unplaced
    }

    /// The source and row of a stored ordinal plus one: the last source whose first ordinal is
    /// not past it (a source with no rows has the same first ordinal as the next).
    private func firstRead(_ place: UInt32) -> FirstRead? {
        guard place != Self.unplaced else { return nil }
        let ordinal = UInt64(place - 1)
        var low = 0
        var high = bases.count  // the answer is in low..<high
        while high - low > 1 {
            let middle = (low + high) / 2
            if bases[middle] <= ordinal { low = middle } else { high = middle }
        }
        return FirstRead(source: low, row: Int(ordinal - bases[low]))
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
