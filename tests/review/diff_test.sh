#!/usr/bin/env bash
# `napkin diff`, run for real.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"

# The exercise with 48 KV heads instead of 8: kv_heads is the changed input,
# the KV cache grows 6×, and the decode ceiling with the KV cache falls.
cp examples/exercise1_size_a_model.napkin "$tmp/old.napkin"
sed -E 's/^(  kv_heads +=) 8 /\1 48 /' "$tmp/old.napkin" >"$tmp/new.napkin"
expect_match diff.kv_heads_input 1 '^  drill\.kv_heads +8 → 48$' out -- "$napkin" diff "$tmp/old.napkin" "$tmp/new.napkin"
expect_match diff.kv_cache_6x 1 '^  kv_cache\.per_sequence +1\.5 → 9 GiB +\+500% \(×6\)$' out -- "$napkin" diff "$tmp/old.napkin" "$tmp/new.napkin"
expect_match diff.ceiling_falls 1 '^  decode\.tokens_per_s_with_kv +130\.4 → 96\.85 token/s +-25\.8%$' out -- "$napkin" diff "$tmp/old.napkin" "$tmp/new.napkin"
"$napkin" diff "$tmp/old.napkin" "$tmp/new.napkin" >"$tmp/diff.txt"
expect_order diff.inputs_first "$tmp/diff.txt" '^inputs changed' '^values moved'
expect_order diff.largest_first "$tmp/diff.txt" 'kv_cache\.per_sequence' 'decode\.tokens_per_s_with_kv'
expect_match diff.checks_that_broke 1 '✗ check kv_cache\.per_token == 196_608 B/token  \(passed before\)' out -- "$napkin" diff "$tmp/old.napkin" "$tmp/new.napkin"

# Exit 0 when nothing moved; a new layout is no change.
"$napkin" fmt "$tmp/old.napkin" >"$tmp/reformatted.napkin"
expect_match diff.same 0 '^no value moved$' out -- "$napkin" diff "$tmp/old.napkin" "$tmp/old.napkin"
expect_match diff.layout_only 0 '^no value moved$' out -- "$napkin" diff "$tmp/old.napkin" "$tmp/reformatted.napkin"

# --threshold hides small moves; nothing left means exit 0.
expect_match diff.threshold 1 '\([0-9]+ smaller moves hidden by --threshold\)' out -- "$napkin" diff --threshold 20% "$tmp/old.napkin" "$tmp/new.napkin"
expect_match diff.threshold_all 0 'no value moved past the threshold' out -- "$napkin" diff --threshold 1000% "$tmp/old.napkin" "$tmp/new.napkin"
expect_match diff.threshold_bad 2 'not a fraction or a percentage' err -- "$napkin" diff --threshold lots "$tmp/old.napkin" "$tmp/new.napkin"
# A bare 10 would hide every move under 1000% and pass the gate: refused,
# with the spelling meant; so is 1, a likely slip for 1% (100% as a
# fraction), and 1e1 is spelt back as 10.
expect_match diff.threshold_bare_percent 2 '^error\[E0800\]: --threshold 10 reads as a move of 1000%: write 10% for 10 percent, or a fraction below 1 \(0\.1 is 10%\)$' err -- "$napkin" diff --threshold 10 "$tmp/old.napkin" "$tmp/new.napkin"
expect_match diff.threshold_one 2 '^error\[E0800\]: --threshold 1 reads as a move of 100%: write 1% for 1 percent' err -- "$napkin" diff --threshold 1 "$tmp/old.napkin" "$tmp/new.napkin"
expect_match diff.threshold_exponent 2 'write 10% for 10 percent' err -- "$napkin" diff --threshold 1e1 "$tmp/old.napkin" "$tmp/new.napkin"

# Formats for bots and review comments.
expect_match diff.json 1 '"name": "kv_cache.per_sequence"' out -- "$napkin" diff --format json "$tmp/old.napkin" "$tmp/new.napkin"
expect_match diff.json_change 1 '"change": 5\.0' out -- "$napkin" diff --format json "$tmp/old.napkin" "$tmp/new.napkin"
expect_match diff.markdown 1 '^\| `kv_cache\.per_sequence` \| 1\.5 GiB \| 9 GiB \| \+500% \(×6\) \|$' out -- "$napkin" diff --format markdown "$tmp/old.napkin" "$tmp/new.napkin"

# --explain: the path from the value down to the input that moved it.
expect_match explain.input 1 '^≠ .*drill\.kv_heads = 8 +│ 48$' out -- "$napkin" diff --explain decode.tokens_per_s_with_kv "$tmp/old.napkin" "$tmp/new.napkin"
expect_match explain.result 1 '^≠ .*= 130\.4 token/s +│ 96\.85 token/s$' out -- "$napkin" diff --explain decode.tokens_per_s_with_kv "$tmp/old.napkin" "$tmp/new.napkin"
expect_match explain.unchanged 0 'decode\.batch = 1' out -- "$napkin" diff --explain decode.batch "$tmp/old.napkin" "$tmp/new.napkin"
expect_match explain.missing 2 'decode has no field `nonexistent`' err -- "$napkin" diff --explain decode.nonexistent "$tmp/old.napkin" "$tmp/new.napkin"

# A version read from a pipe imports from the other version's directory,
# or from --base-dir.
mkdir -p "$tmp/plans"
printf 'hardware h {\n  bw = 2 TB/s\n}\n' >"$tmp/plans/hw.napkin"
printf 'import "hw.napkin"\nscenario s {\n  bytes = 16 GB\n  t = bytes / h.bw\n}\n' >"$tmp/plans/plan.napkin"
sed 's/16 GB/32 GB/' "$tmp/plans/plan.napkin" >"$tmp/plans/plan2.napkin"
expect_match diff.pipe 1 '^  s\.t +8 → 16 ms +\+100% \(×2\)$' out -- bash -c '"$1" diff <(cat "$2") "$3"' _ "$napkin" "$tmp/plans/plan.napkin" "$tmp/plans/plan2.napkin"
expect_match diff.base_dir 1 '^  s\.bytes +16 GB → 32 GB$' out -- bash -c '"$1" diff --base-dir "$2" <(cat "$3") <(cat "$4")' _ "$napkin" "$tmp/plans" "$tmp/plans/plan.napkin" "$tmp/plans/plan2.napkin"
expect_match diff.no_base_dir 2 'cannot find the file "hw.napkin"' err -- bash -c '"$1" diff <(cat "$2") <(cat "$3")' _ "$napkin" "$tmp/plans/plan.napkin" "$tmp/plans/plan2.napkin"

# A solve statement's answer moves with its inputs. Llama-3-70B in bf16 on
# 4 H100s instead of 8: 4 · 80 GiB = 343.6 GB hold its 141.1 GB of weights
# and, at 2.684 GB of KV cache per 8,192-token sequence,
# floor((343.6 - 141.1) / 2.684) = 75 sequences where 8 GPUs held
# floor((687.2 - 141.1) / 2.684) = 203 (the README's figure); 203 → 75 is -63.1%.
ud=examples/uncertain_decode.napkin ud4=examples/review/uncertain_decode_4_gpus.napkin
expect_match diff.solve_moves 1 '^  solve decode for batch max where fits +203 → 75 +-63\.1% \(÷2\.71\)$' out -- "$napkin" diff "$ud" "$ud4"
# With half the bandwidth no batch reaches 5,000 token/s at its 5th percentile: the answer becomes an error.
expect_match diff.solve_fails 1 '^  solve decode for batch min where p5\(tokens_per_s\) >= 5000 token/s +88 → error\[E0503\]' out -- "$napkin" diff "$ud" "$ud4"
expect_match diff.solve_json 1 '"name": "solve decode for batch max where fits"' out -- "$napkin" diff --format json "$ud" "$ud4"

# A plan's headline figures come right after the file's own fields, before
# what it inherits; a list of domains moves with its inputs and is no row.
# examples/plan_70b_on_512_gpus.napkin's plan (tp 4 · pp 2 · vpp 8) against
# tp 8 · pp 4: its step time is a headline figure.
sed 's/^scenario plan = run with { tp = 4, pp = 2, vpp = 8, micro_batch = 1 }$/scenario plan = run with { tp = 8, pp = 4, vpp = 1, micro_batch = 1 }/' \
  examples/plan_70b_on_512_gpus.napkin >"$tmp/plan_tp8.napkin"
"$napkin" diff examples/plan_70b_on_512_gpus.napkin "$tmp/plan_tp8.napkin" >"$tmp/plan_diff.txt" || true
rows=$(awk '/^values moved/ {on = 1; next} on && /^  / {print $1} on && !/^  / {exit}' "$tmp/plan_diff.txt" | head -5 | tr '\n' ' ')
if [ "$rows" = "plan.memory_per_gpu plan.step_time plan.days_to_train plan.implied_mfu plan.middle_layers " ] && ! grep -q 'input_domains' "$tmp/plan_diff.txt"; then
  passes=$((passes + 1))
else
  echo "FAIL diff.headline_first: the first rows were: $rows"
  failures=$((failures + 1))
fi

# A node only the new derivation reaches (ZeRO 2 reduces every
# micro-batch's gradients, so its dp_reduce reads microbatches) is marked
# + beside a blank, not paired with an unrelated old line.
sed 's/^scenario plan = run with { tp = 4, pp = 2, vpp = 8, micro_batch = 1 }/scenario plan = run with { tp = 4, pp = 2, vpp = 8, micro_batch = 1, zero_stage = 2 }/' examples/plan_70b_on_512_gpus.napkin > "$tmp/plan_zero2.napkin"
expect_match diff.explain_one_side 1 '^\+ +│ ├── plan\.microbatches = global_batch / \(dp · micro_batch\)$' out -- "$napkin" diff --explain plan.dp_reduce examples/plan_70b_on_512_gpus.napkin "$tmp/plan_zero2.napkin"
expect_in diff.explain_one_side_paired "$tmp/out" '^≠ ├── plan\.zero_stage = 1 +│ 2$'
# A line too wide for two columns is stacked, old (-) above new (+); the
# others stay side by side.
expect_match diff.explain_stacked 1 '^- [│ ]+= 2 FLOP/param · 4,096 · 67,108,864 param / 4$' out -- "$napkin" diff --explain plan.step_time examples/plan_70b_on_512_gpus.napkin "$tmp/plan_tp8.napkin"
expect_in diff.explain_stacked_new "$tmp/out" '^\+ [│ ]+= 2 FLOP/param · 4,096 · 67,108,864 param / 8$'
expect_in diff.explain_side_by_side "$tmp/out" '^≠ │   │   │                 = 1,024 / \(64 · 1\) +│ 1,024 / \(16 · 1\)$'

# Errors are reported as errors.
expect_match diff.missing_file 2 'cannot read' err -- "$napkin" diff "$tmp/nope.napkin" "$tmp/new.napkin"
expect_match diff.one_file 2 'takes two files' err -- "$napkin" diff "$tmp/new.napkin"
# Its --help shows diff's own examples and exit statuses.
expect_match diff.help 0 '^  napkin diff examples/exercise1_size_a_model\.napkin examples/review/exercise1_48_kv_heads\.napkin$' out -- "$napkin" diff --help
expect_in diff.help.exit "$tmp/out" '^Exit status: 0 no value moved \(past the threshold\), 1 one did, 2 a usage'

finish
