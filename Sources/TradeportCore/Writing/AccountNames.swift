import Foundation

/// The accounts the ledger writers (`beancount`, `hledger`) post to: one template per role, with
/// `{portfolio}` and `{asset}` standing for the portfolio's name and the asset moved. The defaults
/// keep each portfolio's money and positions apart; `--account ROLE=TEMPLATE` or a file of
/// `ROLE: TEMPLATE` lines (`--accounts FILE`) changes any of them.
public struct AccountNames: Sendable, Hashable {
    public enum Role: String, Sendable, Hashable, CaseIterable {
        /// Money and coins: a trade's quote, a fee's currency, what a transaction moves.
        case cash
        /// What trades buy and sell and is never money in the same conversion.
        case securities
        case fees, taxes, dividends, coupons, interest, redemptions
        /// The gain or loss on closing a lot at cost (beancount).
        case gains
        /// The other side of deposits and withdrawals.
        case transfers
        case otherIncome = "other-income"
        case otherCharges = "other-charges"
        /// The other side of the opening balances a source prints.
        case opening
        /// The other side of a position moved without money.
        case movements

        public var defaultTemplate: String {
            switch self {
            case .cash: return "Assets:{portfolio}:Cash:{asset}"
            case .securities: return "Assets:{portfolio}:Securities:{asset}"
            case .fees: return "Expenses:{portfolio}:Fees"
            case .taxes: return "Expenses:{portfolio}:Taxes"
            case .dividends: return "Income:{portfolio}:Dividends"
            case .coupons: return "Income:{portfolio}:Coupons"
            case .interest: return "Income:{portfolio}:Interest"
            case .redemptions: return "Income:{portfolio}:Redemptions"
            case .gains: return "Income:{portfolio}:Gains"
            case .transfers: return "Equity:{portfolio}:Transfers"
            case .otherIncome: return "Income:{portfolio}:Other"
            case .otherCharges: return "Expenses:{portfolio}:Other"
            case .opening: return "Equity:{portfolio}:Opening-Balances"
            case .movements: return "Equity:{portfolio}:Movements"
            }
        }

        /// What the role's account receives, for `--help` and the README.
        public var summary: String {
            switch self {
            case .cash: return "money and coins: a trade's quote, fees, what transactions move"
            case .securities: return "what trades buy and sell and is never money"
            case .fees: return "fees of trades and transactions, fee refunds"
            case .taxes: return "taxes, tax refunds"
            case .dividends: return "dividends (and dividends charged on a short)"
            case .coupons: return "coupons, and the accrued interest a bond trade pays or receives"
            case .interest: return "interest"
            case .redemptions: return "what a bond's redemption pays"
            case .gains: return "gains and losses of lots closed at cost (beancount)"
            case .transfers: return "the other side of deposits and withdrawals"
            case .otherIncome: return "other income"
            case .otherCharges: return "other charges"
            case .opening: return "the other side of the opening balances a source prints"
            case .movements: return "the other side of positions moved without money"
            }
        }
    }

    private var templates: [Role: String] = [:]

    public init() {}

    /// The template of `role` (given or default).
    public func template(_ role: Role) -> String { templates[role] ?? role.defaultTemplate }

    /// Sets `role`'s template; refuses one with an unknown placeholder or an empty part.
    public mutating func set(_ role: Role, _ template: String) throws(AccountNamesError) {
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw AccountNamesError(.template, "\(role.rawValue): '\(template)' has a '{' without '}'", text: template)
            }
            let name = rest[rest.index(after: open)..<close]
            guard name == "portfolio" || name == "asset" else {
                throw AccountNamesError(.template, "\(role.rawValue): '\(template)' has {\(name)}; a template takes {portfolio} and {asset}", text: template)
            }
            rest = rest[rest.index(after: close)...]
        }
        let parts = template.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, !parts.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw AccountNamesError(
                .template, "\(role.rawValue): '\(template)' is not an account (two or more non-empty parts joined by ':', as Assets:{portfolio}:Cash:{asset})",
                text: template)
        }
        templates[role] = template
    }

    /// Sets a role given by its name (`cash`, `other-income`, …).
    public mutating func set(_ roleName: String, _ template: String) throws(AccountNamesError) {
        guard let role = Role(rawValue: roleName) else {
            throw AccountNamesError(
                .unknownRole, "'\(roleName)' is not a role; the roles are \(Role.allCases.map(\.rawValue).joined(separator: ", "))", text: roleName)
        }
        try set(role, template)
    }

    /// Reads `ROLE: TEMPLATE` lines (blank lines and `#` comments allowed), as `--accounts FILE` gives them.
    public mutating func read(_ text: String, path: String) throws(AccountNamesError) {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = content.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            guard let colon = trimmed.firstIndex(of: ":") else {
                throw AccountNamesError(.malformedLine, "'\(trimmed)' is not ROLE: TEMPLATE", text: String(line), source: path, line: number + 1)
            }
            var value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q { value = String(value.dropFirst().dropLast()) }
            do {
                try set(trimmed[..<colon].trimmingCharacters(in: .whitespaces), value)
            } catch {
                throw AccountNamesError(error.kind, error.message, text: error.text, source: path, line: number + 1)
            }
        }
    }

    /// The account of `role` for `portfolio` and `asset` (each already made to fit the target's
    /// rules for a part of an account name).
    public func name(_ role: Role, portfolio: String, asset: String) -> String {
        var out = ""
        var rest = Substring(template(role))
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            out += rest[rest.index(after: open)..<close] == "portfolio" ? portfolio : asset
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
