#pragma once
// The suggestions an unknown name gets: the name declared for its spelling
// (`suggest fp16 for float16`, std/dtypes), names that start with it
// (`h100` → `h100_pcie`, `h100_sxm`), then the nearest by edit distance.
#include <string>
#include <vector>

namespace napkin {

// `suggest NAME for WORD`: WORD is no name, and a message suggests NAME.
struct Spelling {
  std::string word;
  std::string name;
};

// At most `limit` names: a declared spelling's name first (when it is a
// candidate), then prefix matches.
std::vector<std::string> suggestions(const std::string& word, const std::vector<std::string>& candidates,
                                     const std::vector<Spelling>& spellings, std::size_t limit = 4);
inline std::vector<std::string> suggestions(const std::string& word, const std::vector<std::string>& candidates,
                                            std::size_t limit = 4) {
  return suggestions(word, candidates, {}, limit);
}

// "did you mean `a`?", "did you mean `a` or `b`?", "did you mean `a`, `b` or `c`?"; "" for none.
std::string did_you_mean(const std::vector<std::string>& names);

}  // namespace napkin
