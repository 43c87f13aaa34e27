#!/usr/bin/env bash
# check_case.sh NAPKIN NAME          (the test error.NAME)
# check_case.sh --write NAPKIN NAME  (tests/golden/update.sh: rewrites NAME.err)
#
# Runs the error case NAME, tests/errors/NAME.napkin (or, for a case too big
# to keep as a file, the input tests/errors/generated/NAME.awk writes), and
# checks it against what a person declared, not only against what the binary
# printed last time. The declaration is the case's first line (for a
# generated case, a line of NAME.awk, and its location is in the input the
# program writes):
#
#   # expect: E0201 at 3:11                   the error is at line 3, column 11
#                                             of tests/errors/NAME.napkin
#   # expect: E0601 at tests/errors/imports/cycle_b.napkin:2:8
#                                             the error is in another file
#   # expect: E0602                           the error has no location
#
# In NAME.napkin the declaration is line 1, so the input proper starts on
# line 2. The checks:
#   - stderr's first line is exactly "FILE:LINE:COL: error[CODE]: ..." (or
#     "error[CODE]: ..." for a case without a location);
#   - the exit status is the one the code implies: 1 for E0500 (a failed
#     check), 2 for every other error;
#   - stderr is exactly NAME.err (not with --write, which writes NAME.err).
# Any failure names the case and exits 1.
set -u
write=0
if [ "${1:-}" = --write ]; then write=1; shift; fi
if [ $# -ne 2 ]; then
  echo "usage: check_case.sh [--write] NAPKIN NAME" >&2
  exit 2
fi
napkin=$1 name=$2
cd "$(dirname "$0")/../.."

if [ -f "tests/errors/$name.napkin" ]; then
  declaration=$(head -n1 "tests/errors/$name.napkin")
  run=("$napkin" run "tests/errors/$name.napkin")
elif [ -f "tests/errors/generated/$name.awk" ]; then
  declaration=$(grep -m1 '^# expect:' "tests/errors/generated/$name.awk" || true)
  run=(tests/errors/generated/run.sh "$napkin" "$name")
else
  echo "error case $name: neither tests/errors/$name.napkin nor tests/errors/generated/$name.awk exists"
  exit 1
fi

re='^# expect: (E[0-9]{4})( at (([^ ]+):)?([0-9]+):([0-9]+))?[[:space:]]*$'
if ! [[ $declaration =~ $re ]]; then
  echo "error case $name: no declaration; its first line must be '# expect: CODE at LINE:COL' (see tests/errors/check_case.sh)"
  echo "  found: $declaration"
  exit 1
fi
code=${BASH_REMATCH[1]}
if [ -n "${BASH_REMATCH[2]}" ]; then
  file=${BASH_REMATCH[4]:-tests/errors/$name.napkin}
  prefix="$file:${BASH_REMATCH[5]}:${BASH_REMATCH[6]}: error[$code]: "
else
  prefix="error[$code]: "
fi
expected_status=2
[ "$code" = E0500 ] && expected_status=1

err=$(mktemp)
trap 'rm -f "$err"' EXIT
"${run[@]}" >/dev/null 2>"$err"
rc=$?

status=0
first=$(head -n1 "$err")
if [ "${first:0:${#prefix}}" != "$prefix" ]; then
  echo "error case $name: declared '$prefix...'"
  echo "  but the first line is '$first'"
  status=1
fi
if [ "$rc" -ne "$expected_status" ]; then
  echo "error case $name: exit status $rc; $code means exit status $expected_status"
  status=1
fi
if [ $write = 1 ]; then
  # A case that is not what it declares keeps its old file: the mismatch is the news.
  if [ $status = 0 ]; then cp "$err" "tests/errors/$name.err"; else echo "error case $name: not written"; fi
elif [ ! -f "tests/errors/$name.err" ]; then
  echo "error case $name: tests/errors/$name.err does not exist; write it with tests/golden/update.sh and read it"
  status=1
elif ! diff -u "tests/errors/$name.err" "$err"; then
  echo "error case $name: output differs from tests/errors/$name.err (regenerate with 'make golden' and read the diff)"
  status=1
fi
exit $status
