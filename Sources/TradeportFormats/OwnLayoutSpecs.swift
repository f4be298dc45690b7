import TradeportCore

/// The specs that read tradeport's own layouts back (`formats/tradeport-csv.yaml`,
/// `formats/tradeport-xlsx.yaml`), generated from the layout's columns (`OperationColumns`), which
/// derive from the field tables. The committed files are this text; a test holds them equal
/// (`TRADEPORT_REGENERATE=1 swift test --filter OwnLayoutTests` rewrites them).
public enum OwnLayoutSpecs {
    public enum Container: String, Sendable, CaseIterable {
        case csv, xlsx

        /// The spec's id.
        public var id: String { "tradeport-\(rawValue)" }
        /// Its path under the package root.
        public var path: String { "formats/\(id).yaml" }
    }

    /// The spec text for one container, reading `columns` (by default the model's own) into the
    /// fields of `tables` (by default the model's).
    public static func text(
        _ container: Container, columns: [OperationColumns.Column] = OperationColumns.columns,
        tables: [OperationKind: [FieldEntry]] = Dictionary(uniqueKeysWithValues: OperationKind.allCases.map { ($0, $0.fields) })
    ) -> String {
        var out = ""
        switch container {
        case .csv:
            out += """
                # tradeport's own CSV layout: one row per operation under a header of canonical field names, as
                # `tradeport convert --to csv` writes it (see the README). Read back, it gives the same operations.
                # Generated from the model's field tables (OwnLayoutSpecs): do not edit by hand.
                tradeport-format: 1
                id: tradeport-csv
                description: tradeport's own CSV (a header row of canonical field names, one row per operation)
                source: {type: csv, delimiter: ",", encoding: utf-8, header: 1}

                """
        case .xlsx:
            out += """
                # tradeport's own XLSX layout: the columns of tradeport-csv on a sheet 'operations', as
                # `tradeport convert --to xlsx` writes it (numbers as number cells, times and dates as dates).
                # Generated from the model's field tables (OwnLayoutSpecs): do not edit by hand.
                tradeport-format: 1
                id: tradeport-xlsx
                description: tradeport's own XLSX (a sheet 'operations' with a header row of canonical field names, one row per operation)
                source: {type: xlsx, sheet: operations, header: {find: [kind, time, portfolio, externalId], within: 1}}

                """
        }
        switch container {
        case .csv:
            // A text the writer kept from being run as a formula (`SpreadsheetText`) reads back as written.
            out += "values: {decimal: \".\", thousands: none, timezone: UTC, formula-quote: \"'\", escapes: ooxml}\n"
        case .xlsx:
            out += "values: {decimal: \".\", thousands: none, timezone: UTC}\n"
        }
        out += "detect: {header: [kind, time, portfolio, externalId]}\n"
        out += "columns:\n"
        let kinds = OperationKind.allCases.filter { tables[$0] != nil }
        for column in columns {
            out += self.column(column, kinds: kinds, tables: tables)
        }
        out += "rows:\n  by: kind\n"
        for kind in kinds { out += "  \(kind.rawValue): [\(kind.rawValue)]\n" }
        for kind in kinds {
            out += "\(kind.rawValue):\n"
            for entry in tables[kind]! {
                switch entry.definition.type {
                case .location: continue
                case .tradeFees:
                    out += "  \(entry.name):\n"
                    for feeKind in FeeKind.allCases {
                        let name = columnName(.feeAmount(feeKind))
                        out += "    - {amount: \(name), currency: \(columnName(.feeCurrency(feeKind))), kind: \(feeKind.rawValue)}\n"
                    }
                case .cashFee:
                    out += "  \(entry.name): {amount: \(columnName(.cashFeeAmount)), currency: \(columnName(.cashFeeCurrency))}\n"
                default:
                    out += "  \(entry.name): \(entry.name)\n"
                }
            }
            out += "  portfolio: portfolio\n"
        }
        return out
    }

    /// The spec's name of a column (a field's own name; the fee columns' names are identifiers).
    static func columnName(_ content: OperationColumns.Content) -> String {
        switch content {
        case .kind: return "kind"
        case .portfolio: return "portfolio"
        case .field(let name, _): return name
        case .feeAmount(let kind): return "\(kind.rawValue)Fee"
        case .feeCurrency(let kind): return "\(kind.rawValue)FeeCurrency"
        case .cashFeeAmount: return "fee"
        case .cashFeeCurrency: return "feeCurrency"
        }
    }

    private static func column(_ column: OperationColumns.Column, kinds: [OperationKind], tables: [OperationKind: [FieldEntry]]) -> String {
        let name = columnName(column.content)
        let head = "name: \(name), header: \(column.name)"
        switch column.content {
        case .kind:
            return "  - {\(head), map: {\(kinds.map { "\($0.rawValue): \($0.rawValue)" }.joined(separator: ", "))}}\n"
        case .portfolio:
            return "  - {\(head), type: text, required: false}\n"
        case .feeAmount:
            return "  - {\(head), type: decimal, list: \"\(OperationColumns.listSeparator)\", required: false}\n"
        case .feeCurrency(let kind):
            return "  - {\(head), type: asset, list: \"\(OperationColumns.listSeparator)\", required: {unless-zero: \(columnName(.feeAmount(kind)))}}\n"
        case .cashFeeAmount:
            return "  - {\(head), type: decimal, required: false}\n"
        case .cashFeeCurrency:
            return "  - {\(head), type: asset, required: {unless-zero: \(columnName(.cashFeeAmount))}}\n"
        case .field(let field, let type):
            // Required only when every kind's reader must give the field.
            let required = kinds.allSatisfy { kind in tables[kind]!.contains { $0.name == field && $0.definition.readerMustGive } }
            let optional = required ? "" : ", required: false"
            switch type {
            case .id, .text: return "  - {\(head), type: text\(optional)}\n"
            case .asset: return "  - {\(head), type: asset\(optional)}\n"
            case .decimal(let sign):
                let check: String
                switch sign {
                case .nonNegative: check = ""
                case .positive: check = ", check: positive"
                case .any: check = ", check: signed"
                }
                return "  - {\(head), type: decimal\(check)\(optional)}\n"
            case .time:
                return "  - {\(head), type: datetime, format: \"yyyy-MM-ddTHH:mm:ss[.F]Z\", example: \"2019-11-25T08:08:44Z\"\(optional)}\n"
            case .date:
                return "  - {\(head), type: date, format: yyyy-MM-dd\(optional)}\n"
            case .choice(let words) where words.count <= 4:
                return "  - {\(head), map: {\(words.map { "\($0): \($0)" }.joined(separator: ", "))}\(optional)}\n"
            case .choice(let words):
                var text = "  - name: \(name)\n    header: \(column.name)\n"
                if !required { text += "    required: false\n" }
                text += "    map:\n"
                for word in words { text += "      \(word): \(word)\n" }
                return text
            case .tradeFees, .cashFee, .location:
                return ""  // columns of their own
            }
        }
    }
}
