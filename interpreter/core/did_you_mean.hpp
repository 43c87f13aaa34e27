#pragma once
// The suggestions an unknown name gets: names that start with it (`h100`
// → `h100_pcie`, `h100_sxm`), the common spellings of a name the library
// spells another way (`float16` → `fp16`), then the nearest by edit distance.
#include <string>
#include <vector>

namespace napkin {

// At most `limit` names, prefix matches first.
std::vector<std::string> suggestions(const std::string& word, const std::vector<std::string>& candidates,
                                     std::size_t limit = 4);

// "did you mean `a`?", "did you mean `a` or `b`?", "did you mean `a`, `b` or `c`?"; "" for none.
std::string did_you_mean(const std::vector<std::string>& names);

}  // namespace napkin
