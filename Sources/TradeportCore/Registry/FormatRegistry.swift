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

    /// The formats `probe` came nearest to without matching (at most `limit`, nearest first): those
    /// whose header entries a line among its first holds two of, and at least half.
    public func nearest(_ probe: FormatProbe, limit: Int = 3) -> [(reader: any FormatReader, miss: NearMiss)] {
        var near: [(reader: any FormatReader, miss: NearMiss)] = []
        for reader in readers {
            guard let detecting = reader as? any NearMissDetecting, let miss = detecting.nearMiss(probe) else { continue }
            if miss.found >= 2 && miss.found * 2 >= miss.wanted && miss.found < miss.wanted { near.append((reader, miss)) }
        }
        // Nearest: the larger share of entries found, then more found, then fewer missing.
        near.sort { a, b in
            let l = a.miss.found * b.miss.wanted
            let r = b.miss.found * a.miss.wanted
            return l != r ? l > r : a.miss.found != b.miss.found ? a.miss.found > b.miss.found : a.miss.missing.count < b.miss.missing.count
        }
        return Array(near.prefix(limit))
    }

    /// What to tell a user whose input no format matched: the nearest formats and what the input
    /// lacks for each, or that none came near.
    public func unrecognized(_ probe: FormatProbe, path: String) -> String {
        let near = nearest(probe)
        guard let first = near.first else {
            return "no format recognized: no line among its first comes near the header of any of the \(readers.count) formats "
                + "(\"tradeport detect --verbose \(path)\" gives each one's reason); name one with --format, or describe the export in a spec "
                + "(\"tradeport formats new \(path)\" drafts one)"
        }
        func lacks(_ m: NearMiss) -> String { m.missing.map { "'\($0)'" }.joined(separator: ", ") }
        var text =
            "no format recognized. It looks like \(first.reader.id), \(first.reader.summary), but its header (line \(first.miss.line)) lacks "
            + "\(lacks(first.miss)): a layout tradeport does not know yet. Please report it with that header line:\n  \(first.miss.text)"
        for other in near.dropFirst() {
            text += "\nAlso near: \(other.reader.id) (lacks \(lacks(other.miss)))"
        }
        return text + "\n\"tradeport detect --verbose \(path)\" lists every format considered; name one with --format to read it anyway"
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
