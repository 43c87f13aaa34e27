#!/usr/bin/env bash
# Run for real: a student's mistake never passes silently.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"

# 1. A misspelt input in `extends` is an error, not a new field.
cat >"$tmp/typo.napkin" <<'NAPKIN'
import "std/transformer"
model m extends transformer { layers = 48, d_model = 6144, heads = 48, kv_head = 8, d_ffn = 16384, mlp = swiglu, vocab = 64000 }
NAPKIN
expect_match typo.error 2 'error\[E0308\].*did you mean its input `kv_heads`' err -- "$napkin" run "$tmp/typo.napkin"
expect_match typo.check 2 'E0308' err -- "$napkin" check "$tmp/typo.napkin"

# 2 and 3. A broken file: `check` is never green on it; `run` shows every
# value it can, marks the failed ones and reports every error.
cat >"$tmp/broken.napkin" <<'NAPKIN'
import "std/hardware"
let a = 1 GB
let t = 39 GB / h100.memory_bandwidth
let z = 1 / 0
scenario s {
  x = y + 1
  y = x + 1
  ok = 3
}
check a == 1 GB
NAPKIN
expect_match check.broken_exit_2 2 '1 passed, 0 failed, 3 errors' out -- "$napkin" check "$tmp/broken.napkin"
expect_match check.names_typo 2 'broken.napkin:3:17: error\[E0300\]: unknown name `h100`' err -- "$napkin" check "$tmp/broken.napkin"
expect_match check.names_division 2 'broken.napkin:4:13: error\[E0400\]' err -- "$napkin" check "$tmp/broken.napkin"
expect_match check.names_cycle 2 'broken.napkin:7:7: error\[E0303\]' err -- "$napkin" check "$tmp/broken.napkin"
printf 'let z = 1 / 0\n' >"$tmp/no_checks.napkin"
expect_match check.no_checks_still_fails 2 '0 passed, 0 failed, 1 error' out -- "$napkin" check "$tmp/no_checks.napkin"
expect_match run.values_kept 2 '^a = 1 GB$' out -- "$napkin" run "$tmp/broken.napkin"
expect_match run.ok_field_kept 2 '^  ok = 3$' out -- "$napkin" run "$tmp/broken.napkin"
expect_match run.failed_marked 2 '^z = error\[E0400\]: division by zero \(.*broken.napkin:4\)$' out -- "$napkin" run "$tmp/broken.napkin"
expect_match run.all_errors 2 'broken.napkin:7:7: error\[E0303\]' err -- "$napkin" run "$tmp/broken.napkin"
expect_match run.first_error 2 'broken.napkin:3:17: error\[E0300\]' err -- "$napkin" run "$tmp/broken.napkin"
expect_json run.json_error 2 '"E0400" in [e["code"] for e in d["errors"]] and d["values"]["z"]["error"]["code"] == "E0400"' -- \
  "$napkin" run "$tmp/broken.napkin" --format json

# 4. Unit exponents never wrap.
expect_match exponent.mul 2 'error\[E0209\]' err -- "$napkin" eval '1 B^64 * 1 B^64 * 1 B^64 * 1 B^64 + 1'
expect_match exponent.div 2 'error\[E0209\]' err -- "$napkin" eval '1 B^64 / 1 B^-64'

# 5. Equality holds within a few units in the last place.
expect eq.ms_us 0 "true" -- "$napkin" eval '7.362 ms == 7362 us'

# 7. Clearer answers.
expect_match quick.does_not_fit 1 'does not fit: llama3_70b .* needs 141.8 GB, and one h100_sxm holds 85.9 GB' err -- \
  "$napkin" quick --model llama3_70b --gpu h100_sxm
# The figures are std/serving's, as `run` and `sweep` of the same scenario
# print them: Llama-3-8B at batch 66 and 8,192 tokens needs 86.93 GB of an
# H100's 80 GiB (85.9 GB), and decodes 66 · 3.35 TB/s / 86.93 GB = 2,543 token/s.
expect_match quick.figures_kept 1 '^  tokens_per_s += 2,543 token/s$' out -- \
  "$napkin" quick --model llama3_8b --gpu h100_sxm --batch 66 --context 8192
expect_match quick.fits_false 1 '^  memory_fits += false$' out -- "$napkin" quick --model llama3_8b --gpu h100_sxm --batch 66 --context 8192
expect_match quick.says_unfit 1 'does not fit: llama3_8b at batch 66 and context 8192 needs 86.93 GB, and one h100_sxm holds 85.9 GB' err -- \
  "$napkin" quick --model llama3_8b --gpu h100_sxm --batch 66 --context 8192
expect_match quick.no_negative_batch 1 '^  max_batch += 0$' out -- "$napkin" quick --model llama3_70b --gpu h100_sxm
expect_match quick.cost_unit 0 'usd_per_million_tokens += [0-9.]+ USD/Mtoken$' out -- \
  "$napkin" quick --model llama3_8b --gpu h100_sxm
expect_match quick.prefix_suggestion 2 'did you mean `h100_pcie`, `h100_sxm`' err -- "$napkin" quick --model llama3_8b --gpu h100
printf 'let g = mi300x.memory_bandwidth\n' >"$tmp/no_import.napkin"
expect_match suggest.import 2 'add `import "std/hardware"`' err -- "$napkin" run "$tmp/no_import.napkin"
printf 'check 1 ≈ 1 within -1%%\n' >"$tmp/negative.napkin"
expect_match within.negative 2 'error\[E0502\]: a tolerance must be greater than zero' err -- "$napkin" run "$tmp/negative.napkin"

# 8. Review: an input that changed and moved nothing is a change (exit 1).
printf 'record r {\n  used = 1\n  unused = 1\n  out = used * 2\n}\n' >"$tmp/old.napkin"
printf 'record r {\n  used = 1\n  unused = 2\n  out = used * 2\n}\n' >"$tmp/new.napkin"
expect_match diff.input_only_exit_1 1 'r.unused +1 → 2' out -- "$napkin" diff "$tmp/old.napkin" "$tmp/new.napkin"
expect_match diff.same_exit_0 0 '^no value moved$' out -- "$napkin" diff "$tmp/old.napkin" "$tmp/old.napkin"

finish
