/// The fields of a trade, in the canonical order: the table every other list of trade fields is
/// derived from. A new field is a new case here with its definition, then a stored property of
/// `Trade` and its two accessor cases (the build fails until they are written).
public enum TradeField: String, CanonicalField {
    case id, externalId, time, side, base, quote, quantity, price, amount, accruedInterest, fees, isin, name, venue
    case settlementDate, account, orderId, pricePercent, nominal, source

    public var definition: FieldDefinition {
        switch self {
        case .id:
            return .init(.id, .required, identity: false, assigned: true, "stable across runs: <format>:<venue id>, or <format>:~<content hash>.<occurrence>")
        case .externalId: return .init(.text, .optional, "the venue's own id of the deal")
        case .time: return .init(.time, .required, "when the deal was made")
        case .side: return .init(.choice(TradeSide.words), .required, "whether base was bought or sold")
        case .base: return .init(.asset, .required, "what was bought or sold")
        case .quote: return .init(.asset, .required, "what it was paid in")
        case .quantity: return .init(.decimal(.positive), .required, "in base units")
        case .price: return .init(.decimal(.nonNegative), .required, "quote per base unit")
        case .amount: return .init(.decimal(.nonNegative), .optional, "the deal's value in quote as the source states it, without accrued interest")
        case .accruedInterest: return .init(.decimal(.any), .optional, "accrued interest on bonds (НКД), in quote")
        case .fees: return .init(.tradeFees, .required, "the fees charged, each in its own currency; zero fees may be omitted")
        case .isin: return .init(.text, .optional, "the security's ISIN")
        case .name: return .init(.text, .optional, "the instrument's name")
        case .venue: return .init(.text, .optional, "where the deal was made")
        case .settlementDate: return .init(.date, .optional, "when the deal settles")
        case .account: return .init(.text, .optional, "the source's sub-account the trade was made in (an addition)")
        case .orderId: return .init(.text, .optional, "the venue's order id (an addition)")
        case .pricePercent:
            return .init(
                .decimal(.nonNegative), .optional, since: 2,
                "a bond's price as quoted: percent of its nominal (price is then nominal × pricePercent ÷ 100, per unit in quote)")
        case .nominal: return .init(.decimal(.positive), .optional, since: 2, "a bond's nominal per unit at the deal, in quote (after any partial redemptions)")
        case .source: return .init(.location, .required, identity: false, assigned: true, "where the trade was read")
        }
    }
}
