#!/usr/bin/env bash
# Times several converters and the anchors of ../shared/bench (anchors.py) on the same generated
# input, in one run, alternating them, and prints each one's median wall time, peak memory and
# ratio to each anchor: how a change is measured against the tree before it (build the old tree's
# binary first and name both here).
#
#   bench/side-by-side.sh dsx-trades|tinkoff N RUNS NAME='COMMAND with {in} and {out}' ...
#
# Example (the binary before a change against the current release build):
#   bench/side-by-side.sh dsx-trades 1000000 5 \
#     before='/tmp/tradeport-before convert {in} --format dsx-trades --jsonl -o {out} -q' \
#     after='.build/release/tradeport convert {in} --format dsx-trades --jsonl -o {out} -q'
#
# Inputs are generated (and cached) by ../shared/bench/compare.sh's generators in
# ${BENCH_DIR:-/tmp/tradeport-bench}. Needs python3 with pandas, polars, python-calamine, openpyxl,
# xlsxwriter. ANCHORS (space-separated) limits the anchors run (default: polars for dsx-trades,
# calamine for tinkoff).
set -euo pipefail
kind=${1:?kind: dsx-trades or tinkoff} n=${2:?row count} runs=${3:?runs}
shift 3
shared=${SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}
bench=$shared/bench
dir=${BENCH_DIR:-/tmp/tradeport-bench}
mkdir -p "$dir"
case $kind in
  dsx-trades) in=$dir/dsx-trades-$n.csv; [[ -s $in ]] || python3 "$bench/gen_dsx.py" trades "$n" "$in"
              anchors=(${ANCHORS:-polars}) ;;
  tinkoff)    in=$dir/tinkoff-$n.xlsx; [[ -s $in ]] || python3 "$bench/gen_tinkoff.py" "$n" "$in" >"$in.summary.json"
              anchors=(${ANCHORS:-calamine}) ;;
  *) echo "unknown kind $kind" >&2; exit 2 ;;
esac
names=() declare -A cmds wall mem status size
for arg in "$@"; do
  name=${arg%%=*} cmd=${arg#*=}
  names+=("$name")
  cmd=${cmd//\{in\}/$in}; cmds[$name]=${cmd//\{out\}/$dir/out-$name.out}
done
run() { # name, command...
  local name=$1; shift
  local t; t=$(mktemp)
  local rc=0
  /usr/bin/time -f "%e %M" -o "$t" "$@" >/dev/null 2>"$t.err" || rc=$?
  wall[$name]+="$(cut -d' ' -f1 "$t") "; mem[$name]+="$(cut -d' ' -f2 "$t") "; status[$name]=$rc
  rm -f "$t" "$t.err"
}
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for ((i = 0; i < runs; i++)); do
  for name in "${names[@]}"; do
    rm -f "$dir/out-$name.out"
    run "$name" bash -c "${cmds[$name]}"
    size[$name]=$(stat -c %s "$dir/out-$name.out" 2>/dev/null || echo 0)
  done
  for a in "${anchors[@]}"; do
    run "$a" python3 "$bench/anchors.py" "$kind" "$a" "$in" "$dir/out-$a.jsonl"
    size[$a]=$(stat -c %s "$dir/out-$a.jsonl")
  done
done
echo "$kind, $n rows, medians of $runs"
printf '%-10s %10s %12s %12s %6s\n' command wall_s peak_MB out_MB exit
for name in "${names[@]}" "${anchors[@]}"; do
  w=$(echo "${wall[$name]}" | median); m=$(echo "${mem[$name]}" | median)
  printf '%-10s %10s %12.1f %12.1f %6s\n' "$name" "$w" "$(echo "$m/1024" | bc -l)" "$(echo "${size[$name]}/1048576" | bc -l)" "${status[$name]}"
done
for name in "${names[@]}"; do
  w_ours=$(echo "${wall[$name]}" | median)
  for a in "${anchors[@]}"; do
    w=$(echo "${wall[$a]}" | median)
    printf 'ratio %s/%s = %.3f\n' "$name" "$a" "$(echo "$w_ours/$w" | bc -l)"
  done
done
if ((${#names[@]} > 1)); then
  first=${names[0]}
  for name in "${names[@]:1}"; do
    printf 'ratio %s/%s = %.3f (wall)\n' "$name" "$first" "$(echo "$(echo "${wall[$name]}" | median)/$(echo "${wall[$first]}" | median)" | bc -l)"
  done
fi
