#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: builds napkin with the GPU probes, runs
# `napkin measure` and a scenario that uses `measure`, compares the copy
# probe with cudaMemcpy device to device (sized, timed and counted the same
# way), and prints one short table against the H200 targets. About two
# minutes; the build directory is build-gpu unless BUILD_DIR says otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD_DIR:-build-gpu}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache  # measure afresh, and leave the user's cache alone
unset NAPKIN_NO_MEASURE NAPKIN_MEASURE_CACHE

start=$(date +%s)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNAPKIN_CUDA=ON -DNAPKIN_TESTS=OFF >"$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$build" --target napkin -j"$(nproc)" >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
napkin=$build/napkin
[ -f "$build/libnapkin_gpu.so" ] || { echo "the GPU module was not built"; exit 1; }
if ldd "$napkin" | grep -qi cublas; then echo "napkin links cuBLAS: start-up would be slow"; exit 1; fi
echo "built in $(( $(date +%s) - start )) s"

probes=(copy_bandwidth triad_bandwidth read_bandwidth memcpy_bandwidth matvec_bandwidth matmul_throughput
        host_to_device_bandwidth launch_latency)
args=()
for p in "${probes[@]}"; do args+=(--probe "gpu.$p"); done
"$napkin" measure "${args[@]}" --out "$work/gpu.toml" | tee "$work/measure.out"
grep -q '^GPU: no' "$work/measure.out" && { echo "no GPU: nothing to check"; exit 1; }

# The scenario reads the cache `napkin measure` just filled: its values must be measured, its checks pass.
scenario=ok
"$napkin" run examples/measure_my_gpu.napkin >"$work/scenario.out" 2>&1 || scenario="checks failed"
grep -q 'memory_bandwidth *= .*\[measured: gpu.copy_bandwidth' "$work/scenario.out" || scenario="not measured"

# figure  profile-field  target (in the field's unit, 0: none)  spec expression
rows=(
  "copy|copy_bandwidth|4.2e12|h200.memory_bandwidth"
  "triad|triad_bandwidth|4.2e12|h200.memory_bandwidth"
  "read|read_bandwidth|0|h200.memory_bandwidth"
  "cudaMemcpy D2D|memcpy_bandwidth|0|h200.memory_bandwidth"
  "mat-vec (bf16, 470 MB)|matvec_bandwidth|4.0e12|h200.memory_bandwidth"
  "matmul bf16|peak_bf16|780e12|h200.peak_bf16"
  "matmul fp16|peak_fp16|0|h200.peak_fp16"
  "matmul tf32|peak_tf32|0|h200.peak_tf32"
  "matmul fp32|peak_fp32|0|h200.peak_fp32"
  "matmul fp8|peak_fp8|1400e12|h200.peak_fp8"
)
value() {  # the SI value of [hardware.NAME] in the profile
  awk -v want="[hardware.$1]" '
    { line = $0; sub(/^[ \t]+/, "", line) }
    line == want { inside = 1; next }
    /^[ \t]*\[/ { inside = 0 }
    inside && line ~ /^value = / { sub(/^value = /, "", line); print line; exit }' "$work/gpu.toml"
}
show() { "$napkin" eval "$1" 2>/dev/null || echo "?"; }

device=$(sed -n 's/^GPU: \([^:]*\):.*/\1/p' "$work/measure.out")
echo
echo "napkin GPU check on $device, $(date -u +%Y-%m-%d); targets are for an H200"
printf '%-24s %14s %14s %14s %8s\n' figure measured target spec result
failed=0
for row in "${rows[@]}"; do
  IFS='|' read -r label field target spec <<<"$row"
  v=$(value "$field")
  unit=B/s
  [[ $field == peak_* ]] && unit=FLOP/s
  if [ -z "$v" ]; then
    printf '%-24s %14s %14s %14s %8s\n' "$label" "not run" "" "" ""
    [ "$target" != 0 ] && failed=1
    continue
  fi
  result=""
  shown_target=""
  if [ "$target" != 0 ]; then
    shown_target="≥ $(show "$target $unit")"
    if awk -v v="$v" -v t="$target" 'BEGIN { exit !(v >= t) }'; then result=pass; else result=FAIL; failed=1; fi
  fi
  printf '%-24s %14s %14s %14s %8s\n' "$label" "$(show "$v $unit")" "$shown_target" "$(show "$spec")" "$result"
done
copy=$(value copy_bandwidth) memcpy=$(value memcpy_bandwidth) bf16=$(value peak_bf16)
[ -n "$copy" ] && [ -n "$memcpy" ] &&
  printf '%-24s %14s\n' "copy / cudaMemcpy" "$(awk -v a="$copy" -v b="$memcpy" 'BEGIN { printf "%.3f", a / b }')"
[ -n "$copy" ] && [ -n "$bf16" ] &&
  printf '%-24s %14s %14s %14s\n' "ridge point (bf16/copy)" "$(show "$bf16 FLOP/s / ($copy B/s)")" "" \
    "$(show 'h200.ridge_point')"
printf '%-24s %14s\n' "scenario measure_my_gpu" "$scenario"
echo "total $(( $(date +%s) - start )) s"
[ "$scenario" = ok ] || failed=1
exit $failed
