#!/usr/bin/env bash
# faces.reads_data: no file in web/src or jupyter/ parses napkin's places or
# diagnostics out of text (reads_data.py), and the check finds the six
# patterns of a file that has them and nothing in the lines that only look
# alike (so it is a check that can fail).
set -u
cd "$(dirname "$0")/../.."
status=0
if ! out=$(/usr/bin/python3 tests/faces/reads_data.py .); then
  echo "$out"
  status=1
fi
fixture=tests/faces/reads_data/parses.txt
got=$(/usr/bin/python3 tests/faces/reads_data.py . "$fixture" | cut -d: -f1,2)
expected="$fixture:2
$fixture:3
$fixture:4
$fixture:5
$fixture:6
$fixture:7"
if [ "$got" != "$expected" ]; then
  echo "reads_data.py on $fixture found:"
  echo "$got"
  echo "expected lines 2 to 7 only"
  status=1
fi
exit $status
