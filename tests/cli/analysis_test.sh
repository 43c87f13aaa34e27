#!/usr/bin/env bash
# `napkin solve` and `napkin sensitivity`, run for real.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
ex=examples/uncertain_decode.napkin

# Solve: the largest batch that fits in 8×H100, and the batch past it.
expect_match solve.max 0 '^decode\.batch = 185$' out -- "$napkin" solve "$ex" decode --for batch --max fits
expect_in solve.max.holds "$tmp/out" '^  batch = 185: fits is true$'
expect_in solve.max.beyond "$tmp/out" '^  batch = 186: fits is false$'
expect_in solve.max.where_set "$tmp/out" 'batch is set at examples/uncertain_decode.napkin:22'
expect_in solve.max.derivation "$tmp/out" '^decode\.fits = memory <= capacity$'
# (The example's checks put the solved batch back into the record.)
# The speed is a range: the condition compares its 5th percentile.
expect_match solve.min 0 '^decode\.batch = 88$' out -- "$napkin" solve "$ex" decode --for batch --min 'p5(tokens_per_s) >= 5000 token/s'
expect_in solve.min.beyond "$tmp/out" '^  batch = 87: p5\(tokens_per_s\) >= 5000 token/s is false$'
expect_match solve.range 2 'error\[E0211\]' err -- "$napkin" solve "$ex" decode --for batch --min 'tokens_per_s >= 5000 token/s'
expect_match solve.equal.real 0 '^decode\.bw_frac = 0\.7941$' out -- "$napkin" solve "$ex" decode --for bw_frac --where 'tokens_per_s == 3000 token/s'
expect_match solve.bracket 0 'holds at the end of the bracket' out -- "$napkin" solve "$ex" decode --for batch --max fits --lo 1 --hi 100
expect_match solve.json 0 '"solution": \{' out -- "$napkin" solve "$ex" decode --for batch --max fits --format json
expect_in solve.json.si "$tmp/out" '"si": 185'
expect_in solve.json.beyond "$tmp/out" '"beyond"'

# Errors: no solution (E0503), a condition that is not one, usage.
expect_match solve.no_solution 2 'error\[E0503\]: no solution in \[300, 400\]' err -- "$napkin" solve "$ex" decode --for batch --max fits --lo 300 --hi 400
expect_match solve.unreachable 2 'error\[E0503\]' err -- "$napkin" solve "$ex" decode --for batch --where 'tokens_per_s == 1e9 token/s'
expect_match solve.not_bool 2 'error\[E0207\]' err -- "$napkin" solve "$ex" decode --for batch --max memory
expect_match solve.not_equation 2 'error\[E0800\]: `where` needs an equation' err -- "$napkin" solve "$ex" decode --for batch --where fits
expect_match solve.typo 2 'did you mean `batch`' err -- "$napkin" solve "$ex" decode --for bach --max fits
expect_match solve.two_goals 2 'exactly one of' err -- "$napkin" solve "$ex" decode --for batch --max fits --min fits
expect_match solve.half_bracket 2 'both ends of the bracket' err -- "$napkin" solve "$ex" decode --for batch --max fits --lo 3
expect_match solve.not_record 2 'error\[E0305\]' err -- "$napkin" solve "$ex" 'decode.batch' --for batch --max fits

# Sensitivity: bandwidth one for one and exactly, MFU not at all (memory-bound);
# the bandwidth range carries all of the speed's variance.
expect_match sens.text 0 '^decode\.tokens_per_s = 3,206 token/s \(90%: 3,022–3,400\)$' out -- "$napkin" sensitivity "$ex" decode.tokens_per_s
expect_in sens.bandwidth "$tmp/out" '^  decode\.gpu\.memory_bandwidth +3\.35 TB/s +\+1 \(exact\) +- +std/hardware:37$'
expect_in sens.bw_frac "$tmp/out" '^  decode\.bw_frac +84\.85% \(90%: 80–90\) +\+1 \(exact\) +100% +examples/uncertain_decode\.napkin:25$'
expect_in sens.mfu "$tmp/out" '^  decode\.mfu +43\.87% \(90%: 35–55\) +0 \(exact\) +0% '
expect_in sens.batch "$tmp/out" '^  decode\.batch +32 +\+0\.6216 '
expect_order sens.ranked "$tmp/out" 'decode\.bw_frac' 'decode\.batch '
expect_match sens.kv_layers 0 '^  decode\.model\.layers +80 +\+1 \(exact\) +std/models:75$' out -- "$napkin" sensitivity "$ex" decode.kv_bytes
expect_in sens.kv_heads "$tmp/out" '^  decode\.model\.kv_heads +8 +\+1 \(exact\)'
expect_match sens.json 0 '"elasticity": 1\.0' out -- "$napkin" sensitivity "$ex" decode.kv_bytes --format json
expect_in sens.json.exact "$tmp/out" '"exact": true'
expect_in sens.json.set_at "$tmp/out" '"set_at": "std/models:75"'
expect_match sens.not_field 2 'error\[E0800\]' err -- "$napkin" sensitivity "$ex" decode
expect_match sens.not_number 2 'error\[E0207\]' err -- "$napkin" sensitivity "$ex" decode.fits

# `solve` statements in the file: run prints what they found, JSON too.
expect_match stmt.run 0 '^solve decode for batch max where fits$' out -- "$napkin" run "$ex"
expect_in stmt.max "$tmp/out" '^  decode\.batch = 185$'
expect_in stmt.min "$tmp/out" '^  decode\.batch = 88$'
expect_in stmt.beyond "$tmp/out" '^    batch = 87: p5\(tokens_per_s\) >= 5000 token/s is false$'
expect_match stmt.steps 0 '^at batch = 185:$' out -- "$napkin" run "$ex" --steps
expect_match stmt.json 0 '"solves": \[' out -- "$napkin" run "$ex" --format json
expect_in stmt.json.valid "$tmp/out" '"goal": "max"'
"$napkin" run "$ex" --format json | python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["solves"][0]["solution"]["si"] == 185' \
  && passes=$((passes + 1)) || { echo "FAIL stmt.json.parse"; failures=$((failures + 1)); }
# A million samples a range: the points a solve tries and leaves give their
# ranges back, so the search stays under the 40,000,000 samples held at once.
expect_match stmt.million_samples 0 '^  decode\.batch = 88$' out -- "$napkin" run "$ex" --samples 1000000
expect_in stmt.million_samples.max "$tmp/out" '^  decode\.batch = 185$'
expect_status stmt.fmt 0 -- "$napkin" fmt --check "$ex"
expect_match stmt.check 0 '^7 passed, 0 failed$' out -- "$napkin" check "$ex"
expect_match stmt.check.none 2 'error\[E0503\]: no solution in \[300, 400\]' err -- "$napkin" check tests/errors/solve_no_solution.napkin
expect_match stmt.markdown 0 '^## solve$' out -- "$napkin" run "$ex" --format markdown
expect_in stmt.markdown.max "$tmp/out" '^  decode\.batch = 185$'
# TOML and LaTeX carry them too (they were left out before).
expect_match stmt.toml 0 '^\[\[solves\]\]$' out -- "$napkin" run "$ex" --format toml
expect_in stmt.toml.goal "$tmp/out" "^goal = 'max'$"
expect_in stmt.toml.second "$tmp/out" "^condition = 'p5\(tokens_per_s\) >= 5000 token/s'$"
"$napkin" run "$ex" --format toml | python3 -c 'import sys, tomllib; d = tomllib.loads(sys.stdin.read()); assert [s["solution"]["si"] for s in d["solves"]] == [185, 88], d["solves"]' \
  && passes=$((passes + 1)) || { echo "FAIL stmt.toml.parse"; failures=$((failures + 1)); }
expect_match stmt.latex 0 '^\\section\*\{solve\}$' out -- "$napkin" run "$ex" --format latex
expect_in stmt.latex.statement "$tmp/out" '^\\item \\texttt\{solve decode for batch max where fits\}\\\\$'
expect_in stmt.latex.found "$tmp/out" '^\\hspace\*\{1em\}decode\.batch = 185\\\\$'
expect_in stmt.latex.beyond "$tmp/out" '^\\hspace\*\{2em\}batch = 186: fits is false$'
expect_order stmt.latex.before_end "$tmp/out" 'section\*\{solve\}' 'end\{document\}'
cp "$tmp/out" "$tmp/solve.tex"
expect_match stmt.latex.compiles 0 '^ok ' out -- "$(dirname "$0")/../golden/formats/pdflatex.sh" "$tmp/solve.tex"

finish
