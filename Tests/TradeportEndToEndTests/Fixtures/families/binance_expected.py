# Expected operations of the Binance transaction history samples in the pre-2021 (no User_ID) and the
# 2025/26 (User ID, Time with two-digit years) layouts, worked out by hand, not from the spec: times
# UTC; the rows of one second and account are one trade (what came in against what went out, the
# quote the one listed first of EUR, USD, …, USDT, …, BTC, ETH, BNB), price = quote ÷ base to 12
# digits, Fee rows its fees; Deposit/Withdraw by |Change|; Distribution other income; Savings
# Interest interest; Savings purchase a transfer of the coins out to the Savings account.
# The 2025 layout's times ('25-07-24 21:30:41') have a two-digit year: 2025.
from decimal import Decimal as D, ROUND_HALF_UP
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def q(x, digits): return str(D(x).quantize(D(1).scaleb(-digits), rounding=ROUND_HALF_UP))

EXPECTED = {
 'binance-2020-example.csv': dict(rows=10, operations=7, merged=3, skipped=0, rejected=0, ops=[
   X('2020-11-02T08:15:00Z', 'deposit', 'EUR', '300'),
   T('2020-11-02T09:01:12Z', 'buy', 'BTC', 'EUR', '0.02', '13000', '260', [('exchange', 'BNB', '0.0095')]),
   X('2020-12-01T00:00:00Z', 'other-income', 'BNB', '0.0012'),
   T('2020-12-05T14:30:45Z', 'sell', 'TRX', 'BNB', '120.5', q(D('0.03') / D('120.5'), 12), '0.03'),
   X('2021-01-10T02:00:00Z', 'interest', 'USDT', '0.01234567'),
   M('2021-01-11T02:00:00Z', 'out', 'USDT', '50', 'transfer'),
   X('2021-02-14T18:20:00Z', 'withdrawal', 'BTC', '0.01')]),
 'binance-2025-example.csv': dict(rows=5, operations=3, merged=2, skipped=0, rejected=0, ops=[
   X('2025-07-24T21:30:41Z', 'deposit', 'USDT', '250'),
   # Spend 120.5 USDT, buy 0.75 SOL, fee 0.00075 SOL: one trade of that second.
   T('2025-07-25T09:12:03Z', 'buy', 'SOL', 'USDT', '0.75', q(D('120.5') / D('0.75'), 12), '120.5', [('exchange', 'SOL', '0.00075')]),
   X('2026-01-03T00:00:00Z', 'interest', 'USDT', '0.0421')]),
}
