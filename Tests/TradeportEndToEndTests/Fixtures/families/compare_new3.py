# Compares tradeport's JSON output for the IBKR Flex, Revolut crypto and Binance samples with the expected
# operations (as multisets), like compare_new.py: each argument is SAMPLE=OUTPUT.json; the expected module
# is chosen by the sample's name.
import json, sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import importlib
MODULES = {'ibkr': 'ibkr_expected', 'revolut': 'revolut_expected', 'binance': 'binance_expected'}
def expected(name): return importlib.import_module(MODULES[name.split('-')[0]]).EXPECTED[name]
def norm(x): return str(x)
def got_ops(d):
    out = []
    for p in d['portfolios']:
        for o in p.get('trades', []):
            fees = tuple(sorted((f['kind'], f['currency'], f['amount']) for f in o['fees']))
            out.append(('T', o['time'], o['side'], o['base'], o['quote'], o['quantity'], o['price'], o['amount'], fees))
        for o in p.get('transactions', []):
            out.append(('X', o['time'], o['type'], o['asset'], o['amount']))
        for o in p.get('movements', []):
            out.append(('M', o['time'], o['direction'], o['asset'], o['quantity'], o['reason']))
    return out
ok = True
for path in sys.argv[1:]:
    name, out = path.split('=')
    d = json.load(open(out)); e = expected(name); src = d['sources'][0]
    counts = {k: src.get(k, 0) for k in ('rows', 'operations', 'merged', 'skipped', 'rejected')}
    want = {k: e[k] for k in counts}
    g, w = sorted(got_ops(d)), sorted(e['ops'])
    same = g == w and counts == want
    ok &= same
    print(f"{name}: {'MATCH' if same else 'DIFFER'}  counts {counts}" + ('' if counts == want else f" expected {want}"))
    for x in w:
        if x not in g: print('   missing:', x)
    for x in g:
        if x not in w: print('   unexpected:', x)
sys.exit(0 if ok else 1)
