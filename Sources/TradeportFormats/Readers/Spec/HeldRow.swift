/// A row kept past its reading: its fields copied, so that the row after it can be looked at first
/// (`wrapped:`, a value the file wraps onto a line of its own, joined to it).
final class HeldRow: SpecRow {
    private var fields: [(bytes: UnsafeMutableRawBufferPointer, kind: SpecFieldKind)]

    init(_ row: some SpecRow) {
        fields = (0..<row.fieldCount).map { i in
            let (bytes, kind) = row.field(i)
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            if bytes.count > 0 { copy.copyMemory(from: bytes) }
            return (UnsafeMutableRawBufferPointer(rebasing: copy[0..<bytes.count]), kind)
        }
    }

    deinit {
        for field in fields { field.bytes.baseAddress.map { UnsafeMutableRawPointer($0).deallocate() } }
    }

    var fieldCount: Int { fields.count }

    func field(_ i: Int) -> (bytes: UnsafeRawBufferPointer, kind: SpecFieldKind) {
        i < fields.count ? (UnsafeRawBufferPointer(fields[i].bytes), fields[i].kind) : (UnsafeRawBufferPointer(start: nil, count: 0), .text)
    }

    /// Appends `more` to field `i`'s text.
    func append(_ more: UnsafeRawBufferPointer, to i: Int) {
        guard i < fields.count, more.count > 0 else { return }
        let old = fields[i].bytes
        let joined = UnsafeMutableRawBufferPointer.allocate(byteCount: old.count + more.count, alignment: 1)
        if old.count > 0 { joined.copyMemory(from: UnsafeRawBufferPointer(old)) }
        UnsafeMutableRawBufferPointer(rebasing: joined[old.count...]).copyMemory(from: more)
        old.baseAddress.map { UnsafeMutableRawPointer($0).deallocate() }
        fields[i].bytes = joined
    }
}
