#!/usr/bin/env bash
# compare.sh EXPECTED_FILE EXPECTED_EXIT STREAM -- COMMAND...
# Runs COMMAND and compares its STREAM (stdout or stderr) with EXPECTED_FILE
# and its exit status with EXPECTED_EXIT. Prints a unified diff on mismatch.
set -u
expected=$1 code=$2 stream=$3
shift 4
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
rc=$?
actual=$out
[ "$stream" = stderr ] && actual=$err
status=0
if ! diff -u "$expected" "$actual"; then
  echo "output differs from $expected (regenerate with 'make golden' and read the diff)"
  status=1
fi
if [ "$rc" -ne "$code" ]; then
  echo "exit status $rc, expected $code"
  [ "$stream" = stdout ] && cat "$err"
  status=1
fi
exit $status
