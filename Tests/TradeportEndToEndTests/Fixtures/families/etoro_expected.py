# Expected operations of each eToro sample, worked out by hand from the sample's rows (not from the
# spec). eToro writes times in UTC, dd/MM/yyyy; accounts are in USD. In the activity sheets
# without Units (≤2019 Transactions Report, 2020–2021 Account Activity) an Open Position cannot be
# a trade (no units): it is skipped, and the close ("Profit/Loss of Trade") is its profit (other
# income) or loss (other charge). "Rollover Fee": negative an overnight fee, positive a dividend.
# Money moved to a CopyTrader portfolio stays inside eToro: skipped.
from decimal import Decimal as D
def n(x): return format(D(x).normalize(), 'f')
def X(t, typ, asset, amt): return ('X', t, typ, asset, n(amt))

EXPECTED = {
 'etoro-2021-example.csv': dict(rows=11, operations=8, merged=0, skipped=3, rejected=0, ops=[
   X('2021-01-04T10:02:11Z', 'deposit', 'USD', '1000.00'),
   X('2021-01-06T22:00:00Z', 'fee', 'USD', '0.05'),
   X('2021-02-11T21:00:00Z', 'dividend', 'USD', '0.31'),
   X('2021-02-15T15:30:12Z', 'other-income', 'USD', '12.40'),
   X('2021-02-20T16:00:00Z', 'other-charge', 'USD', '7.25'),
   X('2021-03-05T12:00:00Z', 'other-income', 'USD', '1.50'),
   X('2021-03-10T08:00:00Z', 'withdrawal', 'USD', '500.00'),
   X('2021-03-10T08:00:00Z', 'fee', 'USD', '5.00')]),
 'etoro-2019-example.csv': dict(rows=4, operations=3, merged=0, skipped=1, rejected=0, ops=[
   X('2019-09-02T08:15:00Z', 'deposit', 'USD', '500.00'),
   X('2019-09-04T22:00:00Z', 'fee', 'USD', '0.03'),
   X('2019-09-10T15:02:40Z', 'other-income', 'USD', '5.50')]),
}
