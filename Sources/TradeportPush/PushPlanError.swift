import Foundation
import TradeportBalances
import TradeportCore
import TradeportFormats

/// Why a push cannot start, or why its conversion stopped: a manifest or an input is wrong. A
/// kind, the file it is about, and what is wrong.
public struct PushPlanError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure (new kinds may be added).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// The manifest cannot be read, is not JSON, or names portfolios and inputs wrongly.
        public static let manifest = Kind(name: "bad manifest")
        /// An input cannot be opened, recognised or read to its end (`input` says how, when known).
        public static let input = Kind(name: "bad input")
        /// The conversion was stopped by its consumer (the push gave up on the server).
        public static let stopped = Kind(name: "stopped")
        /// A record tradeport wrote for the server does not read back: a bug of tradeport's.
        public static let internalFailure = Kind(name: "internal failure")
    }

    public let kind: Kind
    /// What is wrong, without the file's path.
    public let message: String
    /// The manifest or input the failure is about, when there is one.
    public let path: String?
    /// The input's own error, for `.input` when it was an `InputError`.
    public let input: InputError?
    /// For a conversion that stopped part-way: what it counted until then.
    public var partial: PushConversion?

    public init(_ kind: Kind, _ message: String, path: String? = nil) {
        self.kind = kind
        self.message = message
        self.path = path
        self.input = nil
    }

    /// An input's own error, told as it tells itself.
    public init(_ input: InputError) {
        self.kind = .input
        self.message = input.description
        self.path = nil
        self.input = input
    }

    public var description: String { path.map { "\($0): \(message)" } ?? message }
}
