#pragma once
// "Did you mean": the known names closest to a misspelt one.
#include <string>
#include <vector>

namespace napkin {

std::size_t edit_distance(const std::string& a, const std::string& b);
std::vector<std::string> closest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace napkin
