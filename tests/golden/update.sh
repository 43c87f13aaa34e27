#!/usr/bin/env bash
# Regenerates every golden file from the current binary. Read `git diff
# tests/` before committing what it changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
napkin=${1:-./build/napkin}
# Outputs must not depend on this machine: `measure(...)` uses its fallback.
export NAPKIN_NO_MEASURE=1
# gen OUT CMD...: OUT is what CMD prints; every golden's test expects exit
# status 0, so a command that fails is reported (and the update fails), not
# recorded as if its output were the truth.
failed=()
gen() {
  local out=$1; shift
  "$@" >"$out" 2>/dev/null || failed+=("$out (exit status $?)")
}
for f in examples/*.napkin; do
  name=$(basename "$f" .napkin)
  gen "tests/golden/examples/$name.out" "$napkin" run "$f" --steps
  gen "tests/golden/examples/$name.json" "$napkin" run "$f" --format json
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
    gen "tests/golden/formats/exercise1_size_a_model.run.$ext" "$napkin" run "$exercise" --format "$format"
  fi
  gen "tests/golden/formats/exercise1_size_a_model.explain.$ext" \
    "$napkin" explain "$exercise" decode.tokens_per_s --format "$format"
done
# The solution sheet: every answer's formula with its numbers, checks beside them.
for pair in md:markdown tex:latex; do
  ext=${pair%%:*} format=${pair#*:}
  gen "tests/golden/formats/exercise1_size_a_model.solution.$ext" \
    "$napkin" run "$exercise" --steps --checks beside --format "$format"
done
for plot in roofline sweep; do
  gen "tests/golden/plots/decode_batch_sweep.$plot.svg" "$napkin" plot "$plot" examples/decode_batch_sweep.napkin
done
echo "golden files regenerated; review them with: git diff --stat tests/ && git diff tests/"
status=0
if [ ${#failed[@]} -gt 0 ]; then
  printf 'command failed, its golden is not to be trusted: %s\n' "${failed[@]}" >&2
  status=1
fi
if [ ${#wrong_cases[@]} -gt 0 ]; then
  echo "error cases whose error is not the declared one: ${wrong_cases[*]}" >&2
  status=1
fi
exit $status
