/// A declarative format: how a CSV file, or a sheet of an XLSX workbook, becomes canonical
/// operations. Loaded from YAML by `SpecLoader`, which checks every key and names the line of
/// every problem; every column, check and mapping keeps the place it was written.
public struct FormatSpec: Sendable, Equatable {
    public var id: String
    public var description: String
    public var source: Source
    public var values: ValueRules
    public var detect: DetectRule?
    /// In the order written, which is the order fields are read and errors reported.
    public var columns: [ColumnSpec]
    public var checks: [CrossCheck]
    public var skip: [SkipRule]
    public var rows: RowKinds
    /// Canonical trade field → where its value comes from.
    public var trade: OperationMapping?
    public var transaction: OperationMapping?
    /// Where each field of a movement (a change of a position without money) comes from.
    public var movement: OperationMapping?
    /// Rows that together make one trade (a ledger's spend and receive rows), when the format
    /// spreads trades over several rows.
    public var group: GroupRule?
    /// Asset code aliases (`XBT` → `BTC`).
    public var assets: [String: String]
    /// The running balance the file prints on its rows, when it prints one (`balance:`).
    public var balance: BalanceRule? = nil
    /// Values the user may give when converting (`--param name=value`), each with its default.
    public var parameters: [SpecParameter] = []
    /// A value the file wraps onto a line of its own, joined to its row (`wrapped:`).
    public var wrapped: WrapRule? = nil
    /// Other column orders the rows may come in (`layouts:`), each told by a cell.
    public var layouts: [LayoutRule] = []
    /// Checks between a row's numbers (`checks:` entries with `near:`).
    public var numberChecks: [NumberCheck] = []
    /// With `rows.by: [a, b]`, the second column: a row value `x|y` is a row whose `a` is x and
    /// whose `b` is y (`x|` with `b` empty), and it goes before a value `x`, which holds for any `b`.
    public var rowKindAlso: String? = nil
    /// The file the spec was read from.
    public var file: String

    public func column(named name: String) -> ColumnSpec? { columns.first { $0.name == name } }

    /// Whether `id` is a format id: lower-case letters, digits and `-`, not starting with `-`.
    public static func isValidID(_ id: some StringProtocol) -> Bool {
        !id.isEmpty && !id.hasPrefix("-") && id.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }
}
