# Expected operations of the Revolut crypto statement samples, worked out by hand from each row, not
# from the spec: times are the app's local time, read in Europe/Berlin (CET UTC+1, CEST UTC+2);
# a Buy/Sell is quantity at Price for Value, its Fees (when not zero) a broker fee in the currency
# the money cells are written in (symbol or code); Send/Receive/Payment a withdrawal/deposit/withdrawal
# of the coin's quantity (a currency's Value where there is no quantity); Staking reward interest;
# Learn reward other income; Stake skipped; Other (unknown meaning) rejected.
from decimal import Decimal as D, ROUND_HALF_UP
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def q(x, digits): return str(D(x).quantize(D(1).scaleb(-digits), rounding=ROUND_HALF_UP))

EXPECTED = {
 'revolut-crypto-example.csv': dict(rows=11, operations=9, merged=0, skipped=1, rejected=1, ops=[
   T('2020-04-14T19:05:12Z', 'buy', 'BTC', 'SEK', '0.0012', '82500', '99'),
   T('2020-06-30T22:30:00Z', 'sell', 'BTC', 'SEK', '0.0002', '95000', '19'),       # 12:30 AM CEST
   X('2020-12-03T07:15:44Z', 'withdrawal', 'BTC', '0.0005'),
   X('2020-12-03T07:15:44Z', 'deposit', 'BTC', '0.0005'),
   T('2022-03-08T13:08:54Z', 'buy', 'ETH', 'EUR', '0.01', '2000', '20', [('broker', 'EUR', '0.5')]),
   X('2022-07-20T05:28:14Z', 'withdrawal', 'BTC', '0.0001'),                       # card payment
   # (Other: rejected)
   X('2023-06-30T10:00:05Z', 'other-income', 'XLM', '1250.5'),
   # (Stake: skipped)
   X('2025-01-14T23:23:31Z', 'interest', 'ETH', '0.00003'),                        # 12:23 AM CET
   T('2025-05-09T08:03:50Z', 'buy', 'BTC', 'USD', '0.0001', '100000', '10', [('broker', 'USD', '0.25')])]),
 'revolut-crypto-2024-example.csv': dict(rows=5, operations=5, merged=0, skipped=0, rejected=0, ops=[
   T('2021-04-13T07:54:54Z', 'buy', 'XRP', 'CZK', '1500.25', '12', '18003', [('broker', 'CZK', '193.98')]),
   X('2024-11-02T09:00:00Z', 'deposit', 'EUR', '500'),
   T('2024-11-03T13:22:10Z', 'buy', 'BTC', 'EUR', '0.005', '80000', '400', [('broker', 'EUR', '0.36')]),
   T('2024-11-23T22:54:47Z', 'sell', 'BTC', 'EUR', '0.002', '90000', '180', [('broker', 'EUR', '0.16')]),
   X('2024-12-04T20:34:33Z', 'withdrawal', 'EUR', '250')]),
}
