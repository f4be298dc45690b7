import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats

/// A batch of one portfolio's records, of one kind, as the conversion hands them over.
public struct PushBatch: Sendable {
    public enum Records: Sendable {
        case trades(EncodedRecords)
        case transactions(EncodedRecords)
    }

    public var portfolio: String
    public var records: Records

    public var count: Int {
        switch records {
        case .trades(let r): return r.count
        case .transactions(let r): return r.count
        }
    }
}
