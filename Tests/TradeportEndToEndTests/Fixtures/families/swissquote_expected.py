# Expected operations of the Swissquote samples, worked out by hand from each row and Swissquote's
# semantics (docs/formats/swissquote.md), not from the spec:
# - times are the file's Swiss local times (CET = UTC+1, CEST = UTC+2 from the last Sunday of March
#   to the last Sunday of October);
# - a trade: quantity and Unit price as written, amount |Net Amount| − Costs (buy) or Net Amount +
#   Costs (sale), the Costs its broker fee; in the 2017–2021 German layout, where Nettobetrag and
#   Nettobetrag in der Währung des Kontos differ (a USD deal paid from the CHF account), in the
#   account's currency: rate = account amount ÷ Nettobetrag (10 digits), fee = Costs × rate (cents),
#   amount = |account amount| ∓ fee, price = amount ÷ quantity (8 digits);
# - a currency exchange (credit and debit rows of one order): one trade buying the currency that
#   came in, quote the first of CHF, EUR, USD, GBP, price quote ÷ base (12 digits);
# - a dividend: the gross (Unit price) and the tax (Costs; none where 0); fees and charges |Net|;
#   interest by its sign; a withdrawal |Net| − Costs (the transfer fee apart), a deposit Net.
from decimal import Decimal as D, ROUND_HALF_UP
def s(x): return str(D(x).normalize()) if "E" not in str(D(x).normalize()) else format(D(x).normalize(), "f")
def T(t, side, base, quote, q, p, amt, fees=()): return ("T", t, side, base, quote, s(q), s(p), s(amt), tuple(sorted((k, c, s(a)) for k, c, a in fees)))
def X(t, typ, asset, amt): return ("X", t, typ, asset, s(amt))
def r(x, n): return D(x).quantize(D(1).scaleb(-n), rounding=ROUND_HALF_UP)
def fx(q, a): return r(D(a) / D(q), 12)

# 2017–2021 German rows paid in another currency than the account's:
rate_buy = r(D('713.58') / D('769.86'), 10)      # Kauf 20 at 38.40 USD from the CHF account
fee_buy = r(D('1.86') * rate_buy, 2)              # 1.72
amt_buy = D('713.58') - fee_buy                   # 711.86
rate_sell = r(D('190.20') / D('203.75'), 10)      # Verkauf 5 at 41.00 USD into the CHF account
fee_sell = r(D('1.25') * rate_sell, 2)            # 1.17
amt_sell = D('190.20') + fee_sell                 # 191.37

EXPECTED = {
 'swissquote-example.csv': dict(rows=12, operations=12, merged=1, skipped=0, rejected=0, ops=[
   X('2023-01-02T07:10:00Z', 'deposit', 'CHF', '5000'),                       # Credit
   T('2023-01-03T09:20:30Z', 'buy', 'USD', 'CHF', '2150.40', fx('2150.40', '2000'), '2000'),   # Forex debit + credit
   T('2023-01-05T14:31:10Z', 'buy', 'US00TEST0011', 'USD', '10', '120.50', '1205', [('broker', 'USD', '4.95')]),
   # Two fills of one order, one row each: two trades.
   T('2023-01-06T10:00:00Z', 'buy', 'IE00TEST0022', 'CHF', '30', '25.10', '753', [('broker', 'CHF', '9.20')]),
   T('2023-01-06T10:00:00Z', 'buy', 'IE00TEST0022', 'CHF', '5', '25.12', '125.60', [('broker', 'CHF', '3.05')]),
   X('2023-04-01T09:37:15Z', 'other-charge', 'CHF', '0.01'),                  # negative interest
   X('2023-06-30T14:35:13Z', 'dividend', 'USD', '8.40'),
   X('2023-06-30T14:35:13Z', 'tax', 'USD', '1.26'),
   X('2023-06-30T16:01:13Z', 'fee', 'CHF', '26.93'),                          # Custody Fees 25 + VAT 1.93
   T('2023-08-10T08:37:37Z', 'sell', 'US00TEST0011', 'USD', '4', '131.255', str(D('520.07') + D('4.95')), [('broker', 'USD', '4.95')]),
   X('2023-08-24T05:00:15Z', 'withdrawal', 'CHF', '1000'),                    # Debit 1000 + 2 fee
   X('2023-12-31T10:37:15Z', 'interest', 'CHF', '0.35')]),
 'swissquote-2021-de-example.csv': dict(rows=11, operations=10, merged=1, skipped=0, rejected=1, ops=[
   X('2021-10-04T07:00:00Z', 'deposit', 'CHF', '3000'),                       # Vergütung
   T('2021-10-05T14:05:46Z', 'buy', 'CH00TEST0031', 'CHF', '20', str(r(amt_buy / 20, 8)), str(amt_buy), [('broker', 'CHF', str(fee_buy))]),
   T('2021-10-08T20:17:39Z', 'buy', 'USD', 'CHF', '1185.55', fx('1185.55', '1100'), '1100'),   # Fx-Belastung / Fx-Gutschrift Comp.
   T('2021-11-15T15:07:11Z', 'buy', 'US00TEST0032', 'USD', '40', '23.39', '935.60', [('broker', 'USD', '3.55')]),
   T('2021-11-18T14:30:00Z', 'sell', 'CH00TEST0031', 'CHF', '5', str(r(amt_sell / 5, 8)), str(amt_sell), [('broker', 'CHF', str(fee_sell))]),
   X('2021-12-10T16:20:00Z', 'dividend', 'CHF', '10'),
   X('2021-12-10T16:20:00Z', 'tax', 'CHF', '3.50'),                           # Verrechnungssteuer 35 % in Kosten
   X('2021-12-18T08:55:35Z', 'fee', 'CHF', '4'),                              # Kommission AM
   # Interne Titelumbuchung (units moved between depots, no money): rejected, naming it.
   X('2021-12-31T10:40:56Z', 'fee', 'CHF', '40.39'),                          # Depotgebühren 37.50 + VAT 2.89
   X('2021-12-31T11:00:00Z', 'other-charge', 'USD', '0.85')]),                # Zinsen auf Belastungen
 'swissquote-2025-de-example.csv': dict(rows=6, operations=6, merged=0, skipped=0, rejected=0, ops=[
   X('2025-01-02T07:44:32Z', 'interest', 'USD', '0.73'),                      # Zinsen auf Einlagen
   T('2025-01-13T14:30:08Z', 'sell', 'US00TEST0041', 'USD', '1', '383.26', '383.26', [('broker', 'USD', '3.58')]),
   X('2025-07-02T15:50:13Z', 'dividend', 'USD', '69.47'),                     # Kosten 0: no tax
   X('2025-09-30T09:40:56Z', 'fee', 'CHF', '40.54'),
   X('2025-10-01T10:00:00Z', 'deposit', 'CHF', '1000'),                       # Zahlung
   X('2025-10-05T08:12:00Z', 'withdrawal', 'CHF', '500')]),                   # Auszahlung
}
