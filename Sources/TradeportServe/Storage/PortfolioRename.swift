import TradeportBalances
import TradeportCore

enum PortfolioRename: Sendable {
    case renamed(PortfolioRecord)
    case notFound
    /// The caller has another portfolio of that name.
    case nameTaken(PortfolioRecord)
}
