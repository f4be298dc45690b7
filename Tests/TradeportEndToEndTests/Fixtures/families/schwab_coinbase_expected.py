#!/usr/bin/env python3
"""Expected operations of each staged sample, worked out from the raw CSV with plain Python
(the brokers' semantics written out here, not read from the specs), compared with tradeport's JSON."""
import csv, json, re, sys
from decimal import Decimal as D
from datetime import datetime, timezone, timedelta

def num(s):
    s = s.strip().replace('$', '').replace('€', '').replace('£', '').replace(',', '')
    return D(s) if s else None

def ny(date):  # Schwab: a date is midnight New York time (EST -5 / EDT -4, 2021: DST 03-14 .. 11-07)
    m, d, y = map(int, date.split('/'))
    off = 4 if (y, m, d) >= (2021, 3, 14) and (y, m, d) < (2021, 11, 7) else 5
    return datetime(y, m, d, off, tzinfo=timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')

def utc(ts):
    ts = ts.replace(' UTC', 'Z').replace(' ', 'T')
    return ts

def schwab(path):
    rows = list(csv.reader(open(path)))
    hi = next(i for i, r in enumerate(rows) if r[:2] == ['Date', 'Action'])
    ops, skipped = [], 0
    for n, r in enumerate(rows[hi + 1:], start=hi + 2):
        date, action, sym, desc, qty, price, fees, amount = r[:8]
        if date == 'Transactions Total': skipped += 1; continue
        t = ny(date.split(' as of ')[-1])
        a = num(amount)
        if action in ('Buy', 'Sell', 'Reinvest Shares'):
            f = num(fees)  # an empty cell: no fee
            g = f or D(0)
            ops.append((n, 'trade', t, 'buy' if action != 'Sell' else 'sell', sym, 'USD', num(qty), num(price), abs(a) - g if a < 0 else a + g, f))
        else:
            kind = {'Journal': ('deposit', 'withdrawal'), 'MoneyLink Deposit': ('deposit', 'withdrawal'), 'MoneyLink Transfer': ('deposit', 'withdrawal'),
                    'Bank Interest': ('interest', 'other-charge'), 'Reinvest Dividend': ('dividend', 'dividend-charge'),
                    'Qualified Dividend': ('dividend', 'dividend-charge'), 'Cash Dividend': ('dividend', 'dividend-charge'),
                    'NRA Tax Adj': ('tax-refund', 'tax')}[action]
            ops.append((n, 'transaction', t, kind[0] if a > 0 else kind[1], 'USD', None, None, None, abs(a), None))
    return ops, skipped, 0

def coinbase(path):
    rows = list(csv.reader(open(path)))
    hi = next(i for i, r in enumerate(rows) if 'Quantity Transacted' in r)
    h = rows[hi]
    ops, skipped, rejected = [], 0, 0
    # Coinbase's ETH2 -> ETH migration: a Send of ETH2 and a Receive of ETH of one quantity in one
    # second, side by side; each is a movement (conversion), not money leaving and arriving.
    body = [dict(zip(h, r)) for r in rows[hi + 1:]]
    relabel = set()
    for i in range(len(body) - 1):
        a, b = body[i], body[i + 1]
        if (a.get('Transaction Type'), a.get('Asset'), b.get('Transaction Type'), b.get('Asset')) == ('Send', 'ETH2', 'Receive', 'ETH') \
                and a['Timestamp'] == b['Timestamp'] and -num(a['Quantity Transacted']) == num(b['Quantity Transacted']):
            relabel |= {i + hi + 2, i + hi + 3}
    for n, r in enumerate(rows[hi + 1:], start=hi + 2):
        d = dict(zip(h, r))
        col = lambda *names: next((d[k] for k in d for nm in names if k == nm or re.fullmatch(r'[A-Z]{3} ' + re.escape(nm), k)), '')
        typ, asset, q = d['Transaction Type'], d['Asset'], num(d['Quantity Transacted'])
        t, notes = utc(d['Timestamp']), d['Notes']
        ccy = col('Price Currency', 'Spot Price Currency')
        if not ccy:  # v1: the header names the currency
            ccy = next(k[:3] for k in h if k.endswith('Subtotal'))
        if typ in ('Retail Staking Transfer', 'Retail Unstaking Transfer'): skipped += 1; continue
        if typ == 'Retail Eth2 Deprecation' or n in relabel:
            ops.append((n, 'movement', t, 'in' if q > 0 else 'out', asset, None, abs(q), None, None, None)); continue
        m = re.match(r'Converted ([\d.,]+) (\w+) to ([\d.,]+) (\w+)$', notes)
        if typ == 'Convert':
            got = num(m.group(3))
            ops.append((n, 'trade', t, 'sell', asset, m.group(4), abs(q), (got / abs(q)).quantize(D('1e-12')).normalize(), got, num(col('Fees and/or Spread', 'Fees')))); continue
        if re.search(r'(Buy|Sell)$', typ):
            m = re.match(r'(?:Bought|Sold) [\d.,]+ \w+ for \D?[\d.,]+ (\w+)', notes)
            if m.group(1) != ccy: rejected += 1; continue
            ops.append((n, 'trade', t, 'buy' if typ.endswith('Buy') else 'sell', asset, ccy, abs(q), num(col('Price at Transaction', 'Spot Price at Transaction')),
                        abs(num(col('Subtotal'))), num(col('Fees and/or Spread', 'Fees'))))
            continue
        kind = {'Deposit': 'deposit', 'Withdrawal': 'withdrawal', 'Send': 'withdrawal', 'Receive': 'deposit', 'Coinbase Earn': 'interest',
                'Rewards Income': 'interest', 'Staking Income': 'interest', 'Learning Reward': 'interest'}[typ]
        ops.append((n, 'transaction', t, kind, asset, None, None, None, abs(q), None))
    return ops, skipped, rejected

def fills(path):
    rows = list(csv.DictReader(open(path)))
    ops = []
    for n, d in enumerate(rows, start=2):
        total, fee = num(d['total']), num(d['fee'])
        ops.append((n, 'trade', d['created at'], d['side'].lower(), d['size unit'], d['price/fee/total unit'], num(d['size']), num(d['price']),
                    abs(total) - fee if d['side'] == 'BUY' else total + fee, fee))
    return ops, 0, 0

def actual(jpath):
    j = json.load(open(jpath))
    src = j['sources'][0]
    ops = []
    for p in j['portfolios']:
        for o in p.get('trades', []):
            fee = sum(D(f['amount']) for f in o['fees']) if o['fees'] else None
            ops.append((o['source']['row'], 'trade', o['time'], o['side'], o['base'], o['quote'], D(o['quantity']), D(o['price']), D(o['amount']) if o['amount'] else None, fee))
        for o in p.get('transactions', []):
            ops.append((o['source']['row'], 'transaction', o['time'], o['type'], o['asset'], None, None, None, D(o['amount']), None))
        for o in p.get('movements', []):
            ops.append((o['source']['row'], 'movement', o['time'], o['direction'], o['asset'], None, D(o['quantity']), None, None, None))
    return sorted(ops, key=lambda o: o[0]), src['skipped'], src['rejected']

def norm(o):
    return tuple((x.normalize() if isinstance(x, D) else x) for x in o)

kind, sample, jpath = sys.argv[1:4]
exp, es, er = {'schwab': schwab, 'coinbase': coinbase, 'fills': fills}[kind](sample)
act, as_, ar = actual(jpath)
exp = [norm(o) for o in sorted(exp, key=lambda o: o[0])]
act = [norm(o) for o in act]
# a fill's time keeps its milliseconds in tradeport: compare to the second in both
fix = lambda o: o[:2] + (re.sub(r'\.\d+Z$', 'Z', o[2]),) + o[3:]
exp = [fix(o) for o in exp]; act = [fix(o) for o in act]
ok = exp == act and es == as_ and er == ar
print(f"{sample}: expected {len(exp)} ops, {es} skipped, {er} rejected; tradeport {len(act)} ops, {as_} skipped, {ar} rejected: {'MATCH' if ok else 'MISMATCH'}")
if not ok:
    for e, a in zip(exp, act):
        if e != a: print('  exp', e, '\n  got', a)
    if len(exp) != len(act): print('  exp', exp, '\n  got', act)
sys.exit(0 if ok else 1)
