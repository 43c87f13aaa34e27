// The interpreter's surface as the layers above use it (interpreter.hpp):
// evaluating in a record's scope, calling a function by name, the one
// switch for derivations, and the whole-library prelude.
#include <catch2/catch.hpp>

#include "grammar/error_codes.hpp"
#include "interpreter/core/interpreter.hpp"
#include "support.hpp"

using napkin::Error;
using napkin::Record;
using napkin::Value;
using napkin::test::Session;

namespace {

Record* record_named(Session& s, const char* name) { return s.in.find_binding(s.module, name)->state.value.rec; }

}  // namespace

TEST_CASE("an expression evaluated in a record's scope sees its fields before the file's names", "[evaluator][surface]") {
  Session s;
  s.load("let batch = 1\nrecord decode {\n  batch = 8\n  tokens = batch * 2\n}\n");
  s.si("decode.tokens");  // makes the record
  Record* decode = record_named(s, "decode");
  const napkin::ast::Expr& e = s.in.parse_snippet("<cond>", "batch * 10");
  // `batch` is decode's field (8) in its scope, and the file's let (1) outside it.
  CHECK(s.in.eval_in({s.module, decode}, e).q.v == 80);
  CHECK(s.in.eval_in(s.module, e).q.v == 10);
  // A field asked in the record's scope is its own, computed there: 8 * 2.
  CHECK(s.in.eval_in({s.module, decode}, s.in.parse_snippet("<cond>", "tokens")).q.v == 16);
}

TEST_CASE("a function called by name gives what a napkin call gives, and its errors keep one place", "[evaluator][surface]") {
  Session s;
  s.load("fn area(w, h = 3) = w * h\nlet side = 2\n");
  // 5 * 3, the default for h; 5 * 4 given.
  CHECK(s.in.call_function(s.module, "area", {Value::quantity(5)}).q.v == 15);
  CHECK(s.in.call_function(s.module, "area", {Value::quantity(5), Value::quantity(4)}).q.v == 20);
  CHECK(s.in.call_function(s.module, "max", {Value::quantity(2), Value::quantity(7)}).q.v == 7);  // a builtin
  // A name that is not a function is E0307, at the call's own text; called
  // again, the error points into the same tree: it is made once per name.
  const auto place = [&] {
    try {
      s.in.call_function(s.module, "side", {});
    } catch (const Error& e) {
      CHECK(e.diagnostic().code == napkin::codes::not_callable);
      REQUIRE(!e.diagnostic().labels.empty());
      return e.diagnostic().labels[0].span.file;
    }
    FAIL("calling a number is an error");
    return static_cast<const napkin::SourceFile*>(nullptr);
  };
  const napkin::SourceFile* first = place();
  REQUIRE(first);
  CHECK(first->name == "<side>");
  CHECK(place() == first);
}

TEST_CASE("derivations are recorded unless switched off, and TracingOff puts the switch back", "[evaluator][surface]") {
  Session s;
  s.load("record r {\n  a = 2 GB\n  b = 4 GB/s\n  t = a / b\n  u = a * 2\n  v = b * 2\n}\n");
  const auto entries = [&](const char* field) {
    Record* r = record_named(s, "r");
    return r->state[r->index().at(field)].trace.entries.size();
  };
  {
    const napkin::Interpreter::TracingOff off(s.in);
    s.si("r.t");
  }
  CHECK(entries("t") == 0);
  s.si("r.u");  // on again after the scope: `a` recorded
  CHECK(entries("u") == 1);
  s.in.set_tracing(false);
  s.si("r.v");
  CHECK(entries("v") == 0);
}

TEST_CASE("the whole-library prelude is loaded once", "[stdlib][surface]") {
  napkin::Interpreter in;
  napkin::Module* m = in.prelude();
  CHECK(in.prelude() == m);
  CHECK(m->imports.size() == napkin::Interpreter::std_modules().size());
}
