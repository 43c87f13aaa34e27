#!/usr/bin/env bash
# Files napkin writes, and messages that must carry a code and a place:
# outputs never written through a planted link, a file-size limit never
# leaves a file half rewritten, no temporary is left behind, a folder that
# allows no atomic replacement is refused; the measurement cache locks and
# merges and says one true thing; errors at a sweep point, in a --stdlib
# module, in an imported TOML file, in a plot's input each name their code
# and place; fmt of a large file stays within a small multiple of it.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
export NAPKIN_NO_MEASURE=1
ex=$PWD/examples/exercise1_size_a_model.napkin
# Nothing but the file and the link may be in a folder after a write.
entries() { ls -A "$1" | wc -l; }

# --- Links: a link planted in a shared (sticky, world-writable) folder is
# refused, the file it points at and the link both stay as they were.
mkdir -m 1777 "$tmp/shared"
echo 'secret = 1' >"$tmp/victim.conf"
ln -s "$tmp/victim.conf" "$tmp/shared/report.svg"
expect_match link.refused 2 'E0602.*report.svg: it is a symbolic link to .*victim.conf, and napkin does not write through links' err -- \
  "$napkin" plot roofline "$ex" -o "$tmp/shared/report.svg"
expect link.victim_kept 0 'secret = 1' -- cat "$tmp/victim.conf"
expect_status link.kept 0 -- test -L "$tmp/shared/report.svg"
printf 'let  a = 1\n' >"$tmp/real.napkin"
ln -s real.napkin "$tmp/link.napkin"
expect_match link.fmt_refused 2 'does not write through links' err -- "$napkin" fmt -w "$tmp/link.napkin"
expect link.fmt_target_kept 0 'let  a = 1' -- cat "$tmp/real.napkin"
expect_status link.target_named 0 -- "$napkin" fmt -w "$tmp/real.napkin"
expect link.target_written 0 'let a = 1' -- cat "$tmp/real.napkin"

# --- File-size limit (`ulimit -f`, 1,024-byte blocks): the write fails with
# EFBIG, and the original stays whole, hard-linked or not, with no
# temporary left beside it.
mkdir "$tmp/limit"
awk 'BEGIN { for (i = 0; i < 200000; i++) print "let  a" i " =  " i }' >"$tmp/limit/a.napkin"
cp "$tmp/limit/a.napkin" "$tmp/original"
ln "$tmp/limit/a.napkin" "$tmp/limit/b.napkin"
expect_match limit.hard_link_refused 2 'cannot write .*a.napkin: File too large' err -- \
  sh -c 'ulimit -f 1000; exec "$0" fmt -w "$1"' "$napkin" "$tmp/limit/a.napkin"
expect_status limit.hard_link_whole 0 -- cmp -s "$tmp/limit/a.napkin" "$tmp/original"
rm "$tmp/limit/b.napkin"
expect_match limit.plain_refused 2 'cannot write .*a.napkin: File too large \(at the write step\)' err -- \
  sh -c 'ulimit -f 1000; exec "$0" fmt -w "$1"' "$napkin" "$tmp/limit/a.napkin"
expect_status limit.plain_whole 0 -- cmp -s "$tmp/limit/a.napkin" "$tmp/original"
expect limit.no_temporary 0 1 -- entries "$tmp/limit"
# A hard-linked file rewritten in place is said to be.
ln "$tmp/limit/a.napkin" "$tmp/limit/b.napkin"
expect_match limit.in_place_said 0 'note: .*a.napkin was rewritten in place, not replaced whole: it has 2 hard links' err -- \
  "$napkin" fmt -w "$tmp/limit/a.napkin"
expect_status limit.link_kept 0 -- cmp -s "$tmp/limit/a.napkin" "$tmp/limit/b.napkin"

# --- A read-only folder (no write bit, so for root too): `fmt -w` of a
# writable file in it is refused, not done in place.
mkdir "$tmp/ro"
printf 'let  a = 1\n' >"$tmp/ro/f.napkin"
chmod 555 "$tmp/ro"
expect_match readonly.refused 2 'its folder .*ro is read-only, so the file cannot be replaced whole' err -- \
  "$napkin" fmt -w "$tmp/ro/f.napkin"
expect readonly.kept 0 'let  a = 1' -- cat "$tmp/ro/f.napkin"
chmod 755 "$tmp/ro"

# --- The measurement cache: a folder where the file should be says one
# thing (nothing was cached), and two processes writing at once lose nothing.
export NAPKIN_CPU_ARRAY_MIB=16 NAPKIN_CPU_MATMUL_N=100
unset NAPKIN_NO_MEASURE
mkdir "$tmp/cache_dir"
NAPKIN_MEASURE_CACHE=$tmp/cache_dir "$napkin" measure --probe cpu.copy_bandwidth >"$tmp/m.out" 2>&1
expect_in cache.folder_said "$tmp/m.out" '^Nothing was cached: cannot write .*cache_dir: it is a directory'
expect status.cache_folder_no_claim 1 '' -- grep -E 'Measurements are cached in|not cached:' "$tmp/m.out"
(NAPKIN_MEASURE_CACHE=$tmp/c.toml "$napkin" measure --probe cpu.copy_bandwidth >/dev/null 2>&1 &
 NAPKIN_MEASURE_CACHE=$tmp/c.toml "$napkin" measure --probe cpu.matmul_throughput >/dev/null 2>&1; wait)
# cpu.copy_bandwidth and cpu.matmul_throughput at 1 thread and at every thread: four entries.
expect cache.merged 0 4 -- sh -c 'grep -c "^probe = " "$0"' "$tmp/c.toml"
export NAPKIN_NO_MEASURE=1

# --- Messages with a code and a place.
awk 'BEGIN { printf "import \"std/flops\"\nrecord r {\n  a = 1\n  b = 1\n  c = a * b\n}\nsweep r over a in ["
             for (i = 1; i <= 1000; i++) printf "%s%d", (i > 1 ? ", " : ""), i; printf "], b in ["
             for (i = 1; i <= 300; i++) printf "%s%d", (i > 1 ? ", " : ""), i; print "] show c" }' >"$tmp/wide.napkin"
expect_match place.plot_points 2 'wide.napkin:7:1: error\[E0702\]: sweep r over a, b has 300000 points, and a plot draws at most 20000' err -- \
  "$napkin" plot sweep "$tmp/wide.napkin" -o "$tmp/wide.svg"
mkdir "$tmp/std"
ln -s /dev/zero "$tmp/std/hardware.napkin"
printf 'import "std/hardware"\nlet x = h100_sxm.memory_bandwidth\n' >"$tmp/zero.napkin"
expect_match place.stdlib_dev_zero 2 'zero.napkin:1:8: error\[E0602\]: cannot read .*for std/hardware: it is not a regular file' err -- \
  "$napkin" run --stdlib "$tmp/std" "$tmp/zero.napkin"
printf 'record r {\n  a = 1\n  b = 1\n  c = a / (b - 2)\n}\nsweep r over b in [1, 2, 3] show c\n' >"$tmp/point.napkin"
expect_match place.sweep_point 2 'point.napkin:4:12: error\[E0400\]: division by zero' err -- "$napkin" sweep "$tmp/point.napkin"
expect_in place.sweep_point_named "$tmp/err" 'note: at the point b = 2 of sweep r over b; its other points are shown'
expect_in place.sweep_rest_shown "$tmp/out" '^  3 +1$'
expect_in place.sweep_point_marked "$tmp/out" '^  2 +error\[E0400\]$'
expect_match place.sweep_point_run 2 'point.napkin:4:12: error\[E0400\]' err -- "$napkin" run "$tmp/point.napkin"
expect_in place.sweep_rest_shown_run "$tmp/out" '^  1 +-1$'
expect_match code.roofline_zero_bandwidth 2 '^<--gpu>:1:17: error\[E0805\]: memory_bandwidth is 0 B/s, not a positive B/s' err -- \
  "$napkin" plot roofline "$ex" --gpu 'h100_sxm with { memory_bandwidth = 0 TB/s }'
printf '[hardware]\nmemory_bandwidth = "fast"\n' >"$tmp/bad.toml"
printf 'hardware h = import_toml("bad.toml")\nlet x = h.memory_bandwidth * 2\n' >"$tmp/toml.napkin"
expect_match place.toml_own_place 2 'bad.toml:2:20: error\[E0203\]' err -- "$napkin" run "$tmp/toml.napkin"
expect_match usage.quick_tiny_mfu 2 '^error\[E0800\]: --mfu 1e-320 is out of range' err -- \
  "$napkin" quick --model llama3_8b --gpu h100_sxm --mfu 1e-320
expect usage.eval_leading_minus 0 '-8,030,261,248 param' -- "$napkin" eval '-llama3_8b.params'
expect usage.eval_leading_minus_option 0 '-16.06 GB' -- "$napkin" eval '-llama3_8b.weight_bytes' --digits 4

# --- Cost: fmt of a large file within a small multiple of it (9 MB peaked
# at 502 MB, holding two trees of the whole file; docs/reliability.md); a
# zero prints as 0 whatever its sign or unit.
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "let a%d = %d * 2 GB + 3\n", i, i }' >"$tmp/big.napkin"
/usr/bin/time -f '%M' "$napkin" fmt "$tmp/big.napkin" >"$tmp/big.out" 2>"$tmp/big.rss"
expect cost.fmt_big_same_layout 0 'let a99999 = 99999 * 2 GB + 3' -- tail -n1 "$tmp/big.out"
# 3 MB of input: at most 40 MB of peak memory (the input, the output, one
# piece's trees); formatted whole, such a file takes fifty times its size.
# A sanitizer build's peak is its shadow memory and quarantine (430 MB
# here for 24 MB in the release build): CI's release stage checks the bound.
[ -n "${NAPKIN_SANITIZED:-}" ] ||
  expect_status cost.fmt_big_memory 0 -- sh -c 'test "$(tail -n1 "$0")" -lt 40000' "$tmp/big.rss"
expect zero.bytes 0 '0 B' -- "$napkin" eval '-0 GB'
expect zero.count 0 '0' -- "$napkin" eval '-0'
expect zero.csv 0 '0' -- sh -c 'printf "record r {\n  a = 1\n  z = -0 * a\n}\nsweep r over a in [1] show z\n" >"$0"; "$1" sweep "$0" --format csv | tail -n1 | cut -d, -f2' "$tmp/z.napkin" "$napkin"

finish
