# Expected operations of the Kraken samples (ledgers in the ≤2023 and 2024-07 layouts, trades in the
# ≤2023 and margin-position layouts), worked out by hand from each row and Kraken's semantics
# (docs/formats/kraken.md), not from the spec:
# - times are UTC, the fraction of a second kept; XXBT/XBT is BTC, ZEUR EUR, ZUSD USD, XETH ETH,
#   XLTC LTC, XXDG DOGE; staked codes (DOT.S) stay as they are;
# - ledger: the rows of one refid are one trade (what went out against what came in; the quote the
#   fiat), its fee the fee written on its legs; a row without txid and balance is a pending
#   request (skipped: the completed row follows); deposits, withdrawals by |amount|; staking and
#   earn rewards interest; earn allocations between wallets skipped; transfer rows movements;
#   adjustment other income by sign; margin: its fee a fee, its profit other income; rollover a fee;
# - trades: one trade per row, vol of the pair's base at price, cost the amount, fee in the quote.
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def div(a, b): return str((D(a) / D(b)).quantize(D("1e-12")))

EXPECTED = {
 # ≤2023 layout: 10 columns, texts quoted, numbers bare; pending rows (txid "", balance "").
 'kraken-ledger-2021-example.csv': dict(rows=14, operations=7, merged=2, skipped=5, rejected=0, ops=[
   X('2021-03-01T09:14:52Z', 'deposit', 'EUR', '2500'),                       # line 3 (line 2 pending)
   T('2021-03-02T14:03:27Z', 'buy', 'BTC', 'EUR', '0.03', div('1200', '0.03'), '1200', [('exchange', 'EUR', '3.12')]),
   T('2021-03-05T18:22:40Z', 'buy', 'DOT', 'EUR', '10', div('300', '10'), '300', [('exchange', 'EUR', '4.5')]),
   M('2021-03-06T10:01:15Z', 'out', 'DOT', '10', 'transfer'),                 # spottostaking
   M('2021-03-06T10:03:05Z', 'in', 'DOT.S', '10', 'transfer'),                # stakingfromspot
   X('2021-03-13T03:44:10Z', 'interest', 'DOT.S', '0.0412'),                  # staking (its pending deposit skipped)
   X('2021-03-20T16:34:12Z', 'withdrawal', 'BTC', '0.01')]),                  # fee 0.0005 on it
 # 2024-07 layout: + wallet, + amountusd.
 'kraken-ledger-2024-example.csv': dict(rows=11, operations=9, merged=1, skipped=2, rejected=0, ops=[
   X('2024-05-02T08:00:00.12Z', 'deposit', 'USD', '5000'),
   # lines 3-4: earn allocation spot -> earn / flexible, skipped
   X('2024-05-10T00:12:00.55Z', 'interest', 'USD', '1.25'),                   # earn reward
   X('2024-05-12T13:05:22.01Z', 'fee', 'USD', '2'),                           # margin opening fee (amount 0)
   X('2024-05-12T17:05:22.01Z', 'fee', 'USD', '0.8'),                         # rollover
   X('2024-05-13T10:40:00Z', 'other-income', 'USD', '150'),                   # margin closed with a profit…
   X('2024-05-13T10:40:00Z', 'fee', 'USD', '2.1'),                            # …and its fee
   X('2024-05-20T00:00:00Z', 'other-income', 'DOGE', '0.00000012'),           # adjustment
   T('2024-05-21T15:00:00Z', 'buy', 'ETH', 'USD', '0.64', div('2000', '0.64'), '2000', [('exchange', 'USD', '5.2')]),
   X('2024-05-25T11:11:11.1111Z', 'withdrawal', 'USD', '100')]),
 # ≤2023 trades layout: 13 columns.
 'kraken-trades-2019-example.csv': dict(rows=5, operations=5, merged=0, skipped=0, rejected=0, ops=[
   T('2019-02-11T08:30:12.4521Z', 'buy', 'BTC', 'EUR', '0.05', '3200', '160', [('exchange', 'EUR', '0.256')]),
   T('2019-03-02T17:45:00.0012Z', 'buy', 'LTC', 'EUR', '5', '40.1', '200.5', [('exchange', 'EUR', '0.5213')]),
   T('2019-04-20T12:00:30.9Z', 'sell', 'ETH', 'BTC', '1', '0.0315', '0.0315', [('exchange', 'BTC', '0.0000504')]),
   T('2019-06-28T21:10:05.33Z', 'sell', 'BTC', 'EUR', '0.03', '11000', '330', [('exchange', 'EUR', '0.528')]),
   T('2019-07-01T09:00:00Z', 'buy', 'BCH', 'EUR', '0.2', '280', '56', [('exchange', 'EUR', '0.1456')])]),
 # With a margin position's columns (postxid … trades), empty on spot trades.
 'kraken-trades-2022-example.csv': dict(rows=3, operations=3, merged=0, skipped=0, rejected=0, ops=[
   T('2022-01-14T10:20:30.1234Z', 'buy', 'ETH', 'USD', '0.2', '3300', '660', [('exchange', 'USD', '1.056')]),
   T('2022-02-03T15:00:00Z', 'buy', 'DOT', 'USD', '5', '18.5', '92.5', [('exchange', 'USD', '0.2405')]),
   T('2022-03-20T08:45:10.5Z', 'sell', 'ETH', 'USD', '0.1', '2900', '290', [('exchange', 'USD', '0.464')])]),
}
