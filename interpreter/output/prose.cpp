#include "prose.hpp"

#include <fmt/format.h>

#include <string_view>

#include "escape.hpp"
#include "latex_math.hpp"

namespace napkin {
namespace {

using Kind = ProseSpan::Kind;

bool alnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool control(unsigned char c) { return c < 0x20 || c == 0x7F; }

// The end of the alphanumeric run from `i` (after an optional minus sign).
std::size_t run_end(const std::string& s, std::size_t i) {
  std::size_t j = i < s.size() && s[i] == '-' ? i + 1 : i;
  const std::size_t from = j;
  while (j < s.size() && alnum(s[j])) ++j;
  return j > from ? j : i;
}

std::vector<ProseSpan> spans_of(const std::string& s) {
  std::vector<ProseSpan> out;
  std::string text;
  auto push = [&](Kind k, std::string t) {
    if (!text.empty()) out.push_back({Kind::Text, std::move(text)});
    text.clear();
    out.push_back({k, std::move(t)});
  };
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '`') {
      const std::size_t close = s.find('`', i + 1);
      if (close != std::string::npos && close > i + 1) {
        push(Kind::Code, s.substr(i + 1, close - i - 1));
        i = close + 1;
        continue;
      }
    }
    // *emphasis*: a star that opens a word and one that closes it; `a * b` is a product.
    if (c == '*' && i + 1 < s.size() && s[i + 1] != ' ' && s[i + 1] != '*' && (i == 0 || !alnum(s[i - 1]))) {
      const std::size_t close = s.find('*', i + 1);
      if (close != std::string::npos && s[close - 1] != ' ' && (close + 1 == s.size() || !alnum(s[close + 1]))) {
        push(Kind::Emphasis, s.substr(i + 1, close - i - 1));
        i = close + 1;
        continue;
      }
    }
    // 10^9, d^2, (…)^-1: an exponent.
    if (c == '^' && i > 0 && (alnum(s[i - 1]) || s[i - 1] == ')')) {
      const std::size_t end = run_end(s, i + 1);
      if (end > i + 1) {
        push(Kind::Sup, s.substr(i + 1, end - i - 1));
        i = end;
        continue;
      }
    }
    // N_blocks, h_kv: a one-letter symbol's index; lm_head and kv_dtype are names.
    if (c == '_' && i > 0 && alpha(s[i - 1]) && (i == 1 || !(alnum(s[i - 2]) || s[i - 2] == '_' || s[i - 2] == '.'))) {
      std::size_t end = i + 1;
      while (end < s.size() && alnum(s[end])) ++end;
      if (end > i + 1 && (end == s.size() || (s[end] != '_' && s[end] != '.' && s[end] != '('))) {
        push(Kind::Sub, s.substr(i + 1, end - i - 1));
        i = end;
        continue;
      }
    }
    text += c;
    ++i;
  }
  if (!text.empty()) out.push_back({Kind::Text, std::move(text)});
  return out;
}

// `\x1b`: a control character, shown rather than passed on (as grammar/text_escape.hpp writes it).
std::string visible(unsigned char c) { return fmt::format("\\x{:02x}", c); }

// Markdown ------------------------------------------------------------------

std::string md_text(std::string_view s, bool block_start) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (control(c)) out += "\\" + visible(c);  // `\\x1b` shows as \x1b
    else if (std::string_view("\\`*_[]#|~!$").find(static_cast<char>(c)) != std::string_view::npos) out += std::string("\\") + static_cast<char>(c);
    else out += static_cast<char>(c);
    // A paragraph that starts `1.`, `-`, `+` or `=` would be a list or a rule.
    if (block_start && i == 0 && (c == '-' || c == '+' || c == '=')) out.insert(out.size() - 1, "\\");
    if (block_start && (c == '.' || c == ')') && i > 0 && s.find_first_not_of("0123456789") == i)
      out.insert(out.size() - 1, "\\");
  }
  return out;
}

// An exponent or index in Unicode (10⁹, d², hₖᵥ), so that the Markdown holds
// no HTML a safe renderer would drop; where Unicode has no such letter
// (N_blocks), the text as written.
std::string md_script(const std::string& s, bool sup) {
  static const char* const super_digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  static const char* const sub_digits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
  // a to z; "" where Unicode has none.
  static const char* const super_letters[] = {"ᵃ", "ᵇ", "ᶜ", "ᵈ", "ᵉ", "ᶠ", "ᵍ", "ʰ", "ⁱ", "ʲ", "ᵏ", "ˡ", "ᵐ",
                                              "ⁿ", "ᵒ", "ᵖ", "",  "ʳ", "ˢ", "ᵗ", "ᵘ", "ᵛ", "ʷ", "ˣ", "ʸ", "ᶻ"};
  static const char* const sub_letters[] = {"ₐ", "", "", "", "ₑ", "", "", "ₕ", "ᵢ", "ⱼ", "ₖ", "ₗ", "ₘ",
                                            "ₙ", "ₒ", "ₚ", "", "ᵣ", "ₛ", "ₜ", "ᵤ", "ᵥ", "", "ₓ", "", ""};
  std::string out;
  for (char c : s) {
    const char* m = "";
    if (c >= '0' && c <= '9') m = (sup ? super_digits : sub_digits)[c - '0'];
    else if (c >= 'a' && c <= 'z') m = (sup ? super_letters : sub_letters)[c - 'a'];
    else if (c == '-') m = sup ? "⁻" : "₋";
    if (!*m) return md_text(std::string(sup ? "^" : "_") + s, false);
    out += m;
  }
  return out;
}

std::string md_block(const ProseBlock& b) {
  std::string out;
  for (std::size_t i = 0; i < b.spans.size(); ++i) {
    const ProseSpan& sp = b.spans[i];
    switch (sp.kind) {
      case Kind::Text: out += md_text(sp.text, i == 0 && !b.item); break;
      case Kind::Code: out += markdown_code(sp.text); break;
      case Kind::Emphasis: out += "*" + md_text(sp.text, false) + "*"; break;
      case Kind::Sup: out += md_script(sp.text, true); break;
      case Kind::Sub: out += md_script(sp.text, false); break;
    }
  }
  return out;
}

// LaTeX ---------------------------------------------------------------------

std::string tex_text(std::string_view s) {
  std::string out, plain;
  auto flush = [&] {
    out += latex_text(plain, "\\_\\allowbreak{}");  // names such as `num_key_value_heads` may break after an underscore
    plain.clear();
  };
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '`') {
      flush();
      out += "\\textasciigrave{}";  // not the opening quote TeX makes of it
    } else if (c == '~' || c == '^') {
      flush();
      out += c == '~' ? "$\\sim$" : "$^\\wedge$";  // the text accents would sit above the line: 10ˆ9
    } else if (c == '-') {
      flush();
      if (!out.empty() && out.back() == '-') out += "{}";  // `<!--` keeps two hyphens, not TeX's en dash
      out += '-';
    } else if (control(c)) {
      flush();
      out += "\\textbackslash{}" + visible(c).substr(1);
    } else {
      plain += ch;
    }
  }
  flush();
  return out;
}

std::string tex_block(const ProseBlock& b) {
  std::string out;
  for (const auto& sp : b.spans) {
    switch (sp.kind) {
      case Kind::Text: out += tex_text(sp.text); break;
      case Kind::Code: out += "\\texttt{" + tex_text(sp.text) + "}"; break;
      case Kind::Emphasis: out += "\\emph{" + tex_text(sp.text) + "}"; break;
      case Kind::Sup: out += "\\textsuperscript{" + tex_text(sp.text) + "}"; break;
      case Kind::Sub: out += "\\textsubscript{" + tex_text(sp.text) + "}"; break;
    }
  }
  return out;
}

template <typename Block, typename Open, typename Close>
std::string render(const std::string& text, Block block, Open open_list, Close close_list, const char* item) {
  const auto blocks = parse_prose(text);
  std::string out;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const bool item_here = blocks[i].item, first_item = item_here && (i == 0 || !blocks[i - 1].item);
    const bool last_item = item_here && (i + 1 == blocks.size() || !blocks[i + 1].item);
    if (i > 0) out += item_here && !first_item ? "\n" : "\n\n";
    if (first_item) out += open_list();
    out += (item_here ? item : "") + block(blocks[i]);
    if (last_item) out += close_list();
  }
  return out;
}

}  // namespace

std::vector<ProseBlock> parse_prose(const std::string& text) {
  std::vector<ProseBlock> out;
  std::vector<std::pair<bool, std::string>> raw;  // (item, its text)
  bool open = false;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + at, end - at);
    at = end + 1;
    const std::size_t lead = line.find_first_not_of(' ');
    if (lead == std::string_view::npos) {
      open = false;
      continue;
    }
    const std::string_view rest = line.substr(lead);
    if (rest.size() > 2 && (rest[0] == '-' || rest[0] == '*') && rest[1] == ' ') {
      raw.emplace_back(true, std::string(rest.substr(2)));
      open = true;
    } else if (open) {
      raw.back().second += " " + std::string(rest);
    } else {
      raw.emplace_back(false, std::string(rest));
      open = true;
    }
  }
  for (auto& [item, t] : raw) out.push_back({item, spans_of(t)});
  return out;
}

std::string prose_markdown(const std::string& text) {
  return render(text, md_block, [] { return std::string(); }, [] { return std::string(); }, "- ");
}

std::string prose_latex(const std::string& text) {
  return render(text, tex_block, [] { return std::string("\\begin{itemize}\n"); },
                [] { return std::string("\n\\end{itemize}"); }, "\\item ");
}

}  // namespace napkin
