# Expected operations of the interactive investor samples, worked out by hand from each row and
# ii's semantics (docs/formats/ii.md), not from the spec:
# - Date is a day in UK time: GMT (00:00Z) before 2024-03-31 / 2019-03-31, BST (23:00Z the day
#   before) after;
# - a share deal (Description "… Del … S Date …", Symbol given): Debit a purchase, Credit a sale; its
#   value quantity × Price (to the penny), the broker's charges what the money differs from it;
# - a currency deal (Symbol n/a): the currency named in Description bought (Debit) or sold
#   (Credit) for the money, at money ÷ quantity, no charge;
# - Div: a dividend of Credit; GROSS INTEREST: interest; "ISA Subscription": a deposit; Fee
#   Transfer: a fee of Debit; anything else rejected.
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def sub(a, b): return str(D(a) - D(b))

EXPECTED = {
 'ii-example.csv': dict(rows=8, operations=8, merged=0, skipped=0, rejected=0, ops=[
   X('2024-03-05T00:00:00Z', 'deposit', 'GBP', '5000'),
   # 1200 × 2.4153 = 2898.36; paid 2916.84 (commission and stamp duty)
   T('2024-03-07T00:00:00Z', 'buy', 'ABC', 'GBP', '1200', '2.4153', '2898.36', [('broker', 'GBP', sub('2916.84', '2898.36'))]),
   # 2000 USD for 1573.00: 0.7865 a dollar
   T('2024-03-12T00:00:00Z', 'buy', 'USD', 'GBP', '2000', str(D('1573.00') / 2000), '1573.00'),
   X('2024-03-28T00:00:00Z', 'dividend', 'GBP', '36'),
   X('2024-04-01T23:00:00Z', 'interest', 'GBP', '0.87'),
   X('2024-04-01T23:00:00Z', 'fee', 'GBP', '4.99'),
   # 500 × 2.602 = 1301.00; received 1297.01
   T('2024-04-14T23:00:00Z', 'sell', 'ABC', 'GBP', '500', '2.602', '1301', [('broker', 'GBP', sub('1301', '1297.01'))]),
   T('2024-05-19T23:00:00Z', 'sell', 'EUR', 'GBP', '150', str(D('127.53') / 150), '127.53')]),
 'ii-2019-example.csv': dict(rows=3, operations=2, merged=0, skipped=0, rejected=1, ops=[
   # 250 × 4.10 = 1025.00; paid 1039.11
   T('2019-02-04T00:00:00Z', 'buy', 'XYZ', 'GBP', '250', '4.1', '1025', [('broker', 'GBP', sub('1039.11', '1025'))]),
   X('2019-03-15T00:00:00Z', 'dividend', 'GBP', '12.50')]),
   # "SUBSCRIPTION" (ISA money in, or the plan's fee?): rejected, naming it.
}
