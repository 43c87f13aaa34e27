#!/usr/bin/env bash
# errors.one_renderer: no source outside grammar/diagnostic.cpp spells
# "error[" in a string literal, and the check itself finds the three
# literals of a file that has them (so it is a check that can fail).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/source_scan.sh
source_scan tests/errors/one_renderer.py tests/errors/one_renderer/spelled.cpp.txt 6 7 9
exit $status
