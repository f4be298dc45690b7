extension FormatSpec {
    /// The columns nothing in the spec reads: no mapping, rule, check, group, balance or other
    /// column names them. `formats check` warns of each (a column meant for a field and never
    /// mapped to it is a silent gap); reading one costs a little and changes nothing.
    public var unusedColumns: [ColumnSpec] {
        var used: Set<String> = []
        func source(_ s: FieldSource?) {
            guard let s else { return }
            switch s {
            case .column(let c), .absolute(let c), .part(let c, _): used.insert(c)
            case .constant: break
            case .dateAndTime(let d, let t): used.formUnion([d, t])
            case .join(let parts, _):
                for case .column(let c) in parts { used.insert(c) }
            case .byType(let sources): for s in sources { source(s.source) }
            case .bySign(let c, _, _): used.insert(c)
            case .arithmetic(_, let operands, _): for o in operands { source(o) }
            case .first(let sources): for s in sources { source(s) }
            case .parameter: break
            case .conditional(let condition, let then, let otherwise):
                for test in condition.tests { used.insert(test.column) }
                if let near = condition.near {
                    source(near.a)
                    source(near.b)
                }
                source(then)
                source(otherwise)
            }
        }
        for mapping in [trade, transaction, movement] {
            guard let mapping else { continue }
            for field in mapping.fields { source(field.source) }
            for fee in mapping.fees {
                source(fee.amount)
                source(fee.currency)
            }
        }
        if case .by(let column, _, let transactions, _, _) = rows {
            used.insert(column)
            if let rowKindAlso { used.insert(rowKindAlso) }
            for t in transactions {
                for rule in t.types {
                    switch rule {
                    case .bySign(let c, _, _), .column(let c): used.insert(c)
                    case .fixed, .mapping: break
                    }
                }
            }
        }
        if let zone = values.zoneColumn { used.insert(zone) }
        for check in numberChecks {
            source(check.a)
            source(check.b)
        }
        for rule in skip {
            used.insert(rule.column)
            for c in rule.and { used.insert(c.column) }
        }
        for check in checks {
            used.insert(check.column)
            var rest = Substring(check.equals)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                used.insert(String(rest[rest.index(after: open)..<close]))
                rest = rest[rest.index(after: close)...]
            }
        }
        if let group {
            used.formUnion(group.key + [group.asset, group.amount])
            if let f = group.feeColumn { used.insert(f) }
            if let f = group.legFee { used.insert(f) }
        }
        if let balance {
            used.insert(balance.amount)
            source(balance.asset)
        }
        for column in columns {
            if case .from(let other) = column.reference { used.insert(other) }
            if case .unlessZero(let other) = column.required { used.insert(other) }
        }
        // A transaction's status decides whether a zero amount is allowed.
        if columns.contains(where: { if case .decimal(.transactionAmount) = $0.type { true } else { false } }) { used.insert("status") }
        return columns.filter { !used.contains($0.name) }
    }
}
