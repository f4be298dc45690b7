#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every operation id seen in a conversion, with a hash of its content and where it was first
/// read: what duplicate and conflict detection needs, in 16 bytes a slot (about 21 bytes an
/// operation at the table's load; a slot no id lands in costs nothing until written, `SlotTable`).
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

    private var slots: SlotTable
    private(set) var count = 0
    /// Each source's first ordinal, by source index (sources are inserted in increasing order).
    private var bases: [UInt64] = [0]
    /// The next source's first ordinal: one past the current source's highest row.
    private var nextBase: UInt64 = 0

    init(expectedCount: Int = 0) {
        slots = SlotTable(count: Self.capacity(for: max(expectedCount, 64)))
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
        let s = slots.base
        let met: Slot? = {
            while true {
                if s[i].isEmpty {
                    s[i] = Slot(key: key, contentPlace: packed)
                    return nil
                }
                if s[i].key == key { return s[i] }
                i += 1
                if i == n { i = 0 }
            }
        }()
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

    /// How many bytes of the table are in memory (`SlotTable.residentBytes`).
    var tableResidentBytes: Int { slots.residentBytes }

    private mutating func rehash(to newCapacity: Int) {
        let old = slots
        slots = SlotTable(count: newCapacity)
        let n = newCapacity
        let s = slots.base
        for slot in UnsafeBufferPointer(start: old.base, count: old.count) where !slot.isEmpty {
            var i = Int(slot.key.multipliedFullWidth(by: UInt64(n)).high)
            while !s[i].isEmpty {
                i += 1
                if i == n { i = 0 }
            }
            s[i] = slot
        }
    }

    /// The slots, in memory of their own that starts as zero pages (an empty slot is all zero
    /// bits): a table sized ahead for a file's rows costs only the pages its ids land in, so
    /// rows that repeat one id keep memory flat however many there are. A large table is asked to
    /// be kept in huge pages (2 MiB): each insertion reads one slot at random, and with 4 KiB
    /// pages that is a TLB miss besides the cache miss (on a virtual machine, a walk of two page
    /// tables). One index owns it at a time (the conversion hands the index to its reading thread
    /// and takes it back).
    final class SlotTable: @unchecked Sendable {
        let base: UnsafeMutablePointer<Slot>
        let count: Int
        /// The bytes mapped, or 0 when the slots came from `calloc`.
        private let mapped: Int

        init(count: Int) {
            self.count = count
            let bytes = max(count, 1) * MemoryLayout<Slot>.stride
            #if canImport(Glibc)
            let huge = 2 << 20
            if bytes >= 2 * huge, let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED {
                let start = (Int(bitPattern: p) + huge - 1) & ~(huge - 1)
                let end = (Int(bitPattern: p) + bytes) & ~(huge - 1)
                // Advice only: where the kernel keeps no huge pages the table works as before.
                if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE) }
                base = p.bindMemory(to: Slot.self, capacity: max(count, 1))
                mapped = bytes
                return
            }
            #endif
            guard let p = calloc(max(count, 1), MemoryLayout<Slot>.stride) else { fatalError("out of memory for \(count) index slots") }
            base = p.bindMemory(to: Slot.self, capacity: max(count, 1))
            mapped = 0
        }

        /// How many of the table's bytes are in memory (its mapped pages counted by `mincore`;
        /// the whole table when it came from `calloc`): for the tests.
        var residentBytes: Int {
            #if canImport(Glibc)
            guard mapped > 0 else { return count * MemoryLayout<Slot>.stride }
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            var vector = [UInt8](repeating: 0, count: (mapped + page - 1) / page)
            guard mincore(UnsafeMutableRawPointer(base), mapped, &vector) == 0 else { return mapped }
            return vector.reduce(0) { $0 + Int($1 & 1) } * page
            #else
            return count * MemoryLayout<Slot>.stride
            #endif
        }

        deinit {
            #if canImport(Glibc)
            if mapped > 0 {
                munmap(base, mapped)
                return
            }
            #endif
            free(base)
        }
    }
}
