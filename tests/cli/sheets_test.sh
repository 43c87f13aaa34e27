#!/usr/bin/env bash
# Every example's solution sheet, specialised to its inputs (docs/output.md,
# "Specialised to the inputs"): `run --steps` shows no term that is zero
# because a feature is off (`+ 0 param`, `+ 0 B`), no factor or divisor of a
# plain 1, no `if` whose other branch the model does not take, and none of
# the library's machinery for features a model lacks (sliding windows,
# recurrent state, position tables, biases, token_count's unit conversion).
# Then every example's sheet, in every steps mode, and its handout compile
# with pdflatex with no line into the margin.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"

# A formula line of the sheet (not a measurement's fallback, `measure(…)
# else x`, nor the checks listed after the answers).
folded='[+-] 0( [A-Za-z/]+)?( [-+·/)]|\)|$)|· 1( [-+·/)]|\)|$)|/ 1( [-+·/)]|\)|$)|\b(then|else)\b|token_count|sliding|\bstate_bytes|position_params|bias'
for f in examples/*.napkin; do
  name=$(basename "$f" .napkin)
  "$napkin" run "$f" --steps >"$tmp/$name.txt" 2>/dev/null
  sed '/^checks$/,$d' "$tmp/$name.txt" | grep -v -e 'measure(' -e '\[measured' -e '\[fallback' | grep -nE "$folded" >"$tmp/$name.hits"
  if [ -s "$tmp/$name.hits" ]; then
    echo "FAIL specialised.$name: the sheet shows terms this model does not use:"
    head -5 "$tmp/$name.hits" | cut -c1-300
    failures=$((failures + 1))
  else passes=$((passes + 1)); fi
done
# A derivation line of the text sheet breaks at its operators: none is wider
# than 100 columns (a record's header, a sweep's table, a measurement's note
# and a `where` under a long call's label may be).
for f in examples/*.napkin; do
  name=$(basename "$f" .napkin)
  /usr/bin/python3 - "$tmp/$name.txt" "$name" <<'PY' && passes=$((passes + 1)) || failures=$((failures + 1))
import re, sys
wide, skip = [], False
for line in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if line == "checks":
        break
    if line.startswith("sweep ") or re.match(r"^\s+where ", line):
        skip = True
    elif line == "" or re.match(r"^\s{0,24}\S+ += ", line):
        skip = False
    if skip or re.match(r"^(model|scenario|hardware|plan|cluster) ", line) or "[measured" in line or "[fallback" in line:
        continue
    if len(line) > 100:
        wide.append(line)
if wide:
    print(f"FAIL text.width.{sys.argv[2]}: {len(wide)} lines wider than 100 columns, the first: {wide[0][:160]}")
    sys.exit(1)
PY
done

# --steps=all keeps the general formula: the exercise's total has its zero terms.
"$napkin" run examples/exercise1_size_a_model.napkin --steps=all >"$tmp/all.txt" 2>/dev/null
expect_in all.keeps_zero_terms "$tmp/all.txt" '\+ 0 param \+ 393,216,000 param \+ 0 param'
expect_in all.keeps_token_count "$tmp/all.txt" 'token_count\(context\)'

# ---- nothing runs off a page ------------------------------------------------------
sheets=()
for f in examples/*.napkin; do
  name=$(basename "$f" .napkin)
  for depth in short one factors flat all; do
    "$napkin" run "$f" --steps="$depth" --checks beside --format latex >"$tmp/$name.$depth.tex" 2>/dev/null
    sheets+=("$tmp/$name.$depth.tex")
  done
  # The students' sheet of the same file.
  "$napkin" handout "$f" --format latex >"$tmp/$name.handout.tex" 2>/dev/null
  sheets+=("$tmp/$name.handout.tex")
done
"$(dirname "$0")/../golden/formats/pdflatex.sh" "${sheets[@]}" >"$tmp/tex.log" 2>&1
case $? in
  0) passes=$((passes + 1)) ;;
  77) echo "FAIL pdflatex is missing: every sheet must be compiled"; failures=$((failures + 1)) ;;
  *) echo "FAIL tex.pages:"; grep -v '^ok ' "$tmp/tex.log" | head -40; failures=$((failures + 1)) ;;
esac
finish
