# Expected operations of the Interactive Brokers Flex samples (cash transactions, trade confirmations),
# worked out by hand from each row and IBKR's semantics (docs/formats/ibkr.md), not from the specs:
# - dates yyyyMMdd are midnight in New York: 05:00Z in winter (EST), 04:00Z in summer (EDT; 2024-03-10
#   to 2024-11-03, 2025-03-09 to 2025-11-02); Date/Time "yyyyMMdd;HHmmss" likewise New York time.
# - a cash amount is signed: Dividends + dividend, − a reversal (dividend-charge); Withholding Tax −
#   tax, + tax-refund; Deposits/Withdrawals by sign; Broker Interest Received interest, Broker Interest
#   Paid − other-charge; Bond Interest Received coupon, Bond Interest Paid − (accrued interest paid on a
#   purchase) other-charge; Other Fees − fee; Commission Adjustments + fee-refund, − fee.
# - a confirmation: quantity |Quantity|, price Price × Multiplier, amount |Proceeds|, fees |Commission|
#   (broker) and |Tax| (other); an ORDER row sums executions listed above it: skipped.
# T = trade (side, base, quote, quantity, price, amount, fees); X = transaction (type, asset, amount).
from decimal import Decimal as D, ROUND_HALF_UP
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def q(x, digits): return str(D(x).quantize(D(1).scaleb(-digits), rounding=ROUND_HALF_UP))

EXPECTED = {
 'ibkr-cash-example.csv': dict(rows=13, operations=13, merged=0, skipped=0, rejected=0, ops=[
   X('2024-01-02T05:00:00Z', 'deposit', 'CHF', '5000'),
   X('2024-03-27T04:00:00Z', 'dividend', 'USD', '41'),
   X('2024-03-27T04:00:00Z', 'tax', 'USD', '6.15'),
   X('2024-06-12T04:00:00Z', 'dividend', 'CHF', '8'),              # Return of Capital: still a payout
   X('2024-06-12T04:00:00Z', 'dividend', 'CHF', '31'),
   X('2024-06-12T04:00:00Z', 'tax', 'CHF', '10.85'),
   X('2024-06-28T04:00:00Z', 'dividend', 'USD', '0.52'),           # payment in lieu
   X('2024-07-05T04:00:00Z', 'tax-refund', 'USD', '0.62'),         # withholding tax +0.62
   X('2024-08-05T04:00:00Z', 'interest', 'CHF', '1.37'),
   X('2024-08-05T04:00:00Z', 'other-charge', 'USD', '0.84'),       # debit interest
   X('2024-09-03T04:00:00Z', 'fee', 'USD', '1.5'),
   X('2024-10-15T04:00:00Z', 'withdrawal', 'CHF', '1200'),
   X('2024-11-15T05:00:00Z', 'dividend-charge', 'USD', '41')]),    # a dividend reversed
 'ibkr-cash-2025-example.csv': dict(rows=8, operations=8, merged=0, skipped=0, rejected=0, ops=[
   X('2025-01-06T05:00:00Z', 'deposit', 'EUR', '2500'),
   X('2025-02-14T05:00:00Z', 'dividend', 'USD', '7.5'),
   X('2025-02-14T05:00:00Z', 'tax', 'USD', '1.13'),
   X('2025-03-17T04:00:00Z', 'coupon', 'USD', '42.5'),
   X('2025-04-02T04:00:00Z', 'other-charge', 'USD', '3.19'),       # SettleDate, not ReportDate 20250401
   X('2025-04-03T04:00:00Z', 'interest', 'EUR', '0.88'),
   X('2025-04-04T04:00:00Z', 'fee-refund', 'USD', '0.35'),
   X('2025-04-04T04:00:00Z', 'fee', 'USD', '0.01')]),
 'ibkr-confirms-example.csv': dict(rows=7, operations=6, merged=0, skipped=1, rejected=0, ops=[
   T('2024-03-05T14:30:12Z', 'buy', 'US0000TEST01', 'USD', '40', '96.5', '3860', [('broker', 'USD', '1')]),
   T('2024-03-05T14:30:13Z', 'buy', 'US0000TEST01', 'USD', '10', '96.52', '965.2', [('broker', 'USD', '0.35')]),
   # (the ORDER row adding up the two executions is skipped)
   T('2024-03-06T15:15:01Z', 'sell', 'EUR', 'USD', '5000', '1.0875', '5437.5', [('broker', 'USD', '2')]),
   T('2024-04-10T08:00:02Z', 'buy', 'GB00TEST0007', 'GBP', '100', '4.5', '450', [('broker', 'GBP', '3'), ('other', 'GBP', '2.25')]),
   T('2024-05-15T15:30:00Z', 'buy', 'TSTA241220C00100000', 'USD', '1', str(D('2.35') * 100), '235', [('broker', 'USD', '0.65')]),
   T('2024-12-02T20:59:59Z', 'sell', 'US0000TEST01', 'USD', '20', '103.2', '2064', [('broker', 'USD', '1.02')])]),
}

# The Activity Statement samples (ibkr-activity), worked out in their own module.
from ibkr_activity_expected import EXPECTED as _ACTIVITY
EXPECTED.update(_ACTIVITY)
