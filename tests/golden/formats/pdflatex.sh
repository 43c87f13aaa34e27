#!/usr/bin/env bash
# pdflatex.sh FILE.tex...: each LaTeX output compiles as it is. Skipped (77)
# where no TeX installation is present.
set -u
if ! command -v pdflatex >/dev/null 2>&1; then
  echo "skipped: pdflatex not found (Debian: apt-get install texlive-latex-base)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "$@"; do
  name=$(basename "$f" .tex)
  cp "$f" "$tmp/$name.tex"
  if (cd "$tmp" && pdflatex -interaction=nonstopmode -halt-on-error "$name.tex" >"$name.out" 2>&1) && [ -s "$tmp/$name.pdf" ]; then
    echo "ok $f"
  else
    echo "FAIL $f does not compile:"
    grep -A5 '^!' "$tmp/$name.log" | head -30
    status=1
  fi
done
exit $status
