#include "did_you_mean.hpp"

#include <algorithm>

#include "suggest.hpp"

namespace napkin {

namespace {

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

std::vector<std::string> suggestions(const std::string& word, const std::vector<std::string>& candidates,
                                     const std::vector<Spelling>& spellings, std::size_t limit) {
  std::vector<std::string> out;
  for (const auto& [alias, name] : spellings)
    if (word == alias && has(candidates, name) && !has(out, name)) out.push_back(name);
  // A prefix of three characters or more: `h100` is the start of `h100_sxm`.
  if (word.size() >= 3) {
    std::vector<std::string> prefixed;
    for (const auto& c : candidates)
      if (c.size() > word.size() && c.compare(0, word.size(), word) == 0 && !has(prefixed, c)) prefixed.push_back(c);
    std::sort(prefixed.begin(), prefixed.end());
    for (auto& p : prefixed)
      if (!has(out, p)) out.push_back(std::move(p));
  }
  for (auto& c : closest(word, candidates))
    if (!has(out, c)) out.push_back(std::move(c));
  if (out.size() > limit) out.resize(limit);
  return out;
}

std::string did_you_mean(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("`" + names[i] + "`");
  return "did you mean " + list + "?";
}

}  // namespace napkin
