#!/usr/bin/env bash
# User text that tries to take over the page it is shown on: strings holding
# HTML, backticks, a blank line and control characters, rendered by the real
# parsers of each format (cmark for CommonMark, pdflatex, xmllint for SVG)
# and printed to a terminal. Every format escapes every piece of user text
# for its own syntax (interpreter/output/escape.hpp): nothing in a value may
# become markup, end a paragraph in math, or be a control character.
# Without the renderers the test is skipped (77), except in CI, where it
# fails (.ci/install-deps.sh --test installs them).
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
export NAPKIN_NO_MEASURE=1
for tool in cmark pdflatex xmllint; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool not found (Debian: .ci/install-deps.sh --test)"
    [ -n "${CI:-}" ] && exit 1
    exit 77
  fi
done
# cmark --unsafe passes raw HTML through as a browser would get it (cmark's
# default drops it, which would hide an injection from this test).
pdflatex_sh="$(dirname "$0")/../golden/formats/pdflatex.sh"

# Raw control characters in a string literal (a file may hold them), HTML,
# backticks, a string with a blank line, and `<!--`; a value after them and
# a failed check after that, which must survive every rendering.
{
  printf 'let a = "<script>alert(1)</script>"\n'
  printf 'let b = "<img src=x onerror=alert(1)>"\n'
  printf 'let c = "tick`b``c|d"\n'
  printf 'let d = "x\\n\\ny"\n'
  printf 'let e = "<!-- hidden"\n'
  printf 'let f = "ctl \001\013\033[2J\007 end \302\233"\n'
  printf 'let after = 42 GB\n'
  printf 'record r {\n  n = 1\n  y = n * 2 GB\n'
  printf '  label = if n > 1 then "<script>x</script>" else "a|b\033 \\n\\n c"\n}\n'
  printf 'sweep r over n in [1, 2] show y, label\n'
  printf 'check after <= 1 GB\n'
} >"$tmp/h.napkin"

# --- Markdown, through cmark: no raw <script> or <img>, and what follows
# `<!--` (the value `after`, the failed check) is still on the page.
"$napkin" run "$tmp/h.napkin" --format markdown >"$tmp/h.md" 2>/dev/null
cmark --unsafe "$tmp/h.md" >"$tmp/h.html"
expect status.markdown_no_script 1 '' -- grep -E '<script|<img' "$tmp/h.html"
expect_in markdown.after_comment_marker "$tmp/h.html" '<code>after</code> \| 42 GB'
expect_in markdown.failed_check_shown "$tmp/h.html" '✗ <code>check after &lt;= 1 GB</code>'
expect_in markdown.blank_line_escaped "$tmp/h.html" 'x\\n\\ny'
expect_in markdown.sweep_cell_escaped "$tmp/h.html" '&lt;script&gt;x&lt;/script&gt;'
expect status.markdown_no_control 1 '' -- grep -P '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$tmp/h.md"
"$napkin" explain "$tmp/h.napkin" r.label --format markdown >"$tmp/x.md"
cmark --unsafe "$tmp/x.md" >"$tmp/x.html"
expect status.explain_markdown_no_script 1 '' -- grep -E '<script|<img' "$tmp/x.html"

# `diff --format markdown`: a string with backticks in a code span cannot
# close it early (the fence is longer than any run of backticks inside).
printf 'let s = "plain"\n' >"$tmp/d1.napkin"
printf 'let s = "x`<img src=x onerror=alert(1)>``y"\n' >"$tmp/d2.napkin"
"$napkin" diff --format markdown "$tmp/d1.napkin" "$tmp/d2.napkin" >"$tmp/d.md"
cmark --unsafe "$tmp/d.md" >"$tmp/d.html"
expect status.diff_markdown_no_img 1 '' -- grep -E '<img' "$tmp/d.html"
expect_in diff.markdown_code_span "$tmp/d.html" '<code>&quot;x`&lt;img src=x onerror=alert\(1\)&gt;``y&quot;</code>'
printf 'let s = "a"\nlet v = 1 GB\n' >"$tmp/d3.napkin"
printf 'let s = "a"\nlet v = 2 GB\nlet w = "<script>w</script>"\n' >"$tmp/d4.napkin"
"$napkin" diff --format markdown "$tmp/d3.napkin" "$tmp/d4.napkin" >"$tmp/d2.md"
cmark --unsafe "$tmp/d2.md" >"$tmp/d2.html"
expect status.diff_markdown_value_no_script 1 '' -- grep -E '<script' "$tmp/d2.html"

# --- LaTeX, through pdflatex: a blank line in a string does not end the
# align*, and a control character does not stop TeX.
"$napkin" run "$tmp/h.napkin" --format latex >"$tmp/h.tex" 2>/dev/null
expect_status latex.compiles 0 -- "$pdflatex_sh" "$tmp/h.tex"
expect_in latex.newline_shown "$tmp/h.tex" 'x\\textbackslash\{\}n\\textbackslash\{\}ny'
"$napkin" explain "$tmp/h.napkin" r.label --format latex >"$tmp/x.tex"
expect_status latex.explain_compiles 0 -- "$pdflatex_sh" "$tmp/x.tex"

# --- SVG, through xmllint: well-formed XML, text escaped.
expect_status svg.sweep_written 0 -- "$napkin" plot sweep "$tmp/h.napkin" -o "$tmp/h.svg"
expect_status svg.well_formed 0 -- xmllint --noout "$tmp/h.svg"
expect status.svg_no_script 1 '' -- grep -E '<script' "$tmp/h.svg"

# --- Terminal: stdout escapes ESC, BEL and every other control character,
# as stderr does; newlines in a string are shown as \n.
"$napkin" run "$tmp/h.napkin" >"$tmp/h.txt" 2>"$tmp/h.err"
expect status.stdout_no_control 1 '' -- grep -P '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$tmp/h.txt"
expect_in stdout.escapes_shown "$tmp/h.txt" '^f *= "ctl \\x01\\x0b\\x1b\[2J\\x07 end \\u009b"$'
expect_in stdout.newline_shown "$tmp/h.txt" '^d *= "x\\n\\ny"$'
# A failed field's line quotes the value in its message, escaped too.
printf 'let bad = "\033[2J" * 2\n' >"$tmp/fail.napkin"
"$napkin" run "$tmp/fail.napkin" >"$tmp/fail.txt" 2>"$tmp/fail.err"
expect status.failed_field_no_escape 1 '' -- grep -P '\x1b' "$tmp/fail.txt" "$tmp/fail.err"
expect_in stdout.failed_field_shown "$tmp/fail.txt" '^bad = error\[E0207\]'
expect status.eval_no_escape 1 '' -- sh -c '"$0" eval "\"\033]0;title\007\"" | grep -P "[\x07\x1b]"' "$napkin"

# --- JSON: a file name that is not UTF-8 is written with U+FFFD for each
# byte that is not, never an internal error.
bad="$tmp/$(printf 'plan\377')"
cp "$tmp/h.napkin" "$bad.napkin"
for cmd in "run $bad.napkin --format json" "explain $bad.napkin r.label --format json" \
           "sensitivity $bad.napkin r.y --format json" "solve $bad.napkin r --for n --max y<=4GB --format json"; do
  # shellcheck disable=SC2086
  "$napkin" $cmd >"$tmp/j.json" 2>"$tmp/j.err"
  expect_status "json.valid.${cmd%% *}" 0 -- /usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/j.json"
  expect status."json.no_internal.${cmd%% *}" 1 '' -- grep -E 'E0000|type_error' "$tmp/j.err"
done
expect_in json.replacement_character "$tmp/j.json" 'plan\\ufffd|plan�'

finish
