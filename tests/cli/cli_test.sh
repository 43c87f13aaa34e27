#!/usr/bin/env bash
# The napkin command, run for real: outputs, exit codes, help and version.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"

expect eval.decode_time 0 "7.362 ms" -- "$napkin" eval '39.02 GB / (5.3 TB/s) -> ms'
expect eval.kv_10_gib 0 "10 GiB" -- "$napkin" eval '2 * 80 * 8 * 128 * 32768 * 2 B -> GiB'
expect eval.gib_is_not_gb 0 "1.074 GB" -- "$napkin" eval '1 GiB'
expect eval.stdlib_loaded 0 "124,439,808 param" -- "$napkin" eval 'gpt2.params'
# No name: evaluated without the standard library, unless it needs one of
# the library's units.
expect eval.library_unit 0 "21,600 request/h" -- "$napkin" eval '2 * 3 request/s -> request/h'
expect_match eval.unknown_unit_suggests 2 'unknown unit `Gib`' err -- "$napkin" eval '1 Gib'
expect eval.digits 0 "7.36226 ms" -- "$napkin" eval --digits 6 '39.02 GB / (5.3 TB/s) -> ms'
expect_match eval.bytes_plus_seconds 2 'cannot add B \(bytes\) and s \(time\)' err -- "$napkin" eval '1 GB + 1 s'
expect_match eval.both_operands_labelled 2 '\^\^\^\^ this is B' err -- "$napkin" eval '1 GB + 1 s'

# The heap's first 2 MiB on a huge page (cli/heap_pages.cpp) is a layout,
# never a result: a run prints the same bytes with it turned off.
ex1="$(dirname "$0")/../../examples/exercise1_size_a_model.napkin"
small_pages=$(NAPKIN_SMALL_PAGES=1 "$napkin" run "$ex1" --steps 2>&1)
expect run.same_with_small_pages 0 "$small_pages" -- "$napkin" run "$ex1" --steps

cat >"$tmp/plan.napkin" <<'NAPKIN'
hardware h { bw = 2 TB/s }
scenario s {
  bytes = 16 GB
  t = bytes / h.bw
}
check s.t ≈ 8 ms within 1%
check s.t ≈ 9 ms within 1%
NAPKIN
expect_match check.fails_exit_1 1 '1 passed, 1 failed' out -- "$napkin" check "$tmp/plan.napkin"
expect_match check.failure_shows_derivation 1 'bytes / h.bw' out -- "$napkin" check "$tmp/plan.napkin"
expect_match check.failure_shows_expected 1 'expected 9 ms: off by 11.1% \(allowed 1%\)' out -- "$napkin" check "$tmp/plan.napkin"
expect_match run.failed_check_exit_1 1 '^✓ check s.t ≈ 8 ms within 1%' out -- "$napkin" run "$tmp/plan.napkin"
expect_match run.steps 1 '= 16 GB / \(2 TB/s\)' out -- "$napkin" run "$tmp/plan.napkin" --steps
expect_match explain.tree 0 '└── h.bw = 2 TB/s' out -- "$napkin" explain "$tmp/plan.napkin" s.t
expect_match explain.expression 0 '= 8 ms' out -- "$napkin" explain "$tmp/plan.napkin" 's.t * 1'
# 16 GB / (2 TB/s) = 8 ms, as data: the value in SI units, its unit, and
# the two checks, the first passing and the second not.
expect_json json.si 1 'd["values"]["s.t"]["si"] == 0.008 and d["values"]["s.t"]["unit"] == "s"' -- \
  "$napkin" run "$tmp/plan.napkin" --format json
expect_json json.checks 1 '[c["passed"] for c in d["checks"]] == [True, False]' -- "$napkin" run "$tmp/plan.napkin" --format json

cat >"$tmp/partial.napkin" <<'NAPKIN'
import "std/hardware"
hardware mine extends gpu {
  memory_bandwidth = 5.3 TB/s
  memory_capacity = 192 GB
  peak_bf16 = 1307.4 TFLOP/s
}
NAPKIN
expect_match run.partial_needs 0 'peak_fp8 += needs peak_fp8 \(declared at std/hardware:[0-9]+\)' out -- "$napkin" run "$tmp/partial.napkin"
expect_match run.partial_ridge 0 'ridge_point += 246.7 FLOP/B' out -- "$napkin" run "$tmp/partial.napkin" --all
# By default `run` shows what the file sets or defines (and what its checks
# use), not the fields each record inherits from the standard library.
expect_match run.own_fields 0 'memory_bandwidth += 5.3 TB/s' out -- "$napkin" run "$tmp/partial.napkin"
expect_no_match run.inherited_hidden 0 'ridge_point' out -- "$napkin" run "$tmp/partial.napkin"
expect_match explain.missing_is_error 2 'E0302' err -- "$napkin" explain "$tmp/partial.napkin" mine.peak_fp8
# A field asked for by its bare name: the help names the record it is in.
expect_match explain.field_needs_record 2 'help: `t` is a field of s: write `s.t`' err -- "$napkin" explain "$tmp/plan.napkin" t

expect_match usage.help 0 'Subcommands:' out -- "$napkin" --help
expect_match usage.help_lists_eval 0 'eval +evaluate one expression' out -- "$napkin" --help
expect_match usage.version 0 '^napkin [0-9]+\.[0-9]+\.[0-9]+' out -- "$napkin" --version
expect_match usage.no_command 2 'A subcommand is required' err -- "$napkin"
expect_match usage.bad_option 2 'unknown|not expected|Extras' err -- "$napkin" run --frobnicate x.napkin
expect_match usage.bad_format 2 'format' err -- "$napkin" run "$tmp/plan.napkin" --format yaml
# A failed check of one name says the name, not `false is false`.
printf 'let fits = 2 GB < 1 GB\ncheck fits\n' >"$tmp/bare.napkin"
expect_match check.bare_name 1 '^    fits is false$' out -- "$napkin" check "$tmp/bare.napkin"
expect_match check.bare_name_error 1 'error\[E0500\]: check failed: fits is false$' err -- "$napkin" run "$tmp/bare.napkin"
# A record that breaks a domain shows no figure in a sweep either: every
# point is the error, and a point whose own value breaks it is too, first
# or not (the sweep is walked when its variable reaches a domain).
printf 'record link {\n  bandwidth: B/s = 50 GB/s\n  size: B = 1 GB\n  domains = [require(bandwidth, bandwidth > 0 B/s, "above 0 B/s")]\n  t = size / bandwidth\n}\nscenario bad = link with { bandwidth = -1 GB/s }\nsweep bad over size in [1 GB, 2 GB] show t\nsweep link over bandwidth in [10 GB/s, -1 GB/s, 20 GB/s] show t\n' >"$tmp/sweep_domain.napkin"
expect_match sweep.domain_base 2 '^  2 GB  error\[E0203\]$' out -- "$napkin" run "$tmp/sweep_domain.napkin"
expect_in sweep.domain_point "$tmp/out" '^    -1 GB/s  error\[E0203\]$'
expect_in sweep.domain_other_point "$tmp/out" '^    10 GB/s +100 ms$'
# An option or argument left out is said in its own words, with how to write it.
expect_match usage.option_needs_value 2 '^error\[E0800\]: --zero needs a value: ZeRO stages to try, 0 to 3' err -- "$napkin" layout "$tmp/plan.napkin" plan --zero
expect_in usage.option_value_written "$tmp/err" 'help: write `--zero N`, or leave --zero out'
expect_match usage.choice_needs_value 2 'help: write `--format text`, or leave --format out' err -- "$napkin" run "$tmp/plan.napkin" --format
expect_match usage.file_missing 2 '^error\[E0800\]: napkin check needs one or more \.napkin files$' err -- "$napkin" check
expect_match usage.plan_missing 2 'help: write `napkin layout FILE\.napkin PLAN`; `napkin layout --help` says more' err -- "$napkin" layout "$tmp/plan.napkin"
expect_match usage.diff_missing 2 'help: write `napkin diff OLD\.napkin NEW\.napkin`' err -- "$napkin" diff
expect_match io.missing_file 2 'E0602.*cannot read' err -- "$napkin" run "$tmp/nope.napkin"
# A unit typo in a measure's fallback is E0200 when the file loads, on every
# machine: with probes on (here, where the probe runs) as with them off.
printf 'hardware h {\n  bw = measure(cpu.copy_bandwidth) else 3 XB/s\n}\n' >"$tmp/fallback_unit.napkin"
expect_match units.fallback_probes_on 2 'fallback_unit\.napkin:2:43: error\[E0200\]: unknown unit `XB`' err -- \
  env -u NAPKIN_NO_MEASURE HOME="$tmp" XDG_CACHE_HOME="$tmp/cache" "$napkin" check "$tmp/fallback_unit.napkin"
expect_match units.fallback_probes_off 2 'fallback_unit\.napkin:2:43: error\[E0200\]' err -- \
  "$napkin" check --no-measure "$tmp/fallback_unit.napkin"

finish
