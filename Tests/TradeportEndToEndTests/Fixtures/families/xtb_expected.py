# Expected operations of each XTB sample, worked out by hand from the sample's rows (not from the
# spec). XTB writes times in Polish time (CET = UTC+1, CEST = UTC+2 from 2021-03-28 / 2025-03-30);
# the account's currency is not in the file: EUR (the default). A trade's quantity and price are
# in the Comment (OPEN BUY q[/order] @ p: a buy; CLOSE BUY q @ p: a sale); its amount is the
# Amount; the price is the comment's when q × p is the amount. A swap of zero is skipped.
from decimal import Decimal as D
def n(x): return format(D(x).normalize(), 'f')
def T(t, side, base, qty, price, amt): return ('T', t, side, base, 'EUR', n(qty), n(price), n(amt), ())
def X(t, typ, amt): return ('X', t, typ, 'EUR', n(amt))

EXPECTED = {
 # 2025 sheet saved as CSV: Comment before Symbol, ;;;; trailing, dd/MM/yyyy, decimal comma.
 'xtb-2025-example.csv': dict(rows=9, operations=8, merged=0, skipped=1, rejected=0, ops=[
   X('2025-03-03T08:10:05Z', 'deposit', '1000'),
   T('2025-03-03T14:30:00Z', 'buy', 'XYZ', '4', '50.00', '200'),          # 15:30 without seconds
   T('2025-03-04T09:00:12Z', 'buy', 'VWCE', '2', '101.3000', '202.6'),
   X('2025-03-18T10:00:00Z', 'dividend', '0.45'),                          # DIVIDENT
   X('2025-03-18T10:00:00Z', 'tax', '0.07'),                               # Withholding Tax
   X('2025-04-01T01:16:39Z', 'interest', '1.84'),                          # Free-funds Interest (CEST)
   T('2025-04-07T14:20:31Z', 'sell', 'XYZ', '1', '55.20', '55.2'),
   X('2025-04-07T14:20:31Z', 'fee', '0.01')]),                             # SEC fee
 # 2021, German account: Kauf Aktien/ETFs, Aktien/ETF Verkauf.
 'xtb-2021-de-example.csv': dict(rows=4, operations=4, merged=0, skipped=0, rejected=0, ops=[
   X('2021-02-25T09:05:00Z', 'deposit', '500'),
   T('2021-02-25T14:31:12Z', 'buy', 'SAP', '2', '105.20', '210.4'),
   X('2021-04-06T01:00:00Z', 'interest', '0.12'),
   T('2021-04-06T08:12:45Z', 'sell', 'SAP', '1', '110.40', '110.4')]),
}
