import TradeportCore

/// A batch of records (a JSON array of objects) read straight from its bytes into records, without
/// a `JSONValue` tree: what the server does with a push's batches. The JSON parser finds the
/// members of each flat object in place (`JSONValue.forEachFlatObject`: what a client writes) and
/// gives up on anything else, and so does this at a record that does not read: the caller then
/// reads the batch as a tree, which takes every JSON text and names every fault. So a batch read
/// here is the batch the tree would give, by construction: the same parser's grammar, and the
/// records from the same readers (`ObjectReader`) over the same member values.
enum RecordBatch {
    /// The members of one object of the batch, found by name (the last one, when repeated).
    struct Members: MemberSource {
        let bytes: [UInt8]
        let members: [JSONFlatMember]

        func member(_ key: String) -> MemberValue? {
            var key = key
            return key.withUTF8 { k in
                bytes.withUnsafeBufferPointer { b -> MemberValue? in
                    guard let m = members.last(where: { $0.name.count == k.count && UnsafeBufferPointer(rebasing: b[$0.name]).elementsEqual(k) }) else {
                        return nil
                    }
                    switch m.kind {
                    case .null: return nil
                    case .string: return .string(String(decoding: UnsafeBufferPointer(rebasing: b[m.value]), as: UTF8.self))
                    case .number: return .number(String(decoding: UnsafeBufferPointer(rebasing: b[m.value]), as: UTF8.self))
                    case .boolean: return .other(kind: "a boolean")
                    }
                }
            }
        }
    }

    /// The records of the batch `bytes`, each read by `make`; nil when the text is not an array
    /// of flat objects (`JSONValue.forEachFlatObject`) or a record does not read (the tree
    /// decides then).
    static func read<R>(_ bytes: [UInt8], _ make: (ObjectReader<Members>) throws(RecordError) -> R) -> [R]? {
        var records: [R] = []
        let read = JSONValue.forEachFlatObject(in: bytes) { members in
            do {
                records.append(try make(ObjectReader(Members(bytes: bytes, members: members))))
                return true
            } catch {
                return false
            }
        }
        return read ? records : nil
    }
}

extension TradeRecord {
    /// The trades of a batch read straight from its bytes, or nil when the tree must read it
    /// (see `RecordBatch`).
    public static func records(inBatch bytes: [UInt8]) -> [TradeRecord]? {
        RecordBatch.read(bytes) { (r) throws(RecordError) in try TradeRecord(reading: r) }
    }
}

extension TransactionRecord {
    /// The transactions of a batch read straight from its bytes, or nil when the tree must read it.
    public static func records(inBatch bytes: [UInt8]) -> [TransactionRecord]? {
        RecordBatch.read(bytes) { (r) throws(RecordError) in try TransactionRecord(reading: r) }
    }
}
