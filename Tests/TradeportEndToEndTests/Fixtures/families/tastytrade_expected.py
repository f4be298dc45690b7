# Expected operations of the tastytrade samples, worked out by hand from each row and tastytrade's
# semantics (docs/formats/tastytrade.md), not from the spec:
# - each Date carries its offset: +0200 / +0100 taken off to UTC;
# - a trade: |Value| for Quantity (an option contract one unit, its OCC symbol without spaces),
#   price |Value| ÷ Quantity; fees −Commissions (broker) and −Fees (other), zero ones left out;
# - Money Movement by Sub Type and sign; a negative Dividend is the tax withheld; interest booked
#   as Deposit is interest; a Deposit naming a security is a dividend;
# - Assignment / Expiration ("Removal of …") and futures (Sub Type Sell) are rejected; a 0.00
#   balance adjustment is skipped.
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def q8(x): return str(D(x).quantize(D("1e-8")))

EXPECTED = {
 'tastytrade-example.csv': dict(rows=12, operations=10, merged=0, skipped=1, rejected=1, ops=[
   X('2025-10-24T21:00:00Z', 'tax', 'USD', '6.30'),
   X('2025-10-24T21:00:00Z', 'dividend', 'USD', '42.00'),
   T('2025-10-20T13:49:44Z', 'sell', 'TSTY', 'USD', '75', '15.20', '1140', [('other', 'USD', '0.07')]),
   T('2025-10-20T13:49:03Z', 'sell', 'TSTY', 'USD', '25', '15.20', '380', [('other', 'USD', '0.02')]),
   T('2025-10-08T14:57:39Z', 'buy', 'QRST251219P00043000', 'USD', '3', '1050', '3150', [('broker', 'USD', '3'), ('other', 'USD', '0.36')]),
   # shares delivered away on the assignment of a short call (Receive Deliver, with money)
   T('2025-05-16T21:00:00Z', 'sell', 'TECX', 'USD', '300', '47', '14100', [('other', 'USD', '5.05')]),
   # (2025-05-16: Assignment, "Removal of option due to assignment": rejected)
   X('2025-04-11T21:00:00Z', 'other-income', 'USD', '0.20'),
   T('2025-03-14T13:37:26Z', 'sell', 'TECX250321C00061000', 'USD', '3', '550', '1650', [('broker', 'USD', '3'), ('other', 'USD', '0.44')]),
   # (2025-02-01: Balance Adjustment 0.00: skipped)
   T('2025-01-27T14:36:03Z', 'buy', 'TECX', 'USD', '300', '85.40', '25620', [('other', 'USD', '0.24')]),
   X('2025-01-09T22:00:00Z', 'deposit', 'USD', '30000')]),
 'tastytrade-2024-example.csv': dict(rows=23, operations=19, merged=0, skipped=1, rejected=3, ops=[
   X('2024-08-16T21:00:00Z', 'interest', 'USD', '0.04'),
   X('2024-08-16T21:00:00Z', 'other-charge', 'USD', '3.12'),   # Debit Interest
   T('2024-08-14T14:02:11Z', 'sell', 'ABCD240920C00055000', 'USD', '1', '185', '185', [('broker', 'USD', '1'), ('other', 'USD', '0.14')]),
   T('2024-08-05T21:00:00Z', 'buy', 'ABCD', 'USD', '100', '48', '4800', [('other', 'USD', '5')]),
   # (2024-08-05: Assignment: rejected)
   X('2024-07-20T19:32:45Z', 'other-charge', 'USD', '0.01'),   # Balance Adjustment −0.01
   # (2024-07-13: Balance Adjustment 0.00: skipped)
   X('2024-07-08T21:00:00Z', 'tax', 'USD', '1.35'),
   X('2024-07-08T21:00:00Z', 'dividend', 'USD', '9'),
   T('2024-06-28T16:06:37Z', 'sell', 'WXYZ', 'USD', '50', '50.30', '2515', [('other', 'USD', '0.06')]),
   T('2024-06-25T13:39:05Z', 'buy', 'WXYZ', 'USD', '150', '50.12', '7518', [('other', 'USD', '0.13')]),
   T('2024-05-03T14:00:04Z', 'buy', 'ABCD240517P00045000', 'USD', '1', '65', '65', [('other', 'USD', '0.13')]),
   M('2024-04-02T10:48:05Z', 'out', 'OLDT', '100', 'conversion'),
   M('2024-04-02T10:48:05Z', 'in', 'NEWT', '100', 'conversion'),
   X('2024-03-21T21:00:00Z', 'dividend', 'USD', '3.23'),       # Deposit naming a security (a fund's distribution)
   # (2024-03-15: Expiration: rejected; 2024-03-04: a futures Sell: rejected)
   X('2023-06-15T21:00:00Z', 'fee', 'USD', '25'),
   X('2023-06-15T21:00:00Z', 'withdrawal', 'USD', '6000'),
   X('2023-02-14T22:00:00Z', 'other-income', 'USD', '0.20'),    # Fully Paid Stock Lending Income
   X('2020-04-16T21:00:00Z', 'interest', 'USD', '0.09'),        # interest booked as Deposit
   X('2018-05-18T21:00:00Z', 'deposit', 'USD', '1149.50'),
   X('2018-03-08T22:00:00Z', 'deposit', 'USD', '22000')]),
}
