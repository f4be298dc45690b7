/// The fields of a movement — a change of a position without money (a transfer of securities in
/// or out, a delivery free of payment, a conversion, a split, the units a final redemption takes
/// out) — in the canonical order: the table every other list of movement fields is derived from
/// (see `TradeField`).
public enum MovementField: String, CanonicalField {
    case id, externalId, time, direction, asset, quantity, reason, isin, name, note, account, source

    public var definition: FieldDefinition {
        switch self {
        case .id:
            return .init(.id, .required, identity: false, assigned: true, "stable across runs: <format>:<venue id>, or <format>:~<content hash>.<occurrence>")
        case .externalId: return .init(.text, .optional, "the venue's own id of the movement")
        case .time: return .init(.time, .required, "when the position changed")
        case .direction: return .init(.choice(MovementDirection.words), .required, "whether the units came into the account or went out")
        case .asset: return .init(.asset, .required, "the security or coin whose position changed")
        case .quantity: return .init(.decimal(.positive), .required, "how many units, in the asset's units")
        case .reason: return .init(.choice(MovementReason.words), .required, "why the position changed, as the source says it; unstated when it does not say")
        case .isin: return .init(.text, .optional, "the security's ISIN")
        case .name: return .init(.text, .optional, "the instrument's name")
        case .note: return .init(.text, .optional, "the source's description")
        case .account: return .init(.text, .optional, "the source's sub-account the units moved in or out of (an addition)")
        case .source: return .init(.location, .required, identity: false, assigned: true, "where the movement was read")
        }
    }
}
