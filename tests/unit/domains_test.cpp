#include <catch2/catch.hpp>

#include "support.hpp"

using napkin::test::Session;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const char* kLink = R"(
record link {
  bandwidth: B/s = 50 GB/s
  latency: s = 1 us
  domains = [require(bandwidth, bandwidth > 0 B/s, "above 0 B/s")]
  time = latency + 1 GB / bandwidth
}
let slow = link with { bandwidth = -1 GB/s }
)";

}  // namespace

TEST_CASE("a record that breaks a domain shows no figure, however many fields are asked", "[evaluator][domains]") {
  Session s;
  s.load(kLink);
  const std::string first = s.error("slow.time");
  CHECK(has(first, "error[E0203]"));
  CHECK(has(first, "test0.napkin:8:36"));
  // latency does not depend on bandwidth, and neither does the input
  // itself: both are the same error once the record is known to be broken.
  CHECK(s.error("slow.latency") == first);
  CHECK(s.error("slow.bandwidth") == first);
  // A record made from it with the input mended is a record of its own.
  CHECK(s.si("(slow with { bandwidth = 2 GB/s }).time") == Approx(0.500001));
}

TEST_CASE("each use of a record that breaks a domain gets the error with its own notes", "[evaluator][domains]") {
  Session s;
  s.load(std::string(kLink) + "record user {\n  a = slow.time\n  b = slow.latency\n}\n");
  const std::string b = s.error("user.b");
  const std::string a = s.error("user.a");
  CHECK(has(b, "while computing user.b"));
  CHECK_FALSE(has(b, "user.a"));
  CHECK(has(a, "while computing user.a"));
  CHECK_FALSE(has(a, "user.b"));
}

TEST_CASE("a library default outside its domain is an error where the record was made", "[evaluator][domains]") {
  Session s;
  s.load(R"(import "std/plans"
import "std/models"
let q = training_plan with { model = llama3_70b, cluster = dgx_h100 with { domains = 64 }, tp = 8, pp = 3, global_batch = 512, tokens_to_train = 1 Ttoken }
)");
  const std::string e = s.error("q.step_time");
  CHECK(has(e, "error[E0203]"));
  CHECK(has(e, ".dp` must be a whole number of replicas, at least 1"));
  CHECK(has(e, "but it is 21.33"));
  // The heading and the first quoted line are the user's, where tp and pp
  // were set; the library's default and domain follow.
  CHECK(e.rfind("test0.napkin:3:9: error[E0203]", 0) == 0);
  CHECK(e.find("its `dp` is 21.33 here") < e.find("--> std/plans"));
  CHECK(has(e, "by this default"));
  CHECK(has(e, "help: change the inputs its default uses, cluster.gpus / (tp * pp * cp); or, where the record is made, give `dp` a value"));
}

TEST_CASE("a plan whose layout the model cannot run is an error at the input that breaks it", "[evaluator][domains]") {
  Session s;
  s.load(R"(import "std/plans"
import "std/models"
let c = dgx_h100 with { domains = 48 }
let heads = training_plan with { model = llama3_70b, cluster = c, tp = 3, global_batch = 384, tokens_to_train = 1 Ttoken }
let batch = training_plan with { model = llama3_70b, cluster = c, tp = 8, global_batch = 100, tokens_to_train = 1 Ttoken }
let loose = heads with { strict_layout = false }
)");
  // 64 heads do not split 3 ways: at `tp = 3`, not at a figure that follows;
  // the record goes by the name its `let` gives it.
  std::string e = s.error("heads.step_time");
  CHECK(e.rfind("test0.napkin:4:72: error[E0203]: `heads.tp` must be a divisor of the heads", 0) == 0);
  CHECK(s.error("heads.memory_per_gpu") == e);
  // 100 sequences over 48 replicas.
  e = s.error("batch.step_time");
  CHECK(e.rfind("test0.napkin:5:90: error[E0203]: `batch.global_batch` must be a whole multiple of dp · micro_batch", 0) == 0);
  // Priced anyway when the plan says so, and its layout_ok says why not.
  CHECK(s.error("loose.step_time").empty());
  CHECK_FALSE(s.eval("loose.heads_split").b);
  CHECK_FALSE(s.eval("loose.layout_ok").b);
}

TEST_CASE("an operation's place includes the parentheses of its operands", "[parser][spans]") {
  Session s;
  s.load("let t = (1 GB + 2 GB) * 3 + 1 s\n");
  const std::string e = s.error("t");
  CHECK(has(e, "error[E0201]"));
  // The sum's left operand is the whole product, its parentheses included.
  CHECK(has(e, "1 | let t = (1 GB + 2 GB) * 3 + 1 s\n  |         ^^^^^^^^^^^^^^^^^"));
}
