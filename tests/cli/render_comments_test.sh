#!/usr/bin/env bash
# Comments written above a record (its doc, which `run` prints as prose in
# Markdown and LaTeX) that try to take over the page: `<!--` hiding what
# follows, `<script>`, `<img onerror>`, a blank line. Rendered by cmark and
# pdflatex as render_hostile_test.sh renders values. Skipped (77) without
# the renderers, except in CI.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
export NAPKIN_NO_MEASURE=1
for tool in cmark pdflatex; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool not found (Debian: .ci/install-deps.sh --test)"
    [ -n "${CI:-}" ] && exit 1
    exit 77
  fi
done
# cmark --unsafe passes raw HTML through as a browser would get it (cmark's
# default drops it, which would hide an injection from this test).
pdflatex_sh="$(dirname "$0")/../golden/formats/pdflatex.sh"
cat >"$tmp/c.napkin" <<'NAPKIN'
# <!-- everything after this would vanish
# <script>alert(1)</script> and <img src=x onerror=alert(1)>
# 100% of $x_1 & {braces} \end{align*} ` ``
record plan {
  size = 42 GB
}
check plan.size <= 1 GB
NAPKIN
"$napkin" run "$tmp/c.napkin" --format markdown >"$tmp/c.md" 2>/dev/null
cmark --unsafe "$tmp/c.md" >"$tmp/c.html"
expect status.comment_no_script 1 '' -- grep -E '<script|<img' "$tmp/c.html"
expect_in comment.after_marker_survives "$tmp/c.html" '42 GB'
expect_in comment.failed_check_survives "$tmp/c.html" '✗ <code>check plan.size &lt;= 1 GB</code>'
"$napkin" run "$tmp/c.napkin" --format latex >"$tmp/c.tex" 2>/dev/null
expect_status comment.latex_compiles 0 -- "$pdflatex_sh" "$tmp/c.tex"
finish
