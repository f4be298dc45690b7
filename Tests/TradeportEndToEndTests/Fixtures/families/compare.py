# Compares tradeport's JSON output for a family sample (each argument SAMPLE=OUTPUT.json) with the
# expected operations (as multisets), worked out from the sample's rows in <broker>_expected.py, the
# broker being the sample's name up to the first "-" (Trade Republic, Scalable and Bitvavo share one).
import json, sys, os
sys.path.insert(0, os.path.dirname(__file__))
import importlib
SHARED = {"traderepublic": "new_brokers", "scalable": "new_brokers", "bitvavo": "new_brokers"}
def EXPECTED_FOR(name):
    broker = name.split("-")[0]
    return importlib.import_module(f"{SHARED.get(broker, broker)}_expected").EXPECTED[name]
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
    d = json.load(open(out)); e = EXPECTED_FOR(name); src = d['sources'][0]
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
