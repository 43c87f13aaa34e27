#pragma once
// "Did you mean": the known names closest to a misspelt one.
#include <string>
#include <vector>

namespace napkin {

// Names longer than this get no suggestion (a did-you-mean compares every
// candidate, at a cost of the two lengths multiplied).
inline constexpr std::size_t kMaxSuggestedLength = 64;

std::size_t edit_distance(const std::string& a, const std::string& b);
std::vector<std::string> closest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace napkin
