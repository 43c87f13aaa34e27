// The standard library is napkin source embedded in the binary with its
// syntax tree, parsed at build time; importing a module reads the tree back.
// What each module costs, and all of them together, and what reading a tree
// costs against parsing its text (as --stdlib DIR does).
#include <benchmark/benchmark.h>

#include "grammar/compiled_ast.hpp"
#include "grammar/parser.hpp"
#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/stdlib_files.hpp"

namespace napkin::bench {
namespace {

// An interpreter with nothing loaded: the builtins and the unit table.
void BM_NewInterpreter(benchmark::State& state) {
  for (auto _ : state) {
    Interpreter in;
    benchmark::DoNotOptimize(&in);
  }
}
BENCHMARK(BM_NewInterpreter)->Unit(benchmark::kMicrosecond);

// Every standard module, as `napkin eval` loads them.
void BM_LoadWholeStdlib(benchmark::State& state) {
  for (auto _ : state) {
    Interpreter in;
    benchmark::DoNotOptimize(in.prelude());
  }
}
BENCHMARK(BM_LoadWholeStdlib)->Unit(benchmark::kMicrosecond);

void BM_LoadStdModule(benchmark::State& state, const char* name) {
  for (auto _ : state) {
    Interpreter in;
    benchmark::DoNotOptimize(in.load_std(name));
  }
}

void BM_ParseStdModule(benchmark::State& state, std::size_t i) {
  const SourceFile file{std::string("std/") + kStdlib[i].name, std::string(kStdlib[i].text, kStdlib[i].size), ""};
  for (auto _ : state) {
    ast::Module m = parse_module(file);
    benchmark::DoNotOptimize(m.statements.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.text.size()));
}

void BM_ReadStdModule(benchmark::State& state, std::size_t i) {
  const SourceFile file{std::string("std/") + kStdlib[i].name, std::string(kStdlib[i].text, kStdlib[i].size), ""};
  for (auto _ : state) {
    ast::Module m = load_compiled_ast(kStdlib[i].ast, file);
    benchmark::DoNotOptimize(m.statements.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.text.size()));
}

[[maybe_unused]] const bool registered = [] {
  for (std::size_t i = 0; i < kStdlibCount; ++i) {
    const std::string name = kStdlib[i].name;
    benchmark::RegisterBenchmark(("BM_LoadStdModule/" + name).c_str(), BM_LoadStdModule, kStdlib[i].name)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_ParseStdModule/" + name).c_str(), BM_ParseStdModule, i)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_ReadStdModule/" + name).c_str(), BM_ReadStdModule, i)
        ->Unit(benchmark::kMicrosecond);
  }
  return true;
}();

}  // namespace
}  // namespace napkin::bench
