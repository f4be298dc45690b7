# Expected operations of the Nordnet samples, worked out by hand from each row and Nordnet's semantics
# (docs/formats/nordnet.md), not from the spec:
# - dates are days, read at midnight Europe/Stockholm (the spec's zone; CET 23:00Z the day before,
#   CEST 22:00Z); a trade at its trade day, cash at its booking day;
# - the amount is the account's money in the 15th column's currency: a buy's trade amount is
#   |amount| − total fees, a sale's |amount| + fees; price = amount ÷ quantity; fee = total fees;
# - a dividend is gross; its withholding tax a row of its own; VALUUTAN OSTO (currency exchange) is
#   rejected.
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def sub(a, b): return str(D(a) - D(b))
def add(a, b): return str(D(a) + D(b))
def q8(x): return str(D(x).quantize(D("1e-8")))

EXPECTED = {
 'nordnet-fi-example.csv': dict(rows=12, operations=11, merged=0, skipped=0, rejected=1, ops=[
   X('2024-01-07T23:00:00Z', 'deposit', 'EUR', '1500'),
   T('2024-01-09T23:00:00Z', 'buy', 'IE00TEST0041', 'EUR', '25', '30.12', sub('762', '9'), [('broker', 'EUR', '9')]),
   T('2024-01-09T23:00:00Z', 'buy', 'FI00TEST0043', 'EUR', '40', '5.2', sub('217', '9'), [('broker', 'EUR', '9')]),
   # 2 × 120.5 USD × 0.9134 = 220.1294 EUR; the account paid 235.13 with 15 of fees.
   T('2024-01-11T23:00:00Z', 'buy', 'US00TEST0042', 'EUR', '2', str(D(sub('235.13', '15')) / 2), sub('235.13', '15'), [('broker', 'EUR', '15')]),
   X('2024-04-02T22:00:00Z', 'dividend', 'EUR', '8.8'),
   X('2024-04-02T22:00:00Z', 'tax', 'EUR', '2.24'),          # ENNAKKOPIDÄTYS
   X('2024-05-09T22:00:00Z', 'dividend', 'EUR', '1.39'),
   X('2024-05-09T22:00:00Z', 'tax', 'EUR', '0.21'),          # ULKOM. KUPONKIVERO
   # (2024-05-27 VALUUTAN OSTO: rejected)
   T('2024-06-13T22:00:00Z', 'sell', 'IE00TEST0041', 'EUR', '10', '32.4', add('315', '9'), [('broker', 'EUR', '9')]),
   X('2024-06-29T22:00:00Z', 'other-charge', 'EUR', '0.37'),  # LAINAKORKO
   X('2024-06-30T22:00:00Z', 'withdrawal', 'EUR', '200')]),
 'nordnet-no-example.csv': dict(rows=5, operations=5, merged=0, skipped=0, rejected=0, ops=[
   X('2025-05-01T22:00:00Z', 'deposit', 'NOK', '51000'),
   T('2025-05-04T22:00:00Z', 'buy', 'NO00TEST0051', 'NOK', '150', '270.4', sub('40609', '49'), [('broker', 'NOK', '49')]),
   # 10 × 95.5 USD × 10.3126 = 9848.533 NOK; the account paid 9947.53 with 99 of fees.
   T('2025-06-23T22:00:00Z', 'buy', 'US00TEST0052', 'NOK', '10', str(D(sub('9947.53', '99')) / 10), sub('9947.53', '99'), [('broker', 'NOK', '99')]),
   X('2025-08-27T22:00:00Z', 'dividend', 'NOK', '566.1'),   # 150 × 3.774
   T('2025-09-14T22:00:00Z', 'sell', 'NO00TEST0051', 'NOK', '50', '281.2', add('14011', '49'), [('broker', 'NOK', '49')])]),
}
