#include "suggest.hpp"

#include <algorithm>
#include <cctype>

namespace napkin {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment distance, in half steps: a change of case costs
  // 1, any other edit 2, so `Gib` is nearer `GiB` than `Mib`.
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = 2 * i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = 2 * j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const auto ca = static_cast<unsigned char>(a[i - 1]), cb = static_cast<unsigned char>(b[j - 1]);
      const std::size_t sub = ca == cb ? 0 : (std::tolower(ca) == std::tolower(cb) ? 1 : 2);
      d[i][j] = std::min({d[i - 1][j] + 2, d[i][j - 1] + 2, d[i - 1][j - 1] + sub});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 2);
    }
  return d[n][m];
}

std::vector<std::string> closest(const std::string& word, const std::vector<std::string>& candidates) {
  // Allow about one edit in three characters, at least one.
  const std::size_t limit = std::max<std::size_t>(2, 2 * (word.size() / 3));
  std::size_t best = limit + 1;
  std::vector<std::string> out;
  for (const auto& c : candidates) {
    if (c == word) continue;
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
