#include <algorithm>
#include <cstdint>

#include "diff.hpp"
#include "grammar/text_width.hpp"

namespace napkin {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

void fold(ExplainNode& n) {
  n.children.clear();
  n.truncated = false;
  n.repeated = false;
  n.derivation.input = true;  // prints the value alone
}

}  // namespace

void fold_unchanged(ExplainNode& before, ExplainNode& after) {
  std::vector<bool> used(after.children.size(), false);
  for (ExplainNode& b : before.children)
    for (std::size_t i = 0; i < after.children.size(); ++i) {
      ExplainNode& a = after.children[i];
      if (used[i] || a.label != b.label) continue;
      used[i] = true;
      if (explain_text(a) == explain_text(b)) {
        fold(a);
        fold(b);
      } else {
        fold_unchanged(b, a);
      }
      break;
    }
}

std::string explain_side_by_side(const ExplainSide& before, const ExplainSide& after) {
  const auto left = lines(before.text);
  const auto right = lines(after.text);
  // Longest common subsequence of lines: what both trees share is printed
  // once, and only the lines that differ get two columns.
  const std::size_t n = left.size(), m = right.size();
  std::vector<std::vector<std::uint32_t>> common(n + 1, std::vector<std::uint32_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      common[i][j] = left[i] == right[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
  struct Pair {
    std::string l, r;
    bool same;
  };
  std::vector<Pair> pairs;
  std::vector<std::string> dl, dr;  // a run of differing lines
  // Within a run of differing lines, a line pairs with the other side's
  // line of the same node (the text before its `=`: tree drawing and name),
  // in order; a line whose node the other tree does not have (a branch one
  // side takes) stands alone, beside a blank.
  auto key = [](const std::string& line) {
    const std::size_t eq = line.find(" = ");
    return eq == std::string::npos ? line : line.substr(0, eq);
  };
  auto flush = [&] {
    const std::size_t a = dl.size(), b = dr.size();
    std::vector<std::vector<std::uint32_t>> same(a + 1, std::vector<std::uint32_t>(b + 1, 0));
    for (std::size_t i = a; i-- > 0;)
      for (std::size_t j = b; j-- > 0;)
        same[i][j] = key(dl[i]) == key(dr[j]) ? same[i + 1][j + 1] + 1 : std::max(same[i + 1][j], same[i][j + 1]);
    for (std::size_t i = 0, j = 0; i < a || j < b;) {
      if (i < a && j < b && key(dl[i]) == key(dr[j])) {
        pairs.push_back({dl[i++], dr[j++], false});
      } else if (j < b && (i == a || same[i][j + 1] >= same[i + 1][j])) {
        pairs.push_back({"", dr[j++], false});
      } else {
        pairs.push_back({dl[i++], "", false});
      }
    }
    dl.clear();
    dr.clear();
  };
  for (std::size_t i = 0, j = 0; i < n || j < m;) {
    if (i < n && j < m && left[i] == right[j]) {
      flush();
      pairs.push_back({left[i], right[j], true});
      ++i, ++j;
    } else if (j < m && (i == n || common[i][j + 1] >= common[i + 1][j])) {
      dr.push_back(right[j++]);
    } else {
      dl.push_back(left[i++]);
    }
  }
  flush();
  // A pair whose old line runs past this would push the new one off a
  // reviewer's screen: it is two lines instead, old (-) above new (+).
  constexpr int kSideBySide = 100;
  auto stacked = [](const Pair& p) { return display_width(p.l) > kSideBySide; };
  int width = std::max(display_width(before.title), 1);
  for (const Pair& p : pairs)
    if (!p.same && !stacked(p)) width = std::max(width, display_width(p.l));
  std::string out = "  " + pad_right(before.title, width) + " │ " + after.title + "\n";
  for (const Pair& p : pairs) {
    if (p.same) {
      out += "  " + p.l + "\n";
      continue;
    }
    if (stacked(p)) {
      if (!p.l.empty()) out += "- " + p.l + "\n";
      if (!p.r.empty()) out += "+ " + p.r + "\n";
      continue;
    }
    // The right column starts where the two lines part: after their `= `,
    // or after the tree's drawing both lines share.
    std::string r = p.r;
    const std::size_t eq = p.l.find("= ");
    if (!p.l.empty() && eq != std::string::npos && p.r.compare(0, eq + 2, p.l, 0, eq + 2) == 0) {
      r = p.r.substr(eq + 2);
    } else {
      std::size_t k = 0;
      while (k < p.l.size() && k < p.r.size() && p.l[k] == p.r[k] &&
             (p.l[k] == ' ' || static_cast<unsigned char>(p.l[k]) >= 0x80))  // spaces and the box-drawing bytes
        ++k;
      while (k > 0 && (static_cast<unsigned char>(p.r[k]) & 0xC0) == 0x80) --k;  // not inside a character
      r = p.r.substr(k);
    }
    // A node only one tree has is marked as diff marks a line only one
    // side has.
    const char* mark = p.l.empty() ? "+ " : p.r.empty() ? "- " : "≠ ";
    std::string line = mark + pad_right(p.l, width) + " │ " + r;
    while (line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace napkin
