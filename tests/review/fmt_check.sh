#!/usr/bin/env bash
# Every .napkin file in the repository is in `napkin fmt`'s layout. The
# error cases in tests/errors are left as they are written: their text,
# positions and all, is what their tests check; so is the graded homework's
# submission that does not parse (examples/grading).
set -u
napkin=$1
status=0
checked=0
while IFS= read -r f; do
  checked=$((checked + 1))
  if ! "$napkin" fmt --check "$f" >/dev/null; then
    echo "not formatted: $f (run: napkin fmt -w $f)"
    status=1
  fi
done < <(find . -name '*.napkin' -not -path './build*' -not -path './.git/*' -not -path './tests/errors/*' -not -path './examples/grading/submission_broken.napkin' | sort)
echo "$checked files checked"
[ "$checked" -gt 0 ] && exit $status
