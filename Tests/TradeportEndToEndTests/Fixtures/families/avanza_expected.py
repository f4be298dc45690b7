# Expected operations of the Avanza samples, worked out by hand from each row and Avanza's semantics
# (docs/formats/avanza.md), not from the spec:
# - dates are days in Swedish time: midnight Europe/Stockholm (CET 23:00Z the day before, CEST 22:00Z);
# - Belopp is the account's money (SEK): a buy's trade amount is |Belopp| − Courtage, a sale's
#   |Belopp| + Courtage; price = amount ÷ |Antal| (8 decimals); fee = Courtage (none when 0);
# - an Övrigt row with units and no money (a fund switch, a rights issue's units) moves the units
#   in or out by Antal's sign; the file does not say why (reason unstated).
# T = trade (side, base, quote, quantity, price, amount, fees); X = transaction (type, asset, amount);
# M = movement (direction, asset, quantity, reason).
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def sub(a, b): return str(D(a) - D(b))
def add(a, b): return str(D(a) + D(b))
def q8(x): return str(D(x).quantize(D("1e-8")))

EXPECTED = {
 'avanza-example.csv': dict(rows=16, operations=16, merged=0, skipped=0, rejected=0, ops=[
   X('2025-01-06T23:00:00Z', 'deposit', 'SEK', '15000'),
   X('2025-01-06T23:00:00Z', 'deposit', 'SEK', '5000.85'),
   M('2025-01-07T23:00:00Z', 'in', 'SE00TEST0025', '50', 'transfer'),
   T('2025-01-08T23:00:00Z', 'buy', 'SE00TEST0021', 'SEK', '12', '280.25', sub('3382', '19'), [('broker', 'SEK', '19')]),
   # USD stock: 4 × 231.5 USD × 10.81448 ≈ 10014.21 SEK; the account paid 10043.74 with 29.15 courtage.
   T('2025-01-09T23:00:00Z', 'buy', 'US00TEST0022', 'SEK', '4', str(D('10014.59') / 4), sub('10043.74', '29.15'), [('broker', 'SEK', '29.15')]),
   T('2025-01-14T23:00:00Z', 'buy', 'SE00TEST0023', 'SEK', '18.0412', q8(D('5000.85') / D('18.0412')), '5000.85'),   # courtage 0
   X('2025-01-26T23:00:00Z', 'tax', 'SEK', '88'),            # Övrigt: Avkastningsskatt
   X('2025-02-02T23:00:00Z', 'other-charge', 'SEK', '0.42'),  # Ränta −0,42
   X('2025-03-13T23:00:00Z', 'fee-refund', 'SEK', '3.12'),   # Övrigt: Återbetalning Total avgift
   X('2025-04-09T22:00:00Z', 'dividend', 'SEK', '36.76'),
   X('2025-04-09T22:00:00Z', 'tax', 'SEK', '5.51'),          # Utländsk källskatt
   # 2025-04-28: the two Övrigt rows of a fund switch, units without money.
   M('2025-04-27T22:00:00Z', 'in', 'SE00TEST0024', '41.2275', 'unstated'),
   M('2025-04-27T22:00:00Z', 'out', 'SE00TEST0023', '18.0412', 'unstated'),
   T('2025-05-19T22:00:00Z', 'sell', 'SE00TEST0021', 'SEK', '12', q8(D('3820.81') / 12), add('3801.81', '19'), [('broker', 'SEK', '19')]),
   X('2025-06-15T22:00:00Z', 'withdrawal', 'SEK', '2500'),
   X('2025-06-29T22:00:00Z', 'interest', 'SEK', '1.37')]),
 'avanza-2023-example.csv': dict(rows=9, operations=9, merged=0, skipped=0, rejected=0, ops=[
   X('2022-01-13T23:00:00Z', 'deposit', 'SEK', '25000'),
   T('2022-01-16T23:00:00Z', 'buy', 'SE00TEST0031', 'SEK', '60', '120.5', sub('7249', '19'), [('broker', 'SEK', '19')]),
   # Before 2024 Belopp is SEK whatever Valuta (the instrument's, here USD) says.
   T('2022-01-17T23:00:00Z', 'buy', 'US00TEST0032', 'SEK', '10', '1378.4', sub('13853', '69'), [('broker', 'SEK', '69')]),
   X('2022-04-26T22:00:00Z', 'dividend', 'SEK', '150'),
   # 2022-06-02: Övrigt, −27 units of a subscription right, no money ('-').
   M('2022-06-01T22:00:00Z', 'out', 'SE00TEST0034', '27', 'unstated'),
   X('2023-01-26T23:00:00Z', 'tax', 'SEK', '41'),
   X('2023-03-09T23:00:00Z', 'dividend', 'SEK', '52'),
   X('2023-03-09T23:00:00Z', 'tax', 'SEK', '7.8'),
   T('2023-04-11T22:00:00Z', 'sell', 'SE00TEST0031', 'SEK', '60', '143', add('8561', '19'), [('broker', 'SEK', '19')])]),
}
