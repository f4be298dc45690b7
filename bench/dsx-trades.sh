#!/usr/bin/env bash
# Converts a generated 1,000,000-row DSX trades export to JSON Lines and compares wall time and
# peak memory with the anchors (python csv, pandas, polars) in ../shared/bench, in one run.
#   bench/dsx-trades.sh [ROWS] [RUNS]
# Needs a release build (swift build -c release) and pandas and polars
# (python3 -m pip install pandas polars).
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000} runs=${2:-3}
shared=${SHARED:-../shared}
[[ -x .build/release/tradeport ]] || swift build -c release
exec "$shared/bench/compare.sh" dsx-trades "$rows" \
  "$PWD/.build/release/tradeport convert {in} --format dsx-trades --jsonl -o {out} --quiet" "$runs"
