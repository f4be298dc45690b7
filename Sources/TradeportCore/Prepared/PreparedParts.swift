import Foundation

/// What a reader's thread prepares from one stretch of its source (a piece), one operation after
/// another: the bytes for the sink, the ids' texts and the balance changes. Kept on that thread
/// while it is written (a value: no access checks), then sealed into its `PreparedStore`.
public struct PreparedParts: ~Copyable {
    var bytes: OutputBuffer
    var ids: [UInt8] = []
    var changes: [BalanceChange] = []

    public init(capacity: Int = 1 << 16) {
        bytes = OutputBuffer(capacity: capacity)
    }

    init(bytes: consuming OutputBuffer) {
        self.bytes = bytes
    }
}
