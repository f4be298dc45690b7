# Expected operations of the tastyworks (older export) sample, worked out by hand from each row and
# the export's semantics (docs/formats/tastytrade.md), not from the spec:
# - times read in America/Chicago (the spec's default; the file names no zone): CST UTC−6, CDT UTC−5;
# - a trade: |Amount| for Quantity, price |Amount| ÷ Quantity (an option's per contract), fee Fees
#   (commission and fees, unsigned) as broker; option code <symbol><yyMMdd><P|C><strike>;
# - Assignment is rejected; a reverse split's Close/Open of one option give out and in of one code.
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def q8(x): return str(D(x).quantize(D("1e-8")))

EXPECTED = {
 'tastyworks-example.csv': dict(rows=13, operations=12, merged=0, skipped=0, rejected=1, ops=[
   T('2020-12-29T21:36:00Z', 'sell', 'MNOP210115P26', 'USD', '2', '246', '492', [('broker', 'USD', '2.304')]),
   X('2020-12-25T21:21:00Z', 'other-charge', 'USD', '0.01'),
   T('2020-12-18T02:57:00Z', 'buy', 'MNOP210115P7.5', 'USD', '1', '32', '32', [('broker', 'USD', '0.14')]),
   X('2020-12-17T05:00:00Z', 'interest', 'USD', '0.03'),
   T('2020-12-16T02:38:00Z', 'buy', 'QRTW', 'USD', '200', '13.6', '2720', [('broker', 'USD', '0.16')]),
   T('2020-12-12T05:00:00Z', 'sell', 'UVWX', 'USD', '300', '10.5', '3150', [('broker', 'USD', '5.106')]),
   # (12/11/2020: Assignment: rejected)
   T('2020-10-06T23:02:00Z', 'sell', 'UVWX', 'USD', '200', '10.17', '2034', [('broker', 'USD', '0.234')]),
   X('2020-09-24T04:00:00Z', 'fee', 'USD', '3.32'),
   X('2019-08-17T04:00:00Z', 'other-charge', 'USD', '9.81'),     # margin interest booked as Withdrawal
   M('2020-04-29T17:35:00Z', 'out', 'UVWX200717P2', '6', 'split'),
   M('2020-04-29T17:35:00Z', 'in', 'UVWX200717P2', '6', 'split'),
   X('2020-02-20T05:00:00Z', 'deposit', 'USD', '12500')]),      # an incoming wire booked as Withdrawal (+)
}
