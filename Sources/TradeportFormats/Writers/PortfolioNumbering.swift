import TradeportCore

/// Numbers for portfolio names, in the order they first come, for writers that keep a small entry
/// per operation; the last name looked up is kept at hand, as operations of one portfolio come in
/// runs.
struct PortfolioNumbering {
    private(set) var names: [String] = []
    private var index: [String: UInt32] = [:]
    private var last: (name: String, number: UInt32)?

    mutating func number(_ name: String) -> UInt32 {
        if let last, last.name == name { return last.number }
        let number: UInt32
        if let found = index[name] {
            number = found
        } else {
            number = UInt32(names.count)
            names.append(name)
            index[name] = number
        }
        last = (name, number)
        return number
    }
}

extension PortfolioOperation {
    /// The kind in the top two bits of a writer's 32-bit entry beside a portfolio number: 0 a
    /// trade, 1 a transaction, 2 a movement (the order the document lists them in).
    var kindBits: UInt32 { kind.bits }
}

extension OperationKind {
    /// The kind in the top two bits of a writer's 32-bit entry beside a portfolio number: 0 a
    /// trade, 1 a transaction, 2 a movement (the order the document lists them in).
    var bits: UInt32 {
        switch self {
        case .trade: return 0
        case .transaction: return 1 << 30
        case .movement: return 2 << 30
        }
    }
}
