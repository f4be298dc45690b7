import Foundation

/// An operation a reader made ready for the conversion (`OperationPreparation.prepare`): what the
/// conversion needs of it in order, and where its bytes, id and changes are kept.
public struct PreparedOperation: Sendable {
    let store: PreparedStore
    public let kind: OperationKind
    public let row: Int
    /// Its time: seconds since 1970 in UTC, and the fraction of the second.
    public let time: Int64
    public let nanoseconds: UInt32
    let idKey: UInt64
    let content: UInt64
    public let portfolio: String
    let id: Range<Int32>
    let bytes: Range<Int32>
    let changes: Range<Int32>

    /// The operation's id.
    public var idText: String {
        store.parts.ids.withUnsafeBytes { String(decoding: $0[Int(id.lowerBound)..<Int(id.upperBound)], as: UTF8.self) }
    }

    /// Where the operation was read.
    public var source: SourceLocation { store.origin.atRow(row) }

    /// The bytes its sink writes for it, in the sink's `preparedForm`.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: store.parts.bytes.bytes[Int(bytes.lowerBound)..<Int(bytes.upperBound)]))
    }

    /// Each asset whose balance it changes, with the change.
    func forEachBalanceChange(_ body: (AssetCode, ExactDecimal?) -> Void) {
        for i in Int(changes.lowerBound)..<Int(changes.upperBound) {
            let c = store.parts.changes[i]
            body(c.asset, c.change)
        }
    }
}
