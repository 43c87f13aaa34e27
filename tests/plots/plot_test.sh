#!/usr/bin/env bash
# `napkin plot`, run for real: where it writes, what it says when it cannot.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"

sweep=examples/decode_batch_sweep.napkin
exercise=examples/exercise1_size_a_model.napkin

expect_match roofline.stdout 0 '^<svg xmlns' out -- "$napkin" plot roofline "$sweep"
expect_match roofline.gpu_of_the_file 0 'Roofline: mi300x' out -- "$napkin" plot roofline "$exercise"
expect_match roofline.every_intensity 0 'regime.intensity_full_prompt' out -- "$napkin" plot roofline "$exercise"
expect_match roofline.sweep_rows 0 'decode.intensity \(batch = 256\)' out -- "$napkin" plot roofline "$sweep"
expect_match roofline.ridge_not_a_point 0 '>3</text>' out -- "$napkin" plot roofline "$exercise"
# Exercise 1's points 1 and 3 (0.9997 and 1 FLOP/B) are drawn on one spot:
# one label, "1, 3", on the first side tried (right of the dot, below it),
# not two numbers on either side of it with one across the roof line.
expect_match roofline.same_spot_one_label 0 '<text x="193\.2" y="400\.9" text-anchor="start" font-size="11" font-weight="bold" fill="#222">1, 3</text>' out -- "$napkin" plot roofline "$exercise"
expect_match roofline.gpu_option 0 'Roofline: h100_sxm' out -- "$napkin" plot roofline "$exercise" --gpu h100_sxm
expect_match roofline.gpu_expression 0 'Roofline: h100_sxm' out -- "$napkin" plot roofline "$exercise" --gpu decode_h100.gpu
expect_match roofline.peak_option 0 'peak_fp8 2,615 TFLOP/s' out -- "$napkin" plot roofline "$exercise" --peak peak_fp8
expect_match roofline.unknown_gpu 2 'unknown name `nothing`' err -- "$napkin" plot roofline "$exercise" --gpu nothing
expect_match roofline.peak_missing 2 'peak_fp8` needs a value' err -- "$napkin" plot roofline "$exercise" --gpu a100_80gb --peak peak_fp8
expect_match roofline.no_gpu 2 'name one with --gpu' err -- "$napkin" plot roofline examples/deepseek_v3_moe.napkin
expect_match sweep.stdout 0 'sweep decode over batch<' out -- "$napkin" plot sweep "$sweep"
expect_match sweep.second 0 'sweep decode over batch, context<' out -- "$napkin" plot sweep "$sweep" --sweep 2
expect_match sweep.strips 0 'dashed lines: where decode_bound or memory_fits changes' out -- "$napkin" plot sweep "$sweep"
expect_match sweep.out_of_range 2 'has 2 sweeps' err -- "$napkin" plot sweep "$sweep" --sweep 3
expect_match sweep.none 2 'has no sweep' err -- "$napkin" plot sweep "$exercise"

# -o replaces the file whole and leaves nothing else behind.
mkdir "$tmp/dir"
echo "old" >"$tmp/dir/roofline.svg"
"$napkin" plot roofline "$sweep" -o "$tmp/dir/roofline.svg" >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ] && head -1 "$tmp/dir/roofline.svg" | grep -q '^<svg' &&
  [ "$(ls -A "$tmp/dir")" = "roofline.svg" ]; then
  passes=$((passes + 1))
else
  echo "FAIL write.replaces: exit $rc, $(cat "$tmp/out"), left: $(ls -A "$tmp/dir")"
  failures=$((failures + 1))
fi
expect_match write.unwritable 2 'E0602' err -- "$napkin" plot sweep "$sweep" -o "$tmp/missing/dir/sweep.svg"

finish
