#!/usr/bin/env bash
# Every function in docs/stdlib.md carries the comment written directly above
# it in stdlib/*.napkin, and nothing else: its description is the start of
# that comment (the generator keeps the first sentence), and every function
# of every module is listed once. A second reading of the sources, by lines,
# independent of stdlib/docgen's: a comment shared by two functions, or a
# description that drifted to a neighbour, fails here.
#
#   tests/docs/stdlib_descriptions.sh [REPO_ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"

# "std/NAME<TAB>FN<TAB>comment paragraph" for each top-level `fn` of the sources.
sources=$(for f in stdlib/*.napkin; do
  awk -v mod="std/$(basename "$f" .napkin)" '
    /^#/ {
      t = $0; sub(/^# ?/, "", t)
      if (t ~ /^----/) { para = ""; next }
      para = (para == "" ? t : para " " t); next
    }
    /^fn [A-Za-z_][A-Za-z0-9_]*\(/ {
      name = $2; sub(/\(.*/, "", name)
      gsub(/[ \t]+/, " ", para)
      print mod "\t" name "\t" para
    }
    { para = "" }' "$f"
done)

# "std/NAME<TAB>FN<TAB>description" for each function entry of the reference:
#   - `fn NAME(...)`  /  `= FORMULA`  /  DESCRIPTION (absent when none)
documented=$(awk '
  /^## std\// { mod = $2; next }
  /^- `fn [A-Za-z_]/ {
    if (name != "") print mod "\t" name "\t" desc
    name = $0; sub(/^- `fn /, "", name); sub(/\(.*/, "", name)
    state = 1; desc = ""; next
  }
  state == 1 { state = 2; next }   # the formula line
  state == 2 && /^  [^ ]/ { desc = substr($0, 3); gsub(/\\\|/, "|", desc); state = 0; next }
  { if (name != "" && state != 1) { print mod "\t" name "\t" desc; name = ""; state = 0 } }
  END { if (name != "") print mod "\t" name "\t" desc }' docs/stdlib.md)

status=0
fail() { echo "stdlib_descriptions: $*" >&2; status=1; }

while IFS=$'\t' read -r mod name para; do
  [ -n "$name" ] || continue
  [ -n "$para" ] || fail "$mod: fn $name has no comment directly above it"
  matches=$(printf '%s\n' "$documented" | awk -F'\t' -v m="$mod" -v n="$name" '$1 == m && $2 == n' | wc -l)
  if [ "$matches" -ne 1 ]; then
    fail "$mod: fn $name is listed $matches times in docs/stdlib.md (once expected)"
    continue
  fi
  desc=$(printf '%s\n' "$documented" | awk -F'\t' -v m="$mod" -v n="$name" '$1 == m && $2 == n { print $3 }')
  if [ -z "$desc" ]; then
    fail "$mod: fn $name has no description in docs/stdlib.md"
  elif [ "${para#"$desc"}" = "$para" ]; then
    fail "$mod: fn $name is described as \"$desc\", which is not the comment above it (\"$para\")"
  fi
done <<<"$sources"

while IFS=$'\t' read -r mod name desc; do
  [ -n "$name" ] || continue
  printf '%s\n' "$sources" | awk -F'\t' -v m="$mod" -v n="$name" '$1 == m && $2 == n { found = 1 } END { exit !found }' \
    || fail "docs/stdlib.md lists fn $name under $mod, which the sources do not define"
done <<<"$documented"

count=$(printf '%s\n' "$sources" | grep -c . || true)
[ "$count" -gt 50 ] || fail "only $count functions found in stdlib/*.napkin: the reading is broken"
[ $status -eq 0 ] && echo "stdlib_descriptions: $count functions, each described by its own comment"
exit $status
