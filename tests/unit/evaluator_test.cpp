#include <catch2/catch.hpp>

#include "support.hpp"

using napkin::test::Session;

TEST_CASE("extends: overriding an input moves every dependent field of the derived record only", "[evaluator]") {
  Session s;
  s.load(R"(
record base {
  width: count
  depth = 2
  area = width * depth
  volume = area * depth
}
record a extends base { width = 3 }
record b extends a { depth = 5 }
)");
  CHECK(s.si("a.area") == 6);
  CHECK(s.si("a.volume") == 12);
  CHECK(s.si("b.area") == 15);    // base formula sees b's depth: late binding
  CHECK(s.si("b.volume") == 75);
  CHECK(s.si("a.area") == 6);     // a is untouched
  CHECK(s.si("a.depth") == 2);
}

TEST_CASE("with makes a new record; the original keeps its values", "[evaluator]") {
  Session s;
  s.load(R"(
record m { bytes = 2 B
  count = 10
  total = bytes * count }
scenario d { model = m
  t = model.total / (1 GB/s) }
scenario d8 = d with { model = m with { bytes = 1 B } }
)");
  CHECK(s.show("d.t") == "20 ns");
  CHECK(s.show("d8.t") == "10 ns");
  CHECK(s.show("d.t") == "20 ns");
  CHECK(s.show("m.total") == "20 B");
}

TEST_CASE("inside a block, a bare name is the record's own field before a top-level name", "[evaluator]") {
  Session s;
  s.load("let x = 100\nrecord r { x = 1\n y = x + 1 }\nlet z = x + 1\n");
  CHECK(s.si("r.y") == 2);
  CHECK(s.si("z") == 101);
}

TEST_CASE("a missing input names the field and where it was declared", "[evaluator][errors]") {
  Session s;
  s.load("record gpu {\n  bw: B/s\n  t = 1 GB / bw\n}\n");
  const std::string e = s.error("gpu.t");
  CHECK(e.find("error[E0302]: `gpu.bw` needs a value") != std::string::npos);
  CHECK(e.find("test0.napkin:3:14") != std::string::npos);
  CHECK(e.find("2 |   bw: B/s\n  |   -- declared here") != std::string::npos);
}

TEST_CASE("a declared unit type is enforced", "[evaluator][errors]") {
  Session s;
  s.load("record gpu {\n  bw: B/s\n}\nrecord g extends gpu { bw = 3 TFLOP/s }\n");
  const std::string e = s.error("g.bw");
  CHECK(e.find("E0203") != std::string::npos);
  CHECK(e.find("must be B/s (bandwidth) but this value is FLOP/s (throughput)") != std::string::npos);
}

TEST_CASE("cycles print their chain", "[evaluator][errors]") {
  Session s;
  s.load("record a {\n  x = y + 1\n  y = x * 2\n}\n");
  const std::string e = s.error("a.x");
  CHECK(e.find("E0303") != std::string::npos);
  CHECK(e.find("cycle: a.x -> a.y -> a.x") != std::string::npos);
}

TEST_CASE("functions: positional, named and default arguments", "[evaluator]") {
  Session s;
  s.load("fn ring(bytes, n, bw = 100 GB/s) = 2 * (n - 1) / n * bytes / bw\n");
  CHECK(s.show("ring(1 GB, 8) -> ms") == "17.5 ms");
  CHECK(s.show("ring(bw = 100 GB/s, bytes = 1 GB, n = 8) -> ms") == "17.5 ms");
  CHECK(s.error("ring(1 GB)").find("needs the argument `n`") != std::string::npos);
  CHECK(s.error("ring(1 GB, 8, nn = 2)").find("did you mean `n`?") != std::string::npos);
  CHECK(s.error("ring(1, 2, 3, 4)").find("E0306") != std::string::npos);
}

TEST_CASE("unbounded recursion is an error, not a crash", "[evaluator][errors]") {
  Session s;
  s.load("fn f(n) = f(n + 1)\n");
  CHECK(s.error("f(1)").find("E0701") != std::string::npos);
}

TEST_CASE("arithmetic errors point at their span", "[evaluator][errors]") {
  Session s;
  CHECK(s.error("1 GB / (2 s - 2 s)").find("E0400") != std::string::npos);
  CHECK(s.error("10^400").find("E0401") != std::string::npos);
  CHECK(s.error("nope + 1").find("unknown name `nope`") != std::string::npos);
}

TEST_CASE("unknown fields get a suggestion", "[evaluator][errors]") {
  Session s;
  s.load("record r { params = 1 }\n");
  CHECK(s.error("r.parms").find("did you mean `params`?") != std::string::npos);
  CHECK(s.error("r with { parms = 2 }").find("did you mean `params`?") != std::string::npos);
}

TEST_CASE("conditionals, booleans, strings and lists", "[evaluator]") {
  Session s;
  CHECK(s.eval("if 2 > 1 then \"compute\" else \"memory\"").str() == "compute");
  CHECK(s.eval("not (1 > 2) and true").b);
  CHECK(s.si("max(1 ms, 3 ms, 2 ms)") == 3e-3);
  CHECK(s.si("sum([1, 2, 3])") == 6);
  CHECK(s.si("len([1, 2, 3])") == 3);
  CHECK(s.error("max(1 ms, 1 GB)").find("E0202") != std::string::npos);
}

TEST_CASE("derivations record each name's value", "[evaluator][derivation]") {
  Session s;
  s.load("record r {\n  a = 2 GB\n  b = 4 GB/s\n  t = a / b\n}\n");
  s.si("r.t");
  napkin::Record* r = s.in.find_binding(s.module, "r")->state.value.rec;
  const auto& trace = r->state[r->index().at("t")].trace;
  REQUIRE(trace.entries.size() == 2);
  CHECK(s.in.show(trace.entries[0].value) == "2 GB");
  CHECK(s.in.show(trace.entries[1].value) == "4 GB/s");
}
