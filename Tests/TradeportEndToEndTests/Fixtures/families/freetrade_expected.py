# Expected operations of the Freetrade sample, worked out by hand from its rows and Freetrade's
# semantics (docs/formats/freetrade.md), not from the spec:
# - Timestamps are UTC. ORDER: quantity and Price per Share in Account Currency; Total Amount is the
#   money that moved: a BUY's value is Total − Stamp Duty − FX Fee, a SELL's Total + those (stamp duty a
#   fee of kind other, the FX fee broker).
# - DIVIDEND: Total is net, in GBP; the tax is Dividend Withheld Tax Amount × Base FX Rate (to pence), the
#   dividend Total + that tax.
# - FREESHARE_ORDER: a movement in (delivery); MONTHLY_STATEMENT rows (statements, tax certificates) skipped.
# T = trade (side, base, quote, quantity, price, amount, fees); X = transaction (type, asset, amount);
# M = movement (direction, asset, quantity, reason).
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if 'E' not in str(D(x).normalize()) else format(D(x).normalize(), 'f')
def T(t, side, base, quote, q, p, amt, fees=()): return ('T', t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ('X', t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ('M', t, d, asset, s(q), reason)

EXPECTED = {
 'freetrade-example.csv': dict(rows=11, operations=10, merged=0, skipped=2, rejected=0, ops=[
   X('2024-06-18T18:09:12.259Z', 'withdrawal', 'GBP', '150'),
   T('2024-06-10T14:30:05.12Z', 'sell', 'US00TEST0F01', 'GBP', '5', '79', '395', [('broker', 'GBP', '3.94')]),   # 391.06 + 3.94
   X('2024-05-28T18:45:00Z', 'dividend', 'GBP', '12.6'),                # a GBP dividend, tax 0.00: none
   X('2024-05-27T06:26:00Z', 'dividend', 'GBP', '1.6'),                 # 1.36 net + 0.30 USD × 0.8
   X('2024-05-27T06:26:00Z', 'tax', 'GBP', '0.24'),
   X('2024-05-15T00:00:00Z', 'interest', 'GBP', '0.42'),
   M('2024-05-02T09:00:00Z', 'in', 'GB00TEST0F03', '1', 'delivery'),     # a free share
   # (April Statement skipped)
   T('2024-04-23T15:34:06.099Z', 'buy', 'GB00TEST0F02', 'GBP', '200', '10', '2000', [('other', 'GBP', '10')]),  # 2010 − stamp duty 10
   T('2024-04-15T15:16:15.35Z', 'buy', 'US00TEST0F01', 'GBP', '10', '80', '800', [('broker', 'GBP', '3.99')]),  # 803.99 − FX fee
   # (Tax Certificate skipped)
   X('2024-04-01T00:35:22.634Z', 'deposit', 'GBP', '3000')]),
}
