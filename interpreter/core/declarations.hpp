#pragma once
// What a module declares about words rather than values: the names messages
// give dimensions (`dimension "bandwidth" = B/s`) and the names suggested
// for spellings that are no name (`suggest fp16 for float16`). std/units and
// std/dtypes declare theirs as any file can; nothing here knows a dimension
// or a name.
#include <vector>

#include "did_you_mean.hpp"
#include "interpreter.hpp"

namespace napkin {

// The prefix families `unit NAME prefixes si, iec` declares (without the
// clause, a base unit takes si and a derived unit none), checked: a family
// once, `none` alone (E0217), no prefixed spelling already a unit (E0216).
struct UnitPrefixes {
  bool si = false, iec = false;
};
UnitPrefixes unit_prefixes(const UnitTable& units, const ast::Stmt& st);

// Declares the module's dimension names and checks its `suggest` statements
// (each names a binding the module sees, for words that are none); after
// its units are declared and its bindings registered.
void declare_words(Interpreter& in, Module& m);

// The module's `suggest` statements, word by word, added to `out`.
void add_spellings(const Module& m, std::vector<Spelling>& out);

}  // namespace napkin
