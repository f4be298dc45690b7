import Foundation

/// One asset's change of balance by an operation (nil: beyond 38 digits).
public struct BalanceChange: Sendable {
    public var asset: AssetCode
    public var change: ExactDecimal?
}
