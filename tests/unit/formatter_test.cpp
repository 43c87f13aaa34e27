#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "grammar/ast_equal.hpp"
#include "grammar/comments.hpp"
#include "grammar/diagnostic.hpp"
#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "interpreter/layout/formatter.hpp"

using namespace napkin;
namespace fs = std::filesystem;

namespace {

std::deque<SourceFile> files;  // ASTs point into their files

const SourceFile& source(std::string text, std::string name = "t.napkin") {
  files.push_back(SourceFile{std::move(name), std::move(text), ""});
  return files.back();
}

std::string fmt(const std::string& text) { return format_source(source(text)); }

std::vector<std::string> comment_texts(const std::string& text) {
  std::vector<std::string> out;
  for (const Comment& c : find_comments(text)) out.push_back(c.text);
  std::sort(out.begin(), out.end());
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every .napkin file the repository ships that parses.
std::vector<fs::path> repository_files() {
  std::vector<fs::path> out;
  for (const char* dir : {"examples", "stdlib", "tests/stdlib", "tests/errors", "bench"}) {
    const fs::path d = fs::path(NAPKIN_SOURCE_DIR) / dir;
    if (!fs::exists(d)) continue;
    for (const auto& e : fs::recursive_directory_iterator(d))
      if (e.path().extension() == ".napkin") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("fmt keeps the meaning, the comments, and is idempotent on every file in the repository", "[fmt]") {
  int formatted = 0;
  for (const fs::path& path : repository_files()) {
    const SourceFile& in = source(slurp(path), path.string());
    ast::Module before;
    try {
      before = parse_module(in);
    } catch (const Error&) {
      continue;  // an error case that does not parse
    }
    INFO(path.string());
    const std::string once = format_source(in);
    const SourceFile& out = source(once, path.string());
    CHECK(ast_difference(before, parse_module(out)) == "");
    CHECK(format_source(out) == once);
    CHECK(comment_texts(once) == comment_texts(in.text));
    ++formatted;
  }
  CHECK(formatted > 40);
}

TEST_CASE("fmt: spacing, `≈` and `*`", "[fmt]") {
  CHECK(fmt("let x=2*3+1") == "let x = 2 * 3 + 1\n");
  CHECK(fmt("let y = 2 × 3 · 4") == "let y = 2 * 3 * 4\n");
  CHECK(fmt("check 1~=1 within 1%") == "check 1 ≈ 1 within 1%\n");
  CHECK(fmt("let bw = 5.3TB/s") == "let bw = 5.3 TB/s\n");
  CHECK(fmt("let x = ((1 + 2)) * 3") == "let x = (1 + 2) * 3\n");
  CHECK(fmt("let price = $2/hour") == "let price = $2/hour\n");
  CHECK(fmt("let n = 1_000_000") == "let n = 1_000_000\n");
  CHECK(fmt("x = 1") == "x = 1\n");
}

TEST_CASE("fmt: a block aligns its `=` and its comments, group by group", "[fmt]") {
  const std::string in = R"(model m extends transformer {
    layers = 48
    d_model = 6144 # d
  kv_heads = 8   # GQA

  # the rest
  dtype: record = fp16
   vocab: count
})";
  const std::string want = R"(model m extends transformer {
  layers   = 48
  d_model  = 6144  # d
  kv_heads = 8     # GQA

  # the rest
  dtype: record = fp16
  vocab: count
}
)";
  CHECK(fmt(in) == want);
}

TEST_CASE("fmt: one blank line around a multi-line statement, none added elsewhere", "[fmt]") {
  const std::string in = "import \"std/hardware\"\nhardware h extends gpu {\n  bw = 1 TB/s\n  c = 2 GB\n}\n"
                         "check h.bw > 0 B/s\ncheck h.c > 0 B\n\n\n\nlet a = 1\n";
  const std::string want = "import \"std/hardware\"\n\nhardware h extends gpu {\n  bw = 1 TB/s\n  c  = 2 GB\n}\n\n"
                           "check h.bw > 0 B/s\ncheck h.c > 0 B\n\nlet a = 1\n";
  CHECK(fmt(in) == want);
}

TEST_CASE("fmt: a comment above a block stays with it", "[fmt]") {
  CHECK(fmt("let a = 1\n# about s\nscenario s {\n  x = 1\n  y = 2\n}\n") ==
        "let a = 1\n\n# about s\nscenario s {\n  x = 1\n  y = 2\n}\n");
}

TEST_CASE("fmt: a block written on one line stays on one line", "[fmt]") {
  CHECK(fmt("record fp8 extends number_format {bytes_per_param=1 B/param}  # small\n") ==
        "record fp8 extends number_format { bytes_per_param = 1 B/param }  # small\n");
  CHECK(fmt("model m { }\n") == "model m {}\n");
  CHECK(fmt("scenario s { a = 1 # why\n}\n") == "scenario s {\n  a = 1  # why\n}\n");
}

TEST_CASE("fmt: a `with` block written over several lines stays a block", "[fmt]") {
  const std::string in = "scenario q = base with {\n  model = m  # which\n  batch = 32\n}\n";
  CHECK(fmt(in) == "scenario q = base with {\n  model = m  # which\n  batch = 32\n}\n");
  CHECK(fmt("scenario q = base with { batch = 32 }\n") == "scenario q = base with { batch = 32 }\n");
}

TEST_CASE("fmt: a long value wraps at `if`, at operators, and inside brackets", "[fmt]") {
  const std::string long_if =
      "scenario s {\n  q = if q_lora_rank > 0 then (d_model * q_lora_rank + q_lora_rank * q_dim) * 1 param else "
      "d_model * q_dim * 1 param\n}\n";
  CHECK(fmt(long_if) ==
        "scenario s {\n  q = if q_lora_rank > 0\n    then (d_model * q_lora_rank + q_lora_rank * q_dim) * 1 param\n"
        "    else d_model * q_dim * 1 param\n}\n");
  const std::string long_sum =
      "let total = block_params + embedding_params + position_params + stored_lm_head_params + final_norm_params + 1\n";
  CHECK(fmt(long_sum) ==
        "let total = block_params + embedding_params + position_params + stored_lm_head_params\n"
        "  + final_norm_params + 1\n");
  const std::string long_fn =
      "fn training_memory_bytes(params, gpus = 1, zero_stage = 0, state = mixed_precision_adam) = params * "
      "(state.weight_bytes / zero_shards(zero_stage, 3, gpus) + state.gradient_bytes / zero_shards(zero_stage, 2, "
      "gpus) + state.optimizer_bytes / zero_shards(zero_stage, 1, gpus))\n";
  CHECK(fmt(long_fn) ==
        "fn training_memory_bytes(params, gpus = 1, zero_stage = 0, state = mixed_precision_adam) =\n"
        "  params * (state.weight_bytes / zero_shards(zero_stage, 3, gpus)\n"
        "    + state.gradient_bytes / zero_shards(zero_stage, 2, gpus)\n"
        "    + state.optimizer_bytes / zero_shards(zero_stage, 1, gpus))\n");
}

TEST_CASE("fmt: a list too long for its line puts an item on each line", "[fmt]") {
  // Each item is 47 characters: three of them and the field pass 100.
  const std::string item = "require(bandwidth, bandwidth > 0 B/s, \"above 0\")";
  const std::string one_line = "record c {\n  domains = [" + item + ", " + item + ", " + item + "]\n}\n";
  const std::string laid_out =
      "record c {\n  domains = [\n    " + item + ",\n    " + item + ",\n    " + item + ",\n  ]\n}\n";
  CHECK(fmt(one_line) == laid_out);
  CHECK(fmt(laid_out) == laid_out);
  CHECK(ast_equal(parse_module(source(one_line)), parse_module(source(laid_out))));
  // One that fits stays on its line, and so does a list as a call's argument.
  CHECK(fmt("let xs = [1, 2, 3]\n") == "let xs = [1, 2, 3]\n");
}

TEST_CASE("fmt: a comment inside a value moves above it", "[fmt]") {
  CHECK(fmt("scenario s {\n  x = 1 +  # one\n    2\n}\n") == "scenario s {\n  # one\n  x = 1 + 2\n}\n");
}

TEST_CASE("fmt: a long sweep puts each part on a line of its own", "[fmt]") {
  std::string values;
  for (int i = 1; i <= 40; ++i) values += (i > 1 ? ", " : "") + std::to_string(i);
  const std::string out = fmt("sweep decode over batch in [" + values + "], context in [1 token] show a, b\n");
  CHECK(out.rfind("sweep decode\n  over batch in [1, 2,", 0) == 0);
  CHECK(out.find("\n       context in [1 token]\n  show a, b\n") != std::string::npos);
}

TEST_CASE("fmt: parentheses the grammar needs survive", "[fmt]") {
  for (const char* e : {"(2 m)^2", "2^(1 s)", "(drill with { dtype = int8 }).params", "(-2)^2", "a - (b - c)",
                        "(if a then b else c) + 1", "(x -> GiB) / 2", "not (a and b)", "(a < b) == c"}) {
    INFO(e);
    const SourceFile& in = source(std::string("let x = ") + e);
    const SourceFile& out = source(format_source(in));
    CHECK(ast_difference(parse_module(in), parse_module(out)) == "");
  }
  CHECK(fmt("let x = (drill with { dtype = int8 }).params") == "let x = (drill with { dtype = int8 }).params\n");
}

TEST_CASE("fmt: a file that does not parse is an error", "[fmt]") {
  CHECK_THROWS_AS(fmt("let x = \n"), Error);
}

TEST_CASE("ast_difference says where two trees differ", "[fmt]") {
  const auto a = parse_module(source("scenario s {\n  x = 1 + 2\n}\n"));
  CHECK(ast_difference(a, parse_module(source("scenario s { x = 1+2 }"))) == "");
  CHECK(ast_difference(a, parse_module(source("scenario s { x = 1 - 2 }"))).find("operator") != std::string::npos);
  CHECK(ast_difference(a, parse_module(source("scenario s { y = 1 + 2 }"))).find("field name") != std::string::npos);
  CHECK(ast_difference(a, parse_module(source("scenario s { x = 1 + 2 GB }"))).find("unit") != std::string::npos);
}

TEST_CASE("comments in strings are text", "[fmt]") {
  const auto cs = find_comments("let s = \"a # b\"  # real\n# own\n");
  REQUIRE(cs.size() == 2);
  CHECK(cs[0].text == "# real");
  CHECK_FALSE(cs[0].own_line);
  CHECK(cs[1].own_line);
}
