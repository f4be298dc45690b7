import TradeportCore

/// The lots of one asset held in one portfolio (beancount), first in first out: runs of units
/// bought (or sold short) at a cost in one currency, oldest first, a run merged into the one before
/// it when their currencies are the same (so an asset always bought in one currency is one run).
struct HeldLots {
    /// Units held, signed: negative for lots sold short.
    private(set) var total = ExactDecimal.zero
    /// Unsigned units and the currency of their cost, from `head` on.
    private var runs: [(units: ExactDecimal, currency: AssetCode)] = []
    private var head = 0

    /// Opens a lot of `units` (signed) at a cost in `currency`.
    mutating func open(_ units: ExactDecimal, costIn currency: AssetCode) {
        guard let sum = total.adding(units) else { return }
        total = sum
        let magnitude = units.isNegative ? units.negated : units
        if runs.count > head, runs[runs.count - 1].currency == currency,
            let merged = runs[runs.count - 1].units.adding(magnitude)
        {
            runs[runs.count - 1].units = merged
        } else {
            runs.append((magnitude, currency))
        }
    }

    /// Closes `units` (unsigned, at most what is held) of the oldest lots: what was closed per
    /// currency of cost, in the order the currencies were first met.
    mutating func close(_ units: ExactDecimal) -> [(units: ExactDecimal, currency: AssetCode)] {
        var closed: [(units: ExactDecimal, currency: AssetCode)] = []
        var left = units
        while left.isPositive, head < runs.count {
            let run = runs[head]
            let taken = run.units < left ? run.units : left
            if let i = closed.firstIndex(where: { $0.currency == run.currency }) {
                closed[i].units = closed[i].units.adding(taken) ?? closed[i].units
            } else {
                closed.append((taken, run.currency))
            }
            left = left.subtracting(taken) ?? .zero
            if taken == run.units {
                head += 1
            } else {
                runs[head].units = run.units.subtracting(taken) ?? run.units
            }
        }
        if head > 32, head * 2 > runs.count {
            runs.removeFirst(head)
            head = 0
        }
        // Closing moves the total towards zero by `units`.
        total = (total.isNegative ? total.adding(units) : total.subtracting(units)) ?? .zero
        return closed
    }
}
