#include "suggest.hpp"

#include <algorithm>
#include <cctype>

namespace napkin {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment distance, in half steps: a change of case costs
  // 1, any other edit 2, so `Gib` is nearer `GiB` than `Mib`. Three rows of
  // the table are kept, not all of it: memory is linear in the length.
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::size_t> two(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = 2 * j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = 2 * i;
    for (std::size_t j = 1; j <= m; ++j) {
      const auto ca = static_cast<unsigned char>(a[i - 1]), cb = static_cast<unsigned char>(b[j - 1]);
      const std::size_t sub = ca == cb ? 0 : (std::tolower(ca) == std::tolower(cb) ? 1 : 2);
      cur[j] = std::min({prev[j] + 2, cur[j - 1] + 2, prev[j - 1] + sub});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], two[j - 2] + 2);
    }
    std::swap(two, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

std::vector<std::string> closest(const std::string& word, const std::vector<std::string>& candidates) {
  // Nobody misspells a name this long by a letter or two; and comparing it
  // would cost its length squared for every candidate.
  if (word.size() > kMaxSuggestedLength) return {};
  // Allow about one edit in three characters, at least one.
  const std::size_t limit = std::max<std::size_t>(2, 2 * (word.size() / 3));
  std::size_t best = limit + 1;
  std::vector<std::string> out;
  for (const auto& c : candidates) {
    if (c == word) continue;
    // Each character of difference in length is an edit (2): a candidate
    // further off than the best so far is skipped without its table.
    const std::size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (2 * gap > best) continue;
    const std::size_t dist = edit_distance(word, c);
    if (dist < best) {
      best = dist;
      out = {c};
    } else if (dist == best && std::find(out.begin(), out.end(), c) == out.end()) {
      out.push_back(c);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace napkin
