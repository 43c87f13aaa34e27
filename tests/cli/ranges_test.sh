#!/usr/bin/env bash
# Ranges as values, run for real: the example's answer as a range in every
# output format, the same bytes on every run, --samples, and the errors.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
ex=examples/uncertain_decode.napkin

expect_match run.text 0 '^  tokens_per_s = 3,206 token/s \(90%: 3,022–3,400\)$' out -- "$napkin" run "$ex"
expect_in run.input "$tmp/out" '^  mfu          = 43\.87% \(90%: 35–55\)$'
expect_match run.steps 0 '^               = 32 · 1 token / \(9\.982 ms \(90%: 9\.41–10\.6\)\)$' out -- "$napkin" run "$ex" --steps=one
# As data: the 95th percentile the text shows as 3,400, of 10,000 samples.
expect_json run.json 0 'abs(d["values"]["decode.tokens_per_s"]["range"]["p95"] - 3400) < 0.5 and d["values"]["decode.tokens_per_s"]["range"]["samples"] == 10000' -- \
  "$napkin" run "$ex" --format json
expect_match run.toml 0 '^ +p95 = 3400\.0' out -- "$napkin" run "$ex" --format toml
expect_match run.markdown 0 '3,206 token/s \(90%: 3,022–3,400\)' out -- "$napkin" run "$ex" --format markdown
# The interval is set off from the median by a space, its level `90\%` and a colon as text: 3,206 token/s (90%: 3,022–3,400).
expect_match run.latex 0 '3\{,\}206\\,\\mathrm\{token/s\} \\ \( 90\\% \\text\{:\}\\  3\{,\}022 \\text\{--\} 3\{,\}400 \)' out -- "$napkin" run "$ex" --format latex
expect_match explain 0 '^decode\.tokens_per_s = batch · 1 token / step_time$' out -- "$napkin" explain "$ex" decode.tokens_per_s
expect_in explain.leaf "$tmp/out" 'decode\.bw_frac = 84\.85% \(90%: 80–90\)'

# The same bytes on every run.
"$napkin" run "$ex" --format json >"$tmp/a.json"
"$napkin" run "$ex" --format json >"$tmp/b.json"
expect run.reproducible 0 "" -- cmp "$tmp/a.json" "$tmp/b.json"

# --samples: more samples, the same interval to within their noise.
expect samples 0 '5 (90%: 4.46–5.54)' -- "$napkin" eval --samples 100000 'normal(5, 0.33)'
expect samples.p5 0 '5' -- "$napkin" eval --samples 100000 'round(p5(5 to 10) * 1000) / 1000'
expect samples.p95 0 '10' -- "$napkin" eval --samples 100000 'round(p95(5 to 10) * 1000) / 1000' 
expect_match samples.bad 2 'samples' err -- "$napkin" eval --samples 1 '1 to 2'

# Sensitivity: a range input's share of the variance.
expect_match sens.variance 0 '^variance: ' out -- "$napkin" sensitivity "$ex" decode.tokens_per_s
# Decode is memory-bound: all of the variance is the bandwidth fraction's, none the mfu's.
expect_json sens.json 0 '{i["input"]: i.get("variance_share") for i in d["inputs"]}["decode.bw_frac"] == 1 and {i["input"]: i.get("variance_share") for i in d["inputs"]}["decode.mfu"] == 0' -- \
  "$napkin" sensitivity "$ex" decode.tokens_per_s --format json

# A comparison of a range says what to compare instead.
expect_match compare 2 'error\[E0211\]' err -- "$napkin" eval '(1 GB to 2 GB) <= 80 GB'
expect_in compare.help "$tmp/err" 'p95\('
expect_match compare.ok 0 '^true$' out -- "$napkin" eval 'p95(1 GB to 2 GB) <= 80 GB'

finish
