#!/usr/bin/env bash
# gen_docs.sh: prints docs/errors.md, every error code with one example from
# the catalogue in tests/errors/. Regenerate the page with
#   tests/errors/gen_docs.sh > docs/errors.md
# `gen_docs.sh --check` (the test docs.errors) fails when they differ.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C

if [ "${1:-}" = --check ]; then
  if diff -u docs/errors.md <("$PWD/tests/errors/gen_docs.sh"); then exit 0; fi
  echo "docs/errors.md differs from the error catalogue; regenerate it: tests/errors/gen_docs.sh > docs/errors.md"
  exit 1
fi

# A file that is not UTF-8 text (the encoding cases) is shown with cat -v.
is_text() { iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 && tr -d '\000' <"$1" | cmp -s - "$1"; }
show() { if is_text "$1"; then cat "$1"; else cat -v "$1"; fi; }

# The code each case reports: the first error[E....] of its expected output.
declare -A first_case all_cases
for err in tests/errors/*.err; do
  name=$(basename "$err" .err)
  code=$(grep -o -m1 'error\[E[0-9]*\]' "$err" | head -n1 | sed 's/error\[\(.*\)\]/\1/' || true)
  [ -n "$code" ] || continue
  all_cases[$code]+="${all_cases[$code]:+ }$name"
  # Prefer a case whose input is a file over a generated one.
  if [ -z "${first_case[$code]:-}" ] || { [ ! -f "tests/errors/${first_case[$code]}.napkin" ] && [ -f "tests/errors/$name.napkin" ]; }; then
    first_case[$code]=$name
  fi
done

cat <<'HEAD'
# Error codes

Every error napkin reports has a stable code, the place it was found
(`file:line:col`), the source line with a caret under the span, and where it
can, a `help:` line saying what to write instead. Codes are grouped by stage.
Each example below is a case of the error catalogue in `tests/errors/`: the
input, then exactly what `napkin run` prints on stderr. `napkin run` exits
with status 2 on an error and 1 when a check fails. A case's first line,
`# expect: CODE at LINE:COL`, is the error a person expects there; its test
checks that the message has that code at that place.

This page is generated from the catalogue by `tests/errors/gen_docs.sh`; a
test fails when the two differ.
HEAD

stages=$(grep '^//' grammar/error_codes.hpp | sed 's|^// *||' | tr '\n' ' ')
group=""
grep -o '{Code::[a-z_]*, "E[0-9]*", "[a-z_]*"}' grammar/error_codes.hpp |
  sed 's/.*"\(E[0-9]*\)", "\([a-z_]*\)"}/\1 \2/' | sort |
  while read -r code name; do
    prefix=${code:0:3}
    if [ "$prefix" != "$group" ]; then
      group=$prefix
      title=$(echo "$stages" | grep -o "${prefix}xx [a-z ]*" | sed "s/${prefix}xx //")
      printf '\n## %sxx: %s\n' "$prefix" "$title"
    fi
    printf '\n### %s `%s`\n\n' "$code" "$name"
    case_name=${first_case[$code]:-}
    if [ -z "$case_name" ]; then
      case $code in
        E00*) echo "No example in the catalogue: it means a bug in napkin, which a test would have caught." ;;
        E08*) echo "No example in the catalogue: the command line reports it, for options and arguments it cannot use." ;;
        E09*) echo "No example in the catalogue: whether a probe can run depends on the machine." ;;
        E0604 | E0703 | E0704) echo "No example in the catalogue: only a restricted run (\`napkin grade\`, or \`--restricted\`) reports it; \`tests/cli/grading_test.sh\` holds its cases, and docs/grading.md explains the restricted mode." ;;
        *) echo "No example in the catalogue yet." ;;
      esac
      continue
    fi
    if [ -f "tests/errors/$case_name.napkin" ]; then
      how=""
      is_text "tests/errors/$case_name.napkin" || how=" (bytes that are not text shown as \`cat -v\` shows them)"
      printf '`tests/errors/%s.napkin`%s:\n\n```text\n' "$case_name" "$how"
      show "tests/errors/$case_name.napkin"
      printf '```\n\n'
    else
      printf '`tests/errors/generated/%s.awk` writes the input:' "$case_name"
      sed -n '/^# expect:/d; s/^# \{0,1\}/ /p' "tests/errors/generated/$case_name.awk" | tr -d '\n'
      printf '\n\n'
    fi
    printf '```text\n'
    show "tests/errors/$case_name.err"
    printf '```\n'
    others=$(echo "${all_cases[$code]}" | tr ' ' '\n' | { grep -vx "$case_name" || true; } | sed 's/.*/`&`/' |
      paste -sd, - | sed 's/,/, /g')
    if [ -n "$others" ]; then printf '\nMore cases: %s.\n' "$others"; fi
  done
