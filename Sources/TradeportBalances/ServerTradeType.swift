import TradeportCore

/// `Buy` or `Sell`, spelled as the server spells them.
public enum ServerTradeType: String, Sendable, Hashable, CaseIterable {
    case buy = "Buy"
    case sell = "Sell"
}
