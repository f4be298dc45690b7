# Expected operations of the BUX samples, worked out by hand from each row and BUX's semantics
# (docs/formats/bux.md), not from the spec:
# - "Transaction Time (CET)" is the Dutch wall clock: CET (UTC+1) in winter, CEST (UTC+2) in summer;
# - a trade is read in the account's money: amount |Transaction Amount| (EUR), quantity the units,
#   price amount ÷ units (8 decimals); the order's fee and tax are their own rows (fee, tax);
# - 2025 →: the asset leg (ASSET_TRADE_BUY / _SELL) of each trade is skipped (3 rows); the
#   corporate action's cash row (CASH_CREDIT, proceeds) is rejected; the split is two movements.
# T = trade (side, base, quote, quantity, price, amount, fees); X = transaction; M = movement.
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def q8(x): return str(D(x).quantize(D("1e-8")))

EXPECTED = {
 'bux-example.csv': dict(rows=18, operations=14, merged=0, skipped=3, rejected=1, ops=[
   X('2024-02-05T08:12:44.12Z', 'deposit', 'EUR', '250'),
   # 0.402171 shares for 50 EUR (53.9005 USD at EURUSD 1.07801, the asset leg skipped)
   T('2024-02-06T14:31:02.518Z', 'buy', 'US00BUXT0011', 'EUR', '0.402171', q8(D('50') / D('0.402171')), '50'),
   X('2024-02-06T14:31:02.519Z', 'fee', 'EUR', '1'),
   X('2024-02-06T14:31:02.52Z', 'tax', 'EUR', '0.18'),       # Tob
   T('2024-02-12T09:05:11.005Z', 'buy', 'IE00BUXT0022', 'EUR', '0.313726', q8(D('20') / D('0.313726')), '20'),
   X('2024-03-01T16:40:09.331Z', 'fee', 'EUR', '2.99'),      # Subscription Fee
   X('2024-03-14T10:02:55.87Z', 'dividend', 'EUR', '0.09'),  # net, as credited (0.12 USD gross, 0.02 tax)
   X('2024-04-07T06:15:30.002Z', 'interest', 'EUR', '0.31'),
   X('2024-04-09T10:00:00Z', 'other-income', 'EUR', '5'),     # Promotional
   T('2024-05-21T14:20:41.761Z', 'sell', 'US00BUXT0011', 'EUR', '0.2', str(D('27.91') / D('0.2')), '27.91'),
   X('2024-05-21T14:20:41.762Z', 'fee', 'EUR', '1'),
   M('2024-06-10T09:16:47.57Z', 'out', 'US00BUXT0011', '0.202171', 'split'),
   M('2024-06-10T09:18:46.264Z', 'in', 'US00BUXT0011', '0.808684', 'split'),
   # (2024-07-02: General Corporate Action CASH_CREDIT 4.12 EUR, cash proceeds: rejected)
   X('2024-07-15T12:44:01.9Z', 'withdrawal', 'EUR', '100')]),
 'bux-2024-example.csv': dict(rows=10, operations=10, merged=0, skipped=0, rejected=0, ops=[
   X('2021-09-01T08:00:12.4Z', 'deposit', 'EUR', '400'),
   T('2021-09-02T11:37:29.383Z', 'buy', 'NL00BUXT0033', 'EUR', '24', '12.5', '300'),
   X('2021-09-02T11:37:29.384Z', 'fee', 'EUR', '1'),
   T('2021-09-02T11:37:29.384Z', 'buy', 'NL00BUXT0033', 'EUR', '0.399201', q8(D('4.99') / D('0.399201')), '4.99'),
   X('2021-10-01T16:51:19.62Z', 'fee', 'EUR', '2.99'),
   # 0.12 shares at 96.35 USD = 11.562 USD, paid 10 EUR
   T('2021-10-11T14:45:18.652Z', 'buy', 'US00BUXT0044', 'EUR', '0.12', q8(D('10') / D('0.12')), '10'),
   X('2021-11-05T10:38:06.646Z', 'dividend', 'EUR', '7.2'),
   X('2021-11-09T09:25:51.533Z', 'interest', 'EUR', '0.04'),
   T('2022-01-20T08:14:02.01Z', 'sell', 'NL00BUXT0033', 'EUR', '12', '13', '156'),
   X('2022-02-14T12:57:08.427Z', 'withdrawal', 'EUR', '50')]),
}
