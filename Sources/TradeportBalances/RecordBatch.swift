import TradeportCore

/// A batch of records (a JSON array of objects) read straight from its bytes into records, without
/// a `JSONValue` tree: what the server does with a push's batches. It reads the plain text a client
/// writes (members of strings without escapes, numbers, literals) and gives up on anything else
/// (an escape, a nested value, a syntax error, a record that does not read): the caller then reads
/// the batch as a tree, which takes every JSON text and names every fault. So a batch read here
/// is the batch the tree would give, by construction: the records come from the same readers
/// (`ObjectReader`), over the same member values.
enum RecordBatch {
    /// One member of the object being read: where its name and its value are in the text.
    struct Member {
        var nameStart: Int
        var nameEnd: Int
        var kind: Kind
        var valueStart: Int
        var valueEnd: Int
    }

    enum Kind {
        case string, number, null, boolean
    }

    /// The members of one object of the batch, found by name (the last one, when repeated).
    struct Members: MemberSource {
        let bytes: UnsafeRawBufferPointer
        let members: [Member]

        func member(_ key: String) -> MemberValue? {
            var key = key
            return key.withUTF8 { k -> MemberValue? in
                for m in members.reversed() where m.nameEnd - m.nameStart == k.count
                    && memcmpEqual(bytes.baseAddress! + m.nameStart, k.baseAddress, k.count) {
                    let text = { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[m.valueStart..<m.valueEnd]), as: UTF8.self) }
                    switch m.kind {
                    case .null: return nil
                    case .string: return .string(text())
                    case .number: return .number(text())
                    case .boolean: return .other(kind: "a boolean")
                    }
                }
                return nil
            }
        }
    }

    /// The most members an object may have here (the records have 8 to 12).
    static let memberLimit = 64

    /// The records of the batch `bytes`, each read by `make`; nil when the text is not one this
    /// reader takes or a record does not read (the tree decides then).
    static func read<R>(_ bytes: UnsafeRawBufferPointer, _ make: (ObjectReader<Members>) throws(RecordError) -> R) -> [R]? {
        var scanner = Scanner(bytes: bytes)
        var records: [R] = []
        var members: [Member] = []
        members.reserveCapacity(16)
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        scanner.skipSpace()
        if !scanner.take(UInt8(ascii: "]")) {
            while true {
                scanner.skipSpace()
                members.removeAll(keepingCapacity: true)
                guard scanner.object(into: &members) else { return nil }
                do {
                    records.append(try make(ObjectReader(Members(bytes: bytes, members: members))))
                } catch {
                    return nil
                }
                scanner.skipSpace()
                if scanner.take(UInt8(ascii: ",")) { continue }
                guard scanner.take(UInt8(ascii: "]")) else { return nil }
                break
            }
        }
        scanner.skipSpace()
        guard scanner.i == bytes.count else { return nil }
        return records
    }

    /// Reads the grammar of RFC 8259 as `JSONValue.parse` does, for the values a record holds;
    /// `false` (give up) at anything else.
    struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var i = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func take(_ b: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == b else { return false }
            i += 1
            return true
        }

        /// The object at `i`, its members appended to `members`.
        mutating func object(into members: inout [Member]) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipSpace()
                // Names in ASCII only: compared as bytes, they match as the tree's strings do
                // (which compare by canonical equivalence: U+212A is "K" there).
                guard members.count < RecordBatch.memberLimit, let name = string(asciiOnly: true) else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                guard i < bytes.count else { return false }
                let start = i
                var value = start..<start
                let kind: Kind
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    guard let text = string(asciiOnly: false) else { return false }
                    (kind, value) = (.string, text)
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard number() else { return false }
                    (kind, value) = (.number, start..<i)
                case UInt8(ascii: "n"):
                    guard literal("null") else { return false }
                    kind = .null
                case UInt8(ascii: "t"), UInt8(ascii: "f"):
                    guard literal("true") || literal("false") else { return false }
                    kind = .boolean
                default:
                    // An object or an array in a record: the tree reads it (and the record names it).
                    return false
                }
                members.append(Member(nameStart: name.lowerBound, nameEnd: name.upperBound, kind: kind,
                                      valueStart: value.lowerBound, valueEnd: value.upperBound))
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        }

        /// The string at `i` (its quote): the range of its text, when it holds no escape or control
        /// character and is valid UTF-8 (ASCII, when `asciiOnly`).
        mutating func string(asciiOnly: Bool) -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            var ascii = true
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    let text = start..<i
                    i += 1
                    if !ascii, String(validating: UnsafeRawBufferPointer(rebasing: bytes[text]), as: UTF8.self) == nil { return nil }
                    return text
                }
                if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
                if b >= 0x80 {
                    if asciiOnly { return nil }
                    ascii = false
                }
                i += 1
            }
            return nil
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard bytes.count - i >= n, memcmpEqual(bytes.baseAddress! + i, UnsafeRawPointer(word.utf8Start), n) else { return false }
            i += n
            return true
        }

        /// A number as RFC 8259 writes it.
        mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            let intStart = i
            let n = digits()
            guard n > 0, n == 1 || bytes[intStart] != UInt8(ascii: "0") else { return false }
            if take(UInt8(ascii: ".")) {
                guard digits() > 0 else { return false }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() > 0 else { return false }
            }
            return true
        }

        mutating func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - s
        }
    }
}

/// Whether `count` bytes at `a` and `b` are equal.
@inline(__always)
private func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer?, _ count: Int) -> Bool {
    guard let b else { return count == 0 }
    for k in 0..<count where a.load(fromByteOffset: k, as: UInt8.self) != b.load(fromByteOffset: k, as: UInt8.self) { return false }
    return true
}

extension TradeRecord {
    /// The trades of a batch read straight from its bytes, or nil when the tree must read it
    /// (see `RecordBatch`).
    public static func records(inBatch bytes: UnsafeRawBufferPointer) -> [TradeRecord]? {
        RecordBatch.read(bytes) { (r) throws(RecordError) in try TradeRecord(reading: r) }
    }
}

extension TransactionRecord {
    /// The transactions of a batch read straight from its bytes, or nil when the tree must read it.
    public static func records(inBatch bytes: UnsafeRawBufferPointer) -> [TransactionRecord]? {
        RecordBatch.read(bytes) { (r) throws(RecordError) in try TransactionRecord(reading: r) }
    }
}
