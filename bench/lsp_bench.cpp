// `napkin lsp` in process, on exercise 1: the diagnostics after an edit (the
// whole file evaluated again, then published) and a hover (the value and
// its derivation, one level), each from bytes in to bytes out, as the
// server answers an editor. The targets: diagnostics ≤ 20 ms, hover ≤ 5 ms.
#include <benchmark/benchmark.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "corpus.hpp"
#include "interpreter/lsp/framing.hpp"
#include "interpreter/lsp/server.hpp"

namespace napkin::bench {
namespace {

using nlohmann::json;

std::string message(const json& j) { return lsp::frame(j.dump()); }

// A server with exercise 1 open.
struct Session {
  lsp::Server server{lsp::ServerOptions{[] { return Options{}; }, ""}};
  std::string path = source_path("examples/exercise1_size_a_model.napkin");
  std::string uri = "file://" + path;
  std::string text = read_text(path);
  Session() {
    server.receive(message({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}}));
    server.receive(message({{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
                            {"params", {{"textDocument", {{"uri", uri}, {"languageId", "napkin"}, {"version", 1}, {"text", text}}}}}}));
  }
  // The position of the `nth` character of the first line holding `needle` (ASCII text before it).
  json position(const std::string& needle, int at) const {
    const std::size_t i = text.find(needle);
    const std::size_t start = text.rfind('\n', i) + 1;
    return {{"line", std::count(text.begin(), text.begin() + static_cast<long>(i), '\n')},
            {"character", static_cast<long>(i - start) + at}};
  }
};

void BM_LspDiagnosticsAfterEdit(benchmark::State& state) {
  Session s;
  const std::string a = s.text, b = s.text + "let edited = drill.layers * 2\n";
  long long version = 1;
  for (auto _ : state) {
    const std::string out = s.server.receive(message(
        {{"jsonrpc", "2.0"}, {"method", "textDocument/didChange"},
         {"params", {{"textDocument", {{"uri", s.uri}, {"version", ++version}}},
                     {"contentChanges", json::array({{{"text", version % 2 ? a : b}}})}}}}));
    if (out.find("publishDiagnostics") == std::string::npos || out.find("\"diagnostics\":[]") == std::string::npos) {
      state.SkipWithError("no empty diagnostics came back");
      break;
    }
  }
}

void hover(benchmark::State& state, const std::string& needle, int at, const std::string& expect) {
  Session s;
  const std::string request = message({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "textDocument/hover"},
                                       {"params", {{"textDocument", {{"uri", s.uri}}}, {"position", s.position(needle, at)}}}});
  for (auto _ : state) {
    const std::string out = s.server.receive(request);
    if (out.find(expect) == std::string::npos) {
      state.SkipWithError(("the hover lacks " + expect + ": " + out).c_str());
      break;
    }
  }
}

BENCHMARK(BM_LspDiagnosticsAfterEdit)->Unit(benchmark::kMillisecond);
// A given value, and a derived one with its inputs one level down.
BENCHMARK_CAPTURE(hover, input_d_model, "drill.d_model", 6, "6,144")->Name("BM_LspHover/drill.d_model")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(hover, derived_total, "total = drill.params", 0, "where")->Name("BM_LspHover/parameters.total")->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace napkin::bench
