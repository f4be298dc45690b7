/// The fields of a value type, kept in one heap object that copies share until one of them
/// changes (copy-on-write). Operations are copied several times between an adapter and a sink;
/// with this a copy is one reference count, not one per field.
@usableFromInline
final class SharedFields<Fields: Sendable>: @unchecked Sendable {
    // Mutated only through `update`, which copies first unless this reference is the only one.
    @usableFromInline var fields: Fields

    @usableFromInline
    init(_ fields: Fields) { self.fields = fields }

    @inlinable
    static func update<Value>(_ storage: inout SharedFields, _ keyPath: WritableKeyPath<Fields, Value>, _ value: Value) {
        if !isKnownUniquelyReferenced(&storage) { storage = SharedFields(storage.fields) }
        storage.fields[keyPath: keyPath] = value
    }
}

/// Equal when they are one box, or hold equal fields: what a value type keeping its fields in a
/// box compares and hashes by (its `==` and `hash` are then synthesized).
extension SharedFields: Equatable, Hashable where Fields: Hashable {
    @usableFromInline
    static func == (a: SharedFields, b: SharedFields) -> Bool { a === b || a.fields == b.fields }
    @usableFromInline
    func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}
