/// The fields of a cash transaction, in the canonical order: the table every other list of
/// transaction fields is derived from (see `TradeField`).
public enum TransactionField: String, CanonicalField {
    case id, externalId, time, type, asset, amount, fee, status, security, note, account, counterparty, txHash, address, source

    public var definition: FieldDefinition {
        switch self {
        case .id:
            return .init(.id, .required, identity: false, assigned: true, "stable across runs: <format>:<venue id>, or <format>:~<content hash>.<occurrence>")
        case .externalId: return .init(.text, .optional, "the venue's own id of the transaction")
        case .time: return .init(.time, .required, "when the money moved")
        case .type: return .init(.choice(CashTransactionType.words), .required, "what the transaction is; the type fixes the direction: money in or out")
        case .asset: return .init(.asset, .required, "the currency or coin moved")
        case .amount: return .init(.decimal(.nonNegative), .required, "how much moved: > 0 when status is complete, >= 0 otherwise")
        case .fee: return .init(.cashFee, .optional, "the fee charged on the transaction")
        case .status:
            return .init(
                .choice(TransactionStatus.words), .required, default: TransactionStatus.complete.rawValue,
                "whether money moved; only complete ones are output unless asked")
        case .security: return .init(.text, .optional, "the security a dividend, coupon or redemption belongs to")
        case .note: return .init(.text, .optional, "the source's description")
        case .account: return .init(.text, .optional, "the source's sub-account the money moved in or out of (an addition)")
        case .counterparty: return .init(.text, .optional, "the wallet or account the money came from or went to (an addition)")
        case .txHash: return .init(.text, .optional, "a blockchain transaction hash (an addition)")
        case .address: return .init(.text, .optional, "a deposit or withdrawal address (an addition)")
        case .source: return .init(.location, .required, identity: false, assigned: true, "where the transaction was read")
        }
    }
}
