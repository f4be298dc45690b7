/// A balance a source prints for one asset: what the account held at the start of the source's
/// period and at its end. A Tinkoff report prints one per currency (section 2) and one per
/// security (section 3.1); the conversion checks that opening + what the operations read did =
/// closing (`BalanceCheck`).
public struct StatedBalance: Sendable, Hashable {
    /// Whether the asset is money or a position in a security: which warning a difference gives.
    public enum Kind: String, Sendable, Hashable, Decodable {
        case cash, position
    }

    public var asset: AssetCode
    public var kind: Kind
    public var opening: ExactDecimal
    public var closing: ExactDecimal
    /// The row that prints it (the first one, when the source prints an asset over several rows).
    public var source: SourceLocation
    /// Told by a running balance the rows print (a spec's `balance:`), not by a statement of the
    /// period: such a source says nothing of what it does not print (positions, other assets).
    public var running: Bool = false
    /// The source prints its cash but no positions at all (an Interactive Brokers statement
    /// without its Mark-to-Market summary): a security it moved is not said to lack a balance.
    public var printsNoPositions: Bool = false

    public init(asset: AssetCode, kind: Kind, opening: ExactDecimal, closing: ExactDecimal, source: SourceLocation) {
        self.asset = asset
        self.kind = kind
        self.opening = opening
        self.closing = closing
        self.source = source
    }
}

/// The check of one stated balance against the operations read from the same source: opening +
/// operations = closing, or the difference and the rows of the operations involved.
public struct BalanceCheck: Sendable, Hashable, Decodable {
    /// The source, as in `sources[].path`.
    public var path: String
    public var asset: String
    public var kind: StatedBalance.Kind
    /// What the source says it held at the start; nil when the source moved the asset but printed
    /// no balance for it.
    public var opening: ExactDecimal?
    /// The sum of what every operation read from the source did to the asset.
    public var operations: ExactDecimal
    /// How many operations moved it.
    public var count: Int
    /// What the source says it held at the end (nil as for `opening`).
    public var closing: ExactDecimal?
    /// opening + operations - closing: zero when it reconciles.
    public var difference: ExactDecimal
    public var reconciles: Bool
    /// Where the source prints the balance.
    public var statement: SourceLocation?
    /// When it does not reconcile: the rows of the operations that moved the asset (the first 50).
    public var rows: [Int]

    public init(
        path: String, asset: String, kind: StatedBalance.Kind, opening: ExactDecimal?, operations: ExactDecimal, count: Int,
        closing: ExactDecimal?, difference: ExactDecimal, reconciles: Bool, statement: SourceLocation?, rows: [Int]
    ) {
        self.path = path
        self.asset = asset
        self.kind = kind
        self.opening = opening
        self.operations = operations
        self.count = count
        self.closing = closing
        self.difference = difference
        self.reconciles = reconciles
        self.statement = statement
        self.rows = rows
    }

    private enum CodingKeys: String, CodingKey {
        // `kind` names a JSON Lines line's kind: the check's is its `type`.
        case path, asset
        case kind = "type"
        case opening, operations, count, closing, difference, reconciles, statement, rows
    }

    /// The warning a difference gives: `unreconciled-cash` or `unreconciled-position`.
    public var warning: ConversionWarning? {
        guard !reconciles else { return nil }
        return ConversionWarning(code: kind == .cash ? "unreconciled-cash" : "unreconciled-position", message: "\(path): \(sentence)", source: statement)
    }

    /// One line: `RUB: reconciles (opening 21.09 + operations -20.6 = closing 0.49)`, or the
    /// difference with the rows involved.
    public var sentence: String {
        guard let opening, let closing else {
            return "\(asset): moved by \(count) operation\(count == 1 ? "" : "s") (net \(operations)) but the source prints no balance for it\(rowList)"
        }
        if reconciles { return "\(asset): reconciles (opening \(opening) + operations \(operations) = closing \(closing))" }
        return
            "\(asset): differs by \(difference) (opening \(opening) + operations \(operations) = \(opening.adding(operations).map { "\($0)" } ?? "?"), the source says \(closing))\(rowList)"
    }

    private var rowList: String {
        guard !rows.isEmpty else { return "; no operation read moved it" }
        let shown = rows.prefix(12).map(String.init).joined(separator: ", ")
        return "; operations from row\(rows.count == 1 ? "" : "s") \(shown)\(count > 12 ? ", … (\(count) in all)" : "")"
    }
}
