#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "diff_support.hpp"

using namespace napkin;
using napkin::test::Pair;
using napkin::test::exercise;

namespace {

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

const DiffEntry* find(const std::vector<DiffEntry>& list, const std::string& name) {
  for (const auto& e : list)
    if (e.name == name) return &e;
  return nullptr;
}

std::size_t index_of(const std::vector<DiffEntry>& list, const std::string& name) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].name == name) return i;
  return list.size();
}

const char* plan = R"(hardware h {
  bw = 2 TB/s
}
scenario s {
  bytes = 16 GB
  t = bytes / h.bw
  rate = 1 / t
}
scenario s2 = s with { bytes = 8 GB }
)";

}  // namespace

TEST_CASE("diff: 8 to 48 KV heads grows the KV cache 6× and lowers the decode ceiling", "[diff]") {
  const std::string old_text = exercise();
  const std::regex eight_heads("(\n  kv_heads +=) 8 ");
  REQUIRE(std::regex_search(old_text, eight_heads));
  Pair p(old_text, std::regex_replace(old_text, eight_heads, "$1 48", std::regex_constants::format_first_only));
  const Diff d = p.diff();
  REQUIRE(d.inputs.size() == 1);
  CHECK(d.inputs[0].name == "drill.kv_heads");
  CHECK(d.inputs[0].before_text == "8");
  CHECK(d.inputs[0].after_text == "48");
  CHECK(find(d.moved, "drill.kv_heads") == nullptr);  // an input, listed once

  const DiffEntry* kv = find(d.moved, "kv_cache.per_sequence");
  REQUIRE(kv);
  CHECK(kv->change == Approx(5));  // 6×
  CHECK(change_text(*kv) == "+500% (×6)");
  CHECK(values_text(*kv) == "1.5 → 9 GiB");

  const DiffEntry* ceiling = find(d.moved, "decode.tokens_per_s_with_kv");
  REQUIRE(ceiling);
  CHECK(ceiling->change < -0.2);
  CHECK(ceiling->change > -0.3);
  CHECK(index_of(d.moved, "kv_cache.per_sequence") < index_of(d.moved, "decode.tokens_per_s_with_kv"));
  CHECK(d.anything_moved());
}

TEST_CASE("diff: largest relative change first, and the threshold hides small moves", "[diff]") {
  Pair p(plan, replace(replace(plan, "bytes = 16 GB", "bytes = 17 GB"), "bw = 2 TB/s", "bw = 4 TB/s"));
  const Diff d = p.diff();
  REQUIRE(d.inputs.size() == 2);
  REQUIRE(d.moved.size() == 4);  // h.bw and s.bytes are the inputs themselves
  CHECK(d.moved[0].name == "s2.rate");  // ×2
  CHECK(d.moved[1].name == "s.rate");   // ×1.88
  CHECK(d.moved[2].name == "s2.t");     // ÷2
  CHECK(d.moved[3].name == "s.t");      // ÷1.88

  const Diff quiet = p.diff(0.6);
  CHECK(quiet.hidden == 2);
  REQUIRE(quiet.moved.size() == 2);
  CHECK(quiet.moved[1].name == "s.rate");
}

TEST_CASE("diff: an inherited field changes once, under the record that declares it", "[diff]") {
  Pair p(plan, replace(plan, "t = bytes / h.bw", "t = 2 * bytes / h.bw"));
  const Diff d = p.diff();
  REQUIRE(d.inputs.size() == 1);
  CHECK(d.inputs[0].name == "s.t");
  CHECK(d.inputs[0].before_text == "bytes / h.bw");
  CHECK(d.inputs[0].after_text == "2 · bytes / h.bw");
  CHECK(find(d.moved, "s2.t"));
}

TEST_CASE("diff: a new layout or the same file moves nothing", "[diff]") {
  Pair p(plan, "hardware h { bw = 2 TB/s }\nscenario s {\n  bytes = 16 GB\n  t     = bytes / h.bw\n  rate  = 1 / t\n}\n"
               "scenario s2 = s with { bytes = 8 GB }\n");
  const Diff d = p.diff();
  CHECK(d.inputs.empty());
  CHECK_FALSE(d.anything_moved());
  CHECK(diff_text(d) == "no value moved\n");
}

TEST_CASE("diff: what appeared and disappeared", "[diff]") {
  Pair p(plan, replace(plan, "  rate = 1 / t\n", "  latency = t\n"));
  const Diff d = p.diff();
  REQUIRE(d.appeared.size() == 2);
  CHECK(d.appeared[0].name == "s.latency");
  REQUIRE(d.disappeared.size() == 2);
  CHECK(d.disappeared[0].name == "s.rate");
  CHECK(d.anything_moved());
  const std::string text = diff_text(d);
  CHECK(text.find("appeared\n  s.latency   = 8 ms\n") != std::string::npos);
}

TEST_CASE("diff: text, markdown and JSON", "[diff]") {
  Pair p(plan, replace(plan, "bytes = 16 GB", "bytes = 32 GB"));
  const Diff d = p.diff();
  CHECK(diff_text(d) ==
        "inputs changed\n"
        "  s.bytes  16 GB → 32 GB\n"
        "\n"
        "values moved (2), largest change first\n"
        "  s.t     8 → 16 ms       +100% (×2)\n"
        "  s.rate  125 → 62.5 1/s  -50% (÷2)\n");
  const std::string md = diff_markdown(d);
  CHECK(md.find("| `s.bytes` | `16 GB` | `32 GB` |") != std::string::npos);
  CHECK(md.find("| `s.t` | 8 ms | 16 ms | +100% (×2) |") != std::string::npos);
  const std::string json = diff_json(d);
  CHECK(json.find("\"name\": \"s.t\"") != std::string::npos);
  CHECK(json.find("\"change\": 1.0") != std::string::npos);
}

TEST_CASE("diff --explain: the same lines once, the lines that differ side by side", "[diff]") {
  Pair p(plan, replace(plan, "bytes = 16 GB", "bytes = 32 GB"));
  ExplainNode a = explain(*p.before.in, p.before.module, "s.rate", -1);
  ExplainNode b = explain(*p.after.in, p.after.module, "s.rate", -1);
  fold_unchanged(a, b);
  const std::string out = explain_side_by_side({"old.napkin", explain_text(a)}, {"new.napkin", explain_text(b)});
  CHECK(out.find("  s.rate = 1 / t\n") != std::string::npos);
  CHECK(out.find("s.bytes = 16 GB    │ 32 GB\n") != std::string::npos);
  CHECK(out.find("\n      └── h.bw = 2 TB/s\n") != std::string::npos);  // unchanged: once
}
