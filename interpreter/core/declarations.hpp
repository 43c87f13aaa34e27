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

// Declares the module's dimension names and checks its `suggest` statements
// (each names a binding the module sees, for words that are none); after
// its units are declared and its bindings registered.
void declare_words(Interpreter& in, Module& m);

// The module's `suggest` statements, word by word, added to `out`.
void add_spellings(const Module& m, std::vector<Spelling>& out);

}  // namespace napkin
