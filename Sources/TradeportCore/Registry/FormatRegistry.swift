/// Every format a conversion can read and write, by id (pandoc's `readers` and `writers`): the
/// one list a reader or a writer is added to, and detection across the readers.
public struct FormatRegistry: Sendable {
    public let readers: [any FormatReader]
    public let writers: [any FormatWriter]

    public init(readers: [any FormatReader], writers: [any FormatWriter] = []) {
        self.readers = readers
        self.writers = writers
    }

    /// The readers' ids, in the registry's order.
    public var ids: [String] { readers.map(\.id) }
    /// The writers' ids, in the registry's order (the first is the default).
    public var writerIDs: [String] { writers.map(\.id) }

    public func reader(id: String) -> (any FormatReader)? {
        readers.first { $0.id == id }
    }

    public func writer(id: String) -> (any FormatWriter)? {
        writers.first { $0.id == id }
    }

    /// What detection found for one input.
    public enum DetectionOutcome: Sendable {
        case detected(any FormatReader)
        /// No reader claimed the input: each considered id with its reason.
        case none([(id: String, reason: String)])
        /// More than one reader claimed it.
        case ambiguous([String])
    }

    public func detect(_ probe: FormatProbe) -> DetectionOutcome {
        var matched: [any FormatReader] = []
        var reasons: [(id: String, reason: String)] = []
        for reader in readers {
            switch reader.detect(probe) {
            case .match: matched.append(reader)
            case .noMatch(let reason): reasons.append((reader.id, reason))
            }
        }
        if matched.count == 1 { return .detected(matched[0]) }
        if matched.isEmpty { return .none(reasons) }
        return .ambiguous(matched.map(\.id))
    }
}
