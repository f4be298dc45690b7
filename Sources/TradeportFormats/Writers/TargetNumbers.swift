import TradeportCore

/// What the targets that do not keep exact decimals hold of a number.
enum TargetNumbers {
    /// The significant digits of `x` (its mantissa's, normalized: no trailing zeros).
    static func significantDigits(_ x: ExactDecimal) -> Int {
        var m = x.mantissa.magnitude
        var digits = 0
        repeat {
            m /= 10
            digits += 1
        } while m > 0
        return digits
    }

    /// Whether `x` fits a signed 64-bit integer of units of 10^-`decimals` (Portfolio
    /// Performance's `Values`: money in cents, shares in 10^-8), rounded as the import rounds it.
    static func fitsLong(_ x: ExactDecimal, decimals: Int) -> Bool {
        var m = x.mantissa.magnitude
        var scale = x.scale
        while scale > decimals {
            m = m / 10 + (scale == decimals + 1 && m % 10 >= 5 ? 1 : 0)
            scale -= 1
        }
        while scale < decimals {
            let (product, overflow) = m.multipliedReportingOverflow(by: 10)
            if overflow { return false }
            m = product
            scale += 1
        }
        return m <= UInt128(Int64.max)
    }

    /// Whether `x` has more decimals than `decimals` (a target keeping that many rounds it).
    static func hasMoreDecimals(_ x: ExactDecimal, than decimals: Int) -> Bool { x.scale > decimals }

    /// Portfolio Performance keeps money to 2 decimals and shares to 8, each in a 64-bit integer
    /// (`name.abuchen.portfolio.money.Values`: `Amount`/`Money` precision 2, `Share` precision 8).
    enum PortfolioPerformance {
        static let moneyDecimals = 2
        static let shareDecimals = 8

        /// Why the numbers cannot be carried, or nil when every one fits.
        static func beyondRange(money: [ExactDecimal], shares: [ExactDecimal]) -> String? {
            let fits = money.allSatisfy { fitsLong($0, decimals: moneyDecimals) } && shares.allSatisfy { fitsLong($0, decimals: shareDecimals) }
            return fits
                ? nil
                : "operations with a number beyond what Portfolio Performance holds (money to 92233720368547758.07, shares to 92233720368.54775807)"
        }

        /// Whether Portfolio Performance's import rounds one of the numbers.
        static func rounds(money: [ExactDecimal], shares: [ExactDecimal]) -> Bool {
            money.contains { hasMoreDecimals($0, than: moneyDecimals) } || shares.contains { hasMoreDecimals($0, than: shareDecimals) }
        }

        static let roundedNote = "operations with more decimals than Portfolio Performance keeps (2 for money, 8 for shares), which its import rounds"
    }

    /// Ghostfolio keeps an activity's quantity, unit price and fee as PostgreSQL double precision
    /// (`Float` in its Prisma schema): exact to 15 significant digits.
    enum Ghostfolio {
        static let exactDigits = 15
        static let roundedNote = "activities with a number of more than 15 significant digits, which Ghostfolio keeps as a binary double (rounded)"
    }
}
