#pragma once
// The grammar is recursive descent: every bracket costs stack. Counting
// brackets before parsing turns "100,000 opening parentheses" into an error
// at the bracket that went one level too deep, instead of a stack overflow.
#include "source.hpp"

namespace napkin {

// Throws napkin::Error (E0700) when brackets nest deeper than kMaxNesting.
// Brackets inside strings and comments do not count.
void check_nesting(const SourceFile& file);

}  // namespace napkin
