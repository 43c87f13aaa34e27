#!/usr/bin/env bash
# The largest inputs a review meets, each timed as a whole process (best of
# RUNS, wall clock, user and system seconds, peak memory):
#   1. `napkin diff` of two files of 100,000 lets where one input moves all
#      of them, and of two identical such files;
#   2. the same as 100,000 fields of one scenario;
#   3. the largest sweep allowed (bench/million_sweep.awk), as CSV and as
#      the text table.
#
#   bench/large_files.sh [NAPKIN]     default: build/napkin
#   RUNS=5 bench/large_files.sh       default 3
set -euo pipefail
cd "$(dirname "$0")/.."
napkin=${1:-build/napkin}
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk 'BEGIN { print "let base = 3"; for (i = 0; i < 100000; i++) printf "let a%d = %d * 2 GB + base * 1 GB\n", i, i }' >"$tmp/lets_a.napkin"
sed 's/^let base = 3$/let base = 4/' "$tmp/lets_a.napkin" >"$tmp/lets_b.napkin"
awk 'BEGIN { print "scenario s {\n  base = 3"; for (i = 0; i < 100000; i++) printf "  f%d = %d * 2 GB + base * 1 GB\n", i, i; print "}" }' >"$tmp/fields_a.napkin"
sed 's/^  base = 3$/  base = 4/' "$tmp/fields_a.napkin" >"$tmp/fields_b.napkin"
awk -v ex="$PWD/examples/exercise1_size_a_model.napkin" -f bench/million_sweep.awk >"$tmp/million.napkin"

best() {  # LABEL COMMAND...: the fastest of $runs runs
  local label=$1
  shift
  for _ in $(seq "$runs"); do
    { /usr/bin/time -f "%e s wall, %U s user, %S s system, %M KB" "$@" 2>&1 >/dev/null || true; } | tail -n1
  done | sort -n | head -n1 | sed "s|^|$label: |"
}

best "diff, 100,000 lets, all moved" "$napkin" diff "$tmp/lets_a.napkin" "$tmp/lets_b.napkin"
best "diff, 100,000 lets, identical" "$napkin" diff "$tmp/lets_a.napkin" "$tmp/lets_a.napkin"
best "diff, 100,000 fields, all moved" "$napkin" diff "$tmp/fields_a.napkin" "$tmp/fields_b.napkin"
best "sweep, 1,000,000 points, CSV" "$napkin" sweep "$tmp/million.napkin" --format csv
best "sweep, 1,000,000 points, text" "$napkin" sweep "$tmp/million.napkin"
