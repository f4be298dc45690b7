/// The formats a conversion can read, by id, and detection across them.
public struct FormatRegistry: Sendable {
    public let adapters: [any FormatAdapter]

    public init(_ adapters: [any FormatAdapter]) {
        self.adapters = adapters
    }

    public var ids: [String] { adapters.map(\.id) }

    public func adapter(id: String) -> (any FormatAdapter)? {
        adapters.first { $0.id == id }
    }

    /// What detection found for one input.
    public enum DetectionOutcome: Sendable {
        case detected(any FormatAdapter)
        /// No adapter claimed the input: each considered id with its reason.
        case none([(id: String, reason: String)])
        /// More than one adapter claimed it.
        case ambiguous([String])
    }

    public func detect(_ probe: FormatProbe) -> DetectionOutcome {
        var matched: [any FormatAdapter] = []
        var reasons: [(id: String, reason: String)] = []
        for adapter in adapters {
            switch adapter.detect(probe) {
            case .match: matched.append(adapter)
            case .noMatch(let reason): reasons.append((adapter.id, reason))
            }
        }
        if matched.count == 1 { return .detected(matched[0]) }
        if matched.isEmpty { return .none(reasons) }
        return .ambiguous(matched.map(\.id))
    }
}
