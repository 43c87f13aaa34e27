# Shared by the review tests: `expect_match NAME EXIT PATTERN STREAM -- COMMAND...`
# runs COMMAND and checks its exit status and that STREAM (out or err)
# matches the extended regular expression PATTERN.
failures=0
passes=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_match() {
  local name=$1 code=$2 pattern=$3 stream=$4
  shift 5
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -qE -- "$pattern" "$tmp/$stream"; then
    echo "FAIL $name: exit $rc (want $code), $stream does not match: $pattern"
    sed 's/^/  /' "$tmp/out" "$tmp/err" | head -30
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

# `expect_status NAME EXIT -- COMMAND...`: only the exit status matters.
expect_status() {
  local name=$1 code=$2
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne "$code" ]; then
    echo "FAIL $name: exit $rc (want $code)"
    sed 's/^/  /' "$tmp/out" "$tmp/err" | head -30
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}

# `expect_order NAME FILE FIRST SECOND`: FIRST appears on an earlier line than SECOND.
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
