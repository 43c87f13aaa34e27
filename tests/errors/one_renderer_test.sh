#!/usr/bin/env bash
# errors.one_renderer: no source outside grammar/diagnostic.cpp spells
# "error[" in a string literal, and the check itself finds the three
# literals of a file that has them (so it is a check that can fail).
set -u
cd "$(dirname "$0")/../.."
status=0
if ! out=$(/usr/bin/python3 tests/errors/one_renderer.py .); then
  echo "$out"
  status=1
fi
fixture=tests/errors/one_renderer/spelled.cpp.txt
got=$(/usr/bin/python3 tests/errors/one_renderer.py . "$fixture" | cut -d: -f1,2)
expected="$fixture:6
$fixture:7
$fixture:9"
if [ "$got" != "$expected" ]; then
  echo "one_renderer.py on $fixture found:"
  echo "$got"
  echo "expected the literals on lines 6, 7 and 9 only"
  status=1
fi
/usr/bin/python3 tests/errors/one_renderer.py . "$fixture" >/dev/null && { echo "one_renderer.py passed $fixture"; status=1; }
exit $status
