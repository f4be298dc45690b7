#!/usr/bin/env bash
# Uploads a DSX trades export UPLOADS times (default 2,000) into one portfolio of a fresh
# `tradeport serve` (new SQLite file), each upload ROWS new trades (default 50, distinct ids, so
# every upload is read, mapped and stored), and samples the server's resident memory (VmRSS) every
# 100 uploads: what one upload needs must go with it, so after warm-up the figure stays flat.
# One step of about 2.5 MiB comes while the database grows to a few MB: SQLite's page cache
# filling to its default bound (2 MiB); the last half of the run shows what stays per upload.
# Release build; not a timed test.
#   [BIN=path/to/tradeport] bench/serve-uploads.sh [UPLOADS] [ROWS]
set -euo pipefail
cd "$(dirname "$0")/.."
uploads=${1:-2000} rows=${2:-50}
shared=${SHARED:-../shared}
source bench/serve-common.sh

python3 "$shared/bench/gen_dsx.py" trades "$rows" "$work/trades.csv"
start_serve --bcrypt-cost 4

python3 - "$url" "$server" "$work/trades.csv" "$uploads" <<'EOF'
import json, sys, time, urllib.request

url, pid, path, uploads = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
lines = open(path, encoding="utf-8").read().splitlines()

def call(method, route, body=None, token=None, content_type="application/json"):
    request = urllib.request.Request(url + route, data=body, method=method)
    if body is not None:
        request.add_header("Content-Type", content_type)
    if token:
        request.add_header("Authorization", "Token_" + token)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"null")

def rss_kib():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

token = call("POST", "/auth/register", json.dumps({"username": "bench", "password": "bench-password", "email": "b@example.com"}).encode())["token"]
portfolio = call("POST", "/portfolios", json.dumps({"name": "uploads"}).encode(), token)["id"]
boundary = "----tradeport-bench"
print(f"{'uploads':>8} {'VmRSS MiB':>10} {'stored':>8} {'s':>7}")
print(f"{0:8d} {rss_kib() / 1024:10.1f} {0:8d} {0:7.1f}")
stored, samples, start = 0, [], time.monotonic()
for n in range(1, uploads + 1):
    # Distinct trade ids per upload (column 13), so that every row is new.
    out = []
    for k, line in enumerate(lines):
        cells = line.split(";")
        cells[12] = str(1_000_000_000 + n * len(lines) + k)
        out.append(";".join(cells))
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"trades.csv\"\r\n"
            f"Content-Type: text/csv\r\n\r\n" + "\n".join(out) + f"\n\r\n--{boundary}--\r\n").encode()
    answer = call("POST", f"/trades/uploadFile?portfolioId={portfolio}&csvFileFormat=Dsx", body, token,
                  f"multipart/form-data; boundary={boundary}")
    stored += len(answer["created"])
    if answer.get("problems"):
        sys.exit(f"upload {n}: {answer['problems'][:3]}")
    if n % 100 == 0:
        rss = rss_kib()
        samples.append(rss)
        print(f"{n:8d} {rss / 1024:10.1f} {stored:8d} {time.monotonic() - start:7.1f}")
warm, late = samples[len(samples) // 4:], samples[len(samples) // 2:]
print(f"after warm-up ({uploads // 4} uploads): VmRSS {min(warm) / 1024:.1f}–{max(warm) / 1024:.1f} MiB, "
      f"growth {(warm[-1] - warm[0]) / 1024:+.1f} MiB over {uploads - uploads // 4} uploads; "
      f"over the last {uploads - uploads // 2}: {(late[-1] - late[0]) / 1024:+.2f} MiB; {stored} trades stored")
EOF
