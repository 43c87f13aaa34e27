#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS [JOBS] [TARGET]
# Builds the libFuzzer targets with clang (address and undefined-behaviour
# sanitizers) in build-fuzz/ and fuzzes TARGET for SECONDS: napkin (run in
# every format, explain, plots; the default), toml (import_toml), fmt,
# diff, analysis (solve and sensitivity), check (check --format, handout,
# run --steps documents, grade) or lsp (the language server; all in
# tests/fuzz/CMakeLists.txt). JOBS is the fuzz jobs and the build's
# parallelism both (1: one compiler, one fuzzer). The corpus grows in
# build-fuzz/corpus-TARGET (corpus/ for napkin); crashes land in
# build-fuzz/crashes. Each crash becomes a case in tests/errors/ once it is fixed.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:?usage: tests/fuzz/run.sh SECONDS [JOBS] [TARGET]}
jobs=${2:-1}
target=${3:-napkin}
build=${NAPKIN_FUZZ_BUILD:-build-fuzz}
dict=../tests/fuzz/napkin.dict
[ "$target" = toml ] && dict=../tests/fuzz/toml.dict

if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "needs clang and libFuzzer: apt-get install clang libclang-rt-14-dev" >&2
  exit 2
fi

# -fsized-deallocation: clang 14 leaves sized operator delete off, which
# core/sample_buffer.cpp calls.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
flags="-O1 -g -fsized-deallocation -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER=clang++ \
  "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" \
  -DNAPKIN_FUZZ=ON -DNAPKIN_TESTS=OFF -DNAPKIN_CUDA=OFF "${launcher[@]}" >/dev/null
# JOBS is also the build's parallelism: one fuzz job builds with one compiler.
cmake --build "$build" --target "fuzz_$target" -j"$jobs"

# The seed corpus: every napkin file the project has, good and bad; libFuzzer
# reads at most -max_len bytes of each.
corpus=corpus
[ "$target" = napkin ] || corpus="corpus-$target"
seeds="$build/seeds-$target"
rm -rf "$seeds" && mkdir -p "$seeds" "$build/$corpus" "$build/crashes"
napkin_files=(examples/*.napkin stdlib/*.napkin tests/stdlib/*.napkin tests/errors/*.napkin)
case "$target" in
  toml)  # profiles as `napkin measure --out` writes them, and the golden TOML reports
    for f in tests/fuzz/seeds/*.toml tests/golden/formats/*.toml; do
      [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"
    done ;;
  diff)  # each example against the next one, and against itself with a number changed
    prev=
    for f in examples/*.napkin; do
      name=$(echo "$f" | tr / _)
      { cat "$f"; printf '\0'; sed '0,/[0-9]/s/[0-9]/7/' "$f"; } > "$seeds/$name.self"
      [ -n "$prev" ] && { cat "$prev"; printf '\0'; cat "$f"; } > "$seeds/$name.pair"
      prev=$f
    done ;;
  check)  # every file alone (its own submission), and each graded example against its reference
    for f in "${napkin_files[@]}"; do
      [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"
    done
    for f in examples/grading/submission_*.napkin; do
      { cat examples/grading/reference.napkin; printf '\0'; cat "$f"; } > "$seeds/$(basename "$f").pair"
    done ;;
  lsp)  # every file as a document, the framed sessions in seeds/, and the words of the protocol
    for f in "${napkin_files[@]}" tests/fuzz/seeds/*.jsonrpc; do
      [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"
    done
    cat tests/fuzz/napkin.dict tests/fuzz/lsp.dict > "$build/lsp.dict"
    dict=lsp.dict ;;
  *)
    for f in "${napkin_files[@]}"; do
      [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"
    done ;;
esac

parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
cd "$build"
# -rss_limit_mb: a fuzz input may not need more memory than a real file would.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "./tests/fuzz/fuzz_$target" "$corpus" "${seeds#"$build/"}" \
  -dict="$dict" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=4096 -artifact_prefix=crashes/ -print_final_stats=1 "${parallel[@]}" </dev/null
