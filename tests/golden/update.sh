#!/usr/bin/env bash
# Regenerates every golden file from the current binary. Read `git diff
# tests/` before committing what it changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
napkin=${1:-./build/napkin}
# Outputs must not depend on this machine: `measure(...)` uses its fallback.
export NAPKIN_NO_MEASURE=1
for f in examples/*.napkin; do
  name=$(basename "$f" .napkin)
  "$napkin" run "$f" --steps >"tests/golden/examples/$name.out" 2>/dev/null || true
  "$napkin" run "$f" --format json >"tests/golden/examples/$name.json" 2>/dev/null || true
done
# Each error case declares its code and location (`# expect: ...`); a case
# whose error is not the declared one, or whose exit status is not the one
# its code implies, fails the update (after every golden is written).
wrong_cases=()
for f in tests/errors/*.napkin tests/errors/generated/*.awk; do
  name=$(basename "$f"); name=${name%.*}
  tests/errors/check_case.sh --write "$napkin" "$name" || wrong_cases+=("$name")
done
exercise=examples/exercise1_size_a_model.napkin
for pair in md:markdown tex:latex toml:toml json:json; do
  ext=${pair%%:*} format=${pair#*:}
  if [ "$format" != json ]; then
    "$napkin" run "$exercise" --format "$format" >"tests/golden/formats/exercise1_size_a_model.run.$ext" 2>/dev/null || true
  fi
  "$napkin" explain "$exercise" decode.tokens_per_s --format "$format" \
    >"tests/golden/formats/exercise1_size_a_model.explain.$ext" 2>/dev/null || true
done
# The solution sheet: every answer's formula with its numbers, checks beside them.
for pair in md:markdown tex:latex; do
  ext=${pair%%:*} format=${pair#*:}
  "$napkin" run "$exercise" --steps --checks beside --format "$format" \
    >"tests/golden/formats/exercise1_size_a_model.solution.$ext" 2>/dev/null || true
done
for plot in roofline sweep; do
  "$napkin" plot "$plot" examples/decode_batch_sweep.napkin >"tests/golden/plots/decode_batch_sweep.$plot.svg" 2>/dev/null || true
done
echo "golden files regenerated; review them with: git diff --stat tests/ && git diff tests/"
if [ ${#wrong_cases[@]} -gt 0 ]; then
  echo "error cases whose error is not the declared one: ${wrong_cases[*]}" >&2
  exit 1
fi
