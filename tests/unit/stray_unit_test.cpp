// `x GB` is an error that names the unit; a word that starts the next field
// or statement on the same line is not a unit.
#include <catch2/catch.hpp>

#include "support.hpp"

using napkin::test::Session;

TEST_CASE("a unit after a name, a call or brackets is E0104 with what to write", "[grammar]") {
  struct Case {
    const char* text;
    const char* help;
  };
  for (const Case& c : {Case{"let x = 2\nlet y = x GB\n", "`x * 1 GB`"},
                        Case{"fn f(a) = a\nlet y = f(2) GB/s\n", "`f(2) * 1 GB/s`"},
                        Case{"let q = 2\nlet y = (q + 1) GiB\n", "`(q + 1) * 1 GiB`"},
                        Case{"record r { a = 1 }\nlet y = r.a ms == 1 ms\n", "`r.a * 1 ms`"},
                        Case{"let y = 2 GB s\n", "`GB*s`"}}) {
    Session s;
    const std::string e = s.load_error(c.text);
    CHECK_THAT(e, Catch::Contains("error[E0104]") && Catch::Contains(c.help));
  }
}

TEST_CASE("a word that starts the next field or statement is not a stray unit", "[grammar]") {
  Session s;
  s.load("let x = 2\n"
         "record r { a = x b = 3, c = x d: count = 4 }\n"
         "let y = x let z = r.b\n"
         "let w = if x > 1 then x else 0\n"
         "check x == 2\n");
  CHECK(s.si("r.b") == 3);
  CHECK(s.si("z") == 3);
  CHECK(s.si("w") == 2);
}
