# Expected operations of the Saxo samples, worked out by hand from each row and Saxo's semantics
# (docs/formats/saxo.md), not from the spec:
# - dates are days at midnight Europe/Copenhagen (CET 23:00Z the day before, CEST 22:00Z);
# - a trade's quantity and price come from Event; its amount is quantity × price × Conversion Rate
#   (cents), its commission the rest of |Amount| (a buy) or what |Amount| is short of it (a sale);
# - the account's currency is the instrument currency where Conversion Rate is 1, else the
#   account-currency parameter (default EUR, not given here).
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def sub(a, b): return str(D(a) - D(b))
def add(a, b): return str(D(a) + D(b))
def q8(x): return str(D(x).quantize(D("1e-8")))

EXPECTED = {
 'saxo-example.csv': dict(rows=10, operations=10, merged=0, skipped=0, rejected=0, ops=[
   X('2025-01-09T23:00:00Z', 'deposit', 'USD', '2500'),
   T('2025-01-12T23:00:00Z', 'buy', 'US00TEST0061', 'USD', '3', '134.85', '404.55', [('broker', 'USD', sub('405.55', '404.55'))]),
   # The same fill twice, as Saxo writes it: two trades.
   T('2025-01-12T23:00:00Z', 'buy', 'IE00TEST0062', 'USD', '5', '139.74', '698.7', [('broker', 'USD', sub('702.47', '698.7'))]),
   T('2025-01-12T23:00:00Z', 'buy', 'IE00TEST0062', 'USD', '5', '139.74', '698.7', [('broker', 'USD', sub('702.47', '698.7'))]),
   X('2025-01-14T23:00:00Z', 'deposit', 'EUR', '500'),
   T('2025-01-15T23:00:00Z', 'buy', 'IE00TEST0063', 'EUR', '2', '110.01', '220.02', [('broker', 'EUR', '2')]),   # Transactie / Koop
   X('2025-03-30T22:00:00Z', 'fee', 'USD', '3.91'),          # Custody Fee
   X('2025-04-01T22:00:00Z', 'dividend', 'EUR', '1.83'),     # rate 0.92139706: the account-currency parameter
   T('2025-05-13T22:00:00Z', 'sell', 'IE00TEST0062', 'USD', '4', '141.2', '564.8', [('broker', 'USD', sub('564.8', '561.02'))]),
   X('2025-05-19T22:00:00Z', 'withdrawal', 'USD', '280')]),
 'saxo-2026-example.csv': dict(rows=7, operations=7, merged=0, skipped=0, rejected=0, ops=[
   X('2026-01-04T23:00:00Z', 'deposit', 'EUR', '12000'),
   T('2026-02-23T23:00:00Z', 'buy', 'IE00TEST0071', 'EUR', '100', '99.68', '9968', [('broker', 'EUR', sub('9979.46', '9968'))]),
   # A USD stock booked in EUR at 0.9215: 4 × 250.5 × 0.9215 = 923.343 → 923.34; 929.67 paid.
   T('2026-03-01T23:00:00Z', 'buy', 'US00TEST0072', 'EUR', '4', str(D('250.5') * D('0.9215')), '923.34', [('broker', 'EUR', sub('929.67', '923.34'))]),
   X('2026-03-30T22:00:00Z', 'fee', 'EUR', '2.5'),
   X('2026-05-14T22:00:00Z', 'dividend', 'EUR', '1.66'),
   T('2026-10-11T22:00:00Z', 'sell', 'IE00TEST0071', 'EUR', '40', '104.1', '4164', [('broker', 'EUR', sub('4164', '4152.54'))]),
   X('2026-10-12T22:00:00Z', 'withdrawal', 'EUR', '3000')]),
}
