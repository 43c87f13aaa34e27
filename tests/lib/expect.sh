# Shared by the shell tests (CLI, measure, plots, review). Each check runs a
# command, or reads a file an earlier command wrote, and counts a pass or a
# failure; `finish` prints the count and fails the test if any check did.
#
#   expect NAME EXIT STDOUT -- COMMAND...          exit status and exact stdout
#   expect_match NAME EXIT PATTERN STREAM -- COMMAND...
#                                                  STREAM (out or err) matches
#                                                  the extended regex PATTERN
#   expect_status NAME EXIT -- COMMAND...          only the exit status
#   expect_json NAME EXIT EXPR -- COMMAND...       stdout is JSON and EXPR holds of it
#   expect_in NAME FILE PATTERN                    FILE matches PATTERN
#   expect_order NAME FILE FIRST SECOND            FIRST on an earlier line
failures=0
passes=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# What a failure shows of a command's output: enough to see why, never a
# whole SVG on one line.
show_output() {
  sed 's/^/  /' "$@" | head -30 | cut -c1-300
}

expect() {
  local name=$1 code=$2 want=$3
  shift 4
  local out rc
  out=$("$@" 2>"$tmp/err")
  rc=$?
  if [ "$rc" -ne "$code" ] || [ "$out" != "$want" ]; then
    echo "FAIL $name: exit $rc (want $code)"
    echo "  stdout: $out"
    echo "  want:   $want"
    echo "  stderr: $(cat "$tmp/err")"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

expect_in() {
  if grep -qE -- "$3" "$2"; then
    passes=$((passes + 1))
  else
    echo "FAIL $1: $2 does not match: $3"
    show_output "$2"
    failures=$((failures + 1))
  fi
}

expect_match() {
  local name=$1 code=$2 pattern=$3 stream=$4
  shift 5
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -qE -- "$pattern" "$tmp/$stream"; then
    echo "FAIL $name: exit $rc (want $code), $stream does not match: $pattern"
    show_output "$tmp/out" "$tmp/err"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

# expect_json NAME CODE EXPR -- COMMAND...: exits CODE, stdout is one JSON
# document, and the Python expression EXPR holds of it, the document bound
# to `d` (`d["values"]["s.t"]["si"] == 0.008`): a figure checked as data,
# where a pattern over the text would pass on a match anywhere in it.
expect_json() {
  local name=$1 code=$2 expr=$3
  shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -eq "$code" ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2], {"d": d, "any": any, "all": all, "len": len, "abs": abs}) else 1)' "$tmp/out" "$expr" 2>>"$tmp/err"; then
    passes=$((passes + 1))
  else
    echo "FAIL $name: exit $rc (want $code), or the document does not hold: $expr"
    show_output "$tmp/out" "$tmp/err"
    failures=$((failures + 1))
  fi
}

# expect_no_match NAME CODE PATTERN STREAM -- COMMAND...: exits CODE, and
# nothing in STREAM matches PATTERN. An empty STREAM fails: a command that
# printed nothing would pass any such check (use `expect` for "prints
# nothing").
expect_no_match() {
  local name=$1 code=$2 pattern=$3 stream=$4
  shift 5
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne "$code" ] || [ ! -s "$tmp/$stream" ] || grep -qE -- "$pattern" "$tmp/$stream"; then
    echo "FAIL $name: exit $rc (want $code), or $stream matches: $pattern"
    show_output "$tmp/out" "$tmp/err"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

expect_status() {
  local name=$1 code=$2
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne "$code" ]; then
    echo "FAIL $name: exit $rc (want $code)"
    show_output "$tmp/out" "$tmp/err"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

expect_order() {
  local name=$1 file=$2 first second
  first=$(grep -nE -- "$3" "$file" | head -1 | cut -d: -f1)
  second=$(grep -nE -- "$4" "$file" | head -1 | cut -d: -f1)
  if [ -z "$first" ] || [ -z "$second" ] || [ "$first" -ge "$second" ]; then
    echo "FAIL $name: '$3' (line ${first:-none}) should come before '$4' (line ${second:-none})"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

finish() {
  echo "$passes passed, $failures failed"
  [ "$failures" -eq 0 ]
}
