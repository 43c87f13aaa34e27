#!/usr/bin/env bash
# Derivations all the way down: a function call opens into its formula in
# `explain` (text, Markdown, LaTeX), `--flat` puts the whole derivation on one
# line, and `run --steps` opens the functions each formula calls. The figures
# are the lab's and the exercise's, worked by hand:
#   KV = 2 (K and V) · 32 layers · 8 heads · 128 · 131,072 tokens · 2 B = 2^34 B = 16 GiB
#   decode with KV = 1 token / (7.362 ms + 303.9 µs) = 130.4 token/s
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
drills=examples/lab03_drills.napkin
exercise=examples/exercise1_size_a_model.napkin
kv='kv_cache_bytes(llama3_8b, 131072 token) -> GiB'

# The tree: the call opens, and every number the lab's answer uses is printed.
"$napkin" explain "$drills" "$kv" >"$tmp/tree" 2>&1
expect_in explain.call_opens "$tmp/tree" '^└── kv_cache_bytes\(llama3_8b, 131072 token\) = batch · \(m\.kv_bytes_per_token_per_layer'
expect_in explain.kv_heads "$tmp/tree" 'llama3_8b\.kv_heads = 8$'
expect_in explain.head_dim "$tmp/tree" 'llama3_8b\.head_dim = d_model / heads$'
expect_in explain.head_dim_value "$tmp/tree" '= 4,096 / 32$'
expect_in explain.layers "$tmp/tree" 'llama3_8b\.layers = 32$'
expect_in explain.context "$tmp/tree" '= 131,072 token / 1 token$'
expect_in explain.kv_values "$tmp/tree" '= 2 · 8 · 128$'
expect_in explain.bytes_per_value "$tmp/tree" 'bf16\.bytes_per_value = bytes_per_param · 1 param -> B/value$'
expect_in explain.two_bytes "$tmp/tree" '= 2 B/value$'
expect_in explain.builtin "$tmp/tree" 'min\(131,072, 0\) = 0$'
expect_in explain.result "$tmp/tree" '= 16 GiB$'

# The flat form: one line, as a textbook writes it, ending in the result:
# K and V, the model's head_dim as its card gives it (an input shows its
# value, though its default formula computed it), 2 B a value per token of a
# layer (`/ 1 token` written on the number it divides), and no
# `-> GiB` (the result says the unit).
flat='2 · 8 · 128 · 2 B/value/token · 32 · 131,072 token'
expect explain.flat 0 "$kv = $flat = 16 GiB" -- "$napkin" explain "$drills" "$kv" --flat
expect explain.flat_field 0 "drill4.kv = $flat = 16 GiB" -- "$napkin" explain "$drills" drill4.kv --flat
expect_match explain.flat_markdown 0 "^\`drill4\.kv\` = \`kv_cache_bytes.*\` = \`$flat\` = \*\*16 GiB\*\*\$" out -- \
  "$napkin" explain "$drills" drill4.kv --flat --format markdown
expect_match explain.flat_latex 0 '^  &= 2 \\cdot 8 \\cdot 128 \\cdot 2\\,\\mathrm\{B/value/token\} \\cdot 32 \\cdot 131\{,\}072\\,\\mathrm\{token\} \\\\$' out -- \
  "$napkin" explain "$drills" drill4.kv --flat --format latex
expect_match explain.flat_latex_result 0 '^  &= 16\\,\\mathrm\{GiB\}$' out -- \
  "$napkin" explain "$drills" drill4.kv --flat --format latex
# A model whose values are narrower than its keys (v_head_dim ≠ head_dim)
# and an MLA model keep their own formulas.
cat >"$tmp/kv.napkin" <<'NAPKIN'
import "std/models"
model narrow extends llama3_8b { v_head_dim = 64 }
NAPKIN
expect_match explain.narrow_values 0 '= 8 · \(128 \+ 64\)$' out -- "$napkin" explain "$tmp/kv.napkin" narrow.kv_values_per_layer
expect_match explain.mla 0 '^deepseek_v3\.kv_values_per_layer = .* = 576$' out -- \
  "$napkin" explain "$tmp/kv.napkin" deepseek_v3.kv_values_per_layer --flat
expect_match explain.sources 0 '= 17\.18 GB  \(std/memory:[0-9]+\)$' out -- "$napkin" explain "$drills" "$kv" --sources

# Exercise 1: the decode rate with its KV cache, reproducible from the tree alone.
"$napkin" explain "$exercise" decode.tokens_per_s_with_kv >"$tmp/decode" 2>&1
expect_in exercise.rate "$tmp/decode" '= 1 · 1 token / \(7\.362 ms \+ 303\.9 µs\)$'
expect_in exercise.kv_term "$tmp/decode" '= 1 · 1\.611 GB / \(5\.3 TB/s\)$'
expect_in exercise.kv_call "$tmp/decode" 'kv_cache_bytes\(model, context\) = batch · '
expect_in exercise.kv_bytes "$tmp/decode" '= 1 · \(4,096 B/token · 393,216 · 1 token \+ 0 B\)$'
expect_in exercise.weights "$tmp/decode" '= 39\.02 GB / \(5\.3 TB/s\)$'
expect_in exercise.result "$tmp/decode" '= 130\.4 token/s$'
expect_in exercise.json_children "$tmp/decode" 'attended_positions\(m, context\) = m\.full_attention_layers'

# run --steps=short shows each formula as written, with the call's
# arguments' values, and opens each function it calls below it, with the
# arguments bound (tests/cli/solution_test.sh tests --steps=one).
"$napkin" run "$drills" --steps=short >"$tmp/steps" 2>&1
expect_in steps.call_args "$tmp/steps" '= training_days\(120 EFLOP, 1, 989\.4 TFLOP/s, 40%\)$'
# One GPU divides by 1: the sheet, specialised, leaves the factor out (--steps=all keeps it).
expect_in steps.where "$tmp/steps" 'where training_days\(flops, gpus, peak, [a-z_]+\) = flops / \(peak · [a-z_]+\)$'
expect_in steps.where_values "$tmp/steps" '= 120 EFLOP / \(989\.4 TFLOP/s · 40%\)$'
"$napkin" run "$drills" --steps=all >"$tmp/steps_all" 2>&1
expect_in steps.all_keeps_one "$tmp/steps_all" '= 120 EFLOP / \(1 · 989\.4 TFLOP/s · 40%\)$'
expect_in steps.no_double_conversion "$tmp/steps" '^  days = time -> day$'
if grep -q 'day -> day' "$tmp/steps"; then
  echo "FAIL steps.no_double_conversion: a conversion is printed twice"; failures=$((failures + 1))
else passes=$((passes + 1)); fi
# (A check's own source, echoed as written, may use `69_120_000`.)
if grep -vE '^[✓✗]' "$tmp/steps" | grep -qE '[0-9]_[0-9]{3}'; then
  echo "FAIL steps.numbers_one_way: a number is written with underscores"; failures=$((failures + 1))
else passes=$((passes + 1)); fi

# Division reads one way: `a / b · c` is printed `(a / b) · c`.
cat >"$tmp/div.napkin" <<'NAPKIN'
let a = 6
let b = 2
let c = 3
let x = a / b * c
let y = a / (b * c)
NAPKIN
expect_match steps.division_left 0 '^x = \(a / b\) · c$' out -- "$napkin" run "$tmp/div.napkin" --steps
expect_match steps.division_right 0 '^y = a / \(b · c\)$' out -- "$napkin" run "$tmp/div.napkin" --steps

# A failed check prints enough digits to see the difference.
cat >"$tmp/close.napkin" <<'NAPKIN'
let a = 39.0196 GB
check a == 39.02 GB
NAPKIN
expect_match check.digits 1 'check failed: 39\.0196 GB == 39\.02 GB is false' err -- "$napkin" run "$tmp/close.napkin"

# The flat line is napkin, units and all (tests/cli/flat_readback.py reads
# every example's back with `napkin eval`). A unit goes onto its number:
# q_proj = d · heads · head_dim · 1 param = 6,144 · 48 · 128 = 37,748,736 param.
expect explain.flat_unit_on_number 0 'parameters.q_proj = 6,144 · 48 · 128 param = 37,748,736 param' -- \
  "$napkin" explain "$exercise" parameters.q_proj --flat
# batch · 1 token / weight_read_time at batch 1: the token stays, so the line is token/s.
expect_match explain.flat_keeps_token 0 '^decode\.tokens_per_s = 1 token / \(\(48 · \(6,144 · 48 · 128 param \+ .* · 2 B/param / \(5\.3 TB/s\)\) = 135\.8 token/s$' out -- \
  "$napkin" explain "$exercise" decode.tokens_per_s --flat
# ZeRO-1 over 64 GPUs: 7.5e9 · (2 + 2 + 12/64) B = 31.41 GB; stage 0 divides by a plain 1, which goes.
expect explain.flat_zero1 0 'rule6_training_memory.zero1 = 7,500,000,000 param · (2 B/param + 2 B/param + 12 B/param / 64) = 31.41 GB' -- \
  "$napkin" explain examples/lab03_rules.napkin rule6_training_memory.zero1 --flat
expect explain.flat_zero0 0 'rule6_training_memory.zero0 = 7,500,000,000 param · (2 B/param + 2 B/param + 12 B/param) = 120 GB' -- \
  "$napkin" explain examples/lab03_rules.napkin rule6_training_memory.zero0 --flat
# A function's parameters open into their arguments: drill 5's bound is not cut short at the weight bytes.
expect_match explain.flat_arguments 0 '^drill5\.bound = 1 token / \(\(32 · \(4,096 · 32 · 128 param \+ .* · 2 B/param / \(3\.35 TB/s\)\) = 208\.6 token/s$' out -- \
  "$napkin" explain "$drills" drill5.bound --flat
# An input is written exactly: 1,307.4 TFLOP/s / 5.3 TB/s = 246.7 FLOP/B (1,307 would give 246.6).
expect explain.flat_exact_input 0 'regime.ridge = 1,307.4 TFLOP/s / (5.3 TB/s) = 246.7 FLOP/B' -- \
  "$napkin" explain "$exercise" regime.ridge --flat
# A range stands as written; eval of the line gives the same median and interval.
expect explain.flat_range 0 'decode.bandwidth = 8 · 3.35 TB/s · (80% to 90%) = 22.74 TB/s (90%: 21.4–24.1)' -- \
  "$napkin" explain examples/uncertain_decode.napkin decode.bandwidth --flat
expect eval.flat_range 0 '22.74 TB/s (90%: 21.4–24.1)' -- "$napkin" eval '8 · 3.35 TB/s · (80% to 90%)'

# A value per token shows as `4 1/token`, which napkin does not read: the flat line writes it
# `(4 / 1 token)`; 4 per token for 3 tokens is 12.
printf 'let rate = 4 / 1 token\nlet n = 3\nlet x = rate * n * 1 token\n' >"$tmp/per.napkin"
expect explain.flat_per_unit 0 'x = (4 / 1 token) · 3 token = 12' -- "$napkin" explain "$tmp/per.napkin" x --flat
expect eval.flat_per_unit 0 '12' -- "$napkin" eval '(4 / 1 token) · 3 token'

# A call made again with the same arguments is explained once, and marked
# "(explained above)" after that, unless the first copy was cut off by
# --depth and this one may go deeper.
printf 'fn m(x) = x * 2 + 1\nfn g(x) = m(x) + 3\nrecord r {\n  n = 2\n  a = g(n)\n  deep = ((a + 1) + 1)\n  t = deep + g(n)\n}\n' >"$tmp/again.napkin"
expect_match explain.call_again 0 '^└── g\(n\) = 8  \(explained above\)$' out -- "$napkin" explain "$tmp/again.napkin" r.t
expect_match explain.call_again_deeper 0 '^    └── m\(x\) = x · 2 \+ 1$' out -- "$napkin" explain "$tmp/again.napkin" r.t --depth 3

# A record has no derivation of its own: explain names fields worth asking.
expect_match explain.record 2 '^<explain>:1:1: error\[E0800\]: `decode` is a record: napkin explain explains one value, a field of it$' err -- "$napkin" explain examples/exercise1_size_a_model.napkin decode
expect_match explain.record.headline 2 'help: name a field, such as run\.step_time, run\.memory_per_gpu' err -- "$napkin" explain examples/plan_70b_on_512_gpus.napkin run

# --depth -1 is every level, as solve reads it; -2 is no depth.
"$napkin" explain examples/exercise1_size_a_model.napkin decode.tokens_per_s > "$tmp/all_levels" 2>&1
expect_match explain.depth_all 0 '' out -- "$napkin" explain examples/exercise1_size_a_model.napkin decode.tokens_per_s --depth -1
if cmp -s "$tmp/all_levels" "$tmp/out"; then passes=$((passes + 1)); else echo "FAIL explain.depth_all.same: --depth -1 differs from the default"; failures=$((failures + 1)); fi
expect_match explain.depth_negative 2 'a depth is 0 or more levels, or -1 for all, but this is -2' err -- "$napkin" explain examples/exercise1_size_a_model.napkin decode.tokens_per_s --depth -2
finish
