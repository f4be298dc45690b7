/// The fields of a value type, kept in one immutable heap object that copies share: an operation
/// is copied several times between a reader and a writer, and a copy is then one reference count,
/// not one per field. A change makes a new object (the fields copied), so copies never see each
/// other's changes.
@usableFromInline
final class SharedFields<Fields: Sendable>: Sendable {
    @usableFromInline let fields: Fields

    @usableFromInline
    init(_ fields: Fields) { self.fields = fields }

    /// Replaces `storage` by one whose field at `keyPath` is `value`.
    @inlinable
    static func update<Value>(_ storage: inout SharedFields, _ keyPath: WritableKeyPath<Fields, Value>, _ value: Value) {
        var fields = storage.fields
        fields[keyPath: keyPath] = value
        storage = SharedFields(fields)
    }
}

/// Equal when they are one object, or hold equal fields: what a value type keeping its fields in
/// a shared object compares and hashes by (its `==` and `hash` are then synthesized).
extension SharedFields: Equatable, Hashable where Fields: Hashable {
    @usableFromInline
    static func == (a: SharedFields, b: SharedFields) -> Bool { a === b || a.fields == b.fields }
    @usableFromInline
    func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}
