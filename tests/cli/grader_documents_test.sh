#!/usr/bin/env bash
# The documents graders read (check and grade as JSON, JUnit XML and
# Gradescope's results.json; run as JSON and TOML), read back by real
# parsers whatever the input and however the run ends: xmllint and
# ElementTree for XML, Python's json and tomllib (grader_documents.py).
# Inputs hold what each syntax must escape (DEL, other C0 controls, C1,
# U+FFFE, U+FFFF, bytes that are not UTF-8) in strings, check labels, file
# names and the lines a diagnostic quotes; runs succeed, fail a check, fail
# to parse, pass their time limit or their memory limit. Each run prints
# exactly one whole document. docs/reliability.md (Grader documents).
# Without xmllint or Python 3.11 (tomllib) the test is skipped (77), except
# in CI, where it fails (.ci/install-deps.sh --test installs them).
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
export NAPKIN_NO_MEASURE=1
read_back="$(dirname "$0")/grader_documents.py"
if ! command -v xmllint >/dev/null 2>&1 || ! python3 -c 'import tomllib' 2>/dev/null; then
  echo "xmllint or Python 3.11's tomllib not found (Debian: .ci/install-deps.sh --test)"
  [ -n "${CI:-}" ] && exit 1
  exit 77
fi

# valid FORMAT FILE [grader_documents.py options]: nothing when FILE is one
# whole, well-formed document that says what the options ask; else why not.
valid() {
  local fmt=$1 file=$2
  shift 2
  if [ "$fmt" = junit ]; then
    local n
    n=$(grep -c '<?xml' "$file")
    [ "$n" = 1 ] || { echo "$n XML declarations, where one document was due"; return; }
    xmllint --noout "$file" 2>&1 | head -3
  fi
  python3 "$read_back" "$fmt" "$file" "$@"
}

# document NAME FORMAT EXIT [options for valid] -- COMMAND...
document() {
  local name=$1 fmt=$2 code=$3
  shift 3
  local opts=()
  while [ "$1" != "--" ]; do
    opts+=("$1")
    shift
  done
  shift
  "$@" >"$tmp/doc" 2>"$tmp/err"
  local rc=$? why=""
  [ "$rc" -eq "$code" ] || why="exit $rc (want $code)"
  [ -n "$why" ] || why=$(valid "$fmt" "$tmp/doc" "${opts[@]}")
  if [ -n "$why" ]; then
    echo "FAIL $name: $why"
    show_output "$tmp/doc" "$tmp/err"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

d=$tmp/course
mkdir -p "$d"
# DEL, SOH, ESC, U+FFFE, U+FFFF and CSI (U+009B): what a label or string may
# hold. A restricted run refuses a file with a control byte (E0603), so its
# files hold the last three only (R), and its file names all of them.
H='\177\001\033\357\277\276\357\277\277\302\233'
R='\357\277\276\357\277\277\302\233'
hostile() {  # hostile FILE CHARACTERS: a failed check, a passed one, a string
  printf "let s = \"str $2 end\"\ncheck \"lab $2\" (2 points): s == \"x\"\ncheck \"ok\" (1 points): 1 == 1\n" >"$1"
}
hostile "$d/hostile.napkin" "$H"
hostile "$d/restricted.napkin" "$R"
printf 'check "a" (2 points): 1 == 1\ncheck "b": 2 > 1\n' >"$d/ok.napkin"
# A parse error on a line full of them, which the message quotes.
printf "let t = \"$H\" +\n" >"$d/broken.napkin"
printf "let t = \"$R\" +\n" >"$d/broken_r.napkin"
# A byte that is not UTF-8 in the file (E0103; restricted, E0603), and in a file's name.
printf 'let t = "\377\376"\ncheck "c": 1 == 1\n' >"$d/bytes.napkin"
named="$d/$(printf "n$H\377").napkin"
printf 'check "named" (2 points): 1 == 2\n' >"$named"
# Slow: 2^40 calls. Big: 50,000 fields that each fail (E0201), and a check.
printf 'fn f(n) = if n <= 0 then 1 else f(n - 1) + f(n - 1)\nlet x = f(40)\ncheck "slow" (3 points): x > 0\n' >"$d/slow.napkin"
awk 'BEGIN { print "scenario s {"; for (i = 0; i < 50000; i++) printf "  f_%d = 1 B + 1 s\n", i; print "}"
             print "check \"a\" (1 points): 1 == 1" }' >"$d/big.napkin"

# --- B1, B2: every escape a syntax needs, in every place user text reaches.
json_label='lab \x7f\x01\x1b\ufffe\uffff\x9b'
xml_label='lab \\x7f\\x01\\x1b\\ufffe\\uffff\\u009b'  # xml_text's escapes, as text
json_label_r='lab \ufffe\uffff\x9b'
xml_label_r='lab \\ufffe\\uffff\\u009b'
for r in "" --restricted; do
  file=$d/hostile.napkin jl=$json_label xl=$xml_label
  [ -n "$r" ] && file=$d/restricted.napkin jl=$json_label_r xl=$xml_label_r
  document "hostile.json$r" json 1 --label "$jl" --score 1 --max 3 -- "$napkin" check $r "$file" --format json
  document "hostile.gradescope$r" gradescope 1 --label "$jl" --score 1 --max 3 -- "$napkin" check $r "$file" --format gradescope
  document "hostile.junit$r" junit 1 --label "$xl" -- "$napkin" check $r "$file" --format junit
  document "hostile.run_json$r" report 1 -- "$napkin" run $r "$file" --format json
  document "hostile.run_toml$r" toml 1 -- "$napkin" run $r "$file" --format toml
done
for f in json gradescope junit; do
  document "broken.$f" "$f" 2 --code E0100 -- "$napkin" check "$d/broken.napkin" --format "$f"
  document "broken.restricted.$f" "$f" 2 --code E0100 -- "$napkin" check --restricted "$d/broken_r.napkin" --format "$f"
  document "bytes.$f" "$f" 2 --code E0103 -- "$napkin" check "$d/bytes.napkin" --format "$f"
  document "bytes.restricted.$f" "$f" 2 --code E0603 -- "$napkin" check --restricted "$d/bytes.napkin" --format "$f"
  document "named.$f" "$f" 1 -- "$napkin" check "$named" --format "$f"
  document "files.$f" "$f" 1 -- "$napkin" check "$d/ok.napkin" "$d/hostile.napkin" "$named" --format "$f"
done
document ok.json json 0 --score 3 --max 3 -- "$napkin" check "$d/ok.napkin" --format json
document ok.gradescope gradescope 0 --score 3 --max 3 -- "$napkin" check "$d/ok.napkin" --format gradescope
document ok.junit junit 0 -- "$napkin" check "$d/ok.napkin" --format junit
for f in report toml; do
  ext=$f
  [ "$f" = report ] && ext=json
  document "ok.run_$ext" "$f" 0 -- "$napkin" run "$d/ok.napkin" --format "$ext"
  document "broken.run_$ext" "$f" 2 --code E0100 -- "$napkin" run "$d/broken.napkin" --format "$ext"
  document "bytes.run_$ext" "$f" 2 --code E0103 -- "$napkin" run "$d/bytes.napkin" --format "$ext"
  document "named.run_$ext" "$f" 1 -- "$napkin" run "$named" --format "$ext"
done
# napkin grade: the reference's hostile label, a submission's hostile strings
# and lines; restricted (the default) and not.
printf "let x = 1\ncheck \"lab $H\" (2 points): x == 1\n" >"$tmp/reference.napkin"
printf "let x = 1\ncheck \"lab $R\" (2 points): x == 1\n" >"$tmp/reference_r.napkin"
printf "let x = 2\nlet junk = \"$H\"\n" >"$d/submission.napkin"
printf "let x = 2\nlet junk = \"$R\"\n" >"$d/submission_r.napkin"
for f in json gradescope junit; do
  jl=$json_label xl=$xml_label jlr=$json_label_r xlr=$xml_label_r
  [ "$f" = junit ] && jl=$xl jlr=$xlr
  document "grade.hostile.$f" "$f" 1 --label "$jl" -- "$napkin" grade --unrestricted "$tmp/reference.napkin" "$d/submission.napkin" --format "$f"
  document "grade.hostile.restricted.$f" "$f" 1 --label "$jlr" -- "$napkin" grade "$tmp/reference_r.napkin" "$d/submission_r.napkin" --format "$f"
  document "grade.broken.$f" "$f" 2 --code E0100 -- "$napkin" grade --unrestricted "$tmp/reference.napkin" "$d/broken.napkin" --format "$f"
  document "grade.broken.restricted.$f" "$f" 2 --code E0100 -- "$napkin" grade "$tmp/reference.napkin" "$d/broken_r.napkin" --format "$f"
  document "grade.bytes.$f" "$f" 2 --code E0103 -- "$napkin" grade --unrestricted "$tmp/reference.napkin" "$d/bytes.napkin" --format "$f"
  document "grade.bytes.restricted.$f" "$f" 2 --code E0603 -- "$napkin" grade "$tmp/reference.napkin" "$d/bytes.napkin" --format "$f"
done

# --- B5: past the time limit, every format prints the document it would have held.
for f in json gradescope junit; do
  document "time.check.$f" "$f" 2 --code E0703 -- timeout 20 "$napkin" check --restricted --time-limit 0.5 "$d/slow.napkin" --format "$f"
  document "time.grade.$f" "$f" 2 --code E0703 -- timeout 20 "$napkin" grade --time-limit 0.5 "$tmp/reference.napkin" "$d/slow.napkin" --format "$f"
done
document time.run_json report 2 --code E0703 -- timeout 20 "$napkin" run --restricted --time-limit 0.5 "$d/slow.napkin" --format json
document time.run_toml toml 2 --code E0703 -- timeout 20 "$napkin" run --restricted --time-limit 0.5 "$d/slow.napkin" --format toml

# An address-space limit cannot hold a sanitizer build (its shadow memory
# alone is terabytes of it): CI's release stage runs these.
if [ -z "${NAPKIN_SANITIZED:-}" ]; then
# --- C1: in 64 MiB the document still parses, and says E0704.
for f in json gradescope junit; do
  document "memory.64.$f" "$f" 2 --code E0704 -- timeout 60 "$napkin" check --restricted --memory-limit 64 "$d/big.napkin" --format "$f"
  document "memory.64.grade.$f" "$f" 2 --code E0704 -- timeout 60 "$napkin" grade --memory-limit 64 "$tmp/reference_r.napkin" "$d/big.napkin" --format "$f"
done
document memory.64.run_json report 2 --code E0704 -- timeout 60 "$napkin" run --restricted --memory-limit 64 "$d/big.napkin" --format json
document memory.64.run_toml toml 2 --code E0704 -- timeout 60 "$napkin" run --restricted --memory-limit 64 "$d/big.napkin" --format toml
# --- C2: at any limit, all 50,000 errors or E0704: never a silently shorter list.
for m in 128 200 256 320; do
  document "memory.$m.json" json 2 --or-errors 50000 E0201 E0704 -- timeout 60 "$napkin" check --restricted --memory-limit $m "$d/big.napkin" --format json
done
for f in gradescope junit; do
  document "memory.200.$f" "$f" 2 --or-errors 50000 E0201 E0704 -- timeout 60 "$napkin" check --restricted --memory-limit 200 "$d/big.napkin" --format "$f"
done
fi

# --- B3: exactly one whole document, whatever the timing. 3,000 checks take
# longer than 1 ms to read, so the limit passes at every stage of the run:
# the result (exit 0) or the time-out's document (exit 2, E0703), never
# both, never none, never a cut one.
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "check \"c%d\" (1 points): %d == %d\n", i, i, i }' >"$d/many.napkin"
formats=(json gradescope junit)
loop_failures=0
for i in $(seq 1 100); do
  f=${formats[$((i % 3))]}
  "$napkin" check --restricted --time-limit 0.001 "$d/many.napkin" --format "$f" >"$tmp/loop" 2>"$tmp/loop_err"
  rc=$?
  case $rc in
    0) why=$(valid "$f" "$tmp/loop") ;;
    2) why=$(valid "$f" "$tmp/loop" --code E0703) ;;
    *) why="exit $rc" ;;
  esac
  if [ -n "$why" ]; then
    [ $loop_failures -lt 3 ] && { echo "FAIL time.race.$i ($f): $why"; show_output "$tmp/loop" "$tmp/loop_err"; }
    loop_failures=$((loop_failures + 1))
  fi
done
if [ $loop_failures -eq 0 ]; then passes=$((passes + 1)); else
  echo "FAIL time.race: $loop_failures of 100 runs"; failures=$((failures + 1)); fi
# A run that finished is printed whole, however slowly it is read: its
# 1.3 MB outlasts the 64 KiB a pipe holds and the 2 s limit.
{ "$napkin" check --restricted --time-limit 2 "$d/many.napkin" --format json 2>"$tmp/slow_err"; echo $? >"$tmp/slow_rc"; } |
  { sleep 3; cat >"$tmp/slow_doc"; }
why=$(valid json "$tmp/slow_doc" --score 3000 --max 3000)
[ "$(cat "$tmp/slow_rc")" = 0 ] || why="exit $(cat "$tmp/slow_rc") (want 0) $why"
[ -s "$tmp/slow_err" ] && why="$why; stderr: $(head -c 200 "$tmp/slow_err")"
if [ -z "$why" ]; then passes=$((passes + 1)); else
  echo "FAIL time.slow_reader: $why"; failures=$((failures + 1)); fi

# --- B4: points are a finite, non-negative number up to 1,000,000 (E0101 past it).
printf 'check "a" (1e300 points): 1 == 1\n' >"$d/huge_points.napkin"
document points.1e300 gradescope 2 --code E0101 --score 0 --max 0 -- "$napkin" check "$d/huge_points.napkin" --format gradescope
expect_match points.1e300.place 2 'huge_points.napkin:1:12: error\[E0101\]: a check is worth at most 1,000,000 points' err -- "$napkin" check "$d/huge_points.napkin"
printf 'check "a" (1_000_001 points): 1 == 1\n' >"$d/over_points.napkin"
expect_match points.over 2 'over_points.napkin:1:12: error\[E0101\]' err -- "$napkin" run "$d/over_points.napkin"
# The most a file can hold stays exact: 1,000 checks of 1,000,000 points, and nothing.
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "check \"c%d\" (1_000_000 points): 1 == 1\n", i
             print "check \"z\" (0 points): 1 == 1" }' >"$d/max_points.napkin"
document points.max json 0 --score 1000000000 --max 1000000000 -- "$napkin" check "$d/max_points.napkin" --format json
document points.max.gradescope gradescope 0 --score 1000000000 --max 1000000000 -- "$napkin" check "$d/max_points.napkin" --format gradescope

finish
