#include "units.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "stdlib_names.hpp"
#include "suggest.hpp"

namespace napkin {

Dim Dim::operator*(const Dim& o) const {
  Dim d;
  for (std::size_t i = 0; i < kMaxBaseUnits; ++i) d.e[i] = static_cast<std::int8_t>(e[i] + o.e[i]);
  return d;
}
Dim Dim::operator/(const Dim& o) const {
  Dim d;
  for (std::size_t i = 0; i < kMaxBaseUnits; ++i) d.e[i] = static_cast<std::int8_t>(e[i] - o.e[i]);
  return d;
}
Dim Dim::pow(int n) const {
  Dim d;
  for (std::size_t i = 0; i < kMaxBaseUnits; ++i) d.e[i] = static_cast<std::int8_t>(e[i] * n);
  return d;
}
bool Dim::product_in_range(const Dim& o, int sign) const {
  for (std::size_t i = 0; i < kMaxBaseUnits; ++i)
    if (std::abs(int{e[i]} + sign * int{o.e[i]}) > kMaxExponent) return false;
  return true;
}
bool Dim::power_in_range(long long n) const {
  for (auto x : e)
    if (x && (n > kMaxExponent || n < -kMaxExponent || std::llabs(x * n) > kMaxExponent)) return false;
  return true;
}
bool Dim::is(std::size_t b, int p) const {
  for (std::size_t i = 0; i < kMaxBaseUnits; ++i)
    if (e[i] != (i == b ? p : 0)) return false;
  return true;
}

namespace {

struct Prefix {
  const char* symbol;
  double factor;
};
constexpr Prefix kSi[] = {{"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18}};
constexpr Prefix kIec[] = {{"Ki", 1024.0},
                           {"Mi", 1024.0 * 1024},
                           {"Gi", 1024.0 * 1024 * 1024},
                           {"Ti", 1024.0 * 1024 * 1024 * 1024},
                           {"Pi", 1024.0 * 1024 * 1024 * 1024 * 1024},
                           {"Ei", 1024.0 * 1024 * 1024 * 1024 * 1024 * 1024}};

}  // namespace

// `%` is the grammar's (`40%`, `-> %`); every other unit is declared in
// napkin (std/units).
UnitTable::UnitTable() { exact_["%"] = Entry{{0.01, Dim{}}, false, false}; }

std::optional<UnitDef> UnitTable::lookup(const std::string& symbol) const {
  const std::string_view s = symbol;
  if (auto it = exact_.find(s); it != exact_.end()) return it->second.def;
  for (const auto& p : kIec) {
    const std::string_view pre = p.symbol;
    if (s.size() > pre.size() && s.starts_with(pre)) {
      auto it = exact_.find(s.substr(pre.size()));
      if (it != exact_.end() && it->second.iec) return UnitDef{it->second.def.scale * p.factor, it->second.def.dim};
    }
  }
  for (const auto& p : kSi) {
    const std::string_view pre = p.symbol;
    if (s.size() > pre.size() && s.starts_with(pre)) {
      auto it = exact_.find(s.substr(pre.size()));
      if (it != exact_.end() && it->second.si) return UnitDef{it->second.def.scale * p.factor, it->second.def.dim};
    }
  }
  return std::nullopt;
}

std::vector<std::string> UnitTable::suggest(const std::string& symbol) const {
  std::vector<std::string> candidates;
  for (const auto& [name, entry] : exact_) {
    candidates.push_back(name);
    if (entry.si)
      for (const auto& p : kSi) candidates.push_back(std::string(p.symbol) + name);
    if (entry.iec)
      for (const auto& p : kIec) candidates.push_back(std::string(p.symbol) + name);
  }
  std::vector<std::string> out;
  // `GBs` is almost always a rate written without its slash.
  if (symbol.size() > 1 && symbol.back() == 's' && lookup(symbol.substr(0, symbol.size() - 1)))
    out.push_back(symbol.substr(0, symbol.size() - 1) + "/s");
  std::size_t best = 3;  // at most one edit (or two case changes / one and a case change)
  std::vector<std::string> best_list;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(symbol, c);
    if (d < best) {
      best = d;
      best_list = {c};
    } else if (d == best) {
      best_list.push_back(c);
    }
  }
  for (auto& c : best_list)
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  if (out.size() > 3) out.resize(3);
  return out;
}

bool UnitTable::declare_base(const std::string& name, bool si, bool iec) {
  if (base_names_.size() >= kMaxBaseUnits) return false;
  const std::size_t i = base_names_.size();
  base_names_.push_back(name);
  exact_[name] = Entry{{1, Dim::base(i)}, si, iec};
  last_valid_ = false;
  namespace names = stdlib_names;
  const int at = static_cast<int>(i);
  for (auto [symbol, slot] : {std::pair{names::byte_unit, &shown_.byte}, std::pair{names::flop_unit, &shown_.flop},
                              std::pair{names::second_unit, &shown_.second}, std::pair{names::token_unit, &shown_.token},
                              std::pair{names::param_unit, &shown_.param}, std::pair{names::usd_unit, &shown_.usd}})
    if (name == symbol && *slot < 0) *slot = at;
  return true;
}

void UnitTable::declare_derived(const std::string& name, UnitDef def, bool si, bool iec) {
  exact_[name] = Entry{def, si, iec};
}

std::string UnitTable::prefix_clash(const std::string& name, bool si, bool iec) const {
  if (si)
    for (const auto& p : kSi)
      if (lookup(p.symbol + name)) return p.symbol + name;
  if (iec)
    for (const auto& p : kIec)
      if (lookup(p.symbol + name)) return p.symbol + name;
  return "";
}

std::optional<std::size_t> UnitTable::base_index(std::string_view symbol) const {
  for (std::size_t i = 0; i < base_names_.size(); ++i)
    if (base_names_[i] == symbol) return i;
  return std::nullopt;
}

std::optional<Dim> UnitTable::dimension(std::string_view text) const {
  Dim d;
  if (text.empty()) return d;
  std::size_t at = 0;
  int sign = 1;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find_first_of("*/", at), text.size());
    std::string_view term = text.substr(at, end - at);
    int power = 1;
    if (const std::size_t caret = term.find('^'); caret != std::string_view::npos) {
      power = std::atoi(std::string(term.substr(caret + 1)).c_str());
      term = term.substr(0, caret);
    }
    if (term != "1") {
      const auto i = base_index(term);
      if (!i) return std::nullopt;
      d.e[*i] = static_cast<std::int8_t>(d.e[*i] + sign * power);
    }
    if (end == text.size()) break;
    sign = text[end] == '/' ? -1 : 1;
    at = end + 1;
  }
  return d;
}

const UnitTable::DimensionName* UnitTable::name_dimension(const Dim& d, std::string name, Span where) {
  if (const DimensionName* given = dimension_name(d)) return given;
  dimension_names_.push_back({d, std::move(name), where});
  return nullptr;
}

const UnitTable::DimensionName* UnitTable::dimension_name(const Dim& d) const {
  for (const auto& n : dimension_names_)
    if (n.dim == d) return &n;
  return nullptr;
}

std::string UnitTable::format(const Dim& d) const {
  if (last_valid_ && d == last_dim_) return last_text_;
  std::string text = format_uncached(d);
  last_dim_ = d;
  last_text_ = text;
  last_valid_ = true;
  return text;
}

std::string UnitTable::format_uncached(const Dim& d) const {
  std::string num, den;
  for (std::size_t i = 0; i < base_names_.size(); ++i) {
    const int p = d.e[i];
    if (p == 0) continue;
    std::string term = base_names_[i];
    if (std::abs(p) != 1) term += "^" + std::to_string(std::abs(p));
    if (p > 0)
      num += (num.empty() ? "" : "*") + term;
    else
      den += "/" + term;
  }
  if (num.empty() && den.empty()) return "";
  if (num.empty()) num = "1";
  return num + den;
}

}  // namespace napkin
