# Expected operations of the Bitpanda samples, worked out by hand from each sample's rows and
# Bitpanda's semantics (docs/formats/bitpanda.md), not from the spec:
# - Timestamps carry Vienna's offset (+01:00 winter, +02:00 summer): UTC = local − offset.
# - buy: Amount Fiat is what left the wallet, the fee (when in the fiat) included: value = Amount Fiat
#   − Fee; sell: Amount Fiat is what came in, net of the fee: value = Amount Fiat + Fee; price = value
#   ÷ Amount Asset (rounded to 10 places). Spread is in the price.
# - The savings plan's second row of a buy (incoming, Amount Fiat 0) is skipped.
# - deposit/withdrawal: Amount Asset of Asset, or Amount Fiat of the fiat when Amount Asset is '-';
#   transfer incoming: a deposit.
# T = trade (side, base, quote, quantity, price, amount, fees); X = transaction (type, asset, amount).
from decimal import Decimal as D, ROUND_HALF_UP
def s(x): return str(D(x).normalize()) if 'E' not in str(D(x).normalize()) else format(D(x).normalize(), 'f')
def T(t, side, base, quote, q, p, amt, fees=()): return ('T', t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ('X', t, typ, asset, s(amt))
def div(a, b): return str((D(a) / D(b)).quantize(D('1e-10'), rounding=ROUND_HALF_UP))

EXPECTED = {
 'bitpanda-example.csv': dict(rows=10, operations=10, merged=0, skipped=0, rejected=0, ops=[
   X('2025-01-08T08:14:02Z', 'deposit', 'EUR', '500'),                 # fee 7.39 taken from it
   T('2025-01-08T08:20:41Z', 'buy', 'BTC', 'EUR', '0.00107527', div('99.01', '0.00107527'), '99.01', [('exchange', 'EUR', '0.99')]),
   T('2025-01-09T14:02:10Z', 'buy', 'AAPL', 'EUR', '0.3125', '192', '60'),   # spread 0.12: in the price
   T('2025-02-03T07:07:15Z', 'buy', 'GOLD', 'EUR', '0.2', '125', '25'),   # asset codes upper-cased
   X('2025-04-05T07:22:18Z', 'deposit', 'BTC', '0.00016'),             # fee 0.00006 BTC
   X('2025-05-01T11:33:49Z', 'deposit', 'BEST', '0.5'),                # transfer in
   X('2025-05-02T00:57:13Z', 'deposit', 'EUR', '0.4'),                 # transfer in (fiat)
   T('2025-05-05T08:04:41Z', 'sell', 'BTC', 'EUR', '0.001', '97350', '97.35', [('exchange', 'EUR', '0.95')]),
   X('2025-05-06T09:00:00Z', 'withdrawal', 'BTC', '0.0001'),           # fee 0.00006 BTC beside
   X('2025-05-06T15:50:09Z', 'withdrawal', 'EUR', '300')]),
 'bitpanda-2021-example.csv': dict(rows=7, operations=6, merged=0, skipped=1, rejected=0, ops=[
   X('2021-12-14T07:05:10Z', 'deposit', 'EUR', '200'),
   T('2021-12-14T07:54:40Z', 'buy', 'SHIB', 'EUR', '2000000', '0.000025', '50'),
   # (its incoming twin, Amount Fiat 0, skipped)
   T('2021-12-15T08:06:40Z', 'buy', 'PAN', 'EUR', '400', '0.1', '40'),
   T('2021-12-16T09:12:00Z', 'buy', 'FTSE100', 'EUR', '5', '8', '40'),
   T('2021-12-20T13:35:07Z', 'sell', 'FTSE100', 'EUR', '5', '8.61', '43.05'),
   X('2021-12-31T12:33:49Z', 'deposit', 'BEST', '0.00057338')]),
 'bitpanda-2022-example.csv': dict(rows=4, operations=4, merged=0, skipped=0, rejected=0, ops=[
   X('2022-01-03T11:56:40Z', 'deposit', 'EUR', '1000'),
   T('2022-01-29T15:21:30Z', 'buy', 'ETH', 'EUR', '0.1', '2500', '250'),
   X('2022-03-21T17:56:17Z', 'withdrawal', 'ETH', '0.05'),            # address and label beyond the header
   X('2022-08-13T08:28:48Z', 'withdrawal', 'EUR', '20')]),
}
