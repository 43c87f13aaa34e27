#!/usr/bin/env bash
# napkin against the tools people use today, each timed as a whole process
# with hyperfine (start-up included, output sent to /dev/null):
#   1. exercise 1's questions: `napkin run` vs bench/reference.py (plain Python 3)
#   2. a 10,000-point decode sweep (100 batches x 100 contexts):
#      `napkin sweep bench/decode_sweep.napkin` vs `reference.py sweep`
#   3. unit conversions: `napkin eval` vs GNU units
# and prints each pair's mean times and how many times faster napkin is.
#
#   bench/compare.sh [NAPKIN]      default: build-bench/napkin
#   RUNS=100 bench/compare.sh      more runs per command (default 50)
#
# hyperfine and units are installed from Debian when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
napkin=${1:-build-bench/napkin}
runs=${RUNS:-50}

if [ ! -x "$napkin" ]; then
  echo "no napkin at $napkin: build it first (make bench)" >&2
  exit 2
fi

.ci/install-deps.sh hyperfine units

# The distribution's interpreter, not a version manager's shim: a shim is a
# shell script that would add its own start-up to Python's.
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The two programs must agree before their times mean anything.
"$napkin" check examples/exercise1_size_a_model.napkin >/dev/null
rows=$("$napkin" sweep bench/decode_sweep.napkin --format csv | tail -n +2 | wc -l)
[ "$rows" -eq 10000 ] || { echo "napkin's sweep printed $rows rows, expected 10000" >&2; exit 1; }

n=0
pair() {  # TITLE NAPKIN_COMMAND OTHER_COMMAND
  n=$((n + 1))
  hyperfine -N --warmup 5 --runs "$runs" --style none --export-json "$tmp/$n.json" \
    --command-name napkin "$2" --command-name other "$3" >/dev/null 2>&1
  echo "$1" >"$tmp/$n.title"
}

pair "exercise 1, every question (napkin run vs python3 reference.py)" \
  "$napkin run examples/exercise1_size_a_model.napkin" \
  "$python bench/reference.py exercise"
pair "decode sweep, 10,000 points (napkin sweep vs python3 reference.py sweep)" \
  "$napkin sweep bench/decode_sweep.napkin" \
  "$python bench/reference.py sweep"
pair "39.02 GB in GiB (napkin eval vs units)" \
  "$napkin eval '39.02 GB -> GiB'" \
  "units -t '39.02 GB' GiB"
pair "5.3 TB/s in GiB/s (napkin eval vs units)" \
  "$napkin eval '5.3 TB/s -> GiB/s'" \
  "units -t '5.3 TB/s' GiB/s"
pair "1610612736 B in GiB (napkin eval vs units)" \
  "$napkin eval '1610612736 B -> GiB'" \
  "units -t '1610612736 B' GiB"

# Peak memory of a plain run, the fourth target (GNU time's maximum RSS).
rss=""
if [ -x /usr/bin/time ]; then
  rss=$(/usr/bin/time -f %M "$napkin" run examples/exercise1_size_a_model.napkin 2>&1 >/dev/null | tail -n 1)
fi

# The targets measured as ratios and bounds in this run: `run` against the
# process floor (`--version`), and a 1,000,000-point decode sweep written to
# a CSV file (1,000 batch sizes x 1,000 context lengths), its wall time and
# its peak memory.
# The two are timed in ten alternating rounds and their times pooled: on a
# shared machine the speed moves within a minute, and one long run of each,
# one after the other, measured that drift as much as napkin.
per_round=$(( runs / 10 > 5 ? runs / 10 : 5 ))
for round in 1 2 3 4 5 6 7 8 9 10; do
  hyperfine -N --warmup 3 --runs "$per_round" --style none --export-json "$tmp/floor.$round.json" \
    --command-name run "$napkin run examples/exercise1_size_a_model.napkin" \
    --command-name version "$napkin --version" >/dev/null 2>&1
done
awk -v ex="$PWD/examples/exercise1_size_a_model.napkin" -f bench/million_sweep.awk >"$tmp/million.napkin"
hyperfine --warmup 1 --runs 5 --style none --export-json "$tmp/million.json" \
  --command-name million "$napkin sweep $tmp/million.napkin --format csv > $tmp/million.csv" >/dev/null 2>&1
million_rows=$(tail -n +2 "$tmp/million.csv" | wc -l)
[ "$million_rows" -eq 1000000 ] || { echo "the million-point sweep printed $million_rows rows" >&2; exit 1; }
million_rss=""
if [ -x /usr/bin/time ]; then
  million_rss=$(/usr/bin/time -f %M "$napkin" sweep "$tmp/million.napkin" --format csv 2>&1 >/dev/null | tail -n 1)
fi

"$python" - "$tmp" "$n" <<'EOF'
import json, statistics, sys
tmp, n = sys.argv[1], int(sys.argv[2])
print(f"{'':72} {'napkin':>16} {'other':>16} {'ratio':>7}")
for i in range(1, n + 1):
    title = open(f"{tmp}/{i}.title").read().strip()
    res = {r["command"]: r for r in json.load(open(f"{tmp}/{i}.json"))["results"]}
    a, b = res["napkin"], res["other"]
    fmt = lambda r: f"{r['mean'] * 1e3:7.2f} ± {r['stddev'] * 1e3:5.2f} ms"
    print(f"{title:72} {fmt(a):>16} {fmt(b):>16} {b['mean'] / a['mean']:6.1f}x")
print("ratio: the other program's mean time over napkin's (higher: napkin is faster)")
print()
times = {"run": [], "version": []}
for round in range(1, 11):
    for r in json.load(open(f"{tmp}/floor.{round}.json"))["results"]:
        times[r["command"]] += r["times"]
run, version = statistics.median(times["run"]), statistics.median(times["version"])
print(f"napkin run exercise1 {run * 1e3:.2f} ms, napkin --version {version * 1e3:.2f} ms "
      f"(medians of {len(times['run'])} runs each, in 10 alternating rounds): "
      f"{run / version:.2f}x the process floor (target: 1.5x)")
million = json.load(open(f"{tmp}/million.json"))["results"][0]
print(f"1,000,000-point decode sweep to CSV: {million['median'] * 1e3:.0f} ms median "
      f"(min {million['min'] * 1e3:.0f}, max {million['max'] * 1e3:.0f}; target: 1 s)")
EOF
if [ -n "$rss" ]; then
  echo "peak memory of napkin run examples/exercise1_size_a_model.napkin: $rss KiB"
fi
if [ -n "$million_rss" ]; then
  echo "peak memory of the million-point sweep: $million_rss KiB (target: 200 MB)"
fi
