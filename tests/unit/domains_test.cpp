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

TEST_CASE("a library default outside its domain is an error where the record was made", "[evaluator][domains]") {
  Session s;
  s.load(R"(import "std/plans"
let q = training_plan with { model = llama3_70b, cluster = dgx_h100 with { domains = 64 }, tp = 8, pp = 3, global_batch = 512, tokens_to_train = 1 Ttoken }
)");
  const std::string e = s.error("q.step_time");
  CHECK(has(e, "error[E0203]"));
  CHECK(has(e, ".dp` must be a whole number of replicas, at least 1"));
  CHECK(has(e, "but it is 21.33"));
  // The heading and the first quoted line are the user's, where tp and pp
  // were set; the library's default and domain follow.
  CHECK(e.rfind("test0.napkin:2:9: error[E0203]", 0) == 0);
  CHECK(e.find("its `dp` is 21.33 here") < e.find("--> std/plans"));
  CHECK(has(e, "by this default"));
  CHECK(has(e, "or change the inputs its default uses: cluster.gpus / (tp * pp * cp)"));
}

TEST_CASE("an operation's place includes the parentheses of its operands", "[parser][spans]") {
  Session s;
  s.load("let t = (1 GB + 2 GB) * 3 + 1 s\n");
  const std::string e = s.error("t");
  CHECK(has(e, "error[E0201]"));
  // The sum's left operand is the whole product, its parentheses included.
  CHECK(has(e, "1 | let t = (1 GB + 2 GB) * 3 + 1 s\n  |         ^^^^^^^^^^^^^^^^^"));
}
