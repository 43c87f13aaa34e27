// Inputs that reach a limit get an error with its own code, never a stack
// overflow: deep brackets, long operator chains, deep records and recursion.
#include <catch2/catch.hpp>

#include <pthread.h>

#include <cstdint>
#include <thread>

#include "interpreter/core/stack_guard.hpp"
#include "support.hpp"

using napkin::test::Session;

namespace {

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

std::string extends_chain(int depth) {
  std::string t = "record r0 { x = 1 }\n";
  for (int i = 1; i <= depth; ++i) t += "record r" + std::to_string(i) + " extends r" + std::to_string(i - 1) + " { }\n";
  return t;
}

std::string field_chain(int depth) {
  std::string t = "record r {\n  a0 = 1\n";
  for (int i = 1; i <= depth; ++i) t += "  a" + std::to_string(i) + " = a" + std::to_string(i - 1) + "\n";
  return t + "}\n";
}

}  // namespace

TEST_CASE("100,000 opening parentheses are a nesting error at the bracket that went too deep", "[limits]") {
  Session s;
  const std::string e = s.load_error("let x = " + repeat("(", 100000) + "1");
  CHECK_THAT(e, Catch::StartsWith("test0.napkin:1:265: error[E0700]: brackets nested deeper than 256 levels"));
}

TEST_CASE("nesting without brackets is limited too", "[limits]") {
  for (const std::string& text : {"let x = " + repeat("- ", 100000) + "1",
                                  "let x = " + repeat("not ", 100000) + "true",
                                  "let x = " + repeat("2 ^ ", 100000) + "2",
                                  "let x = " + repeat("if true then ", 100000) + "1" + repeat(" else 2", 100000)}) {
    Session s;
    CHECK_THAT(s.load_error(text), Catch::Contains("error[E0700]"));
  }
}

TEST_CASE("long operator and postfix chains are limited where the tree would be deep", "[limits]") {
  {
    Session s;
    s.load("let x = 1" + repeat(" + 1", 200));
    CHECK(s.si("x") == 201);
  }
  for (const std::string& text : {"let x = 1" + repeat(" + 1", 2000000), "let x = 1" + repeat(" * 1", 300),
                                  "let x = true" + repeat(" and true", 300),
                                  "record r { a = r }\nlet x = r" + repeat(".a", 300),
                                  "fn f() = f\nlet x = f" + repeat("()", 300),
                                  "record r { a = 1 }\nlet x = r" + repeat(" with { a = 2 }", 300)}) {
    Session s;
    CHECK_THAT(s.load_error(text), Catch::Contains("error[E0700]"));
  }
}

TEST_CASE("a 1,000-deep extends chain evaluates", "[limits]") {
  Session s;
  s.load(extends_chain(1000) + "record top extends r1000 { y = x + 1 }\n");
  CHECK(s.si("top.y") == 2);
  CHECK(s.si("r1000.x") == 1);
}

TEST_CASE("a 100,000-deep chain of extends or of fields is a recursion error, not a crash", "[limits]") {
  // Each chain, its deepest name, and a shallower one that still evaluates to 1.
  const auto [source, deepest, shallow] = GENERATE(table<std::string, const char*, const char*>({
      {extends_chain(100000), "r100000.x", "r500.x"},
      {field_chain(100000), "r.a100000", "r.a500"},
  }));
  CAPTURE(deepest);
  Session s;
  s.load(source);
  CHECK_THAT(s.error(deepest), Catch::Contains("error[E0701]"));
  CHECK(s.si(shallow) == 1);
}

TEST_CASE("unbounded recursion is a recursion error, not a crash", "[limits]") {
  Session s;
  s.load("fn f(n) = f(n + 1)\nfn g(n) = h(n)\nfn h(n) = g(n)\nfn deep(n) = if n < 1 then 0 else 1 + deep(n - 1)\n");
  CHECK_THAT(s.error("f(1)"), Catch::Contains("error[E0701]"));
  CHECK_THAT(s.error("g(1)"), Catch::Contains("error[E0701]"));
  CHECK(s.si("deep(300)") == 300);
}

TEST_CASE("a list longer than the limit is a size error", "[limits]") {
  Session s;
  const std::string e = s.load_error("let xs = [" + repeat("1, ", 100001) + "]");
  CHECK_THAT(e, Catch::Contains("error[E0702]: a list of 100001 items; a list holds at most 100000"));
}

TEST_CASE("parentheses are no level of the depth limit; a power looks at its exponent first", "[limits]") {
  {
    Session s;  // the sum sits 101 levels down, its first operand 100 levels below that
    s.load("let x = (1" + repeat(" + 1", 100) + ")" + repeat(" * 1", 100));
    CHECK(s.si("x") == 101);
  }
  {
    Session s;  // the same with 200 operators in the sum: its first operand is too deep
    CHECK_THAT(s.load_error("let x = (1" + repeat(" + 1", 200) + ")" + repeat(" * 1", 100)),
               Catch::StartsWith("test0.napkin:1:10: error[E0700]: expression nested deeper than 256 levels"));
  }
  {
    Session s;  // `2 ^ 2 ^ ... ^ 1`: the 258th power's exponent, at column 9 + 4 * 257
    CHECK_THAT(s.load_error("let x = " + repeat("2 ^ ", 258) + "1"),
               Catch::StartsWith("test0.napkin:1:1037: error[E0700]"));
  }
}

TEST_CASE("a sum too deep is shown from its first operand's bracket", "[limits]") {
  Session s;  // 257 negations put `(1) + 2` 257 levels down; its text starts at `(1)`, column 9 + 2 * 257 + 1
  CHECK_THAT(s.load_error("let x = " + repeat("- ", 257) + "((1) + 2)"),
             Catch::StartsWith("test0.napkin:1:524: error[E0700]: expression nested deeper than 256 levels"));
}

TEST_CASE("the stack's bottom is where glibc says, on the main thread and another", "[limits]") {
  // pthread_getattr_np reads /proc/self/maps for the main thread, which
  // stack_left no longer does; the bound must be the same, never lower
  // (a lower one would overstate the stack left).
  auto glibc_low = []() -> std::uintptr_t {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
    void* addr = nullptr;
    std::size_t size = 0;
    const int got = pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    return got == 0 ? reinterpret_cast<std::uintptr_t>(addr) : 0;
  };
  // Catch's assertions are made on the main thread only.
  std::uintptr_t main_ours = napkin::stack_bottom(), main_glibc = glibc_low(), other_ours = 0, other_glibc = 0;
  std::thread other([&] {
    other_ours = napkin::stack_bottom();
    other_glibc = glibc_low();
  });
  other.join();
  REQUIRE(main_glibc != 0);
  CHECK(main_ours == main_glibc);
  CHECK(other_ours == other_glibc);
  const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  CHECK(napkin::stack_left() <= here - main_glibc);
}
