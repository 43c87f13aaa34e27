#!/usr/bin/env bash
# pdflatex.sh FILE.tex...: each LaTeX output compiles as it is, and nothing in
# it runs into the margin: an Overfull \hbox wider than 1 pt fails. Skipped
# (77) where no TeX installation is present, except in CI, where a skip
# would hide a broken page: there it fails (make test installs TeX Live).
set -u
if ! command -v pdflatex >/dev/null 2>&1; then
  echo "pdflatex not found (Debian: apt-get install texlive-latex-base texlive-latex-recommended)"
  [ -n "${CI:-}" ] && exit 1
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "$@"; do
  name=$(basename "$f" .tex)
  cp "$f" "$tmp/$name.tex"
  if (cd "$tmp" && pdflatex -interaction=nonstopmode -halt-on-error "$name.tex" >"$name.out" 2>&1) && [ -s "$tmp/$name.pdf" ]; then
    overfull=$(grep -o 'Overfull \\hbox ([0-9.]*pt too wide)' "$tmp/$name.log" |
      awk '{ gsub(/[()pt]/, "", $3); if ($3 + 0 > 1.0) print }')
    if [ -n "$overfull" ]; then
      echo "FAIL $f runs into the margin:"
      grep -A2 'Overfull \\hbox' "$tmp/$name.log" | head -30
      status=1
    else
      echo "ok $f"
    fi
  else
    echo "FAIL $f does not compile:"
    grep -A5 '^!' "$tmp/$name.log" | head -30
    status=1
  fi
done
exit $status
