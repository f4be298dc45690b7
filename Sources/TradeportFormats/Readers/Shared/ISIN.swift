import TradeportCore

/// Whether `text` has the form of an ISIN (`ISIN.looksLike`).
func looksLikeISIN(_ text: String) -> Bool { ISIN.looksLike(text) }
