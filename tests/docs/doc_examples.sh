#!/usr/bin/env bash
# Runs the examples in README.md and docs/*.md, so the docs cannot drift:
# - every ```napkin block must evaluate with `napkin run` and pass its checks;
# - in ```console blocks, every `$ napkin eval '...'` line (and `napkin solve`,
#   `napkin sensitivity`, `napkin explain` or `napkin layout`, on a file named from the
#   repository root) must print exactly the lines that follow it.
set -u
napkin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passes=0
failures=0

for doc in README.md docs/*.md; do
  [ -f "$doc" ] || continue
  # Split the napkin blocks into files, numbered by their first line.
  awk -v dir="$tmp" -v base="$(basename "$doc" .md)" '
    /^```napkin[[:space:]]*$/ { inblock = 1; n++; file = sprintf("%s/%s.%03d.L%d.napkin", dir, base, n, NR + 1); next }
    /^```/ && inblock { inblock = 0; close(file); next }
    inblock { print > file }
  ' "$doc"
  # Pair each eval command with its expected output.
  awk -v dir="$tmp" -v base="$(basename "$doc" .md)" '
    /^```console[[:space:]]*$/ { inblock = 1; next }
    /^```/ && inblock { inblock = 0; if (cmd != "") close(cmd); cmd = ""; next }
    inblock && /^\$ napkin (eval|solve|sensitivity|explain|layout) / { n++; cmd = sprintf("%s/%s.eval.%03d.L%d", dir, base, n, NR); print substr($0, 3) > (cmd ".cmd"); close(cmd ".cmd"); cmd = cmd ".want"; printf "" > cmd; next }
    inblock && /^\$ / { if (cmd != "") close(cmd); cmd = ""; next }
    inblock && cmd != "" { print >> cmd }
  ' "$doc"
done

for f in "$tmp"/*.napkin; do
  [ -e "$f" ] || continue
  if "$napkin" run "$f" >"$tmp/out" 2>&1; then
    passes=$((passes + 1))
  else
    echo "FAIL $(basename "$f"): napkin run exited non-zero"
    sed 's/^/  /' "$tmp/out"
    failures=$((failures + 1))
  fi
done

for c in "$tmp"/*.cmd; do
  [ -e "$c" ] || continue
  want="${c%.cmd}.want"
  # The command line is `napkin eval '...'`; run it with this build's binary.
  cmdline=$(cat "$c")
  actual=$(eval "\"$napkin\" ${cmdline#napkin }" 2>&1)
  if [ "$actual" == "$(cat "$want")" ]; then
    passes=$((passes + 1))
  else
    echo "FAIL $(basename "$c"): $cmdline"
    echo "  printed: $actual"
    echo "  docs say: $(cat "$want")"
    failures=$((failures + 1))
  fi
done

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ] && [ "$passes" -gt 0 ]
