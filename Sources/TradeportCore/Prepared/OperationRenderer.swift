import Foundation

/// How a sink outside Core has each operation written on the reader's threads
/// (`PreparedForm.rendered`): from the operation, its id set, and the portfolio it goes to.
/// Called on several threads at once: it keeps no state of its own.
public protocol OperationRenderer: Sendable {
    func append(_ operation: PortfolioOperation, portfolio: String, to out: inout OutputBuffer)
}
