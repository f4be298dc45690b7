# Expected operations of the Trade Republic, Scalable Capital and Bitvavo samples, worked out by hand
# from each sample's rows and the brokers' semantics (docs/formats/<id>.md), not from the specs:
# - Trade Republic: datetime is UTC; a trade's amount is |amount| (shares × price, no fee), fee |fee|;
#   a dividend/interest is its gross amount and a tax |tax| where not zero.
# - Scalable: times are Europe/Berlin (CET UTC+1 / CEST UTC+2); a distribution's amount is net:
#   dividend = amount + tax, tax = tax.
# - Bitvavo: times Europe/Amsterdam; a buy's value is |paid| − fee, a sell's paid + fee; a withdrawal
#   is |Amount| − fee, its fee beside it.
# T = trade (side, base, quote, quantity, price, amount, fees); X = transaction (type, asset, amount);
# M = movement (direction, asset, quantity, reason).
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if 'E' not in str(D(x).normalize()) else format(D(x).normalize(), 'f')
def T(t, side, base, quote, q, p, amt, fees=()): return ('T', t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ('X', t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ('M', t, d, asset, s(q), reason)
def sub(a, b): return str(D(a) - D(b))
def add(a, b): return str(D(a) + D(b))

EXPECTED = {
 'traderepublic-example.csv': dict(rows=29, operations=32, merged=0, skipped=0, rejected=0, ops=[
   X('2025-01-06T08:12:40.118204Z', 'deposit', 'EUR', '1500'),
   X('2025-01-06T21:30:02.547311Z', 'deposit', 'EUR', '200'),
   T('2025-01-07T09:02:11.403Z', 'buy', 'IE00TEST0001', 'EUR', '1.9', '105.26', '199.99'),
   T('2025-01-08T14:45:30.02Z', 'buy', 'US00TEST0002', 'EUR', '3', '152.4', '457.2', [('broker', 'EUR', '1')]),
   T('2025-01-09T10:05:44.871Z', 'buy', 'XF000BTC0017', 'EUR', '0.001', '91500', '91.5', [('broker', 'EUR', '1')]),
   T('2025-01-10T12:30:05.552Z', 'buy', 'XS00TEST0003', 'EUR', '100', '0.992', '99.2', [('broker', 'EUR', '1')]),
   T('2025-01-13T15:02:40.901Z', 'buy', 'DE00TEST0004', 'EUR', '3', '6.5', '19.5', [('broker', 'EUR', '1')]),
   X('2025-01-20T23:05:17.333912Z', 'withdrawal', 'EUR', '27.27'),     # card
   X('2025-01-22T17:40:09.610447Z', 'withdrawal', 'EUR', '18.4'),      # card abroad: EUR charged
   X('2025-02-01T12:46:23.598279Z', 'interest', 'EUR', '3.41'),
   X('2025-02-01T12:46:23.598279Z', 'tax', 'EUR', '0.9'),
   X('2025-02-02T14:12:34.27648Z', 'other-income', 'EUR', '4.31'),     # Saveback
   X('2025-02-03T09:00:01.512Z', 'other-income', 'EUR', '10'),         # stock perk
   X('2025-02-10T00:55:48.147672Z', 'dividend', 'EUR', '0.47'),
   X('2025-02-10T00:55:48.147672Z', 'tax', 'EUR', '0.07'),
   M('2025-02-14T23:19:02.613Z', 'out', 'XS00TEST0003', '100', 'redemption'),
   X('2025-02-14T23:19:02.613Z', 'redemption', 'EUR', '100'),
   T('2025-03-03T10:14:51.207Z', 'sell', 'US00TEST0002', 'EUR', '1', '160.1', '160.1', [('broker', 'EUR', '1')]),
   # A sale with capital gains tax withheld (tax -3.96): the trade, and the tax beside it.
   T('2025-03-05T11:20:00Z', 'sell', 'US00TEST0002', 'EUR', '1', '175', '175', [('broker', 'EUR', '1')]),
   X('2025-03-05T11:20:00Z', 'tax', 'EUR', '3.96'),
   X('2025-03-04T09:31:49Z', 'tax', 'EUR', '0.3'),                     # TAX_OPTIMIZATION, tax -0.30
   X('2025-03-05T10:13:50.63367Z', 'other-income', 'EUR', '0.5'),      # bonus
   M('2025-03-20T00:00:00Z', 'out', 'DE00TEST0004', '3', 'redemption'),  # warrant exercise
   X('2025-03-20T00:00:00Z', 'redemption', 'EUR', '26.1'),             # TILG
   X('2025-04-01T03:49:10.717832Z', 'interest', 'EUR', '0.8'),         # tax 0.00: none
   X('2025-04-15T11:00:00Z', 'dividend', 'EUR', '0.12'),
   X('2025-05-02T04:36:25.416954Z', 'deposit', 'EUR', '50'),
   X('2025-05-03T06:05:56.100359Z', 'withdrawal', 'EUR', '300'),
   X('2025-05-04T19:42:59.758754Z', 'withdrawal', 'EUR', '150'),
   M('2025-07-31T00:33:27.243Z', 'out', 'IE00TEST0001', '1.9', 'transfer'),
   M('2025-07-31T00:33:27.256Z', 'in', 'IE00TEST0001', '1.9', 'transfer'),
   M('2025-08-12T08:20:00Z', 'in', 'XF000ADA0010', '25.5', 'delivery')]),
 'scalable-example.csv': dict(rows=17, operations=17, merged=0, skipped=2, rejected=0, ops=[
   X('2025-01-02T00:00:00Z', 'deposit', 'EUR', '3550'),
   T('2025-01-02T10:39:31Z', 'buy', 'IE00TEST0011', 'EUR', '4.567', '16.42', '74.98994'),
   T('2025-01-02T10:42:33Z', 'buy', 'IE00TEST0013', 'EUR', '3.358', '29.775', '99.98445'),
   T('2025-01-15T12:10:35Z', 'buy', 'US00TEST0012', 'EUR', '80', '7.34', '587.2', [('broker', 'EUR', '0.99')]),
   X('2025-01-20T00:00:00Z', 'tax', 'EUR', '13.01'),
   T('2025-02-10T15:04:22Z', 'sell', 'US00TEST0012', 'EUR', '20', '7.9', '158', [('broker', 'EUR', '0.99')]),
   # A sale with Abgeltungsteuer withheld (tax 1,05): the trade, and the tax beside it.
   T('2025-02-12T09:00:00Z', 'sell', 'IE00TEST0011', 'EUR', '2', '20', '40', [('broker', 'EUR', '0.99')]),
   X('2025-02-12T09:00:00Z', 'tax', 'EUR', '1.05'),
   # (the Cancelled buy of 2025-02-27 is skipped)
   X('2025-03-26T00:00:00Z', 'dividend', 'EUR', add('29.27', '6.63')),
   X('2025-03-26T00:00:00Z', 'tax', 'EUR', '6.63'),
   X('2025-03-31T00:00:00Z', 'interest', 'EUR', '12.34'),
   X('2025-03-31T00:00:00Z', 'other-charge', 'EUR', '16.4'),           # KKT-Abschluss
   X('2025-04-10T05:44:56Z', 'fee', 'EUR', '4.99'),                    # (its Pending twin skipped)
   X('2025-06-24T00:00:00Z', 'dividend', 'EUR', '9.56'),
   M('2025-07-14T08:22:05Z', 'in', 'FR00TEST0014', '50', 'transfer'),
   M('2025-07-31T00:00:00Z', 'out', 'FR00TEST0014', '50', 'unstated'),
   X('2025-09-08T00:00:00Z', 'withdrawal', 'EUR', '1743.51')]),
 'bitvavo-example.csv': dict(rows=16, operations=14, merged=0, skipped=2, rejected=0, ops=[
   X('2024-04-21T06:48:55Z', 'deposit', 'EUR', '50'),
   X('2024-04-21T06:48:56Z', 'other-income', 'EUR', '10'),
   T('2024-04-22T10:00:00Z', 'buy', 'ADA', 'EUR', '52.1', '0.5', sub('26.12', '0.07'), [('exchange', 'EUR', '0.07')]),  # Europe/Berlin
   X('2024-04-25T19:54:06Z', 'other-income', 'EUR', '0.06'),
   X('2024-05-15T02:00:43Z', 'other-income', 'EUR', '0.03'),
   X('2024-06-11T08:32:26Z', 'other-income', 'AXS', '0.00000272'),
   T('2024-06-13T12:45:51.803Z', 'sell', 'ADA', 'EUR', '52.1', '0.61234', add('31.82', '0.082914'), [('exchange', 'EUR', '0.082914')]),
   X('2024-06-14T08:48:35Z', 'other-income', 'ADA', '0.120549'),
   X('2024-07-01T19:23:37Z', 'withdrawal', 'EUR', '30'),
   X('2024-10-01T08:15:00Z', 'deposit', 'EUR', '25'),                    # Europe/Lisbon, WEST (UTC+1)
   X('2024-10-13T20:38:36Z', 'deposit', 'ATOM', '15.586311'),
   X('2024-11-30T10:33:24Z', 'deposit', 'EUR', '20'),
   T('2024-11-30T10:36:46.62Z', 'buy', 'ETH', 'EUR', '0.006421', '2105.4', sub('13.55', '0.0312266'), [('exchange', 'EUR', '0.0312266')]),
   X('2024-11-30T10:37:41Z', 'withdrawal', 'ETH', sub('0.006420999999999999', '0.0015'))]),
 'bitvavo-2023-example.csv': dict(rows=7, operations=7, merged=0, skipped=0, rejected=0, ops=[
   X('2022-11-14T09:48:36Z', 'other-income', 'ETH', '0.00002103'),
   X('2023-01-09T16:16:19Z', 'deposit', 'EUR', '40'),
   X('2023-01-30T06:28:30Z', 'deposit', 'XLM', '300.5'),
   T('2023-01-30T06:33:18.461Z', 'sell', 'XLM', 'EUR', '300.5', '0.0912', add('27.34', '0.0656'), [('exchange', 'EUR', '0.0656')]),
   X('2023-02-20T14:10:02Z', 'withdrawal', 'EUR', '20'),
   T('2023-05-19T08:29:44.141Z', 'buy', 'BTC', 'EUR', '0.0012', '25120', sub('30.22', '0.076'), [('exchange', 'EUR', '0.076')]),
   X('2023-05-19T09:10:52Z', 'withdrawal', 'BTC', sub('0.0012', '0.0002'))]),
}
