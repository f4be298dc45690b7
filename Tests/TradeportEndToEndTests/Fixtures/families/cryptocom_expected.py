# Expected operations of the Crypto.com App samples (the 2021 kinds of rotki's special-events file,
# and the 2024+ export with Transaction Hash), worked out by hand from each row and Crypto.com's
# semantics (docs/formats/cryptocom.md), not from the spec:
# - times UTC; Amount signed in Currency; a trade sells |Amount| of Currency for To Amount of To
#   Currency, or on card_top_up for |Native Amount| of Native Currency (price = that ÷ |Amount|, 12
#   digits), and card_top_up then sends that Native Amount to the card (a withdrawal);
# - stake rewards (mco_stake_reward, dpos compound interest) are interest, Supercharger rewards
#   other income; Invest deposits/withdrawals withdrawals/deposits by sign; coin swaps (MCO
#   earnings, 2025's USDT→USDC Balance Conversion) and App↔Exchange transfers movements;
# - locks, unlocks, the card stake's dpos lock, Supercharger deposits and locked airdrops skipped;
#   an airdrop sent to the Exchange (airdrop_to_exchange_transfer) is not a kind the spec knows:
#   rejected.
from decimal import Decimal as D, ROUND_HALF_UP
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def div(a, b): return str((D(a) / D(b)).quantize(D("1e-12"), rounding=ROUND_HALF_UP))

EXPECTED = {
 'cryptocom-2021-example.csv': dict(rows=10, operations=8, merged=0, skipped=2, rejected=1, ops=[
   X('2021-10-30T02:10:00Z', 'other-income', 'SAND', '0.0421'),              # Supercharger Reward
   # line 3: Supercharger Deposit, skipped
   T('2021-10-28T09:30:15Z', 'sell', 'USDC', 'EUR', '30', div('25.9', '30'), '25.9'),   # card_top_up…
   X('2021-10-28T09:30:15Z', 'withdrawal', 'EUR', '25.9'),                   # …the EUR to the card
   X('2021-03-02T22:00:00Z', 'interest', 'CRO', '12.5'),                     # CRO Stake Rewards
   M('2021-03-02T22:00:00Z', 'in', 'CRO', '40', 'conversion'),               # MCO Earnings/Rewards Swap
   M('2021-03-02T22:00:00Z', 'out', 'MCO', '1.2', 'conversion'),
   # line 8: airdrop_to_exchange_transfer, rejected
   X('2021-02-10T08:00:00Z', 'deposit', 'BTC', '0.0105'),                    # Invest Withdrawal (back to the App)
   X('2021-02-01T08:00:00Z', 'withdrawal', 'BTC', '0.01')]),                 # Invest Deposit
   # line 11: CRO Airdrop (airdrop_locked), skipped
 'cryptocom-2025-example.csv': dict(rows=11, operations=10, merged=0, skipped=2, rejected=0, ops=[
   M('2025-06-20T09:15:02Z', 'out', 'CRO', '500.5', 'transfer'),             # App wallet -> Exchange
   M('2025-04-01T10:00:00Z', 'in', 'USDC', '25.5', 'conversion'),            # Balance Conversion
   M('2025-04-01T10:00:00Z', 'out', 'USDT', '25.5', 'conversion'),
   T('2025-02-14T16:20:45Z', 'sell', 'ADA', 'USDC', '120', div('84.36', '120'), '84.36'),
   X('2025-01-20T00:30:10Z', 'interest', 'CRO', '4.1234567'),                # dpos compound interest
   # lines 7-8: the card stake's dpos lock and the old lockup's unlock, skipped
   X('2024-11-20T11:11:11Z', 'interest', 'CRO', '2.5'),                      # CRO Stake Rewards
   T('2024-10-09T14:02:33Z', 'sell', 'USDT', 'EUR', '108.2', div('100', '108.2'), '100'),   # card_top_up…
   X('2024-10-09T14:02:33Z', 'withdrawal', 'EUR', '100'),                    # …to the card
   M('2024-10-05T09:30:00Z', 'in', 'ETH', '0.25', 'transfer'),               # Exchange -> App wallet
   X('2024-10-05T08:00:00Z', 'deposit', 'USDT', '150')]),
}
