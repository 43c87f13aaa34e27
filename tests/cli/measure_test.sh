#!/usr/bin/env bash
# Probes for real, with small arrays: `napkin measure`, its profile read back
# by a scenario, the cache, the flags, and a start-up free of cuBLAS.
set -u
napkin=$1
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

echo 'let bw = measure(gpu.copy_bandwidth)' >"$tmp/nofallback.napkin"
expect_match run.no_fallback 2 'error\[E0900\]: `gpu.copy_bandwidth` could not be measured: no GPU: the GPU module' err -- \
  env NAPKIN_GPU_MODULE=$tmp/none.so "$napkin" run "$tmp/nofallback.napkin"

finish
