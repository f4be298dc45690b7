#!/usr/bin/env bash
# Converts a generated Tinkoff broker report (100,000 executed trades by default) to JSON Lines and
# compares wall time and peak memory with the anchors (openpyxl, python-calamine) in
# ../shared/bench, in one run. Goal: at most a quarter of python-calamine's time, under 150 MB.
#   bench/tinkoff.sh [TRADES] [RUNS]
# Needs a release build (swift build -c release) and openpyxl, python-calamine and xlsxwriter
# (python3 -m pip install openpyxl python-calamine xlsxwriter).
set -euo pipefail
cd "$(dirname "$0")/.."
trades=${1:-100000} runs=${2:-3}
shared=${SHARED:-../shared}
[[ -x .build/release/tradeport ]] || swift build -c release
exec "$shared/bench/compare.sh" tinkoff "$trades" \
  "$PWD/.build/release/tradeport convert {in} --format tinkoff-report --jsonl -o {out} --quiet" "$runs"
