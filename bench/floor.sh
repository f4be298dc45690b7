#!/usr/bin/env bash
# The floor for DSX trades -> JSON Lines (bench/floor/dsx_floor.swift: byte ranges, no model
# values, no validation past the digits) beside tradeport and polars on the same generated input,
# alternated; prints medians and ratios, and checks that the floor wrote the same operation lines
# as tradeport (tradeport's warnings and summary after them are not the floor's to write).
#   bench/floor.sh [ROWS] [RUNS]        default 1000000 rows, 3 runs
# Needs the release build (BIN= names another) and python3 with polars.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000} runs=${2:-3}
shared=${SHARED:-../shared}
bin=${BIN:-$PWD/.build/release/tradeport}
[[ -x $bin ]] || swift build -c release --product tradeport
mkdir -p .build
swiftc -O -swift-version 6 bench/floor/dsx_floor.swift -o .build/dsx-floor
dir=${BENCH_DIR:-/tmp/tradeport-bench}
mkdir -p "$dir"
in=$dir/dsx-trades-$n.csv
[[ -s $in ]] || python3 "$shared/bench/gen_dsx.py" trades "$n" "$in"
declare -A wall
run() { # name, command...
  local name=$1; shift
  local t; t=$(mktemp)
  /usr/bin/time -f "%e" -o "$t" "$@" >/dev/null 2>&1
  wall[$name]+="$(cat "$t") "
  rm -f "$t"
}
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for ((i = 0; i < runs; i++)); do
  rm -f "$dir"/floor-*.jsonl
  run tradeport "$bin" convert "$in" --format dsx-trades --jsonl --quiet -o "$dir/floor-tradeport.jsonl"
  run floor .build/dsx-floor "$in" "$dir/floor-floor.jsonl" 2
  run polars python3 "$shared/bench/anchors.py" dsx-trades polars "$in" "$dir/floor-polars.jsonl"
done
lines=$(wc -l < "$dir/floor-floor.jsonl")
if cmp -s <(head -n "$lines" "$dir/floor-tradeport.jsonl") "$dir/floor-floor.jsonl"; then
  same="the same $lines operation lines as tradeport"
else
  same="NOT the same lines as tradeport"
fi
for name in tradeport floor polars; do printf '%-10s %8s s\n' "$name" "$(echo "${wall[$name]}" | median)"; done
p=$(echo "${wall[polars]}" | median)
printf 'ratio tradeport/polars = %.3f, floor/polars = %.3f; the floor wrote %s\n' \
  "$(echo "$(echo "${wall[tradeport]}" | median)/$p" | bc -l)" "$(echo "$(echo "${wall[floor]}" | median)/$p" | bc -l)" "$same"
rm -f "$dir"/floor-*.jsonl
