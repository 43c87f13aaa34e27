#!/usr/bin/env bash
# The solution sheet (`run --steps`) and the file as a document. Figures are
# the exercise's, worked by hand from its spec (examples/exercise1_size_a_model.napkin:
# d_model 6144, 48 heads, 48 layers, 8 KV heads, d_ffn 16384, SwiGLU,
# vocab 64000, untied, fp16):
#   d_head = 6,144 / 48 = 128
#   layer  = 88,080,384 (attention: 2·6144² + 2·6144·1024) + 301,989,888 (3·6144·16384) = 390,070,272
#   total  = 48 · 390,070,272 + 64,000 · 6,144 (embedding) + 64,000 · 6,144 (head)
#          = 18,723,373,056 + 393,216,000 + 393,216,000 = 19,509,805,056
#   training = 6 · 19,509,805,056 · 1.5e12 = 1.756e23 FLOP
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
exercise=examples/exercise1_size_a_model.napkin

# ---- the default: the product of named factors, then numbers -------------------
# Worked by hand (header): q_proj = 6,144 · 48 · 128, kv_proj = 6,144 · 8 ·
# (128 + 128), ffn = 3 · 6,144 · 16,384 (SwiGLU's three matrices), KV per
# token = 2 · 48 · 8 · 128 · 2 B = 196,608 B = 192 KiB, decode at batch 1 =
# 1 token / (19,509,805,056 · 2 B / 5.3 TB/s) = 135.8 token/s.
"$napkin" run "$exercise" --steps --format markdown >"$tmp/factors.md" 2>"$tmp/err"
expect_in factors.q_proj "$tmp/factors.md" '^- `q_proj` = `d_model · heads · head_dim` = `6,144 · 48 · 128` = \*\*37,748,736 param\*\*$'
expect_in factors.kv_proj "$tmp/factors.md" '^- `kv_proj` = `d_model · kv_heads · \(head_dim \+ v_head_dim\)` = `6,144 · 8 · \(128 \+ 128\)` = \*\*12,582,912 param\*\*$'
expect_in factors.ffn "$tmp/factors.md" '^- `ffn` = `matrices · d_model · d_ffn` = `3 · 6,144 · 16,384` = \*\*301,989,888 param\*\*$'
expect_in factors.kv_per_token "$tmp/factors.md" '^- `per_token` = `layers · 2 · kv_heads · head_dim · kv_dtype\.bytes_per_value -> KiB/token` = `48 · 2 · 8 · 128 · 2 B/value -> KiB/token` = \*\*192 KiB/token\*\*( — .*)?$'
expect_in factors.decode "$tmp/factors.md" '^- `tokens_per_s` = `1 token / weight_read_time` = `1 token / \(params · dtype\.bytes_per_param / gpu\.memory_bandwidth\)` = `1 token / \(19,509,805,056 param · 2 B/param / \(5\.3 TB/s\)\)` = \*\*135\.8 token/s\*\*$'
# A step the file itself defines stays a name elsewhere (kv_slowdown does not re-derive both rates).
expect_in factors.own_steps "$tmp/factors.md" '^- `kv_slowdown` = `1 - tokens_per_s_with_kv / tokens_per_s -> %` = `1 - 130\.4 token/s / \(135\.8 token/s\) -> %`'
# --steps=one, specialised: a layer is its attention and its MLP, without
# the norms this model has none of; the total without position tables and biases.
"$napkin" run "$exercise" --steps=one --format markdown >"$tmp/one.md" 2>/dev/null
expect_in one.layer "$tmp/one.md" '^- `layer` = `attention_params \+ mlp_params` = `88,080,384 param \+ 301,989,888 param` = \*\*390,070,272 param\*\*$'
expect_in one.total "$tmp/one.md" '^- `total` = `block_params \+ embedding_params \+ stored_lm_head_params` = `18,723,373,056 param \+ 393,216,000 param \+ 393,216,000 param` = \*\*19,509,805,056 param\*\*$'
# token_count(context) is context: the where line is 48 · 8,192, not 48 · 8,192 + 0 · min(8,192, 0).
expect_in one.no_unit_helper "$tmp/one.md" '^  - where `attended_positions\(m, context\)` = `m\.full_attention_layers · context` = `48 · 8,192 token` = \*\*393,216\*\*$'

# ---- --steps=all: the library's general formula, every term -----------------------
"$napkin" run "$exercise" --steps=all --format markdown >"$tmp/sheet.md" 2>"$tmp/err"
expect_in md.d_head "$tmp/sheet.md" '^- `d_head` = `d_model / heads` = `6,144 / 48` = \*\*128\*\*$'
expect_in md.total_sum "$tmp/sheet.md" '^- `total` = `block_params \+ embedding_params \+ position_params \+ stored_lm_head_params'
expect_in md.total_numbers "$tmp/sheet.md" '`18,723,373,056 param \+ 393,216,000 param \+ 0 param \+ 393,216,000 param \+ 0 param \+ 0 param` = \*\*19,509,805,056 param\*\*$'
expect_in md.layer "$tmp/sheet.md" '^- `layer` = `attention_params \+ mlp_params \+ layer_norm_params` = `88,080,384 param \+ 301,989,888 param \+ 0 param` = \*\*390,070,272 param\*\*$'
# A call shows itself, then the function's body with the numbers in it.
expect_in md.call "$tmp/sheet.md" '^- `training` = `train_flops\(drill\.params, 1\.5 Ttoken\)` = `6 FLOP/param/token · params · tokens` = `6 FLOP/param/token · 19,509,805,056 param · 1,500,000,000,000 token` = \*\*1\.756e23 FLOP\*\*$'
# A conversion stays on the formula it converts.
expect_in md.converted "$tmp/sheet.md" '^- `fp16_gib` = `params · dtype\.bytes_per_param -> GiB` = `19,509,805,056 param · 2 B/param -> GiB` = \*\*36\.34 GiB\*\*$'
# No answer is left as a bare name or a bare call: the property, for every
# line. Two name an input, which has no formula: d (the spec's d_model) and
# decode.context (max_context, 8192 token).
bare='^- `[a-z_0-9]+` = `[A-Za-z_0-9.]+( -> [^`]+)?` = \*\*'
inputs='^- `(d` = `drill\.d_model|context` = `max_context)` = '
if grep -E "$bare" "$tmp/sheet.md" | grep -qvE "$inputs"; then
  echo "FAIL md.no_bare_name: an answer shows only the name it copies:"
  grep -E "$bare" "$tmp/sheet.md" | grep -vE "$inputs" | head -5
  failures=$((failures + 1))
else passes=$((passes + 1)); fi
if grep -qE '^- `[a-z_0-9]+` = `[a-z_0-9]+\([^`]*\)( -> [^`]+)?` = (\*\*|`[a-z_0-9]+\()' "$tmp/sheet.md"; then
  echo "FAIL md.no_bare_call: an answer shows only the call that makes it:"
  grep -E '^- `[a-z_0-9]+` = `[a-z_0-9]+\([^`]*\)( -> [^`]+)?` = (\*\*|`[a-z_0-9]+\()' "$tmp/sheet.md" | head -5
  failures=$((failures + 1))
else passes=$((passes + 1)); fi
# A function a formula calls opens under it.
expect_in md.where "$tmp/sheet.md" '^  - where `forward_flops\(params, tokens\)` = `2 FLOP/param/token · params · tokens`'
"$napkin" run "$exercise" --format markdown >"$tmp/plain.md" 2>/dev/null
if cmp -s "$tmp/plain.md" "$tmp/sheet.md"; then
  echo "FAIL md.steps_changes: --steps leaves the Markdown as it was"; failures=$((failures + 1))
else passes=$((passes + 1)); fi

"$napkin" run "$exercise" --steps=one --format latex >"$tmp/sheet.tex" 2>/dev/null
expect_in tex.d_head "$tmp/sheet.tex" '^\\text\{d\\_head\} &= \\text\{d\\_model\} / \\text\{heads\} \\\\$'
expect_in tex.d_head_numbers "$tmp/sheet.tex" '^  &= 6\{,\}144 / 48 \\\\$'
expect_in tex.total "$tmp/sheet.tex" '18\{,\}723\{,\}373\{,\}056\\,\\mathrm\{param\} \+ 393\{,\}216\{,\}000\\,\\mathrm\{param\}'
expect_in tex.where "$tmp/sheet.tex" 'where forward\\_flops\(params, tokens\)'

"$napkin" run "$exercise" --steps=one --format text >"$tmp/sheet.txt" 2>/dev/null
expect_in text.d_head "$tmp/sheet.txt" '^  d_head = d_model / heads$'
"$napkin" run "$exercise" --steps=short >"$tmp/short.txt" 2>/dev/null
expect_in short.d_head "$tmp/short.txt" '^  d_head = drill\.head_dim$'
"$napkin" run "$exercise" --steps=flat >"$tmp/flat.txt" 2>/dev/null
# The flat form is explain --flat's line: everything inlined (here the layer's
# four matrices), broken before a `+` where it would pass 100 columns.
expect_in flat.layer "$tmp/flat.txt" '^        = 6,144 · 48 · 128 param \+ 6,144 · 8 · \(128 \+ 128\)'
expect_in flat.layer_wrapped "$tmp/flat.txt" '^            \+ 3 · 6,144 · 16,384 param$'

"$napkin" run "$exercise" --steps=one --format json >"$tmp/sheet.json" 2>/dev/null
/usr/bin/python3 - "$tmp/sheet.json" <<'EOF' && passes=$((passes + 1)) || failures=$((failures + 1))
import json, sys
v = json.load(open(sys.argv[1]))["values"]
want = ["d_model / heads", "6,144 / 48", "128"]
got = v["parameters.d_head"]["steps"]
if got != want:
    sys.exit(f"FAIL json.steps: parameters.d_head steps {got}, want {want}")
calls = [c["call"] for c in v["flops.prefill_linear"].get("calls", [])] + \
        [c["call"] for c in v["flops.attention_share_without_head"].get("calls", [])]
if "forward_flops(params, tokens)" not in calls:
    sys.exit(f"FAIL json.calls: no forward_flops among {calls}")
EOF
"$napkin" run "$exercise" --format json >"$tmp/plain.json" 2>/dev/null
expect_status json.plain_has_no_steps 1 -- grep -q '"steps"' "$tmp/plain.json"
expect_match steps.bad_depth 2 'steps' err -- "$napkin" run "$exercise" --steps=deep

# ---- checks: listed, beside the answer, or left out -----------------------------
"$napkin" run "$exercise" --format markdown --checks beside >"$tmp/beside.md" 2>/dev/null
expect_in beside.tick "$tmp/beside.md" '^\| `d_head` \| 128 ✓ \|$'
expect_in beside.count "$tmp/beside.md" '^54 passed, 0 failed \([0-9]+ shown as ✓ beside the answer they pin\)$'
# The check of a with-expression pins no field of the file: it stays listed.
expect_in beside.listed "$tmp/beside.md" '^- ✓ `check \(drill with \{ norm = rmsnorm \}\)\.params == 19_510_401_024 param`'
expect_no_match none.absent 0 '^## checks' out -- "$napkin" run "$exercise" --format latex --checks none
# Left out of the document, a failing check still fails the run, on stderr.
printf 'scenario s {\n  x = 2\n}\ncheck s.x == 3\n' >"$tmp/failing.napkin"
expect_no_match none.failing_out 1 'check' out -- "$napkin" run "$tmp/failing.napkin" --format markdown --checks none
expect_in none.failing_err "$tmp/err" 'error\[E0500\]: check failed: 2 == 3 is false'
expect_match beside.failing_listed 1 '^- ✗ `check s\.x == 3`' out -- "$napkin" run "$tmp/failing.napkin" --format markdown --checks beside
expect_match checks.text 2 'use them with --format markdown or latex' err -- "$napkin" run "$exercise" --checks beside

# ---- the document ----------------------------------------------------------------
expect_in title.md "$tmp/plain.md" '^# Exercise 1 — size a model from its spec\.$'
expect_in intro.md "$tmp/plain.md" '^A synthetic 48-layer GQA \+ SwiGLU model'
expect_in intro.paragraphs "$tmp/plain.md" '^Conventions: counts are matrices'
expect_in intro.math "$tmp/plain.md" '1 GB = 10⁹ B'
expect_in intro.code "$tmp/plain.md" '`napkin run --steps`'
expect_in title.tex "$tmp/sheet.tex" '^\{\\LARGE\\bfseries\\noindent Exercise 1 --- size a model from its spec\.\\par\}$'
expect_in intro.tex_code "$tmp/sheet.tex" '\\texttt\{napkin run -\{\}-steps\}'
expect_in intro.tex_math "$tmp/sheet.tex" '10\\textsuperscript\{9\}'
# A title is the first sentence, over as many lines as it takes.
"$napkin" run examples/uncertain_decode.napkin --format markdown >"$tmp/uncertain.md" 2>/dev/null
expect_in title.sentence "$tmp/uncertain.md" '^# How fast will Llama-3-70B decode on 8×H100 at batch 32, if the decode matmuls reach 35–55% of the bf16 peak \(MFU\) and memory reads reach 80–90% of the datasheet bandwidth\?$'
# decode_int8 changes the model: the fields that moved, not all nine again.
expect_in with.moved "$tmp/plain.md" '^[0-9]+ other fields? as in `decode`\.$'

# ---- a newcomer's first file shows what the model is written for -----------------
# The exercise's spec alone: its headline (std/transformer's transformer_headline)
# follows the inputs. active = 48 · 390,070,272 + 64,000 · 6,144 (the head; the
# embedding lookup is no matmul) = 19,116,589,056; KV per token = 2 · 48 · 8 ·
# 128 · 2 B = 196,608 B; weights = 19,509,805,056 · 2 B = 39.02 GB.
sed -n '/^model drill/,/^}/p' "$exercise" | sed '1i import "std/transformer"' >"$tmp/first.napkin"
"$napkin" run "$tmp/first.napkin" >"$tmp/first.txt" 2>&1
expect_in headline.params "$tmp/first.txt" '^  params += 19,509,805,056 param$'
expect_in headline.active "$tmp/first.txt" '^  active_params += 19,116,589,056 param$'
expect_in headline.weights "$tmp/first.txt" '^  weight_bytes += 39\.02 GB$'
expect_in headline.kv "$tmp/first.txt" '^  kv_bytes_per_token += 196\.6 kB/token$'
expect_status headline.no_more 1 -- grep -qE '^  (layer_params|embedding_params|q_params) ' "$tmp/first.txt"
"$napkin" run "$tmp/first.napkin" --all >"$tmp/first_all.txt" 2>&1
expect_in headline.all_keeps_everything "$tmp/first_all.txt" '^  layer_params += 390,070,272 param$'

# Comments are prose, never markup: what a hostile comment holds shows as text.
printf '%s\n' '# Title <!-- hidden' '#' '# <script>alert(1)</script> and <img src=x onerror=alert(1)>' \
  '# a & b, [link](javascript:alert(1)), `code <b>`, *shown*, 10^9, N_blocks, lm_head' \
  '#' '# - one' '# - two' '' '# \input{/etc/passwd} $x$ % ~ ^ a stray ` backtick' \
  'scenario s {' '  x = 1' '}' >"$tmp/hostile.napkin"
printf '# bell \a here\nscenario t {\n  y = 2\n}\n' >>"$tmp/hostile.napkin"
"$napkin" run "$tmp/hostile.napkin" --format markdown >"$tmp/hostile.md" 2>"$tmp/err"
cmark --unsafe "$tmp/hostile.md" >"$tmp/hostile.html"
expect_status html.no_script 1 -- grep -qiE '<script|<img|<!--|<a |<b>' "$tmp/hostile.html"
expect_in html.script_text "$tmp/hostile.html" '&lt;script&gt;alert\(1\)&lt;/script&gt;'
expect_in html.comment_text "$tmp/hostile.html" '<h1>Title &lt;!-- hidden</h1>'
expect_in html.code "$tmp/hostile.html" '<code>code &lt;b&gt;</code>'
expect_in html.emphasis "$tmp/hostile.html" '<em>shown</em>'
expect_in html.math "$tmp/hostile.html" '10⁹, N_blocks, lm_head'
# No HTML of napkin's own either: a renderer that drops raw HTML (cmark without --unsafe) loses nothing.
cmark "$tmp/hostile.md" >"$tmp/safe.html"
expect_status html.safe_nothing_dropped 1 -- grep -q 'raw HTML omitted' "$tmp/safe.html"
cmark "$tmp/sheet.md" >"$tmp/sheet.html"
expect_status html.sheet_nothing_dropped 1 -- grep -q 'raw HTML omitted' "$tmp/sheet.html"
expect_in html.list "$tmp/hostile.html" '<li>one</li>'
expect_in html.control "$tmp/hostile.html" 'bell \\x07 here'
"$napkin" run "$tmp/hostile.napkin" --format latex >"$tmp/hostile.tex" 2>"$tmp/err"
expect_in tex.escaped "$tmp/hostile.tex" '\\textbackslash\{\}input\\\{/etc/passwd\\\} \\\$x\\\$ \\% \$\\sim\$ \$\^\\wedge\$ a stray \\textasciigrave\{\} backtick'
expect_in tex.control "$tmp/hostile.tex" 'bell \\textbackslash\{\}x07 here'
if command -v pdflatex >/dev/null && command -v pdftotext >/dev/null; then
  "$(dirname "$0")/../golden/formats/pdflatex.sh" "$tmp/hostile.tex" "$tmp/sheet.tex" >"$tmp/tex.log" 2>&1 &&
    passes=$((passes + 1)) || { echo "FAIL tex.compiles:"; cat "$tmp/tex.log"; failures=$((failures + 1)); }
  (cd "$tmp" && pdflatex -interaction=nonstopmode -halt-on-error hostile.tex >/dev/null 2>&1)
  pdftotext "$tmp/hostile.pdf" "$tmp/hostile.txt"
  expect_in pdf.text "$tmp/hostile.txt" '\\input\{/etc/passwd\} \$x\$ % ∼ ∧ a stray ` backtick'
expect_in pdf.hyphens "$tmp/hostile.txt" '^Title <!-- hidden'
elif [ -n "${CI:-}" ]; then
  echo "FAIL pdflatex or pdftotext missing"; failures=$((failures + 1))
fi
finish
