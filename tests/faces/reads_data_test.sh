#!/usr/bin/env bash
# faces.reads_data: no file in web/src or jupyter/ parses napkin's places or
# diagnostics out of text (reads_data.py), and the check finds the six
# patterns of a file that has them and nothing in the lines that only look
# alike (so it is a check that can fail).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/source_scan.sh
source_scan tests/faces/reads_data.py tests/faces/reads_data/parses.txt 2 3 4 5 6 7
exit $status
