# Expected operations of the Questrade samples, worked out by hand from each row and Questrade's
# semantics (docs/formats/questrade.md), not from the spec:
# - Activities: Transaction Date is a day (12:00:00 AM) in Toronto time: EST (05:00Z) before
#   2025-03-09, EDT (04:00Z) after. Buy/Sell: quantity |Quantity|, price Price, amount |Gross
#   Amount|, broker fee −Commission in Currency. DIV and the empty-Action Dividends row: a dividend
#   of Net Amount. CON / DEP: deposit or withdrawal by the sign of Net Amount. BRW: the position
#   journalled out of one side and into the other (transfer). DIS "STK SPLIT": the split's shares in.
# - Edge executions: Exec time in Toronto time (EST, 05:00Z); price Total value ÷ Fill qty (per
#   share, per contract of 100 for an option), amount Total value, fee Commission.
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)

EXPECTED = {
 'questrade-example.xlsx': dict(rows=14, operations=14, merged=0, skipped=0, rejected=0, ops=[
   X('2025-04-08T04:00:00Z', 'dividend', 'CAD', '4.80'),        # Action empty, Activity Type Dividends
   X('2025-03-20T04:00:00Z', 'withdrawal', 'CAD', '250'),       # CON … TO …: out of the cash account
   X('2025-03-20T04:00:00Z', 'deposit', 'CAD', '250'),          # … and into the FHSA
   X('2025-03-28T04:00:00Z', 'deposit', 'CAD', '1000'),         # CON: a contribution
   M('2025-04-02T04:00:00Z', 'out', 'DLR', '25', 'transfer'),   # BRW JOURNAL POSITION TO CAD
   M('2025-04-02T04:00:00Z', 'in', 'DLR', '25', 'transfer'),    # BRW JOURNAL POSITION FROM USD
   X('2025-03-25T04:00:00Z', 'deposit', 'USD', '300'),          # DEP WIRE DEP
   T('2025-03-27T04:00:00Z', 'buy', 'VEQT.TO', 'CAD', '12', '41.25', '495'),
   T('2025-03-31T04:00:00Z', 'buy', 'G036247', 'USD', '25', '10.24', '256'),
   T('2025-04-03T04:00:00Z', 'sell', 'ZBAL.TO', 'CAD', '30', '18.45', '553.50'),
   T('2025-04-03T04:00:00Z', 'buy', 'VTI', 'USD', '3', '265.10', '795.30', [('broker', 'USD', '4.95')]),
   T('2025-04-03T04:00:00Z', 'sell', 'VXUS', 'USD', '5', '61.20', '306', [('broker', 'USD', '0.02')]),
   M('2025-01-14T05:00:00Z', 'in', 'EXB', '40', 'split'),        # DIS … STK SPLIT
   X('2025-01-28T05:00:00Z', 'dividend', 'CAD', '56.80')]),     # DIV .EXB
 'questrade-executions-example.csv': dict(rows=4, operations=4, merged=0, skipped=0, rejected=0, ops=[
   T('2025-01-14T15:02:11Z', 'buy', 'XEQT.TO', 'CAD', '150', '31.42', '4713'),
   # 2 contracts: 830 = 2 × 4.15 × 100, so 415 a contract (the code upper-cased, as tradeport writes codes).
   T('2025-02-05T14:45:30Z', 'buy', 'QQQ14MAR25C520.00', 'USD', '2', str(D('830') / 2), '830', [('broker', 'USD', '2.99')]),
   T('2025-02-27T20:12:44Z', 'sell', 'QQQ14MAR25C520.00', 'USD', '2', str(D('1360') / 2), '1360', [('broker', 'USD', '2.99')]),
   T('2025-03-03T16:20:05Z', 'sell', 'ABCD', 'USD', '40', '12.5', '500', [('broker', 'USD', '4.95')])]),
}
