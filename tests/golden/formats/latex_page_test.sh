#!/usr/bin/env bash
# latex_page_test.sh NAPKIN: the lab's drills as LaTeX make a page a teacher
# can print. Each drill's question (the comment above it in the file) is in
# the text; the document compiles with no line into the margin (pdflatex.sh
# fails on an Overfull \hbox over 1 pt); and its pages turn into pictures
# with something on them. Skipped (77) without TeX and poppler, except in CI.
set -u
napkin=$1
here=$(dirname "$0")
for tool in pdflatex pdftoppm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool not found (Debian: apt-get install texlive-latex-base texlive-latex-recommended poppler-utils)"
    [ -n "${CI:-}" ] && exit 1
    exit 77
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
"$napkin" run examples/lab03_drills.napkin --format latex >"$tmp/drills.tex" || status=1
"$napkin" explain examples/lab03_drills.napkin drill4.kv --format latex >"$tmp/drill4.tex" || status=1
"$napkin" explain examples/lab03_drills.napkin drill4.kv --format latex --flat >"$tmp/drill4_flat.tex" || status=1
"$napkin" explain examples/exercise1_size_a_model.napkin decode.tokens_per_s_with_kv --format latex >"$tmp/decode.tex" || status=1
for question in '1. A 1B model trained on 20B tokens: total FLOPs?' \
  '4. KV cache for Llama-3-8B at 128k context, bf16?' \
  '10. A founder serves 30M output tokens/day'; do
  if grep -qF -- "$question" "$tmp/drills.tex"; then
    echo "ok question: $question"
  else
    echo "FAIL the LaTeX lacks the drill's question: $question"
    status=1
  fi
done
"$here/pdflatex.sh" "$tmp/drills.tex" "$tmp/drill4.tex" "$tmp/drill4_flat.tex" "$tmp/decode.tex" || status=1
(cd "$tmp" && pdflatex -interaction=nonstopmode -halt-on-error drills.tex >/dev/null 2>&1)
pdftoppm -png -r 50 "$tmp/drills.pdf" "$tmp/page" || status=1
pages=$(ls "$tmp"/page-*.png 2>/dev/null | wc -l)
if [ "$pages" -lt 2 ]; then
  echo "FAIL the drills make $pages page(s) of pictures, expected at least 2"
  status=1
fi
for png in "$tmp"/page-*.png; do
  # A blank page compresses to about a kilobyte; a page of formulas to tens.
  if [ "$(stat -c %s "$png")" -lt 5000 ]; then
    echo "FAIL $(basename "$png") is blank"
    status=1
  fi
done
[ $status -eq 0 ] && echo "ok $pages pages"
exit $status
