# Expected operations of the Fidelity samples, worked out by hand from each row and Fidelity's
# semantics (docs/formats/fidelity.md), not from the spec:
# - dates are days at midnight America/New_York (EST 05:00Z, EDT 04:00Z); a cash row "… as of
#   MM/DD/YYYY" takes that date;
# - Amount is the account's money: a buy's |Amount| is the deal's value + Commission + Fees + Accrued
#   Interest (paid, written +); a sale's Amount is the value − Commission − Fees − Accrued Interest
#   (received, written −);
# - a trade's price is Price where quantity × Price is the value within a cent; else value ÷ quantity
#   (a bill's or bond's Price is in percent of its face);
# - Commission is a broker fee, Fees (SEC/regulatory) an other fee.
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)
def q8(x): return str(D(x).quantize(D("1e-8")))
EST, EDT = "T05:00:00Z", "T04:00:00Z"

EXPECTED = {
 # 2025-12 → single account, Price ($) before Quantity, Cash Balance ("--", "Processing").
 'fidelity-2026-example.csv': dict(rows=23, operations=14, merged=0, skipped=9, rejected=1, ops=[
   X('2026-01-21' + EST, 'withdrawal', 'USD', '250'),
   X('2026-01-20' + EST, 'deposit', 'USD', '1800'),
   # A bill: 5000 of face at 98.91 % is 4945.50; the 4945.52 paid is the value (Price is rounded).
   T('2026-01-15' + EST, 'buy', '912797ZZ1', 'USD', '5000', str(D('4945.52') / 5000), '4945.52'),
   T('2026-01-12' + EST, 'sell', 'FXAIX', 'USD', '10.5', '231.47', '2430.44'),      # 10.5 × 231.47 = 2430.435
   T('2025-12-31' + EST, 'buy', 'SPAXX', 'USD', '12.37', '1', '12.37'),             # REINVESTMENT
   X('2025-12-31' + EST, 'dividend', 'USD', '12.37'),
   T('2025-12-19' + EST, 'buy', 'VOO', 'USD', '3', '627.145', '1881.44'),           # 3 × 627.145 = 1881.435
   X('2025-12-10' + EST, 'tax', 'USD', '1.52'),
   X('2025-12-10' + EST, 'dividend', 'USD', '7.24'),
   X('2025-12-08' + EST, 'redemption', 'USD', '3000'),                              # REDEMPTION PAYOUT: money in…
   M('2025-12-08' + EST, 'out', '912797YY4', '3000', 'redemption'),                 # …and the bill's 3000 out
   X('2025-12-01' + EST, 'interest', 'USD', '3.05'),
   X('2025-11-28' + EST, 'tax', 'USD', '40'),                                       # FED TAX W/H
   X('2025-11-28' + EST, 'withdrawal', 'USD', '360'),                               # PARTIAL DISTRIBUTION
   # SHORT VS MARGIN MARK TO MARKET: not a kind the spec knows: rejected, naming 'SHORT VS'.
   ]),
 # 2025 (mid-year) single account, Quantity before Price ($).
 'fidelity-2025-example.csv': dict(rows=15, operations=6, merged=0, skipped=9, rejected=0, ops=[
   T('2025-07-08' + EDT, 'buy', 'FXNAX', 'USD', '482.625', '10.36', '5000'),        # 482.625 × 10.36 = 4999.995
   # 23.049 × 216.93 = 5000.0196, two cents off the 5000 received: 5000 ÷ 23.049.
   T('2025-07-08' + EDT, 'sell', 'FXAIX', 'USD', '23.049', q8(D(5000) / D('23.049')), '5000'),
   T('2025-06-30' + EDT, 'buy', 'FXNAX', 'USD', '4.331', '10.44', '45.22'),         # 45.21564
   X('2025-06-30' + EDT, 'dividend', 'USD', '45.22'),
   T('2025-06-16' + EDT, 'sell', 'MSFT', 'USD', '2', '474.98', str(D('949.93') + D('0.03')), [('other', 'USD', '0.03')]),
   X('2025-06-02' + EDT, 'deposit', 'USD', '300'),                                  # CONTRIBUTION
   ]),
 # 2023 History_for_Account: Security Description / Security Type, lines of commas around the rows.
 'fidelity-2023-example.csv': dict(rows=21, operations=5, merged=0, skipped=16, rejected=0, ops=[
   T('2023-02-14' + EST, 'buy', 'AAPL', 'USD', '4', '153.2', '612.8'),
   X('2023-02-01' + EST, 'withdrawal', 'USD', '85.5'),
   X('2023-01-27' + EST, 'deposit', 'USD', '1500'),
   X('2023-01-20' + EST, 'deposit', 'USD', '2210.4'),
   X('2023-01-17' + EST, 'withdrawal', 'USD', '120'),
   ]),
 # ≤ 2019 Accounts_History (all accounts), cells with a leading space, M/d/yyyy.
 'fidelity-2019-example.csv': dict(rows=18, operations=11, merged=0, skipped=8, rejected=0, ops=[
   X('2019-03-14' + EDT, 'interest', 'USD', '1.27'),
   T('2019-03-14' + EDT, 'buy', '999999999', 'USD', '1.27', '1', '1.27'),          # the core position's reinvestment
   X('2019-03-08' + EST, 'dividend', 'USD', '14.52'),
   T('2019-03-08' + EST, 'buy', 'XLU', 'USD', '0.25', '58.08', '14.52'),
   # 1153.23 received after 4.95 commission and 0.02 fees: 1158.20 = 20 × 57.91.
   T('2019-02-26' + EST, 'sell', 'XLU', 'USD', '20', '57.91', '1158.20', [('broker', 'USD', '4.95'), ('other', 'USD', '0.02')]),
   # A note sold at 99.87 % with 12.43 of accrued interest received (written −12.43): 4993.50 of value.
   T('2019-02-12' + EST, 'sell', '912828AA1', 'USD', '5000', '0.9987', '4993.50'),
   X('2019-01-22' + EST, 'tax', 'USD', '3.41'),                                     # "as of 01/22/2019"
   T('2019-01-22' + EST, 'buy', 'NVS', 'USD', '10', '86.5', '865', [('broker', 'USD', '4.95')]),
   X('2019-01-10' + EST, 'deposit', 'USD', '2000'),
   X('2018-12-31' + EST, 'redemption', 'USD', '2000'),
   M('2018-12-31' + EST, 'out', '912796QQ1', '2000', 'redemption'),
   ]),
 # 2025 all accounts: Account, Account Number, Exchange Quantity…; no preamble.
 'fidelity-example.csv': dict(rows=13, operations=13, merged=0, skipped=1, rejected=0, ops=[
   X('2025-12-03' + EST, 'dividend', 'USD', '41.18'),
   T('2025-12-03' + EST, 'buy', 'ITOT', 'USD', '0.2857', '144.12', '41.18'),       # 41.175084
   X('2025-12-03' + EST, 'deposit', 'USD', '2500'),
   X('2025-12-03' + EST, 'withdrawal', 'USD', '2500'),
   X('2025-12-01' + EST, 'coupon', 'USD', '200'),                                   # MUNI EXEMPT INT
   # 10000 of face at 101.25 % = 10125, plus 186.67 accrued interest paid = 10311.67.
   T('2025-11-20' + EST, 'buy', '850000AB1', 'USD', '10000', '1.0125', '10125'),
   T('2025-11-17' + EST, 'sell', 'INTC', 'USD', '150', '24.37', '3655.50', [('other', 'USD', '0.04')]),
   X('2025-11-17' + EST, 'redemption', 'USD', '5000'),
   M('2025-11-17' + EST, 'out', '999999ZZ9', '5000', 'redemption'),
   M('2025-11-14' + EST, 'in', 'EXHLY', '120', 'conversion'),                      # MERGER: units, no money
   X('2025-10-09' + EDT, 'tax', 'USD', '4.10'),
   X('2025-12-01' + EST, 'deposit', 'USD', '150'),                                  # CHECK RECEIVED
   X('2025-09-18' + EDT, 'withdrawal', 'USD', '75.5'),                              # Check Paid
   ]),
}
