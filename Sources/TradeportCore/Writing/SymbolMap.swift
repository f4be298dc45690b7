/// The symbols a user gives securities in a target: the symbol and data source Ghostfolio prices a
/// security by, the ticker Portfolio Performance looks it up by. A source names a security by its
/// own code (`SBER`, `AAPL`), its ISIN when it prints one, and its venue; a target often knows it
/// otherwise (`SBER.ME` on Yahoo, a bond only by a custom profile). The user keeps the map
/// (`--symbols FILE`, read by `SymbolMapFile`); every writer and push target that names
/// securities applies it, and lists what it found no entry for (`SymbolMap.Unmapped`).
///
/// An entry is found by the security's ISIN first, then by its code and venue, then by its code
/// with an entry that names no venue, then, for a source that names no venue, by the code's only
/// entry with a venue. An entry that gives both an ISIN and a code is found by either. An entry
/// that names a target (`ghostfolio`, `portfolio-performance`) wins over one that names none.
public struct SymbolMap: Sendable {
    public struct Entry: Sendable, Equatable {
        public var isin: String?
        public var code: String?
        public var venue: String?
        /// The writer or push target the entry is for; `nil`: every one.
        public var target: String?
        /// The target's symbol.
        public var symbol: String
        /// Ghostfolio's data source (`YAHOO`, `COINGECKO`, `MANUAL`, …); `nil`: the target's default.
        public var dataSource: String?
        /// The security's name in the target (a custom profile's name), when the user gives one.
        public var name: String?
        /// Where the entry was read: `symbols.csv:4`.
        public var location: String

        public init(
            isin: String? = nil, code: String? = nil, venue: String? = nil, target: String? = nil, symbol: String,
            dataSource: String? = nil, name: String? = nil, location: String = ""
        ) {
            self.isin = isin
            self.code = code
            self.venue = venue
            self.target = target
            self.symbol = symbol
            self.dataSource = dataSource
            self.name = name
            self.location = location
        }
    }

    /// What a map cannot hold: an entry that names neither an ISIN nor a code, or one found twice.
    public struct Conflict: Error, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    private struct Key: Hashable {
        var target: String?
        var isin: String?
        var code: String?
        var venue: String?
    }

    public private(set) var entries: [Entry] = []
    private var index: [Key: Int] = [:]
    /// The venues each code has lines for (per target).
    private var venues: [Key: [String]] = [:]

    /// An empty map: every security is unmapped.
    public init() {}

    public init(_ entries: [Entry]) throws(Conflict) {
        for entry in entries { try add(entry) }
    }

    public var isEmpty: Bool { entries.isEmpty }

    public mutating func add(_ entry: Entry) throws(Conflict) {
        let isin = entry.isin.map { $0.uppercased() }
        let code = entry.code.map { $0.uppercased() }
        guard isin != nil || code != nil else {
            throw Conflict("\(entry.location): an entry needs an isin or a code to be found by")
        }
        guard !entry.symbol.isEmpty else { throw Conflict("\(entry.location): an entry needs the target's symbol") }
        // A line that gives both is found by either: a dividend often names only the code.
        var keys: [Key] = []
        if let isin { keys.append(Key(target: entry.target, isin: isin)) }
        if let code { keys.append(Key(target: entry.target, code: code, venue: entry.venue.map { $0.uppercased() })) }
        for key in keys {
            if let earlier = index[key] {
                throw Conflict("\(entry.location): the same security is mapped at \(entries[earlier].location) already")
            }
        }
        for key in keys { index[key] = entries.count }
        if let code, let venue = entry.venue?.uppercased() { venues[Key(target: entry.target, code: code), default: []].append(venue) }
        entries.append(entry)
    }

    /// The entry for a security of `code` (and `isin`, `venue` when the source names them) in
    /// `target`, or `nil`.
    public func lookup(target: String, code: String, isin: String? = nil, venue: String? = nil) -> Entry? {
        guard !entries.isEmpty else { return nil }
        let code = code.uppercased()
        let isin = isin.map { $0.uppercased() } ?? (ISIN.looksLike(code) ? code : nil)
        let venue = venue.map { $0.uppercased() }
        for t in [target, nil] as [String?] {
            if let isin, let i = index[Key(target: t, isin: isin)] { return entries[i] }
            if let venue, let i = index[Key(target: t, code: code, venue: venue)] { return entries[i] }
            if let i = index[Key(target: t, code: code)] { return entries[i] }
            // A source that names no venue (a dividend) takes a code's only venue line.
            if venue == nil, let only = venues[Key(target: t, code: code)], only.count == 1,
                let i = index[Key(target: t, code: code, venue: only[0])]
            {
                return entries[i]
            }
        }
        return nil
    }

    /// A writer's way into the map for one target: each security found by what the source names
    /// it, what it had no entry for counted (`unmapped`). A source often names a security
    /// differently by row kind (a dividend by its code only, where the trades give the ISIN too,
    /// or by its ISIN, where the trades name a code): what the trades said before is learnt, so
    /// that all of a security's rows are one security.
    public struct Finder: Sendable {
        public let target: String
        private let map: SymbolMap
        private var isinOfCode: [String: String] = [:]
        private var codeOfISIN: [String: String] = [:]
        public private(set) var unmapped = Unmapped()

        public init(_ map: SymbolMap, target: String) {
            self.map = map
            self.target = target
        }

        /// The security's code (the one its trades name), its ISIN when known, and its entry.
        public mutating func find(code given: String, isin: String?, venue: String?) -> (code: String, isin: String?, entry: Entry?) {
            let code = isin == nil && ISIN.looksLike(given) ? codeOfISIN[given] ?? given : given
            if let isin, isin != code {
                isinOfCode[code] = isin
                codeOfISIN[isin] = code
            }
            let isin = isin ?? isinOfCode[code] ?? (ISIN.looksLike(given) ? given : nil)
            let entry = map.lookup(target: target, code: code, isin: isin, venue: venue)
            if entry == nil { unmapped.count(code, isin: isin) }
            return (code, isin, entry)
        }
    }

    /// The securities a writer found no entry for, counted by name, for its summary.
    public struct Unmapped: Sendable {
        private var counts: [String: Int] = [:]
        private var isins: [String: String] = [:]

        public init() {}

        /// One more operation naming the security `code` (with its ISIN when known).
        public mutating func count(_ code: String, isin: String? = nil) {
            counts[code, default: 0] += 1
            if let isin, isin != code { isins[code] = isin }
        }

        public var isEmpty: Bool { counts.isEmpty }

        /// `3 securities have no symbol in the map, written …: SBER (RU0009029540) ×12, …`: the
        /// most used first, every one of them named.
        public func note(_ fallback: String) -> String? {
            guard !counts.isEmpty else { return nil }
            let listed = names.map { "\($0.name) ×\($0.count)" }
            let securities = counts.count == 1 ? "1 security has" : "\(counts.count) securities have"
            return "\(securities) no symbol in the map, written \(fallback): " + listed.joined(separator: ", ")
        }

        /// Each security (its code, and its ISIN in brackets when known) and how many operations
        /// named it, the most used first.
        public var names: [(name: String, count: Int)] {
            let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            return sorted.map { entry in
                let name = isins[entry.key].map { "\(entry.key) (\($0))" } ?? entry.key
                return (name: name, count: entry.value)
            }
        }
    }
}

/// International Securities Identification Numbers.
public enum ISIN {
    /// Whether `text` has the form of an ISIN: two letters, nine letters or digits, a digit.
    public static func looksLike(_ text: String) -> Bool {
        guard text.utf8.count == 12 else { return false }
        func letter(_ c: UInt8) -> Bool { c >= 65 && c <= 90 }
        func digit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        for (i, c) in text.utf8.enumerated() {
            switch i {
            case 0, 1: if !letter(c) { return false }
            case 11: if !digit(c) { return false }
            default: if !letter(c) && !digit(c) { return false }
            }
        }
        return true
    }
}
