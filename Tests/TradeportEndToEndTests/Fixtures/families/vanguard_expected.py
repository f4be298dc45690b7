# Expected operations of the Vanguard samples, worked out by hand from each row and Vanguard's
# semantics (docs/formats/vanguard.md), not from the spec:
# - dates are Trade Date at midnight America/New_York (EST 05:00Z, EDT 04:00Z);
# - Net Amount is the account's money; a trade's value is |Principal Amount| (Gross Amount in a 529),
#   Commission Fees its broker fee; its price Share Price where shares × price is the value within a
#   cent, else value ÷ shares;
# - cash sits in the settlement fund VMFXX: Sweep in buys it, Sweep out sells it, at $1.00, the
#   units being the money (Shares is written 0);
# - a 529 contribution is a deposit and, on the same row, the buy of the portfolio's units, named
#   VG529:<fund account number>;
# - the holdings section above the transactions is a snapshot: not read, not counted.
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
EST, EDT = "T05:00:00Z", "T04:00:00Z"

EXPECTED = {
 # Brokerage, "Commissions and Fees" (2023 →), two accounts in the holdings.
 'vanguard-example.csv': dict(rows=13, operations=11, merged=0, skipped=0, rejected=2, ops=[
   T('2026-01-20' + EST, 'buy', 'VTI', 'USD', '2', '303.12', '606.24'),
   T('2026-01-20' + EST, 'sell', 'VMFXX', 'USD', '606.24', '1', '606.24'),          # Sweep out
   X('2025-12-26' + EST, 'dividend', 'USD', '25.31'),
   T('2025-12-26' + EST, 'buy', 'VXUS', 'USD', '0.382', '66.25', '25.31'),          # 25.3075
   # 11/20/2025 a bill bought with no symbol: no asset code in the file: rejected.
   X('2025-11-19' + EST, 'deposit', 'USD', '2500'),
   T('2025-11-19' + EST, 'buy', 'VMFXX', 'USD', '538.49', '1', '538.49'),           # Sweep in
   X('2025-10-31' + EDT, 'dividend', 'USD', '3.12'),
   T('2025-10-31' + EDT, 'buy', 'VMFXX', 'USD', '3.12', '1', '3.12'),               # Reinvestment
   T('2025-10-14' + EDT, 'sell', 'VTI', 'USD', '5', '297.4', '1487'),
   X('2025-10-01' + EDT, 'withdrawal', 'USD', '1000'),
   M('2025-09-15' + EDT, 'in', 'VFFVX', '100', 'transfer'),                        # Transfer (incoming)
   # 09/02/2025 'Capital gain (LT)': a type the spec does not list: rejected, naming it.
   ]),
 # Brokerage, "Commission Fees" (≤ 2019).
 'vanguard-2019-example.csv': dict(rows=7, operations=5, merged=0, skipped=0, rejected=2, ops=[
   # 03/22/2019 Corp Action (Redemption) of a bill with no symbol: rejected (no asset code).
   M('2019-02-11' + EST, 'out', 'VEA', '15', 'transfer'),
   T('2019-01-02' + EST, 'sell', 'VOO', 'USD', '2', '229.88', '459.76', [('broker', 'USD', '7')]),
   X('2018-12-27' + EST, 'dividend', 'USD', '30.21'),
   T('2018-12-27' + EST, 'buy', 'VMFXX', 'USD', '30.21', '1', '30.21'),             # Sweep in, fund without a symbol
   # 09/20/2018 Buy of the bill: rejected (no asset code).
   X('2018-09-14' + EDT, 'deposit', 'USD', '3000'),
   ]),
 # 529 plan: its own holdings and transactions headers.
 'vanguard-2023-example.csv': dict(rows=4, operations=8, merged=0, skipped=0, rejected=0, ops=[
   T('2025-03-31' + EDT, 'buy', 'VG529:999888777-01', 'USD', '15.3061', '9.8', '150'),    # 149.99978
   X('2025-03-31' + EDT, 'deposit', 'USD', '150'),
   T('2025-02-28' + EST, 'buy', 'VG529:999888777-01', 'USD', '15.544', '9.65', '150'),    # 149.9996
   X('2025-02-28' + EST, 'deposit', 'USD', '150'),
   T('2025-02-10' + EST, 'buy', 'VG529:999888777-01', 'USD', '10.2987', '9.71', '100'),   # 99.999377
   X('2025-02-10' + EST, 'deposit', 'USD', '100'),
   T('2025-01-31' + EST, 'buy', 'VG529:999888777-01', 'USD', '15.7895', '9.5', '150'),    # 150.00025
   X('2025-01-31' + EST, 'deposit', 'USD', '150'),
   ]),
}
