#!/usr/bin/env bash
# Pushes a generated DSX trades export of N operations (default 100,000) into one portfolio of a
# fresh `tradeport serve` (new SQLite file), then pushes it again (everything already present),
# and reports operations per second for both. Release build; not a timed test.
#   bench/push.sh [OPERATIONS] [RUNS]
# RUNS (default 1) repeats the whole measurement, each time with a fresh server and database.
# Then, unless COMPAT=0, the same against `serve --compat-original` (no batch endpoint: one post
# per operation) with COMPAT operations (default 10,000).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000} runs=${2:-1}
shared=${SHARED:-../shared}
source bench/serve-common.sh

python3 "$shared/bench/gen_dsx.py" trades "$n" "$work/trades.csv"
now() { date +%s.%N; }
# CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 1/100 s).
cpu() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"; }
rate() { python3 -c "import sys; n, s = int(sys.argv[1]), float(sys.argv[2]); print(f'{s:7.2f} s  {n / s:9.0f} ops/s')" "$@"; }

start=$(now)
"$bin" convert --quiet -o "$work/ops.json" "$work/trades.csv"
echo "convert alone (for reference):       $(rate "$n" "$(echo "$(now) - $start" | bc)")"

compat=${COMPAT:-10000}
if ((compat > 0)); then
  python3 "$shared/bench/gen_dsx.py" trades "$compat" "$work/compat.csv"
fi

measure() {  # label, input, operations, serve options...
  local label=$1 input=$2 ops=$3
  shift 3
  start_serve "$@"
  export TRADEPORT_SERVER=$url
  export TRADEPORT_USERNAME=bench TRADEPORT_PASSWORD=bench-password

  # The account first, so that bcrypt's cost is not in the figures.
  curl -sf -H 'Content-Type: application/json' -d '{"username": "bench", "password": "bench-password"}' \
    "$TRADEPORT_SERVER/auth/register" >/dev/null

  local cpu0 cpu1 cpu2
  cpu0=$(cpu "$server")
  start=$(now)
  "$bin" push --portfolio bench "$input" 2>"$work/first.txt"
  first=$(echo "$(now) - $start" | bc)
  cpu1=$(cpu "$server")
  start=$(now)
  "$bin" push --portfolio bench "$input" 2>"$work/again.txt"
  again=$(echo "$(now) - $start" | bc)
  cpu2=$(cpu "$server")

  echo "$label first push (all sent):        $(rate "$ops" "$first")   [$(grep -o '[0-9]* sent, [0-9]* already present, [0-9]* failed' "$work/first.txt")]"
  echo "$label re-run (all already present): $(rate "$ops" "$again")   [$(grep -o '[0-9]* sent, [0-9]* already present, [0-9]* failed' "$work/again.txt")]"
  echo "$label server CPU: first push $(echo "$cpu1 - $cpu0" | bc) s, re-run $(echo "$cpu2 - $cpu1" | bc) s"
  echo "$label database $(du -h "$work/balances.sqlite" | cut -f1), server peak memory $(grep VmHWM /proc/$server/status | awk '{print $2 / 1024 " MB"}')"
  kill "$server"; wait "$server" 2>/dev/null || true
  server=
}

for ((run = 1; run <= runs; run++)); do
  measure "run $run, $n ops:" "$work/trades.csv" "$n"
done
if ((compat > 0)); then
  measure "--compat-original, $compat ops:" "$work/compat.csv" "$compat" --compat-original
fi
