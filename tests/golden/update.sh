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
for f in tests/errors/*.napkin; do
  "$napkin" run "$f" >/dev/null 2>"${f%.napkin}.err" || true
done
for f in tests/errors/generated/*.awk; do
  name=$(basename "$f" .awk)
  tests/errors/generated/run.sh "$napkin" "$name" >/dev/null 2>"tests/errors/$name.err" || true
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
for plot in roofline sweep; do
  "$napkin" plot "$plot" examples/decode_batch_sweep.napkin >"tests/golden/plots/decode_batch_sweep.$plot.svg" 2>/dev/null || true
done
echo "golden files regenerated; review them with: git diff --stat tests/ && git diff tests/"
