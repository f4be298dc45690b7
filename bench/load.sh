#!/usr/bin/env bash
# A load run against `tradeport serve`: CLIENTS clients (default 50), each its own user and
# portfolio, for SECONDS (default 30), posting trades with new value ids, posting one again (409
# expected), posting batches of 20, and reading portfolios and single trades. Counts answers by
# status, latency percentiles, and checks at the end that each client's portfolio holds exactly the
# trades it was answered "created" for. Any 5xx, any unexpected status or connection error is an
# error. Release build; not a timed test.
#   DATABASE=postgres://USER@HOST:PORT/DB [PGPASSWORD=…] bench/load.sh [CLIENTS] [SECONDS]
# Without DATABASE the server runs over a fresh SQLite file.
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-50} seconds=${2:-30}
source bench/serve-common.sh

database=${DATABASE:-$work/balances.sqlite}
rm -f "$work"/balances.sqlite* "$work"/jwt-secret
"$bin" serve --port 0 --database "$database" --bcrypt-cost 4 2>"$work/serve.log" &
server=$!
for _ in $(seq 200); do grep -q 'listening on' "$work/serve.log" && break; sleep 0.05; done
url=$(grep -o -m1 'http://[^ ]*' "$work/serve.log")
[[ -n $url ]] || { cat "$work/serve.log" >&2; exit 1; }
echo "serve: $(grep -o 'database [^)]*' "$work/serve.log")"

python3 - "$url" "$clients" "$seconds" "$server" <<'PY'
import json, sys, threading, time, random, http.client, urllib.parse
from collections import Counter

url, clients, seconds, pid = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
u = urllib.parse.urlsplit(url)
run = str(time.time_ns())

def trade(vid):
    return {"dateTime": "2021-02-27T12:00:01", "instrument": "btc-eur", "tradeType": "Buy", "tradedQuantity": "0.01",
            "tradedQuantityCurrency": "btc", "tradedPrice": "38500.25", "tradedPriceCurrency": "eur",
            "commission": "0.96", "commissionCurrency": "eur", "tradeValueId": vid}

statuses = Counter(); errors = []; latencies = []; lock = threading.Lock()
created_by = {}

def worker(n):
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    def call(method, path, body=None, token=None, expect=(200,)):
        headers = {"Content-Type": "application/json"}
        if token: headers["Authorization"] = "Token_" + token
        t0 = time.perf_counter()
        try:
            conn.request(method, u.path + path, body=None if body is None else json.dumps(body), headers=headers)
            r = conn.getresponse(); data = r.read()
        except Exception as e:
            with lock: errors.append(f"{method} {path}: {e}")
            conn.close(); return None, None
        dt = time.perf_counter() - t0
        with lock:
            statuses[r.status] += 1; latencies.append(dt)
            if r.status not in expect: errors.append(f"{method} {path}: {r.status} {data[:200]!r}")
        return r.status, (json.loads(data) if data else None)
    _, reg = call("POST", "/auth/register", {"username": f"load-{run}-{n}", "password": "pw", "email": ""})
    token = reg["token"]
    _, p = call("POST", "/portfolios", {"name": "load"}, token)
    q = f"?portfolioId={p['id']}"
    created = set(); i = 0; ids = []
    deadline = start + seconds
    while time.time() < deadline:
        r = random.random(); i += 1
        if r < 0.55:
            vid = f"{n}-{i}"
            s, body = call("POST", "/trades" + q, trade(vid), token)
            if s == 200: created.add(vid); ids.append(body["id"])
        elif r < 0.65 and created:
            call("POST", "/trades" + q, trade(random.choice(tuple(created))), token, expect=(409,))
        elif r < 0.80:
            batch = [trade(f"{n}-{i}-{k}") for k in range(20)]
            s, body = call("POST", "/trades/batch" + q, batch, token)
            if s == 200: created.update(t["tradeValueId"] for t in body["created"])
        elif r < 0.90:
            call("GET", "/portfolios", token=token)
        elif ids:
            call("GET", f"/trades/{random.choice(ids)}" + q, token=token)
    _, held = call("GET", "/trades" + q, token=token)
    held_ids = [t["tradeValueId"] for t in held]
    with lock:
        created_by[n] = (len(created), len(held_ids), len(set(held_ids)) == len(held_ids) and set(held_ids) == created)

start = time.time() + 0.5
threads = [threading.Thread(target=worker, args=(n,)) for n in range(clients)]
for t in threads: t.start()
for t in threads: t.join()
elapsed = seconds
lat = sorted(latencies)
pct = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else 0
rss = next((int(l.split()[1]) for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS:")), 0)
total = sum(statuses.values())
consistent = sum(1 for v in created_by.values() if v[2])
print(f"clients {clients}, {seconds:.0f} s: {total} requests, {total / elapsed:.0f} requests/s")
print("answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
print(f"latency ms: p50 {pct(0.5):.1f}, p90 {pct(0.9):.1f}, p99 {pct(0.99):.1f}, max {pct(1.0):.1f}")
print(f"trades stored: {sum(v[1] for v in created_by.values())}; portfolios holding exactly what they were answered created for: {consistent} of {clients}")
print(f"server resident memory at the end: {rss // 1024} MiB")
print(f"errors: {len(errors)}")
for e in errors[:10]: print("  " + e)
sys.exit(1 if errors or consistent != clients else 0)
PY
