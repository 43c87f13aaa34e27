#!/usr/bin/env bash
# Hostile inputs past the parser, one check (or a few) per class of failure:
# probe arguments, hangs, cost that grows faster than input,
# unbounded reads, file damage, lost output, misleading errors. Each command
# runs under `limit`: 2 s of wall time and 500 MB of memory, or it fails.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
export NAPKIN_NO_MEASURE=1

# Every command here: at most 2 s (timeout exits 124) and 500 MB. The cost
# cases run under `limit_work`, 10 s: each does a second or so of real work
# at the documented limits (a 100,000-field record copied, 40,000,000
# samples drawn, a million points written), which a loaded 2-core machine
# can stretch past 2 s; growth faster than linear in any of them takes
# minutes, so 10 s still tells it apart.
# Under AddressSanitizer (.ci/sanitize sets NAPKIN_SANITIZED) the shadow
# memory alone is terabytes of address space and every step is slower: there
# only the hang bound applies, at 20 s (60 s for the cost cases).
if [ -n "${NAPKIN_SANITIZED:-}" ]; then
  limit() { timeout 20 "$@"; }
  limit_work() { timeout 60 "$@"; }
else
  limit() { (ulimit -v 500000 2>/dev/null; exec timeout 2 "$@"); }
  limit_work() { (ulimit -v 500000 2>/dev/null; exec timeout 10 "$@"); }
fi

# --- Probe arguments: an error at the call, never an abort or UB.
echo 'let bw = measure(cpu.copy_bandwidth, threads = 1e300) else 1 GB/s' >"$tmp/threads.napkin"
expect_match probe.threads_huge 2 'E0306.*`threads` must be a whole number from 1 to' err -- limit "$napkin" run "$tmp/threads.napkin"
echo 'let bw = measure(cpu.copy_bandwidth, threads = 2.5) else 1 GB/s' >"$tmp/threads2.napkin"
expect_match probe.threads_fraction 2 'E0306' err -- limit "$napkin" run "$tmp/threads2.napkin"
echo 'let bw = measure(cpu.copy_bandwidth, thread = 2) else 1 GB/s' >"$tmp/threads3.napkin"
expect_match probe.unknown_argument 2 'E0306.*has no argument `thread`' err -- limit "$napkin" run "$tmp/threads3.napkin"

# --- Hangs: a FIFO is never opened for a blocking read; a did-you-mean on
# a huge name is cheap.
mkfifo "$tmp/fifo.napkin"
echo 'import "fifo.napkin"' >"$tmp/import_fifo.napkin"
expect_match hang.import_fifo 2 'E0603.*not a regular file' err -- limit "$napkin" run "$tmp/import_fifo.napkin"
expect_match hang.fmt_w_fifo 2 'cannot read .*not a regular file' err -- limit "$napkin" fmt -w "$tmp/fifo.napkin"
test -p "$tmp/fifo.napkin" && passes=$((passes + 1)) || { echo "FAIL hang.fifo_kept: the FIFO was replaced"; failures=$((failures + 1)); }
awk 'BEGIN { printf "let x = "; for (i = 0; i < 120000; i++) printf "a"; print "" }' >"$tmp/long_name.napkin"
expect_match hang.long_name_suggestion 2 'E0300' err -- limit "$napkin" run "$tmp/long_name.napkin"

# --- Cost: a 3,000-deep extends chain and 100 `with`s of a 100,000-field
# record end at the documented limit on fields held (E0702); a sweep of the
# most points allowed, 1,000 x 1,000, is written whole as CSV, and JSON,
# which would be half a gigabyte, is E0702 at the sweep.
awk 'BEGIN { print "record r0 { f0: count = 0 }"; for (i = 1; i < 3000; i++) printf "record r%d extends r%d { f%d: count = %d }\n", i, i - 1, i, i }' >"$tmp/chain.napkin"
expect_match cost.extends_chain_run 2 'chain.napkin:707:8: error\[E0702\]' err -- limit_work "$napkin" run "$tmp/chain.napkin"
expect_match cost.extends_chain_check 2 'chain.napkin:707:8: error\[E0702\]' err -- limit_work "$napkin" check "$tmp/chain.napkin"
awk 'BEGIN { print "record w0 {"; for (i = 0; i < 100000; i++) printf "  f%d = %d\n", i, i; print "}"
             for (i = 1; i <= 100; i++) printf "record w%d = w%d with { f%d = 1 }\n", i, i - 1, i }' >"$tmp/with.napkin"
expect_match cost.wide_with_run 2 'with.napkin:100004:13: error\[E0702\]' err -- limit_work "$napkin" run "$tmp/with.napkin"
expect_match cost.wide_with_check 2 'with.napkin:100004:13: error\[E0702\]' err -- limit_work "$napkin" check "$tmp/with.napkin"
awk -v ex="$PWD/examples/exercise1_size_a_model.napkin" -f bench/million_sweep.awk >"$tmp/million.napkin"
expect_status cost.million_point_sweep_csv 0 -- limit_work sh -c '"$0" sweep "$1" --format csv >"$2"' "$napkin" "$tmp/million.napkin" "$tmp/million.csv"
expect cost.million_point_sweep_rows 0 1000001 -- sh -c 'wc -l <"$0"' "$tmp/million.csv"
expect_in cost.million_point_sweep_last "$tmp/million.csv" '^1000,64000,135829\.[0-9]+,419\.9[0-9]*$'
expect_match cost.million_point_sweep_json 2 'million.napkin:2:1: error\[E0702\]: sweep decode over batch, context has 1,000,000 points, and JSON shows at most 100,000' err -- limit "$napkin" sweep "$tmp/million.napkin" --format json
expect_match cost.million_point_sweep_toml 2 'E0702\]: sweep decode over batch, context has 1,000,000 points, and TOML shows at most 10,000' err -- limit "$napkin" run "$tmp/million.napkin" --format toml
expect_match cost.million_point_sweep_latex 2 'E0702\]: sweep decode over batch, context has 1,000,000 points, and LaTeX shows at most 10,000' err -- limit "$napkin" run "$tmp/million.napkin" --format latex

# Ranges: at most 1,000,000 samples each, and 40,000,000 held by the ranges
# alive at once (E0702 at the range that would pass it).
expect_match cost.samples_per_range 2 'not in range 2 to 1000000' err -- limit "$napkin" eval --samples 10000000 '1 to 2'
awk 'BEGIN { print "let a = 1 to 2"; for (i = 1; i <= 60; i++) printf "let x%d = a * %d + (1 to 3)\n", i, i }' >"$tmp/ranges.napkin"
expect_match cost.samples_held 2 'ranges.napkin:21:21: error\[E0702\]: this range would hold 1,000,000 samples' err -- limit_work "$napkin" run "$tmp/ranges.napkin" --samples 1000000

# --- Unbounded reads: only regular files, each with a cap.
echo 'hardware h = import_toml("/dev/zero")' >"$tmp/toml_zero.napkin"
expect_match read.toml_device 2 'E0603.*"/dev/zero" is not a TOML profile' err -- limit "$napkin" run "$tmp/toml_zero.napkin"
echo 'hardware h = import_toml(".")' >"$tmp/toml_dir.napkin"
expect_match read.toml_directory 2 'E0603.*"\." is not a TOML profile' err -- limit "$napkin" run "$tmp/toml_dir.napkin"
echo 'import "/dev/zero"' >"$tmp/import_zero.napkin"
expect_match read.import_device 2 'E0603.*"/dev/zero" is not napkin source' err -- limit "$napkin" run "$tmp/import_zero.napkin"
expect_match read.stdlib_missing 2 'Directory does not exist' err -- limit "$napkin" eval --stdlib "$tmp/none" '1 + 1'
mkdir -p "$tmp/std" && ln -s /dev/zero "$tmp/std/models.napkin"
expect_match read.stdlib_device 2 'E0602.*not a regular file' err -- limit "$napkin" eval --stdlib "$tmp/std" 'llama3_8b.params'

# --- File damage: only regular files the user may write are replaced.
printf 'let  x=1\n' >"$tmp/ro.napkin" && chmod 0444 "$tmp/ro.napkin"
expect_match damage.fmt_read_only 2 'E0602.*it is read-only' err -- limit "$napkin" fmt -w "$tmp/ro.napkin"
expect_in damage.read_only_unchanged "$tmp/ro.napkin" '^let  x=1$'
printf 'let  x=1\n' >"$tmp/linked.napkin" && ln "$tmp/linked.napkin" "$tmp/link2.napkin"
expect_status damage.fmt_hard_link 0 -- limit "$napkin" fmt -w "$tmp/linked.napkin"
expect_in damage.hard_link_kept "$tmp/link2.napkin" '^let x = 1$'
if [ "$(id -u)" = 0 ]; then  # only root can give a file to another owner
  printf 'let  x=1\n' >"$tmp/owned.napkin" && chown 1234:5678 "$tmp/owned.napkin" && chmod 0640 "$tmp/owned.napkin"
  "$napkin" fmt -w "$tmp/owned.napkin"
  expect "damage.owner_kept" 0 "1234:5678:640" -- stat -c '%u:%g:%a' "$tmp/owned.napkin"
fi
cp examples/decode_batch_sweep.napkin "$tmp/sweep.napkin"
expect_match damage.plot_dev_full 2 'E0602.*/dev/full: No space left' err -- limit "$napkin" plot sweep "$tmp/sweep.napkin" -o /dev/full
test -c /dev/full && passes=$((passes + 1)) || { echo "FAIL damage.dev_full_kept: /dev/full is no longer a device"; failures=$((failures + 1)); }
mkdir "$tmp/outdir"
expect_match damage.plot_to_directory 2 'E0602.*it is a directory' err -- limit "$napkin" plot sweep "$tmp/sweep.napkin" -o "$tmp/outdir"
echo 'not a napkin cache' >"$tmp/foreign.toml"
echo 'let bw = measure(cpu.copy_bandwidth, threads = 1) else 1 GB/s' >"$tmp/probe1.napkin"
NAPKIN_NO_MEASURE= NAPKIN_MEASURE_CACHE=$tmp/foreign.toml NAPKIN_CPU_ARRAY_MIB=1 timeout 60 "$napkin" run "$tmp/probe1.napkin" >/dev/null 2>&1
expect_in damage.cache_foreign_kept "$tmp/foreign.toml" '^not a napkin cache$'

# --- Lost output: a write error is exit 2 with a message.
echo 'let x = 1' >"$tmp/ok.napkin"
expect_match lost.run_dev_full 2 'E0602.*cannot write the output' err -- sh -c '"$0" run "$1" >/dev/full' "$napkin" "$tmp/ok.napkin"
expect_match lost.explain_dev_full 2 'E0602' err -- sh -c '"$0" explain "$1" x >/dev/full' "$napkin" "$tmp/ok.napkin"
expect_match lost.check_dev_full 2 'E0602' err -- sh -c '"$0" check "$1" >/dev/full' "$napkin" "$tmp/ok.napkin"
expect_match lost.fmt_dev_full 2 'E0602' err -- sh -c '"$0" fmt "$1" >/dev/full' "$napkin" "$tmp/ok.napkin"
"$napkin" run --steps examples/exercise1_size_a_model.napkin 2>"$tmp/pipe_err" | head -c 1 >/dev/null
rc=${PIPESTATUS[0]}
if [ "$rc" -ge 128 ]; then echo "FAIL lost.closed_pipe: killed by signal $((rc - 128))"; failures=$((failures + 1)); else passes=$((passes + 1)); fi

# --- Misleading errors: CLI values are checked before they become source.
expect_match usage.quick_mfu_zero 2 'E0800.*--mfu 0 is out of range' err -- limit "$napkin" quick --model llama3_8b --gpu h100_sxm --mfu 0
expect_match usage.quick_batch_nan 2 'E0800.*--batch nan is out of range' err -- limit "$napkin" quick --model llama3_8b --gpu h100_sxm --batch nan
expect_match usage.quick_batch_fraction 2 '^error\[E0800\]: --batch 1\.5 is not a whole number of sequences$' err -- limit "$napkin" quick --model llama3_8b --gpu h100_sxm --batch 1.5
expect_match usage.plot_sweep_zero 2 'not in range 1 to 1000000' err -- limit "$napkin" plot sweep "$tmp/sweep.napkin" --sweep 0
expect_match usage.threshold_nan 2 'threshold nan% is not' err -- limit "$napkin" diff "$tmp/ok.napkin" "$tmp/ok.napkin" --threshold nan%
printf 'let a = 1\rlet b = 2\rlet c = a + 1 s\r' >"$tmp/cr.napkin"
expect_match errors.cr_only_line 2 'cr.napkin:3:' err -- limit "$napkin" run "$tmp/cr.napkin"
printf 'let s = "\033[31m\007" + 1\n' >"$tmp/esc.napkin"
expect_match errors.control_escaped 2 '\\x1b\[31m\\x07' err -- limit "$napkin" run "$tmp/esc.napkin"
if LC_ALL=C grep -q $'\033' "$tmp/err"; then echo "FAIL errors.no_raw_escape: ESC reached stderr"; failures=$((failures + 1)); else passes=$((passes + 1)); fi

finish
