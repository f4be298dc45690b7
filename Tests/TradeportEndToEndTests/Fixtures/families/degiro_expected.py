# Expected operations of each DEGIRO sample, worked out by hand from the sample's rows (not from the
# spec): times converted from Europe/Amsterdam (CET = UTC+1, CEST = UTC+2) to UTC; an FX pair of
# rows is one trade of the foreign currency against EUR at EUR ÷ foreign (12 digits).
# T = trade (side, base, quote, quantity, price, amount, fees); X = transaction (type, asset, amount).
from decimal import Decimal as D, ROUND_HALF_UP
def r12(a, b): return str((D(a) / D(b)).quantize(D('1e-12'), rounding=ROUND_HALF_UP).normalize())
def T(t, side, base, quote, q, p, amt, fees=()): return ('T', t, side, base, quote, q, p, amt, tuple(sorted(fees)))
def X(t, typ, asset, amt): return ('X', t, typ, asset, amt)

EXPECTED = {
 'degiro-en-example.csv': dict(rows=15, operations=12, merged=1, skipped=2, rejected=0, ops=[
   X('2024-02-01T08:15:00Z', 'deposit', 'EUR', '1500'),
   T('2024-02-05T14:33:00Z', 'buy', 'US0000000AA1', 'USD', '4', '25.5', '102'),
   X('2024-02-05T14:33:00Z', 'fee', 'EUR', '0.5'),
   T('2024-02-05T14:33:00Z', 'buy', 'USD', 'EUR', '102', r12('94.01', '102'), '94.01'),
   T('2024-02-06T09:02:00Z', 'buy', 'IE0000000BB2', 'EUR', '3', '58.1', '174.3'),
   X('2024-02-06T09:02:00Z', 'fee', 'EUR', '1'),
   X('2024-03-01T15:51:00Z', 'interest', 'EUR', '0.37'),
   T('2024-03-11T09:02:00Z', 'sell', 'IE0000000BB2', 'EUR', '2', '60.25', '120.5'),
   X('2024-03-11T09:02:00Z', 'fee', 'EUR', '1'),
   X('2024-07-04T05:40:00Z', 'dividend', 'USD', '1.2'),
   X('2024-07-04T05:40:00Z', 'tax', 'USD', '0.18'),
   X('2024-08-08T13:27:00Z', 'dividend', 'GBP', '0.42')]),
 'degiro-pt-example.csv': dict(rows=12, operations=11, merged=1, skipped=0, rejected=0, ops=[
   X('2023-12-28T03:51:00Z', 'deposit', 'EUR', '500'),
   X('2024-01-02T15:51:00Z', 'interest', 'EUR', '0.85'),
   X('2024-01-03T13:06:00Z', 'fee', 'EUR', '2.5'),
   T('2024-01-10T08:39:00Z', 'buy', 'IE0000000CC3', 'EUR', '6', '49.785', '298.71'),
   X('2024-01-10T08:39:00Z', 'fee', 'EUR', '1'),
   # 235 GBX quoted, 23,50 GBP paid: the trade in GBP at 23.50 / 10
   T('2024-01-12T09:05:00Z', 'buy', 'GB0000000DD4', 'GBP', '10', '2.35', '23.5'),
   T('2024-01-12T09:05:00Z', 'buy', 'GBP', 'EUR', '23.5', r12('27.29', '23.5'), '27.29'),
   T('2024-02-20T10:12:00Z', 'sell', 'IE0000000CC3', 'EUR', '2', '51.2', '102.4'),
   X('2024-02-20T10:12:00Z', 'fee', 'EUR', '1'),
   X('2024-03-15T06:31:00Z', 'dividend', 'EUR', '3.1'),
   X('2024-03-15T06:31:00Z', 'tax', 'EUR', '0.47')]),
 'degiro-es-example.csv': dict(rows=16, operations=14, merged=2, skipped=0, rejected=0, ops=[
   X('2025-09-02T06:00:00Z', 'deposit', 'EUR', '1000'),
   T('2025-09-15T17:33:00Z', 'buy', 'US0000000EE5', 'USD', '18', '33.75', '607.5'),
   X('2025-09-15T17:33:00Z', 'fee', 'EUR', '2'),
   T('2025-09-15T17:33:00Z', 'buy', 'USD', 'EUR', '607.5', r12('557.34', '607.5'), '557.34'),
   X('2025-09-24T05:25:00Z', 'dividend', 'USD', '6.63'),
   X('2025-09-24T05:25:00Z', 'tax', 'USD', '0.99'),
   T('2025-09-25T04:40:00Z', 'sell', 'USD', 'EUR', '5.64', r12('4.82', '5.64'), '4.82'),
   T('2025-10-06T08:00:00Z', 'buy', 'IE0000000FF6', 'EUR', '4', '80.1', '320.4'),
   X('2025-10-06T08:00:00Z', 'fee', 'EUR', '1'),
   T('2025-10-20T13:10:00Z', 'sell', 'IE0000000FF6', 'EUR', '4', '82.45', '329.8'),
   X('2025-10-20T13:10:00Z', 'fee', 'EUR', '1'),
   # after the end of summer time (26-10-2025): UTC+1
   X('2025-10-27T17:00:00Z', 'withdrawal', 'EUR', '0.92'),   # Degiro Cash Sweep Transfer -0,92
   X('2025-10-27T17:00:00Z', 'deposit', 'EUR', '0.92'),      # Transferir a su Cuenta…: 0,92 EUR
   X('2025-10-31T17:02:00Z', 'fee', 'EUR', '2.5')]),
 'degiro-it-example.csv': dict(rows=9, operations=7, merged=2, skipped=0, rejected=0, ops=[
   X('2024-04-16T07:10:00Z', 'deposit', 'EUR', '4000'),
   # "@1.314,97 USD": 3944,91 / 3
   T('2024-04-17T13:40:00Z', 'buy', 'US0000000GG7', 'USD', '3', '1314.97', '3944.91'),
   T('2024-04-17T13:40:00Z', 'buy', 'USD', 'EUR', '3944.91', r12('3704.14', '3944.91'), '3704.14'),
   X('2024-05-05T16:02:00Z', 'fee', 'EUR', '2.5'),
   X('2024-07-01T05:39:00Z', 'dividend', 'USD', '15.75'),
   X('2024-07-01T05:39:00Z', 'tax', 'USD', '2.36'),
   T('2024-07-02T05:30:00Z', 'sell', 'USD', 'EUR', '13.39', r12('12.44', '13.39'), '12.44')]),
 'degiro-de-example.csv': dict(rows=14, operations=11, merged=1, skipped=2, rejected=0, ops=[
   X('2020-04-20T14:11:00Z', 'deposit', 'EUR', '300'),
   X('2020-04-20T14:11:00Z', 'fee', 'EUR', '1.25'),
   T('2020-12-18T19:58:00Z', 'buy', 'US0000000HH8', 'USD', '3', '42.5', '127.5'),
   X('2020-12-18T19:58:00Z', 'fee', 'EUR', '0.5'),
   T('2020-12-18T19:58:00Z', 'buy', 'USD', 'EUR', '127.5', r12('105.19', '127.5'), '105.19'),
   X('2020-12-22T23:00:00Z', 'other-charge', 'EUR', '0.01'),
   X('2020-12-29T23:00:00Z', 'fee', 'EUR', '2.27'),
   T('2021-01-11T09:07:00Z', 'sell', 'US0000000HH8', 'EUR', '1', '37.2', '37.2'),
   X('2021-01-11T09:07:00Z', 'fee', 'EUR', '2'),
   X('2021-03-15T06:31:00Z', 'dividend', 'USD', '0.75'),
   X('2021-03-15T06:31:00Z', 'tax', 'USD', '0.11')]),
 'degiro-fr-example.csv': dict(rows=9, operations=8, merged=0, skipped=1, rejected=0, ops=[
   X('2025-03-03T08:00:00Z', 'deposit', 'EUR', '2000'),
   T('2025-03-04T09:15:00Z', 'buy', 'FR0000000KK2', 'EUR', '10', '123.4', '1234'),
   X('2025-03-04T09:15:00Z', 'fee', 'EUR', '2'),
   X('2025-03-09T23:00:00Z', 'other-charge', 'EUR', '0.02'),
   X('2025-05-20T05:30:00Z', 'dividend', 'EUR', '8.5'),
   X('2025-05-20T05:30:00Z', 'tax', 'EUR', '2.13'),
   T('2025-06-02T09:20:00Z', 'sell', 'FR0000000KK2', 'EUR', '5', '130', '650'),
   X('2025-06-02T09:20:00Z', 'fee', 'EUR', '2')]),
 'degiro-transactions-example.csv': dict(rows=4, operations=4, merged=0, skipped=0, rejected=0, ops=[
   T('2025-01-10T08:04:00Z', 'buy', 'IE0000000MM4', 'EUR', '3', '84.12', '252.36'),
   T('2025-01-10T08:04:00Z', 'buy', 'IE0000000MM4', 'EUR', '7', '84.12', '588.84', [('broker', 'EUR', '1')]),
   T('2025-02-03T14:30:00Z', 'buy', 'US0000000LL3', 'USD', '5', '110', '550', [('broker', 'EUR', '2'), ('other', 'EUR', '1.32')]),
   T('2025-03-14T14:31:00Z', 'sell', 'US0000000LL3', 'USD', '2', '120.5', '241', [('broker', 'EUR', '2'), ('other', 'EUR', '0.56')])]),
 'degiro-transactions-2023-example.csv': dict(rows=4, operations=4, merged=0, skipped=0, rejected=0, ops=[
   T('2020-01-20T08:00:00Z', 'buy', 'IE0000000MM4', 'EUR', '2', '60.1', '120.2'),
   T('2020-01-20T08:00:00Z', 'buy', 'IE0000000MM4', 'EUR', '10', '60.1', '601', [('broker', 'EUR', '2')]),
   T('2020-02-05T14:30:00Z', 'buy', 'US0000000NN5', 'USD', '3', '240', '720', [('broker', 'EUR', '0.52')]),
   T('2020-03-12T18:44:00Z', 'sell', 'US0000000NN5', 'USD', '2', '251.6', '503.2', [('broker', 'EUR', '0.51')])]),
 'degiro-transactions-nl-example.csv': dict(rows=2, operations=2, merged=0, skipped=0, rejected=0, ops=[
   T('2024-11-28T08:01:00Z', 'sell', 'NL0000000QQ8', 'EUR', '6', '91.34', '548.04', [('broker', 'EUR', '1')]),
   T('2024-12-02T15:45:00Z', 'buy', 'US0000000PP7', 'USD', '4', '35.25', '141', [('broker', 'EUR', '2'), ('other', 'EUR', '0.33')])]),
}
