/// Why a call to the server failed, for the user: refused (a 4xx, with the server's message) or
/// unreachable (connection errors and 5xx answers, after the retries).
public struct ServerFailure: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable { case refused, unreachable, unreadableAnswer }
    public let kind: Kind
    /// The call: `POST /trades/batch`.
    public let call: String
    public let status: Int?
    public let message: String

    public var description: String {
        switch kind {
        case .refused: return "the server refused \(call) (\(status.map(String.init) ?? "?")): \(message)"
        case .unreachable: return "the server could not be reached for \(call): \(message)"
        case .unreadableAnswer: return "the server's answer to \(call) could not be read: \(message)"
        }
    }
}
