// Records share the fields they inherit: each `extends` or `with` adds a
// layer holding only what its block adds or overrides, so a deep chain
// costs about n log n slots, not n²/2, and a lookup walks at most log2
// layers. What cannot be shared (every record's memo, and a report's row
// per field) is bounded by kMaxFieldsHeld, an E0702 at the record that
// passes it. Counts and limits, not timings: speed is measured in bench/.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "support.hpp"

using napkin::test::Session;

namespace {

// Slots stored in every distinct table a record reaches, counted once each.
std::size_t slots_stored(const std::vector<const napkin::Record*>& records) {
  std::set<const napkin::SlotTable*> seen;
  std::size_t n = 0;
  for (const napkin::Record* r : records)
    for (const napkin::SlotTable* t = r->table.get(); t && seen.insert(t).second; t = t->parent.get())
      n += t->own.size() + t->overrides.size();
  return n;
}

std::size_t layers(const napkin::Record* r) {
  std::size_t n = 0;
  for (const napkin::SlotTable* t = r->table.get(); t; t = t->parent.get()) ++n;
  return n;
}

}  // namespace

TEST_CASE("a 3,000-deep chain adding a field per level shares what it inherits", "[limits][records]") {
  // The tables alone, without the interpreter's limit: 3,000 records, each
  // with every field of the one before and one more (4.5 million slots if
  // each copied its base's).
  constexpr int depth = 3000;
  std::vector<napkin::ast::FieldDecl> decls(depth + 1);
  std::vector<napkin::Record> records(depth + 1);
  std::vector<const napkin::Record*> all;
  for (int i = 0; i <= depth; ++i) {
    decls[i].name = "f" + std::to_string(i);
    napkin::Record& r = records[i];
    if (i > 0) r.table = records[i - 1].table;
    r.add_or_override(decls[i], nullptr);
    r.settle_layers();
    all.push_back(&r);
  }
  const napkin::Record& last = records[depth];
  REQUIRE(last.slots().size() == depth + 1);
  for (int i = 0; i <= depth; i += 97) {
    CHECK(last.find("f" + std::to_string(i)) == &last.slots()[i]);
    CHECK(last.slots()[i].name == "f" + std::to_string(i));
  }
  CHECK(last.find("f" + std::to_string(depth + 1)) == nullptr);
  CHECK(last.index().size() == depth + 1);
  // n log2 n is 34,700; copying would store 4,504,501.
  const std::size_t stored = slots_stored(all);
  INFO("slots stored: " << stored);
  CHECK(stored <= static_cast<std::size_t>(depth * std::log2(depth)));
  for (const napkin::Record* r : all) CHECK(layers(r) <= 1 + static_cast<std::size_t>(std::log2(r->slots().size())));
}

TEST_CASE("an override in a shared layer shows through, and the base keeps its own", "[records]") {
  Session s;
  s.load(
      "record a { x = 1\n  y = x + 1 }\n"
      "record b extends a { z: count = 3 }\n"
      "record c extends b { x = 10 }\n"
      "record d = c with { z = 30 }\n");
  CHECK(s.si("a.y") == 2);
  CHECK(s.si("b.y") == 2);
  CHECK(s.si("c.y") == 11);
  CHECK(s.si("d.y") == 11);
  CHECK(s.si("d.z") == 30);
  CHECK(s.si("c.z") == 3);
}

TEST_CASE("a 3,000-deep chain evaluates, overriding a field at every level", "[limits][records]") {
  std::string text = "record r0 { x = 0\n  y = x * 2 }\n";
  for (int i = 1; i <= 3000; ++i)
    text += "record r" + std::to_string(i) + " extends r" + std::to_string(i - 1) + " { x = " + std::to_string(i) + " }\n";
  Session s;
  s.load(text);
  // In steps: asking r3000 first would evaluate its 3,000 bases one inside
  // the other, past the evaluation depth limit (E0701, extends_chain_too_deep).
  for (int i = 500; i <= 3000; i += 500) CHECK(s.si("r" + std::to_string(i) + ".y") == 2 * i);
}

TEST_CASE("records past kMaxFieldsHeld fields together are E0702 at the record", "[limits][records]") {
  // A chain that adds a field per level holds 1 + 2 + ... fields: r706
  // would take it past 250,000.
  std::string text = "record r0 { f0: count = 1 }\n";
  for (int i = 1; i <= 3000; ++i)
    text += "record r" + std::to_string(i) + " extends r" + std::to_string(i - 1) + " { f" + std::to_string(i) +
            ": count = " + std::to_string(i) + " }\n";
  Session s;
  s.load(text);
  CHECK(s.si("r705.f705") == 705);
  const std::string e = s.error("r706.f1");
  CHECK(s.error("r900.f1") == e);
  CHECK_THAT(e, Catch::StartsWith("test0.napkin:707:8: error[E0702]: this record would hold 707 fields"));
  CHECK_THAT(e, Catch::Contains("at most 250000"));
}

TEST_CASE("copies of a wide record count every field they hold", "[limits][records]") {
  std::string text = "record big {\n";
  for (int i = 0; i < 100000; ++i) text += "  f" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  text += "}\nrecord w1 = big with { f1 = -1 }\nrecord w2 = w1 with { f2 = -2 }\n";
  Session s;
  s.load(text);
  CHECK(s.si("w1.f1") == -1);
  CHECK(s.si("w1.f2") == 2);
  const std::string e = s.error("w2.f2");
  CHECK_THAT(e, Catch::Contains("error[E0702]: this record would hold 100001 fields"));
}

TEST_CASE("a sweep's retired points give their fields back", "[limits][records]") {
  // 100,000 points of a 10-field record: a million fields in all, 10 at a time.
  std::string text = "record r {\n  x = 1\n";
  for (int i = 0; i < 9; ++i) text += "  g" + std::to_string(i) + " = x * " + std::to_string(i) + "\n";
  text += "}\n";
  Session s;
  s.load(text);
  napkin::Record* base = s.eval("r").rec;
  int wrong = 0;
  for (int p = 0; p < 100000; ++p) {
    napkin::Record* point = s.in.with_values(base, {{0, napkin::Value::quantity(p)}});
    if (s.in.field(point, 9, {}).q.v != 8.0 * p) ++wrong;
    s.in.retire(*point);
  }
  CHECK(wrong == 0);
}
