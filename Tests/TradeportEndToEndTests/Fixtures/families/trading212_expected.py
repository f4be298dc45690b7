# Expected operations of each Trading 212 sample, worked out by hand from the sample's rows (not
# from the spec). Trading 212 writes times in UTC. A trade is in the account currency: Total is
# what left the account on a buy (the instrument's value plus every fee and tax beside it) and what
# came in on a sell (the value less them), so the trade's amount is Total − fees on a buy and
# Total + fees on a sell, at amount ÷ shares (8 digits). Fees: currency conversion and transaction
# fees are the broker's; stamp duty, French transaction tax and Finra fee are 'other'. 2020–2022
# exports name the account currency in the header (Total (CHF)). A currency conversion sells the
# "from" currency for the "to" one.
# T = trade (side, base, quote, quantity, price, amount, fees); X = transaction (type, asset,
# amount); M = movement (direction, asset, quantity, reason).
from decimal import Decimal as D, ROUND_HALF_UP

def n(x):
    s = format(D(x).normalize(), 'f')
    return s
def q8(a, b): return n((D(a) / D(b)).quantize(D('1e-8'), rounding=ROUND_HALF_UP))
def T(t, side, base, quote, qty, amt, fees=()):
    return ('T', t, side, base, quote, n(qty), q8(amt, qty), n(amt), tuple(sorted((k, c, n(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ('X', t, typ, asset, n(amt))
def M(t, d, asset, qty, reason): return ('M', t, d, asset, n(qty), reason)
def sub(a, *b): return str(D(a) - sum(D(x) for x in b))
def add(a, *b): return str(D(a) + sum(D(x) for x in b))

EXPECTED = {
 # 2020, a CHF account: Total (CHF), Stamp duty reserve tax (CHF); a withdrawal written positive.
 'trading212-2020-example.csv': dict(rows=6, operations=6, merged=0, skipped=0, rejected=0, ops=[
   X('2020-04-14T09:12:40Z', 'deposit', 'CHF', '800.00'),
   T('2020-04-15T15:52:01Z', 'buy', 'ABCD', 'CHF', '2', '96.15'),
   T('2020-04-20T08:12:01Z', 'buy', 'GRID', 'CHF', '10', sub('110.31', '0.55'), [('other', 'CHF', '0.55')]),
   X('2020-05-14T12:30:55Z', 'dividend', 'CHF', '0.33'),
   T('2020-06-02T14:45:37Z', 'sell', 'ABCD', 'CHF', '1', '56.48'),
   X('2020-06-10T18:23:00Z', 'withdrawal', 'CHF', '120.00')]),
 # 2021: Transaction fee (EUR), Finra fee (EUR), Currency conversion fee (EUR) after ID; zero fees
 # (0.00) are no fees.
 'trading212-2021-example.csv': dict(rows=6, operations=6, merged=0, skipped=0, rejected=0, ops=[
   X('2021-04-12T11:37:51Z', 'deposit', 'EUR', '250.00'),
   T('2021-04-12T19:18:20Z', 'buy', 'ONTR', 'EUR', '4', sub('100.15', '0.15'), [('broker', 'EUR', '0.15')]),
   T('2021-04-20T16:07:58Z', 'sell', 'LOGX', 'EUR', '1', '67.80'),
   T('2021-04-26T13:32:56Z', 'sell', 'ONTR', 'EUR', '2', add('39.91', '0.02', '0.07'), [('other', 'EUR', '0.02'), ('broker', 'EUR', '0.07')]),
   X('2021-09-01T10:11:02Z', 'dividend', 'EUR', '1.78'),
   X('2021-10-01T13:03:26Z', 'withdrawal', 'EUR', '50.00')]),
 # 2022: Total (EUR), Charge amount (EUR) (the deposit's charge: not a second operation).
 'trading212-2022-example.csv': dict(rows=5, operations=5, merged=0, skipped=0, rejected=0, ops=[
   X('2022-03-26T06:50:14Z', 'deposit', 'EUR', '60.00'),
   T('2022-03-28T10:27:15Z', 'buy', 'ASMX', 'EUR', '0.05', '30.00'),
   T('2022-03-28T13:30:11Z', 'buy', 'BRDC', 'EUR', '0.04', '20.00'),
   X('2022-05-16T09:37:52Z', 'dividend', 'EUR', '0.06'),
   X('2022-05-17T12:30:55Z', 'dividend', 'EUR', '0.13')]),
 # 2023 (BOM): Finra fee on a sell; a currency conversion told only by its Notes.
 'trading212-2023-example.csv': dict(rows=6, operations=6, merged=0, skipped=0, rejected=0, ops=[
   X('2023-09-01T08:00:12.114Z', 'deposit', 'EUR', '300.00'),
   T('2023-09-04T14:28:20Z', 'buy', 'RLTY', 'EUR', '2', sub('96.45', '0.15'), [('broker', 'EUR', '0.15')]),
   T('2023-10-09T14:26:43Z', 'sell', 'RLTY', 'EUR', '1', add('46.53', '0.07', '0.07'), [('broker', 'EUR', '0.07'), ('other', 'EUR', '0.07')]),
   X('2023-10-16T10:49:49Z', 'dividend', 'EUR', '0.21'),
   T('2023-10-16T17:31:38.897Z', 'sell', 'EUR', 'GBP', '0.21', '0.18'),
   X('2023-10-31T21:08:18Z', 'interest', 'EUR', '0.03')]),
 # 2024 (card account): stamp duty and French transaction tax; card spending, refund, cashback.
 'trading212-2024-example.csv': dict(rows=6, operations=6, merged=0, skipped=0, rejected=0, ops=[
   T('2024-10-01T09:25:08Z', 'buy', 'RIOX', 'EUR', '2', sub('115.93', '0.58', '0.06'), [('other', 'EUR', '0.58'), ('broker', 'EUR', '0.06')]),
   T('2024-10-02T10:00:00.25Z', 'buy', 'CARX', 'EUR', '10', sub('140.56', '0.56'), [('other', 'EUR', '0.56')]),
   X('2024-10-27T14:20:26Z', 'withdrawal', 'EUR', '4.30'),
   X('2024-10-28T09:02:11Z', 'deposit', 'EUR', '4.30'),
   X('2024-10-28T23:59:59Z', 'other-income', 'EUR', '0.04'),
   X('2024-10-31T22:05:10.14Z', 'interest', 'EUR', '0.62')]),
 # 2025 (BOM; Notes and ID after Name): dividend FX adjustment, a conversion with its own columns,
 # equity rights bought, a scrip dividend's shares delivered.
 'trading212-2025-example.csv': dict(rows=5, operations=5, merged=0, skipped=0, rejected=0, ops=[
   T('2025-04-01T13:31:02.481Z', 'buy', 'NVDX', 'EUR', '0.5', sub('51.01', '0.08'), [('broker', 'EUR', '0.08')]),
   X('2025-04-25T11:09:30.186Z', 'other-income', 'EUR', '0.01'),
   T('2025-05-02T09:15:44.02Z', 'sell', 'EUR', 'GBP', '100.00', '84.20', [('broker', 'EUR', '0.15')]),
   T('2025-09-23T07:36:05Z', 'buy', 'AVNT', 'EUR', '10', '54.00'),
   M('2025-10-15T10:30:45.123Z', 'in', 'APLX', '0.0054', 'delivery')]),
 # 2026: Time (UTC); no withholding columns at all.
 'trading212-2026-example.csv': dict(rows=4, operations=4, merged=0, skipped=0, rejected=0, ops=[
   X('2026-01-05T07:56:01Z', 'deposit', 'EUR', '150.00'),
   T('2026-01-05T19:56:02Z', 'buy', 'NVDX', 'EUR', '0.1', sub('10.93', '0.02'), [('broker', 'EUR', '0.02')]),
   T('2026-01-06T14:30:00.5Z', 'buy', 'VWRX', 'EUR', '1', '125.50'),
   X('2026-01-31T21:08:18Z', 'interest', 'EUR', '0.21')]),
}
