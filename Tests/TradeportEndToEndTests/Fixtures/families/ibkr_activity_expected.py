# Expected operations of the invented Interactive Brokers Activity Statement samples (samples/), worked
# out by hand from each line and IBKR's semantics (FINDINGS.md), in the tuple form of
# Tests/TradeportEndToEndTests/Fixtures/families/compare.py (T = trade, X = transaction).
# Conventions assumed (FINDINGS.md §5):
# - rows = every CSV line of the file (the BOM is not a line); operations + skipped = rows, rejected 0.
# - Date/Time "2024-01-16, 10:30:00" is New York time (EST = UTC-5, EDT = UTC-4: 2024-03-10..11-03,
#   2019-03-10..11-03); a date "2024-03-27" is midnight New York.
# - Trades (DataDiscriminator Order): quantity |Quantity|, price T. Price, amount |Proceeds|, fee |Comm/Fee|
#   broker in Currency; base = the ISIN that Financial Instrument Information gives as Security ID for the
#   Symbol, else the Symbol (2019: Security ID empty). Forex EUR.USD: base EUR, quote USD (= Currency),
#   fee |Comm in EUR| in EUR (the currency named in the column header).
# - Deposits & Withdrawals by sign (date Settle Date); Dividends + dividend, - dividend-charge (Reversal);
#   Payment in Lieu of Dividend is a dividend; Withholding Tax - tax, + tax-refund; Fees - fee, + fee-refund;
#   Interest + interest, - other-charge.
# - skipped: Header lines, every line of a summary/metadata section, SubTotal/Total lines, Data lines whose
#   first field starts with "Total", Notes lines, ClosedLot lines.
from decimal import Decimal as D
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def M(t, d, asset, q, reason): return ("M", t, d, asset, s(q), reason)

EXPECTED = {
 # 140 lines. Operations on lines 80, 83, 84, 90 (trades), 95-96, 99-100, 103, 107-108, 111, 119-120,
 # 124, 127. Skipped (124): 19 Header lines (1, 7, 14, 19 — the second Net Asset Value header —, 21,
 # 31, 38, 72, 79, 89 — the Forex header repeated inside Trades —, 94, 98, 106, 114, 118, 123, 130, 133,
 # 139); summary/metadata sections Statement 2-6, Account Information 8-13,
 # Net Asset Value 15-18 and 20, Change in NAV 22-30, Mark-to-Market Performance Summary 32-37,
 # Cash Report 39-71 (checked against: see FINDINGS §6), Open Positions 73-78, Change in Dividend
 # Accruals 115-117 (accruals, not cash), Financial Instrument Information 131-132 (symbol -> ISIN map),
 # Codes 134-138, Notes/Legal Notes 140; Trades SubTotal/Total 81-82, 86-88, 91-93; ClosedLot 85;
 # "Total…" Data lines 97, 101-102, 104-105, 109-110, 112-113, 121, 125-126, 128-129; Fees Notes 122.
 'ibkr-activity-example.csv': dict(rows=140, operations=16, merged=0, skipped=124, rejected=0, ops=[
   T('2024-01-04T09:15:22Z', 'sell', 'EUR', 'USD', '4600', '1.087', '5000.2', [('broker', 'EUR', '1.84')]),  # "-4,600"
   T('2024-01-16T15:30:00Z', 'buy', 'US0000TEST01', 'USD', '20', '96.5', '1930', [('broker', 'USD', '1')]),
   T('2024-02-07T08:12:45Z', 'buy', 'DE000TEST0E1', 'EUR', '15', '62.4', '936', [('broker', 'EUR', '1.25')]),
   T('2024-06-12T19:59:58Z', 'sell', 'US0000TEST01', 'USD', '5', '104.1', '520.5', [('broker', 'USD', '1.002345')]),
   X('2024-01-03T05:00:00Z', 'deposit', 'EUR', '10000'),
   X('2024-11-20T05:00:00Z', 'withdrawal', 'EUR', '1500'),
   X('2024-03-27T04:00:00Z', 'dividend', 'USD', '16.4'),
   X('2024-09-25T04:00:00Z', 'dividend', 'USD', '12.75'),
   X('2024-05-08T04:00:00Z', 'dividend', 'EUR', '16.5'),
   X('2024-03-27T04:00:00Z', 'tax', 'USD', '2.46'),
   X('2024-09-25T04:00:00Z', 'tax', 'USD', '1.91'),
   X('2024-05-08T04:00:00Z', 'tax', 'EUR', '4.35'),
   X('2024-02-05T05:00:00Z', 'fee', 'USD', '10'),
   X('2024-02-05T05:00:00Z', 'fee-refund', 'USD', '10'),
   X('2024-10-03T04:00:00Z', 'interest', 'USD', '0.85'),
   X('2024-04-03T04:00:00Z', 'interest', 'EUR', '3.12')]),
 # 72 lines. Operations on lines 37-38, 40 (trades), 44, 47, 50-54, 57-61, 64. Skipped (56): Header
 # lines 1, 7, 14, 18, 20, 32, 36, 43, 46, 49, 56, 63, 66, 69; Statement 2-6, Account Information 8-13,
 # Net Asset Value 15-17 and 19, Cash Report 21-31 (one currency: only "Base Currency Summary" rows),
 # Open Positions 33-35, Financial Instrument Information 67-68, Codes 70-72; Trades SubTotal/Total
 # 39, 41, 42; "Total" Data lines 45, 48, 55, 62, 65.
 'ibkr-activity-2019-example.csv': dict(rows=72, operations=16, merged=0, skipped=56, rejected=0, ops=[
   T('2019-05-02T13:30:00Z', 'buy', 'TSTB', 'USD', '50', '40', '2000', [('broker', 'USD', '1')]),
   T('2019-11-14T19:05:31Z', 'sell', 'TSTB', 'USD', '25', '42.02', '1050.5', [('broker', 'USD', '1')]),
   T('2019-08-20T15:02:10Z', 'buy', 'TSTC', 'USD', '1000', '2.9984', '2998.4', [('broker', 'USD', '1')]),  # "1,000"
   X('2019-04-29T04:00:00Z', 'deposit', 'USD', '5000'),
   X('2019-07-02T04:00:00Z', 'fee', 'USD', '7.64'),
   X('2019-06-27T04:00:00Z', 'dividend', 'USD', '22.5'),        # old notation "0.45000000 USD per Share"
   X('2019-09-26T04:00:00Z', 'dividend', 'USD', '23.5'),        # "TSTB (US…) Cash Dividend USD 0.4700000"
   X('2019-12-24T05:00:00Z', 'dividend', 'USD', '3.92'),        # Payment in Lieu of Dividend
   X('2019-12-30T05:00:00Z', 'dividend-charge', 'USD', '23.5'), # "- Reversal", negative
   X('2019-12-30T05:00:00Z', 'dividend', 'USD', '23.5'),        # re-posted as Return of Capital
   X('2019-06-27T04:00:00Z', 'tax', 'USD', '2.25'),
   X('2019-09-26T04:00:00Z', 'tax', 'USD', '2.35'),
   X('2019-12-24T05:00:00Z', 'tax', 'USD', '0.392'),
   X('2019-12-30T05:00:00Z', 'tax-refund', 'USD', '2.35'),      # tax reversed (+)
   X('2019-12-30T05:00:00Z', 'tax', 'USD', '1.41'),             # and charged anew
   X('2019-12-04T05:00:00Z', 'interest', 'USD', '0.21')]),
}

if __name__ == '__main__':
    for k, v in EXPECTED.items():
        assert v['operations'] == len(v['ops']) and v['operations'] + v['skipped'] == v['rows'], k
    print('consistent')
