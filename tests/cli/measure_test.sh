#!/usr/bin/env bash
# Probes for real, with small arrays: `napkin measure`, its profile read back
# by a scenario, the cache, the flags, and a start-up free of cuBLAS.
set -u
napkin=$1
# Stand-in BLAS libraries (tests/lib/fake_cblas.cpp): exact, writes nothing, drops a step of k.
blas_exact=${2:-} blas_idle=${3:-} blas_short=${4:-}
. "$(dirname "$0")/../lib/expect.sh"
unset NAPKIN_NO_MEASURE
export XDG_CACHE_HOME=$tmp/cache NAPKIN_MEASURE_CACHE= NAPKIN_CPU_ARRAY_MIB=16 NAPKIN_CPU_MATMUL_N=100

# Start-up stays instant: the GPU code is a module opened only when a GPU probe runs.
if ldd "$napkin" | grep -qiE 'cublas|cudart'; then
  echo "FAIL ldd: napkin links CUDA libraries:"
  ldd "$napkin" | grep -iE 'cublas|cudart' | sed 's/^/  /'
  failures=$((failures + 1))
else
  passes=$((passes + 1))
fi

expect_match measure.cpu 0 '^cpu\.copy_bandwidth\(threads=1\) +[0-9.,]+ [kMGT]?B/s' out -- \
  "$napkin" measure --probe cpu.copy_bandwidth --probe cpu.matmul_throughput --out "$tmp/mine.toml"
cp "$tmp/out" "$tmp/measure.out"
expect_in measure.says_cached "$tmp/measure.out" "cached in $tmp/cache/napkin/measurements.toml"
expect_in measure.profile_written "$tmp/measure.out" 'hardware mine = import_toml'
expect_in measure.profile_toml "$tmp/mine.toml" '^ *\[hardware\.memory_bandwidth\]'
expect_match measure.unknown_probe 2 'no probe `gpu.copy_bandwith`; did you mean `gpu.copy_bandwidth`' err -- \
  "$napkin" measure --probe gpu.copy_bandwith

# Without a GPU the GPU probes are skipped and the reason is said plainly;
# with one, the copy probe runs. (A build without CUDA says its GPU module
# was not found.) Which of the two is this machine's is
# decided here from the driver's device node, not from what napkin says.
if [ -e /dev/nvidiactl ]; then
  expect_match measure.gpu 0 '^GPU: .*SMs' out -- "$napkin" measure --probe gpu.copy_bandwidth
  expect_in measure.gpu_probe_ran "$tmp/out" '^gpu\.copy_bandwidth'
else
  expect_match measure.gpu 0 '^GPU: no GPU( found \(.*\)|: the GPU module .* was not found.*); the GPU probes were skipped\.$' out -- \
    "$napkin" measure --probe gpu.copy_bandwidth
  if grep -q '^gpu\.copy_bandwidth' "$tmp/out"; then
    echo "FAIL measure.gpu_skipped: a GPU probe reported a figure on a machine without a GPU driver"
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
fi

cat >"$tmp/scenario.napkin" <<'NAPKIN'
hardware mine = import_toml("mine.toml")
scenario decode {
  gpu = mine
  weights = 1 GB
  time = weights / gpu.memory_bandwidth
}
check mine.memory_bandwidth > 0 B/s
NAPKIN
expect_match profile.import 0 'memory_bandwidth = [0-9.,]+ [kMGT]?B/s  \[measured: cpu\.copy_bandwidth\(threads=[0-9]+\) on ' out -- \
  "$napkin" run "$tmp/scenario.napkin" --steps
expect_match profile.explain 0 'mine\.memory_bandwidth = .*\[measured: cpu\.copy_bandwidth' out -- \
  "$napkin" explain "$tmp/scenario.napkin" decode.time

cat >"$tmp/probe.napkin" <<'NAPKIN'
let bw = measure(cpu.triad_bandwidth, threads = 1) else 1 GB/s
let gpu_bw = measure(gpu.copy_bandwidth) else 4.8 TB/s
NAPKIN
expect_match run.measures 0 'bw = measure\(cpu\.triad_bandwidth, threads = 1\) else 1 GB/s' out -- \
  "$napkin" run "$tmp/probe.napkin" --steps
expect_in run.cpu_measured "$tmp/out" '\[measured: cpu\.triad_bandwidth\(threads=1\) on '
expect_match run.cached 0 '\[measured: cpu\.triad_bandwidth\(threads=1\) on .*cached from' out -- \
  "$napkin" run "$tmp/probe.napkin" --steps
"$napkin" run "$tmp/probe.napkin" --steps --remeasure >"$tmp/out" 2>&1
if grep -q 'cached from' "$tmp/out" || ! grep -q 'measured: cpu.triad' "$tmp/out"; then
  echo "FAIL run.remeasure: --remeasure used the cache"
  show_output "$tmp/out"
  failures=$((failures + 1))
else
  passes=$((passes + 1))
fi
expect_match run.no_measure 0 '= 1 GB/s  \[fallback: measurements are off\]' out -- \
  "$napkin" run "$tmp/probe.napkin" --steps --no-measure
expect_match run.env_no_measure 0 '= 1 GB/s  \[fallback: measurements are off\]' out -- \
  env NAPKIN_NO_MEASURE=1 "$napkin" run "$tmp/probe.napkin" --steps
# A missing module reads like a missing GPU: the fallback, with the reason.
expect_match run.no_module 0 '= 4\.8 TB/s  \[fallback: no GPU: the GPU module' out -- \
  env NAPKIN_GPU_MODULE=$tmp/none.so "$napkin" run "$tmp/probe.napkin" --steps

# A thread count far past the machine is a clean reason, not an abort in the thread team.
echo 'let bw = measure(cpu.copy_bandwidth, threads = 100000) else 1 GB/s' >"$tmp/threads.napkin"
expect_match run.too_many_threads 0 '= 1 GB/s  \[fallback: `threads` must be at most [0-9]+ ' out -- \
  "$napkin" run "$tmp/threads.napkin" --steps --remeasure

# A thread the system will not start (here: too little address space for
# its stack) is the probe's reason, not std::terminate. How much address
# space napkin needs varies by build, so a range of limits is tried; none
# may abort.
echo 'let bw = measure(cpu.copy_bandwidth, threads = 8) else 1 GB/s' >"$tmp/threads8.napkin"
aborted="" refused=0
limits="50000 55000 60000 65000 70000 80000"
# AddressSanitizer cannot start under any such limit (its shadow memory is
# terabytes of address space); the release build's run of this test covers it.
[ -n "${NAPKIN_SANITIZED:-}" ] && limits="" && echo "note: run.thread_cannot_start needs ulimit -v, which a sanitizer build cannot run under"
for kib in $limits; do
  (ulimit -v $kib; NAPKIN_CPU_ARRAY_MIB=1 "$napkin" run "$tmp/threads8.napkin" --steps --remeasure) >"$tmp/out" 2>&1
  code=$?
  if [ $code -eq 134 ] || grep -q 'terminate called' "$tmp/out"; then aborted="$aborted $kib"; fi
  grep -q 'fallback: cannot start thread' "$tmp/out" && refused=$((refused + 1))
done
if [ -z "$limits" ]; then
  :  # not run under a sanitizer (above); not counted as passed
elif [ -n "$aborted" ]; then
  echo "FAIL run.thread_cannot_start: napkin aborted under ulimit -v$aborted"
  show_output "$tmp/out"
  failures=$((failures + 1))
else
  passes=$((passes + 1))
  [ $refused -gt 0 ] || echo "note: no limit tried made a thread fail to start in this build"
fi

# The CPU matmul names the library it ran, or napkin's own kernel and why.
expect_match measure.cpu_blas_off 0 "is napkin's blocked fp32 kernel .*no BLAS \(NAPKIN_CPU_BLAS=none\)" out -- \
  env NAPKIN_CPU_BLAS=none "$napkin" measure --probe cpu.matmul_throughput
if "$napkin" measure --probe cpu.matmul_throughput 2>&1 | grep -q 'OpenBLAS not found'; then
  echo "note: no OpenBLAS here; the CPU matmul used napkin's own kernel"
else
  expect_match measure.cpu_blas 0 'is cblas_sgemm from OpenBLAS [0-9]' out -- \
    "$napkin" measure --probe cpu.matmul_throughput
fi

# Matmul at a size named: n alone is square, m, n and k apart are a rectangle;
# each is its own cache entry. Sanity bounds, not figures: this machine varies.
cat >"$tmp/sizes.napkin" <<'NAPKIN'
let square = measure(cpu.matmul_throughput, n = 64) else 1 FLOP/s
let rect = measure(cpu.matmul_throughput, m = 96, n = 32, k = 200) else 1 FLOP/s
check square > 100 MFLOP/s
check square < 100 TFLOP/s
check rect > 100 MFLOP/s
NAPKIN
expect_match matmul.sized 0 'measured: cpu\.matmul_throughput\(dtype=fp32,threads=[0-9]+,n=64\) on .*64³' out -- \
  "$napkin" run "$tmp/sizes.napkin" --steps
expect_in matmul.rectangle "$tmp/out" 'measured: cpu\.matmul_throughput\(dtype=fp32,threads=[0-9]+,m=96,n=32,k=200\) on .*96×200 by 200×32'
expect_match matmul.sized_checks 0 '^ *3 passed, 0 failed' out -- "$napkin" check "$tmp/sizes.napkin"
expect_match matmul.too_big 0 '= 1 FLOP/s  \[fallback: a 1000000³ matmul is 2e\+06 TFLOP a run, past' out -- \
  "$napkin" eval 'measure(cpu.matmul_throughput, n = 1000000) else 1 FLOP/s' --steps

# A decode step of a model's own shapes, bounded below by the time its
# weights take to read at the measured read bandwidth (the model is 4 times
# a 32 MiB last-level cache, so the caches cannot hold it between steps).
# The bound is halved: a machine busy with other work measured the read at
# 4.2 GB/s (spread 176%) and the step at 14.5 ms against a 30.7 ms "bound";
# a kernel that skips its work is a hundred times faster, not two.
cat >"$tmp/decode.napkin" <<'NAPKIN'
import "std/models"
import "std/dtypes"
model small extends transformer {
  layers = 8, d_model = 512, heads = 8, kv_heads = 2, d_ffn = 1536, mlp = swiglu, vocab = 16000
}
let step = measure(cpu.decode_step, model = small, batch = 2, context = 64 token) else 1 s
let read = measure(cpu.read_bandwidth) else 1 TB/s
let bound = small.matmul_params * fp32.bytes_per_param / read
check step > bound / 2
check step < 5 s
NAPKIN
expect_match decode.measured 0 'measured: cpu\.decode_step\(model=small\[L=8,d=512,h=8,kv=2,hd=64,vd=64,ffn=1536x3,V=16000\],batch=2,context=64,dtype=fp32,threads=[0-9]+\) on ' out -- \
  "$napkin" run "$tmp/decode.napkin" --steps
expect_in decode.method "$tmp/out" 'reads [0-9.]+ MB of fp32 weights .* every product and the attention checked'
expect_match decode.above_bound 0 '^ *2 passed, 0 failed' out -- "$napkin" check "$tmp/decode.napkin"
# Too big for the memory napkin may use: refused with the size, never swapped.
expect_match decode.too_big 0 "= 1 s  \[fallback: llama3_70b's decode step at batch 1 and context 1 needs 2[0-9.]+ GB \(2[0-9.]+ GB of fp32 weights" out -- \
  "$napkin" eval 'measure(cpu.decode_step, model = llama3_70b) else 1 s' --steps
expect_match decode.budget 0 "needs 0\.[0-9]+ GB .*more than the 0\.00105 GB napkin may use here \(NAPKIN_MEASURE_MEMORY_MIB\)" out -- \
  env NAPKIN_MEASURE_MEMORY_MIB=1 "$napkin" run "$tmp/decode.napkin" --steps --remeasure
expect_match decode.mla 0 '\[fallback: deepseek_v3 uses multi-head latent attention' out -- \
  "$napkin" eval 'measure(cpu.decode_step, model = deepseek_v3) else 1 s' --steps
expect_match measure.decode_named 0 'note: cpu\.decode_step times a model a file names' out -- \
  "$napkin" measure --probe cpu.decode_step
expect_match decode.needs_model 2 'error\[E0306\]: measure\(cpu\.decode_step\): it needs the model to step' err -- \
  "$napkin" eval 'measure(cpu.decode_step, batch = 2) else 1 s'
expect_match decode.not_a_model 2 '`model` must be a model record' err -- \
  "$napkin" eval 'measure(cpu.decode_step, model = 3) else 1 s'

# The checks fail on a broken kernel: a BLAS that writes nothing, and one
# that drops a step of every dot product, each make every CPU probe that
# multiplies give its reason instead of a figure. The exact stand-in runs
# the bf16 paths, which Debian's OpenBLAS lacks.
cat >"$tmp/tiny.napkin" <<'NAPKIN'
import "std/models"
model tiny extends transformer { layers = 2, d_model = 64, heads = 4, kv_heads = 2, d_ffn = 128, mlp = swiglu, vocab = 500 }
model moe extends tiny { experts = 8, experts_per_token = 2, expert_d_ffn = 64 }
let dense = measure(cpu.decode_step, model = tiny, batch = 3, context = 17) else 1 s
let experts = measure(cpu.decode_step, model = moe, batch = 4, context = 5) else 1 s
let half = measure(cpu.decode_step, model = tiny, batch = 2, context = 9, dtype = bf16) else 1 s
let mm = measure(cpu.matmul_throughput, m = 30, n = 20, k = 10) else 1 FLOP/s
let mm_bf16 = measure(cpu.matmul_throughput, n = 40, dtype = bf16) else 1 FLOP/s
NAPKIN
if [ -n "$blas_exact" ]; then
  for kind in idle short; do
    lib=$blas_idle; [ $kind = short ] && lib=$blas_short
    NAPKIN_CPU_BLAS=$lib "$napkin" run "$tmp/tiny.napkin" --steps --remeasure >"$tmp/out" 2>&1
    wrong=$(grep -cE '\[fallback: (the decode step.s .* product is wrong|wrong product at)' "$tmp/out")
    measured=$(grep -c '\[measured:' "$tmp/out")
    if [ "$wrong" -eq 5 ] && [ "$measured" -eq 0 ]; then
      passes=$((passes + 1))
    else
      echo "FAIL broken_blas.$kind: $wrong of 5 probes refused the broken BLAS, $measured measured"
      show_output "$tmp/out"
      failures=$((failures + 1))
    fi
  done
  NAPKIN_CPU_BLAS=$blas_exact "$napkin" run "$tmp/tiny.napkin" --steps --remeasure >"$tmp/out" 2>&1
  if [ "$(grep -c '\[measured:' "$tmp/out")" -eq 5 ] && grep -q 'dtype=bf16.*cblas_sbgemm' "$tmp/out"; then
    passes=$((passes + 1))
  else
    echo "FAIL exact_blas: the exact stand-in BLAS did not measure all 5 probes, bf16 included"
    show_output "$tmp/out"
    failures=$((failures + 1))
  fi
else
  echo "FAIL broken_blas: the stand-in BLAS libraries were not passed to this script"
  failures=$((failures + 1))
fi
# Without cblas_sbgemm (Debian's OpenBLAS) bf16 is a reason, not a crash.
if ! "$napkin" eval 'measure(cpu.matmul_throughput, n = 32, dtype = bf16) else 1 FLOP/s' --steps 2>&1 | grep -q 'measured'; then
  expect_match matmul.no_sbgemm 0 'fallback: .*(has no cblas_sbgemm|needs a BLAS with cblas_sbgemm)' out -- \
    "$napkin" eval 'measure(cpu.matmul_throughput, n = 32, dtype = bf16) else 1 FLOP/s' --steps
fi

echo 'let bw = measure(gpu.copy_bandwidth)' >"$tmp/nofallback.napkin"
expect_match run.no_fallback 2 'error\[E0900\]: `gpu.copy_bandwidth` could not be measured: no GPU: the GPU module' err -- \
  env NAPKIN_GPU_MODULE=$tmp/none.so "$napkin" run "$tmp/nofallback.napkin"

finish
