#!/usr/bin/env bash
# handout_test.sh NAPKIN: `napkin handout` of exercise 1 is the student's
# sheet. Every question of the exercise is on it, every answer is a blank
# with the unit the exercise's own checks state for it, and no answer's
# value or formula is anywhere on it, in text, Markdown and LaTeX. The
# LaTeX compiles with no line into the margin and makes pages with
# something on them. Markdown and LaTeX escape what a comment holds.
set -u
napkin=$1
here=$(dirname "$0")
. "$here/../lib/expect.sh"
ex=examples/exercise1_size_a_model.napkin

for format in text markdown latex json html; do
  "$napkin" handout "$ex" --format "$format" >"$tmp/sheet.$format" 2>"$tmp/err.$format" ||
    { echo "FAIL handout.$format exits $?: $(cat "$tmp/err.$format")"; failures=$((failures + 1)); }
  # What the format escapes, undone, so one list of words serves all three:
  # LaTeX's typewriter underscore and \_, Markdown's \_ and \*.
  sed -e 's/{\\char95}\\allowbreak{}/_/g' -e 's/\\_/_/g' -e 's/\\\*/*/g' "$tmp/sheet.$format" >"$tmp/plain.$format"
done

# The questions: the exercise's comments, 1(a) to 6(c) (words without
# characters any format rewrites).
while IFS= read -r q; do
  for format in text markdown latex json html; do expect_in "question.$format: $q" "$tmp/plain.$format" "$q"; done
done <<'QUESTIONS'
Exercise 1
per-head and KV widths
one layer, by matrix, and as a multiple of d
the whole model: L
the textbook 12d
does it fit, and what is left to serve from
forward FLOPs per token in the blocks
training on 1.5T tokens
prefill of one full prompt
one decode step at 8192 context
per token, prefill and decode cost about the same
KV cache
weights only: every token streams every weight once
plus this sequence's KV cache at the full context
halve the bytes, double the tokens
the memory bandwidth alone decides it
projection in fp16 for T tokens
decode at batch B does
bandwidth, not capacity
QUESTIONS

# Every answer with its unit: the one the exercise chose (`-> GiB`, `-> %`,
# `-> KiB/token`), else its dimension's own (B, s, FLOP/token, token/s),
# never one picked for the answer's size (GB, ms, µs, GFLOP/token gave away
# which bound wins); a count has none, a truth value or a word says so. In
# the text sheet: `name = ____ unit`.
answers=0
while read -r name unit; do
  answers=$((answers + 1))
  pattern="^ +$name +=  *_+ $unit(  # .*)?\$"
  [ "$unit" = "-" ] && pattern="^ +$name +=  *_+(  # .*)?\$"
  expect_in "answer.text: $name ${unit}" "$tmp/sheet.text" "$pattern"
  md_unit=${unit//-/}
  expect_in "answer.markdown: $name" "$tmp/plain.markdown" "^- \`$name\` = _+${md_unit:+ $md_unit}( — .*)?\$"
  expect_in "answer.latex: $name" "$tmp/plain.latex" "\\\\texttt\\{$name\\} = \\\\rule\\{"
done <<'ANSWERS'
d_head -
d_kv -
q_proj param
kv_proj param
o_proj param
ffn param
layer param
layer_in_d_squared -
total param
textbook_layer param
textbook_overestimate -
ffn_in_d_squared -
attention_in_d_squared -
fp16_bytes B
fp16_gib GiB
int8_bytes B
fits_mi300x \(true or false\)
left_on_mi300x B
fits_h100 \(true or false\)
left_on_h100 B
left_on_mi300x_as_built B
left_on_h100_as_built B
blocks_per_token FLOP/token
training FLOP
prefill_linear FLOP
prefill_attention FLOP
prefill_total FLOP
attention_share %
attention_share_without_head %
decode_linear FLOP/token
decode_attention FLOP/token
decode_per_token FLOP/token
prefill_per_token FLOP/token
per_token KiB/token
per_sequence GiB
per_sequence_mha GiB
mha_ratio -
weight_read_time s
tokens_per_s token/s
kv_read_time s
tokens_per_s_with_kv token/s
kv_slowdown %
ridge FLOP/B
intensity_one_token FLOP/B
intensity_full_prompt FLOP/B
one_token_bound \(text\)
full_prompt_bound \(text\)
intensity_per_sequence FLOP/B
batch_for_compute_bound -
capacity_used %
ANSWERS
# 50 names above, and tokens_per_s three times (decode, decode_int8, decode_h100): 52 blanks.
# (mi300x_capacity and h100_capacity are the exercise's givens, not blanks.)
blanks=$(grep -c '= ____________' "$tmp/sheet.text")
if [ "$blanks" -eq 52 ] && [ "$answers" -eq 50 ]; then passes=$((passes + 1)); else
  echo "FAIL answer.count: $blanks blanks on the sheet, want 52"; failures=$((failures + 1)); fi
# The givens, with their values: the spec and the scenarios' inputs.
expect_in given.d_model "$tmp/sheet.text" '^ +d_model += 6,144$'
expect_in given.kv_heads "$tmp/sheet.text" '^ +kv_heads += 8  # GQA$'
expect_in given.context "$tmp/sheet.text" '^ +max_context = 8,192 token$'
expect_in given.mi300x_capacity "$tmp/sheet.text" '^ +mi300x_capacity = 192 GB$'
expect_in given.batch "$tmp/sheet.text" '^ +batch += 1$'
expect_in given.gpu "$tmp/sheet.text" '^ +gpu += mi300x$'
expect_in given.with "$tmp/sheet.text" '^ +decode_h100 = decode with \{ gpu = h100_sxm \}$'

# No answer's value: the solution's figures (the checks' and their
# derivations': 6,144 · 48 · 128 = 37,748,736 param, 39.02 GB / 5.3 TB/s =
# 7.362 ms, ...), nor any formula that computes an answer.
while IFS= read -r gone; do
  for format in text markdown latex json html; do
    if grep -qF -- "$gone" "$tmp/plain.$format"; then
      echo "FAIL leak.$format: the handout shows $gone"
      grep -nF -- "$gone" "$tmp/plain.$format" | head -3
      failures=$((failures + 1))
    else
      passes=$((passes + 1))
    fi
  done
done <<'GONE'
128
1,024
37,748,736
12,582,912
301,989,888
390,070,272
10.33
19,509,805,056
452,984,832
1.161
2.333
39.02
36.34
19.51
153 GB
40.98
37.45
1.756
313.2
39.58
352.8
11.22
11.43
38.23
9.664
47.9
43.07
192 KiB
1.5 GiB
9 GiB
7.362
135.8
303.9
130.4
3.964
271.7
85.85
246.7
0.9997
2,234
20.32
"memory"
"compute"
drill.head_dim
drill.kv_dim
drill.q_params
drill.mlp_params
drill.layer_params
drill.params
drill.weight_bytes
drill.attention_params
drill.block_matmul_params
fits(
train_flops(
forward_flops(
prefill_flops(
attention_flops_per_token
decode_flops_per_token(
kv_cache_bytes(
gpu.memory_bandwidth
mi300x.memory_capacity
ridge_point
arithmetic_intensity_matmul(
.bytes_per_param
12 * d^2
GONE

# What a comment holds is the format's text, never its markup.
# (a control character, \001, in the last comment: it becomes `?`)
printf '%s\n' '# Costs <b>&amp; 100% of $5 #1 {x} ~y ^z \w _u' 'scenario s {' \
  '  # Is a < b & c > d? *not* bold, [no](link), `kept as code`' '  a = 3 GB' >"$tmp/hostile.napkin"
printf '  b = a * 2  # 50%% & more\001\n}\ncheck s.b == 6 GB\n' >>"$tmp/hostile.napkin"
"$napkin" handout "$tmp/hostile.napkin" --format markdown >"$tmp/hostile.md"
"$napkin" handout "$tmp/hostile.napkin" --format latex >"$tmp/hostile.tex"
expect_in md.title "$tmp/hostile.md" '^# Costs &lt;b&gt;&amp;amp; 100% of \\\$5 \\#1 \{x\} \\~y \^z \\\\w \\_u$'
# (*not* is emphasis, as the solution sheet writes it: the light Markdown both sheets share)
expect_in md.question "$tmp/hostile.md" '^Is a &lt; b &amp; c &gt; d\? \*not\* bold, \\\[no\\\]\(link\), `kept as code`$'
expect_in md.answer "$tmp/hostile.md" '^- `b` = (\\_)+ B — 50% &amp; more\?$'
# The opening comment is the title, and not again as the first record's question.
# A record without a comment above it is headed by its name alone, never `scenario s`.
expect_in md.title_once "$tmp/hostile.md" '^## `s`$'
if [ "$(grep -c 'Costs' "$tmp/hostile.md")" -eq 1 ]; then passes=$((passes + 1)); else
  echo "FAIL md.title_once: the title is repeated"; failures=$((failures + 1)); fi
# (`~` and `^` as the solution sheet's prose sets them: on the line, not as accents above it)
expect_in tex.title "$tmp/hostile.tex" '^\\section\*\{Costs \\textless\{\}b\\textgreater\{\}\\&amp; 100\\% of \\\$5 \\#1 \\\{x\\\} \$\\sim\$y \$\^\\wedge\$z \\textbackslash\{\}w \\_\\allowbreak\{\}u\}$'
expect_in tex.note "$tmp/hostile.tex" '\{\\small 50\\% \\& more\?\}'
expect_in tex.code "$tmp/hostile.tex" '\\texttt\{kept as code\}'

# The LaTeX compiles with nothing in the margin, and its pages have something on them.
if command -v pdflatex >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1; then
  cp "$tmp/sheet.latex" "$tmp/handout.tex"
  expect_match latex.compiles 0 '^ok ' out -- "$here/../golden/formats/pdflatex.sh" "$tmp/handout.tex" "$tmp/hostile.tex"
  # Every example's sheet, too.
  mkdir -p "$tmp/examples"
  for f in examples/*.napkin; do "$napkin" handout "$f" --format latex >"$tmp/examples/$(basename "$f" .napkin).tex"; done
  expect_match latex.examples 0 '^ok ' out -- "$here/../golden/formats/pdflatex.sh" "$tmp"/examples/*.tex
  (cd "$tmp" && pdflatex -interaction=nonstopmode -halt-on-error handout.tex >/dev/null 2>&1)
  pdftoppm -png -r 50 "$tmp/handout.pdf" "$tmp/page"
  pages=0
  for png in "$tmp"/page-*.png; do
    [ -e "$png" ] || continue
    pages=$((pages + 1))
    # A blank page compresses to about a kilobyte; a page of questions to tens.
    if [ "$(stat -c %s "$png")" -lt 5000 ]; then echo "FAIL latex.page: $(basename "$png") is blank"; failures=$((failures + 1)); fi
  done
  if [ "$pages" -ge 2 ]; then passes=$((passes + 1)); else echo "FAIL latex.pages: $pages"; failures=$((failures + 1)); fi
elif [ -n "${CI:-}" ]; then
  echo "FAIL pdflatex or pdftoppm not found (make test installs them)"
  failures=$((failures + 1))
fi

# The rule, case by case (docs/output.md, Handouts).
cat >"$tmp/rules.napkin" <<'NAPKIN'
let tokens = 1000 token
let per_token = 2 B/token
let total = tokens * per_token
model m {
  width = 64
  wide = width * 2
}
scenario s {
  n = tokens
  bytes = n * per_token
  m_here = m
  half = m.wide / 2
}
scenario t = s with { n = 10 token }
check total == 2000 B
check t.bytes == 20 B
check s.half * 2 == m.wide + 0
NAPKIN
"$napkin" handout "$tmp/rules.napkin" >"$tmp/rules.txt"
# A literal let is given with its value; a computed let a check pins is asked (in B, as 2,000 B shows).
expect_in rule.literal "$tmp/rules.txt" '^ +tokens += 1,000 token$'
expect_in rule.pinned_let "$tmp/rules.txt" '^ +total += _+ B$'
# A model's computed field no check has as a whole side (m.wide + 0 is not m.wide) is given
# as its formula, never its value (128).
expect_in rule.model_formula "$tmp/rules.txt" '^ +wide  *= width · 2$'
if grep -q '128' "$tmp/rules.txt"; then echo "FAIL rule.model_value: 128 is on the sheet"; failures=$((failures + 1)); else passes=$((passes + 1)); fi
# In a scenario: a bare name and a record are given, a computed field is asked.
expect_in rule.bare_name "$tmp/rules.txt" '^ +n  *= tokens$'
expect_in rule.record "$tmp/rules.txt" '^ +m_here  *= m$'
expect_in rule.scenario "$tmp/rules.txt" '^ +bytes  *= _+ B$'
# A field inside a larger side of a check (s.half * 2) is still asked, being the scenario's;
# a `with` record asks only what a check pins: t.bytes (20 B), not t.half.
expect_in rule.half "$tmp/rules.txt" '^ +half  *= _+$'
expect_in rule.with "$tmp/rules.txt" '^ +t = s with \{ n = 10 token \}$'
expect_in rule.with_pinned "$tmp/rules.txt" '^ +bytes = _+ B$'
if [ "$(grep -c '= _' "$tmp/rules.txt")" -eq 4 ]; then passes=$((passes + 1)); else
  echo "FAIL rule.count: $(grep -c '= _' "$tmp/rules.txt") blanks, want 4 (total, s.bytes, s.half, t.bytes)"
  sed 's/^/  /' "$tmp/rules.txt"; failures=$((failures + 1)); fi

# A file without an opening comment is titled by its name, not its path.
printf 'scenario s {\n  a = 2\n  b = a * 3\n}\n' >"$tmp/plain_file.napkin"
expect_match title.name 0 '^plain_file$' out -- "$napkin" handout "$tmp/plain_file.napkin"
expect_status usage.format 2 -- "$napkin" handout "$ex" --format toml
# As data: each answer a blank with its name, unit and points, in order,
# and the same answers the sheet lists (the leak checks above cover it).
"$napkin" handout "$ex" --format json >"$tmp/sheet.data.json"
python3 - "$tmp/sheet.data.json" <<'PY' || failures=$((failures + 1))
import json, sys
h = json.load(open(sys.argv[1]))
blanks = [(s["name"], i) for s in h["sections"] for i in s["items"] if i["kind"] == "answer"]
qualified = [f"{s}.{i['name']}" if s and s != "values" else i["name"] for s, i in blanks]
assert len(blanks) == len(h["answers"]) and len(blanks) >= 20, (len(blanks), len(h["answers"]))
assert all("value" not in i and "shown" not in i for _, i in blanks), "an answer carries a value"
first = next(i for s, i in blanks if i["name"] == "d_head")
assert first["unit"] == "" and first["expects"] == "quantity", first
unit = {i["name"]: (i["unit"], i["expects"]) for _, i in blanks}
assert unit["q_proj"] == ("param", "quantity"), unit["q_proj"]      # the dimension's base unit
assert unit["fp16_gib"] == ("GiB", "quantity"), unit["fp16_gib"]    # the author's `-> GiB`
assert unit["fits_mi300x"] == ("", "true or false"), unit["fits_mi300x"]
PY
passes=$((passes + 1))
expect_match missing.file 2 'error' err -- "$napkin" handout "$tmp/none.napkin"


# A blank's unit never depends on the answer's size: the file's `-> GiB`, a
# unit declared on the field (`doubled: GB`), else the dimension's own unit.
# Every input scaled by 1000× in turn leaves every line but its own as it was
# (before, `memory_time = ____ ms` became `____ µs`, `tokens = ____ token/s`
# became `ktoken/s`: the blank told the student which bound wins).
cat >"$tmp/bounds.napkin" <<'NAPKIN'
# Decode bounds
scenario decode {
  bandwidth    = 5 TB/s
  peak         = 1000 TFLOP/s
  weights      = 40 GB
  flops        = 80 GFLOP
  memory_time  = weights / bandwidth
  compute_time = flops / peak
  tokens       = 1 token / memory_time
  params       = weights / (2 B/param)
  in_gib       = weights -> GiB
  doubled: GB  = weights * 2
}
check decode.memory_time ≈ 8 ms within 1%
NAPKIN
"$napkin" handout "$tmp/bounds.napkin" >"$tmp/bounds.txt"
while read -r name unit; do
  expect_in "units.$name" "$tmp/bounds.txt" "^ +$name += _+ $unit\$"
done <<'UNITS'
memory_time s
compute_time s
tokens token/s
params param
in_gib GiB
doubled GB
UNITS
for change in 's|5 TB/s|5000 TB/s|' 's|1000 TFLOP/s|1 TFLOP/s|' 's|40 GB|40000 GB|' 's|80 GFLOP|80000 GFLOP|'; do
  sed "$change" "$tmp/bounds.napkin" >"$tmp/scaled.napkin"
  "$napkin" handout "$tmp/scaled.napkin" >"$tmp/scaled.txt"
  changed=$(diff "$tmp/bounds.txt" "$tmp/scaled.txt" | grep -c '^>')
  if [ "$changed" -eq 1 ]; then passes=$((passes + 1)); else
    echo "FAIL units.scaled ($change): $changed lines changed, want 1 (the input's own)"
    diff "$tmp/bounds.txt" "$tmp/scaled.txt" | sed 's/^/  /'; failures=$((failures + 1)); fi
done
# Exercise 1 with its context 1000× longer: the same blanks.
sed 's/^let max_context = 8192 token/let max_context = 8192000 token/' "$ex" >"$tmp/long.napkin"
"$napkin" handout "$tmp/long.napkin" >"$tmp/long.txt"
if diff <(grep -F '____' "$tmp/sheet.text") <(grep -F '____' "$tmp/long.txt") >/dev/null; then passes=$((passes + 1)); else
  echo "FAIL units.exercise: a 1000× longer context changes the blanks"; failures=$((failures + 1)); fi

# Givens: an alias of a given is given (`tp = node.tp`, and `t = tp` through
# it), and a given record lists the figures of it the file reads, as its
# spec writes them, once: the H200's capacity and bandwidth, not its peaks.
cat >"$tmp/given.napkin" <<'NAPKIN'
import "std/hardware"
record node {
  tp  = 8
  gpu = h200
}
scenario serve {
  tp       = node.tp
  t        = tp
  gpu      = h200
  capacity = tp * gpu.memory_capacity
  time     = 10 GB / gpu.memory_bandwidth
}
scenario again {
  gpu = h200
  per = gpu.memory_capacity / 2
}
scenario direct {
  h100_time = 10 GB / h100_sxm.memory_bandwidth
}
check serve.capacity > 1 TB
check serve.tp == 8
NAPKIN
"$napkin" handout "$tmp/given.napkin" >"$tmp/given.txt"
expect_in given.alias "$tmp/given.txt" '^ +tp += node\.tp$'
expect_in given.alias_of_alias "$tmp/given.txt" '^ +t += tp$'
expect_in given.record "$tmp/given.txt" '^ +gpu += h200$'
expect_in given.capacity "$tmp/given.txt" '^ +memory_capacity = 141 Gi?B$'
expect_in given.bandwidth "$tmp/given.txt" '^ +memory_bandwidth = 4\.8 TB/s$'
expect_in given.asked "$tmp/given.txt" '^ +capacity += _+ B$'
for unread in peak_bf16 link_bandwidth power; do
  if grep -q "$unread" "$tmp/given.txt"; then echo "FAIL given.unread: $unread is listed"; failures=$((failures + 1)); else passes=$((passes + 1)); fi
done
if [ "$(grep -c 'memory_capacity = ' "$tmp/given.txt")" -eq 1 ]; then passes=$((passes + 1)); else
  echo "FAIL given.once: the H200's figures are listed more than once"; failures=$((failures + 1)); fi
# A library record a formula names outright is given with the figures it reads, before the blank.
expect_order given.named "$tmp/given.txt" '^ +h100_sxm$' '^ +memory_bandwidth = 3\.35 TB/s$' '^ +h100_time = _'
if [ "$(grep -c '= _' "$tmp/given.txt")" -eq 4 ]; then passes=$((passes + 1)); else
  echo "FAIL given.count: $(grep -c '= _' "$tmp/given.txt") blanks, want 4 (capacity, time, per, h100_time)"
  sed 's/^/  /' "$tmp/given.txt"; failures=$((failures + 1)); fi

# Handout and solution line up: a section is headed by the comment above its
# record and its name, on both sheets; a ruled heading is a paragraph of its
# own, never run into the sentence below; (a) sub-parts and 10^9 as the
# solution sheet writes them; points beside each blank.
cat >"$tmp/lined.napkin" <<'NAPKIN'
# Homework 2

# ---- 2. Memory ----------------------------------
# How much memory do 10^9 parameters take?
scenario memory {
  params = 1e9 param
  # (a) in fp16
  bytes = params * 2 B/param
}
scenario plain {
  x = memory.bytes * 2  # twice over
}

# 3. How long does reading them take? About a second.
scenario time {
  t = memory.bytes / (2 GB/s)
}
check "bytes" (3 points): memory.bytes == 2 GB
check plain.x == 4 GB
NAPKIN
"$napkin" handout "$tmp/lined.napkin" >"$tmp/lined.txt"
"$napkin" handout "$tmp/lined.napkin" --format markdown >"$tmp/lined.md"
"$napkin" handout "$tmp/lined.napkin" --format latex >"$tmp/lined.tex"
"$napkin" run --steps "$tmp/lined.napkin" --format markdown >"$tmp/solution.md"
"$napkin" run --steps "$tmp/lined.napkin" --format latex >"$tmp/solution.tex"
expect_in lined.text_heading "$tmp/lined.txt" '^2\. Memory \(memory\)$'
expect_in lined.text_question "$tmp/lined.txt" '^  How much memory do 10\^9 parameters take\?$'
expect_in lined.text_untitled "$tmp/lined.txt" '^plain$'
# A heading is the first sentence of its paragraph (past a label such as `3.`); the rest is the question.
expect_in lined.text_sentence "$tmp/lined.txt" '^3\. How long does reading them take\? \(time\)$'
expect_in lined.text_sentence_rest "$tmp/lined.txt" '^  About a second\.$'
expect_in lined.points "$tmp/lined.txt" '^ +bytes = _+ B  \[3 points\]$'
for sheet in lined.md solution.md; do
  expect_in "$sheet.heading" "$tmp/$sheet" '^## 2\\\. Memory \(`memory`\)$'
  expect_in "$sheet.question" "$tmp/$sheet" '^How much memory do 10⁹ parameters take\?$'
  expect_in "$sheet.untitled" "$tmp/$sheet" '^## `plain`$'
  expect_in "$sheet.sentence" "$tmp/$sheet" '^## 3\\\. How long does reading them take\? \(`time`\)$'
  expect_in "$sheet.sentence_rest" "$tmp/$sheet" '^About a second\.$'
done
for sheet in lined.tex solution.tex; do
  expect_in "$sheet.heading" "$tmp/$sheet" 'section\*\{2\. Memory \(\\texttt\{memory\}\)\}'
  expect_in "$sheet.question" "$tmp/$sheet" '^(\\medskip\\noindent )?How much memory do 10\\textsuperscript\{9\} parameters take\?'
done
# The (a) above a field comes before its blank on the handout and before its derivation on the solution.
expect_order lined.subpart "$tmp/lined.txt" '^  \(a\) in fp16$' '^ +bytes = _'
expect_order solution.md.subpart "$tmp/solution.md" '^\(a\) in fp16$' '^- `bytes` = '
# A comment at the end of a field's line follows its blank, and its result on the solution sheet.
expect_in lined.note "$tmp/lined.txt" '^ +x = _+ B  \[1 point\]  # twice over$'
expect_in solution.md.note "$tmp/solution.md" '^- `x` = .*\*\* — twice over$'
expect_in solution.tex.note "$tmp/solution.tex" '^\{\\small\\noindent x: twice over\\par\}$'
expect_order solution.tex.subpart "$tmp/solution.tex" '^\\noindent \(a\) in fp16\\par$' '\\text\{bytes\}'
for sheet in lined.txt lined.md lined.tex solution.md solution.tex; do
  if grep -qE '(^|[#{ ])scenario ' "$tmp/$sheet"; then echo "FAIL $sheet.code_heading: a heading is code"; failures=$((failures + 1)); else passes=$((passes + 1)); fi
done
# A file without points states none beside its blanks.
if grep -q 'point' "$tmp/sheet.text"; then echo "FAIL points.none: exercise 1 states no points"; failures=$((failures + 1)); else passes=$((passes + 1)); fi

finish
