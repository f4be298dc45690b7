#!/usr/bin/env bash
# Coverage-guided fuzzing of tradeport's readers with libFuzzer (see fuzz/README.md).
#
#   fuzz/run.sh TARGET SECONDS [extra libFuzzer args]
#
# TARGET: csv, sheet-parser, workbook, spec, numbers, balances-json, multipart, prepared.
# Environment: TRADEPORT_FUZZ_NO_BUILD=1 skips the build; TRADEPORT_FUZZ_BINARY=PATH runs that
# binary instead of the one built (a saved copy, so that a rebuild does not pull it from under a run); TRADEPORT_FUZZ_LEAKS=1 turns
# LeakSanitizer on (off by default: its runtime may be missing).
#
# Exits non-zero when libFuzzer found a crash (or could not run); the last line is always
#   fuzz TARGET: executions N, coverage C, features F, crashes K
set -euo pipefail

targets="csv sheet-parser workbook spec numbers balances-json multipart prepared"
usage() {
    echo "usage: fuzz/run.sh TARGET SECONDS [extra libFuzzer args]" >&2
    echo "  TARGET: ${targets// /, }" >&2
    exit 2
}
[[ $# -ge 2 ]] || usage
target=$1
seconds=$2
shift 2
[[ " $targets " == *" $target "* ]] || { echo "fuzz/run.sh: unknown target '$target'" >&2; usage; }
[[ $seconds =~ ^[0-9]+$ ]] || { echo "fuzz/run.sh: SECONDS must be a whole number, not '$seconds'" >&2; usage; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
scratch=.build-fuzz
corpus=$scratch/corpus/$target
artifacts=$scratch/artifacts/$target
# The C harness's build log goes here before anything else has made the folder (a clean clone).
mkdir -p "$scratch"
# 1. Build.
if [[ $target == sheet-parser ]]; then
    binary=$scratch/sheet-parser-fuzz
    if [[ ${TRADEPORT_FUZZ_NO_BUILD:-0} != 1 ]]; then
        echo "fuzz: building $binary" >&2
        # shellcheck disable=SC2046  # pkg-config's flags are meant to split
        clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
            -I Sources/CXLSXSupport/include $(pkg-config --cflags libxml-2.0) \
            fuzz/sheet_parser_fuzz.c Sources/CXLSXSupport/*.c \
            $(pkg-config --libs libxml-2.0) -lz -o "$binary" 2> "$scratch/sheet-parser-build.log" || {
            cat "$scratch/sheet-parser-build.log" >&2
            echo "fuzz $target: build failed" >&2
            exit 1
        }
    fi
else
    binary=$scratch/release/TradeportFuzz
    if [[ ${TRADEPORT_FUZZ_NO_BUILD:-0} != 1 ]]; then
        echo "fuzz: building TradeportFuzz (release, fuzzer and address sanitizers) in $scratch" >&2
        # TRADEPORT_FUZZ=1: Package.swift instruments the project's own modules only (see there).
        TRADEPORT_FUZZ=1 swift build -c release --scratch-path "$scratch" --product TradeportFuzz \
            -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
    fi
fi
# A campaign can run a saved copy of the binary while the project is rebuilt beside it.
[[ -n ${TRADEPORT_FUZZ_BINARY:-} ]] && binary=$TRADEPORT_FUZZ_BINARY
[[ -x $binary ]] || { echo "fuzz $target: no binary at $binary (build it, or unset TRADEPORT_FUZZ_NO_BUILD)" >&2; exit 1; }
# Made after the build: a first `swift build` into a new scratch path clears what it finds there.
mkdir -p "$corpus" "$artifacts"

# 2. Seeds: copied into the working corpus only when missing (the corpus grows run after run).
python3 - "$target" "$corpus" <<'PY'
import glob, hashlib, os, sys, zipfile

target, corpus = sys.argv[1], sys.argv[2]
shared = [d for d in ("../shared/samples", "../shared/realworld") if os.path.isdir(d)]

def files(patterns):
    out = []
    for p in patterns:
        out += [f for f in glob.glob(p, recursive=True) if os.path.isfile(f)]
    return sorted(set(out))

def shared_files(*exts):
    out = []
    for d in shared:
        out += [f for f in files([d + "/**/*"]) if f.lower().endswith(exts)]
    return out

def name_of(origin):
    return origin.strip("./").replace("/", "_").replace("..", "")

added = 0
def put(name, data):
    global added
    path = os.path.join(corpus, "seed-" + name)
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
        added += 1

def read(path):
    with open(path, "rb") as f:
        return f.read()

def committed():
    return files(["fuzz/seeds/%s/*" % target])

# Inputs that once crashed a harness, kept as they were found (control bytes included).
for path in files(["fuzz/regressions/%s/*" % target]):
    put(name_of(path), read(path))

def xlsx_parts(paths, want, cap, truncate):
    """(name, bytes) of the parts `want(entry name)` of every workbook; bigger than `cap`: cut
    (truncate) or left out."""
    for path in paths:
        try:
            with zipfile.ZipFile(path) as z:
                for info in z.infolist():
                    if not want(info.filename.lower()):
                        continue
                    data = z.read(info)
                    if len(data) > cap:
                        if not truncate:
                            continue
                        data = data[:cap]
                    yield name_of(path) + "-" + info.filename.replace("/", "_"), data
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError):
            continue

workbooks = files(["formats/samples/*.xlsx"]) + shared_files(".xlsx")

if target == "csv":
    # The harness reads its first byte as the dialect: delimiter = b % 3 (; , tab), quoted when
    # b / 3 is even, tiny chunk 16 + (b / 6) % 49 bytes, built-in format detection when b >= 240.
    for path in files(["formats/samples/*.csv"]) + shared_files(".csv") + committed():
        data = read(path)
        head = data[:4096].split(b"\n")[0]
        counts = [head.count(b";"), head.count(b","), head.count(b"\t")]
        d = counts.index(max(counts))
        put(name_of(path) + ".c1", bytes([d + 6]) + data)
        put(name_of(path) + ".c2", bytes([d + 240]) + data)
elif target == "prepared":
    # Two control bytes (see Sources/TradeportFuzz/PreparedHarness.swift): the format, DSX's trades
    # by 0 (and quoted by the last pick), any by detection at 255; then the reading: pieces of 64
    # bytes, and the canonical document, split accounts, the source twice as more bits.
    for path in files(["formats/samples/*.csv"]) + shared_files(".csv") + committed():
        data = read(path)
        if len(data) > 16384:  # max_len: the first lines only
            data = data[:data.rfind(b"\n", 0, 16384 - 2) + 1] or data[:16384 - 2]
        dsx = "dsx" in os.path.basename(path).lower() and "trade" in os.path.basename(path).lower()
        put(name_of(path) + ".p1", bytes([0 if dsx else 255, 0]) + data)
        put(name_of(path) + ".p2", bytes([0 if dsx else 255, 8 | 16 | 32 | 3]) + data)
elif target == "sheet-parser":
    # One control byte first (see fuzz/sheet_parser_fuzz.c): 0x1E = chunks of varying sizes up to
    # 512 bytes, one row a batch; small sheets also with 0x9D = 1000-byte chunks, strict.
    cap = 200 * 1024
    parts = list(xlsx_parts(workbooks, lambda n: n.startswith("xl/worksheets/") and n.endswith(".xml"), cap, True))
    parts += [(name_of(p), read(p)[:cap]) for p in shared_files(".xml") + committed()]
    for name, data in parts:
        put(name + ".c1", b"\x1e" + data)
        if len(data) < 8192:
            put(name + ".c2", b"\x9d" + data)
elif target == "workbook":
    for path in workbooks + shared_files(".xls") + committed():
        if os.path.getsize(path) <= 300 * 1024:
            put(name_of(path), read(path))
    # Small parts on their own: the harness wraps XML in a workbook it builds.
    small = lambda n: (n.startswith("xl/worksheets/") or n in ("xl/sharedstrings.xml", "xl/styles.xml", "xl/workbook.xml")) and n.endswith(".xml")
    for name, data in xlsx_parts(workbooks, small, 16 * 1024, False):
        put(name, data)
    for path in files(["fuzz/seeds/sheet-parser/*.xml"]):
        put(name_of(path), read(path))
elif target == "spec":
    for path in files(["formats/*.yaml"]) + committed():
        put(name_of(path), read(path))
else:
    for path in committed():
        put(name_of(path), read(path))

print("fuzz: %d seed(s) added to %s (%d inputs)" % (added, corpus, len(os.listdir(corpus))), file=sys.stderr)
PY

# 3. Run.
case $target in
    csv) max_len=8192; dict=fuzz/dict/csv.dict ;;
    sheet-parser) max_len=204801; dict=fuzz/dict/xml.dict ;;
    workbook) max_len=307200; dict=fuzz/dict/xml.dict ;;
    spec) max_len=16384; dict=fuzz/dict/yaml.dict ;;
    numbers) max_len=256; dict=fuzz/dict/csv.dict ;;
    balances-json) max_len=16384; dict=fuzz/dict/json.dict ;;
    multipart) max_len=16384; dict=fuzz/dict/csv.dict ;;
    prepared) max_len=16384; dict=fuzz/dict/csv.dict ;;
esac

asan="detect_leaks=0"
[[ ${TRADEPORT_FUZZ_LEAKS:-0} == 1 ]] && asan="detect_leaks=1"
# No stack trace kept per allocation (the readers allocate per row, and recording each cost about a
# fifth of the Swift targets' time, measured with perf): a report still shows where the bad access
# was; replay the input with malloc_context_size=30 for where its memory came from. A smaller
# quarantine keeps recycling cheap. A fake stack (stack-use-after-return) of 64 KB a frame size, not
# 1 MB, since the readers start threads per input (figures in fuzz/README.md). The caller's
# ASAN_OPTIONS come last, so they win.
export ASAN_OPTIONS="$asan:abort_on_error=0:symbolize=1:malloc_context_size=0:quarantine_size_mb=16:max_uar_stack_size_log=16${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1"
export TRADEPORT_FUZZ_TARGET=$target
command -v llvm-symbolizer > /dev/null || [[ ! -x /opt/swift/usr/bin/llvm-symbolizer ]] || export ASAN_SYMBOLIZER_PATH=/opt/swift/usr/bin/llvm-symbolizer

# One log per run (the process id in its name): two runs of one target side by side, as a campaign
# on both cores runs them, would otherwise write one file and the counts below would mix them.
log=$scratch/fuzz-$target-$$.log
args=(-max_total_time="$seconds" -print_final_stats=1 -max_len="$max_len" -timeout=25
      -artifact_prefix="$artifacts/")
[[ -f $dict ]] && args+=(-dict="$dict")
# libFuzzer's own leak hunt (a unit run again under malloc tracing) costs time even with LSan off.
[[ ${TRADEPORT_FUZZ_LEAKS:-0} == 1 ]] || args+=(-detect_leaks=0)
echo "fuzz: $binary ${args[*]} $* $corpus" >&2
set +e
"$binary" "${args[@]}" "$@" "$corpus" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

executions=$(grep -a 'stat::number_of_executed_units:' "$log" | tail -1 | grep -ao '[0-9]\+$' || true)
if [[ -z $executions ]]; then
    executions=$(grep -ao '^#[0-9]\+' "$log" | tail -1 | tr -d '#' || true)
fi
coverage=$(grep -ao 'cov: [0-9]\+' "$log" | tail -1 | grep -ao '[0-9]\+' || true)
features=$(grep -ao 'ft: [0-9]\+' "$log" | tail -1 | grep -ao '[0-9]\+' || true)
crashes=$(grep -ac 'Test unit written to' "$log" || true)
if [[ $status -ne 0 && ${crashes:-0} -eq 0 ]] && grep -aqE 'ERROR: (libFuzzer|AddressSanitizer|UndefinedBehaviorSanitizer)|runtime error:|Fatal error|SUMMARY: libFuzzer' "$log"; then
    crashes=1
fi
echo "fuzz $target: executions ${executions:-0}, coverage ${coverage:-0}, features ${features:-0}, crashes ${crashes:-0}"
if [[ ${crashes:-0} -gt 0 ]]; then
    echo "fuzz $target: crash input(s) in $artifacts/ (replay: see fuzz/README.md); log in $log" >&2
    exit 1
fi
exit "$status"
