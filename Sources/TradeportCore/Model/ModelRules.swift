/// What the model forbids in an operation, whoever made it: a value of the wrong sign for its
/// field (a negative amount, price or fee, a quantity of zero), a required field without a value,
/// a complete transaction that moved nothing. Derived from the field tables, so a field added to
/// a table is checked without a line here. The conversion turns an operation with any of these
/// into a reject of its row, on every path (`IdentityStage`): no reader, spec or derived value can
/// put one in an output.
extension CanonicalRecord {
    /// Every rule of the model this record breaks, as the errors of a reject (empty: none).
    public var violations: [FieldError] {
        var out: [FieldError] = []
        let layout = Self.layout
        for i in layout.fields.indices {
            let definition = layout.definitions[i]
            let name = layout.fields[i].rawValue
            let value = self[layout.fields[i]]
            switch (definition.type, value) {
            case (.decimal(let sign), .decimal(let d)):
                if !sign.admits(d) { out.append(FieldError(column: nil, field: name, message: "'\(d)' is not \(sign.requirement)")) }
            case (.tradeFees, .tradeFees(let fees)):
                for (k, fee) in fees.enumerated() where fee.amount.isNegative {
                    out.append(
                        FieldError(column: nil, field: "\(name)[\(k)]", message: "a \(fee.kind.rawValue) fee of '\(fee.amount)' is negative: a fee is >= 0"))
                }
            case (.cashFee, .cashFee(let fee)):
                if fee.amount.isNegative { out.append(FieldError(column: nil, field: name, message: "'\(fee.amount)' is negative: a fee is >= 0")) }
            case (.id, _), (.location, _):
                break
            case (_, .null):
                if definition.readerMustGive { out.append(FieldError(column: nil, field: name, message: "missing: the model requires it")) }
            default:
                break
            }
        }
        return out
    }
}

extension PortfolioOperation {
    /// Every rule of the model this operation breaks (see `CanonicalRecord.violations`), with the
    /// rule no table row says: a complete transaction moved more than nothing.
    public var violations: [FieldError] {
        switch self {
        case .trade(let t): return t.violations
        case .movement(let m): return m.violations
        case .transaction(let t):
            var out = t.violations
            if t.status == .complete, t.amount.isZero {
                out.append(FieldError(column: nil, field: "amount", message: "'\(t.amount)' is not > 0: a complete transaction moves money"))
            }
            return out
        }
    }
}
