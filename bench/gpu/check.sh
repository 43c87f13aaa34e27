#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: builds napkin with the GPU probes, runs
# `napkin measure` and a scenario that uses `measure`, builds and runs an
# independent reference (bench/gpu/reference.cu: BabelStream-style kernels,
# cudaMemcpy, cublasGemmEx, sharing no code with napkin), and prints one
# table of napkin / reference per probe against the H200 targets: each
# target must be met and lie within 3% of the reference; then the workload
# probes (matmul at named sizes, decode steps) through the examples that
# use them, whose GPU values must be measured and checks pass. A few minutes; the
# build directory is build-gpu unless BUILD_DIR says otherwise.
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
[ -x "$napkin" ] || napkin=$build/interpreter/napkin
[ -f "$build/libnapkin_gpu.so" ] || { echo "the GPU module was not built"; exit 1; }
export NAPKIN_GPU_MODULE=$PWD/$build/libnapkin_gpu.so
if ldd "$napkin" | grep -qi cublas; then echo "napkin links cuBLAS: start-up would be slow"; exit 1; fi
nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$nvcc" -O3 -std=c++17 -arch=native -o "$work/reference" bench/gpu/reference.cu -lcublas -lcublasLt \
  >"$work/reference-build.log" 2>&1 || { cat "$work/reference-build.log"; exit 1; }
echo "built in $(( $(date +%s) - start )) s"

probes=(copy_bandwidth triad_bandwidth read_bandwidth memcpy_bandwidth matvec_bandwidth matmul_throughput
        host_to_device_bandwidth launch_latency launch_interval)
args=()
for p in "${probes[@]}"; do args+=(--probe "gpu.$p"); done
"$napkin" measure "${args[@]}" --out "$work/gpu.toml" | tee "$work/measure.out"
grep -q '^GPU: no' "$work/measure.out" && { echo "no GPU: nothing to check"; exit 1; }

# The scenario reads the cache `napkin measure` just filled: its values must be measured, its checks pass.
scenario=ok
"$napkin" run examples/measure_my_gpu.napkin >"$work/scenario.out" 2>&1 || scenario="checks failed"
grep -q 'memory_bandwidth *= .*\[measured: gpu.copy_bandwidth' "$work/scenario.out" || scenario="not measured"

# The workload probes: bf16 matmul at each size named (the 80% size), and
# decode steps of Qwen2.5 0.5B over batch 1 to 64, each above its bound.
workloads=ok
for example in matmul_80_percent cpu_decode_batch_sweep; do
  "$napkin" run "examples/$example.napkin" >"$work/$example.out" 2>&1 || workloads="$example: checks failed"
done
grep -q 'rate *= .*\[measured: gpu.matmul_throughput(dtype=bf16,n=' "$work/matmul_80_percent.out" ||
  workloads="gpu.matmul_throughput at a size was not measured"
grep -q 'step *= .*\[measured: gpu.decode_step(model=qwen2_5_0_5b' "$work/cpu_decode_batch_sweep.out" ||
  workloads="gpu.decode_step was not measured"
grep -A6 '^sweep gpu_\|^scenario gpu_80' "$work/matmul_80_percent.out" "$work/cpu_decode_batch_sweep.out" || true

# The reference, after napkin so neither warms the GPU for the other.
"$work/reference" >"$work/reference.out" 2>"$work/reference.err" || { cat "$work/reference.err"; exit 1; }
cat "$work/reference.err"

# figure | profile field | reference figure ("" for none) | target in the field's unit (0: none) | spec expression
rows=(
  "copy|copy_bandwidth|copy|4.2e12|h200.memory_bandwidth"
  "triad|triad_bandwidth|triad|4.2e12|h200.memory_bandwidth"
  "read (ref: BabelStream dot)|read_bandwidth|dot|0|h200.memory_bandwidth"
  "cudaMemcpy D2D|memcpy_bandwidth|memcpy|0|h200.memory_bandwidth"
  "mat-vec (bf16, 470 MB)|matvec_bandwidth|matvec|4.0e12|h200.memory_bandwidth"
  "matmul bf16|peak_bf16|matmul_bf16|780e12|h200.peak_bf16"
  "matmul fp16|peak_fp16||0|h200.peak_fp16"
  "matmul tf32|peak_tf32||0|h200.peak_tf32"
  "matmul fp32|peak_fp32||0|h200.peak_fp32"
  "matmul fp8|peak_fp8|matmul_fp8|1400e12|h200.peak_fp8"
  "host to device, pinned|host_to_device_bandwidth|host_to_device_pinned|0|"
  "launch latency|launch_latency||0|"
  "launch interval|launch_interval||0|"
)
value() {  # the SI value of [hardware.NAME] in the profile
  awk -v want="[hardware.$1]" '
    { line = $0; sub(/^[ \t]+/, "", line) }
    line == want { inside = 1; next }
    /^[ \t]*\[/ { inside = 0 }
    inside && line ~ /^value = / { sub(/^value = /, "", line); print line; exit }' "$work/gpu.toml"
}
reference() { [ -n "$1" ] && awk -v n="$1" '$1 == n && $2 != "-" { print $2; exit }' "$work/reference.out"; }
show() { "$napkin" eval "$1" 2>/dev/null || echo "?"; }

device=$(sed -n 's/^GPU: \([^:]*\):.*/\1/p' "$work/measure.out")
echo
echo "napkin GPU check on $device, $(date -u +%Y-%m-%d); targets are for an H200; napkin and reference are medians"
printf '%-28s %14s %14s %8s %14s %14s %8s\n' figure napkin reference ratio target spec result
failed=0
for row in "${rows[@]}"; do
  IFS='|' read -r label field ref target spec <<<"$row"
  v=$(value "$field")
  r=$(reference "$ref" || true)
  unit=B/s
  [[ $field == peak_* ]] && unit=FLOP/s
  [[ $field == launch_* ]] && unit=s
  if [ -z "$v" ]; then
    printf '%-28s %14s\n' "$label" "not run"
    [ "$target" != 0 ] && failed=1
    continue
  fi
  ratio="" shown_r="" result="" shown_target="" shown_spec=""
  if [ -n "$r" ]; then
    shown_r=$(show "$r $unit")
    ratio=$(awk -v a="$v" -v b="$r" 'BEGIN { printf "%.3f", a / b }')
  fi
  [ -n "$spec" ] && shown_spec=$(show "$spec")
  if [ "$target" != 0 ]; then
    shown_target="≥ $(show "$target $unit")"
    why=""
    awk -v v="$v" -v t="$target" 'BEGIN { exit !(v >= t) }' || why="below target"
    if [ -z "$ratio" ]; then
      why="${why:+$why, }no reference"
    elif ! awk -v q="$ratio" 'BEGIN { exit !(q >= 0.97 && q <= 1.03) }'; then
      why="${why:+$why, }not within 3% of the reference"
    fi
    result=pass
    [ -z "$why" ] || { result="FAIL ($why)"; failed=1; }
  fi
  printf '%-28s %14s %14s %8s %14s %14s %8s\n' "$label" "$(show "$v $unit")" "$shown_r" "$ratio" "$shown_target" \
    "$shown_spec" "$result"
done
copy=$(value copy_bandwidth) bf16=$(value peak_bf16)
[ -n "$copy" ] && [ -n "$bf16" ] &&
  printf '%-28s %14s %14s %8s %14s %14s\n' "ridge point (bf16/copy)" "$(show "$bf16 FLOP/s / ($copy B/s)")" "" "" "" \
    "$(show 'h200.ridge_point')"
printf '%-28s %14s\n' "scenario measure_my_gpu" "$scenario"
printf '%-28s %14s\n' "workload probes" "$workloads"
echo "total $(( $(date +%s) - start )) s"
[ "$scenario" = ok ] || failed=1
[ "$workloads" = ok ] || failed=1
exit $failed
