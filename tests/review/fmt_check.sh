#!/usr/bin/env bash
# Every .napkin file in the repository is in `napkin fmt`'s layout, except
# the error cases that do not parse (their own tests check those).
set -u
napkin=$1
status=0
checked=0
while IFS= read -r f; do
  "$napkin" fmt --check "$f" >/dev/null 2>"${TMPDIR:-/tmp}/napkin-fmt-check.$$"
  rc=$?
  if [ $rc -eq 2 ] && [[ $f == ./tests/errors/* ]]; then continue; fi
  checked=$((checked + 1))
  if [ $rc -ne 0 ]; then
    echo "not formatted: $f (run: napkin fmt -w $f)"
    cat "${TMPDIR:-/tmp}/napkin-fmt-check.$$"
    status=1
  fi
done < <(find . -name '*.napkin' -not -path './build*' -not -path './.git/*' | sort)
rm -f "${TMPDIR:-/tmp}/napkin-fmt-check.$$"
echo "$checked files checked"
exit $status
