#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS [JOBS]
# Builds the libFuzzer target with clang (address and undefined-behaviour
# sanitizers) in build-fuzz/ and fuzzes parse + evaluate for SECONDS.
# The corpus grows in build-fuzz/corpus; crashes land in build-fuzz/crashes.
# Each crash becomes a case in tests/errors/ once it is fixed.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:?usage: tests/fuzz/run.sh SECONDS [JOBS]}
jobs=${2:-1}
build=${NAPKIN_FUZZ_BUILD:-build-fuzz}

if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "needs clang and libFuzzer: apt-get install clang libclang-rt-14-dev" >&2
  exit 2
fi

flags="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER=clang++ \
  "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" \
  -DNAPKIN_FUZZ=ON -DNAPKIN_TESTS=OFF -DNAPKIN_CUDA=OFF >/dev/null
cmake --build "$build" --target fuzz_napkin -j"$(nproc)"

# The seed corpus: every napkin file the project has, good and bad; libFuzzer
# reads at most -max_len bytes of each.
seeds="$build/seeds"
rm -rf "$seeds" && mkdir -p "$seeds" "$build/corpus" "$build/crashes"
for f in examples/*.napkin stdlib/*.napkin tests/stdlib/*.napkin tests/errors/*.napkin; do
  [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"
done

parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
cd "$build"
# -rss_limit_mb: a fuzz input may not need more memory than a real file would.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ./tests/fuzz/fuzz_napkin corpus seeds \
  -dict=../tests/fuzz/napkin.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=4096 -artifact_prefix=crashes/ -print_final_stats=1 "${parallel[@]}" </dev/null
