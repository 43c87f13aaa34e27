#include "units.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

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

UnitTable::UnitTable() {
  base_names_ = {"B", "FLOP", "s", "token", "param", "USD"};
  auto add = [&](const char* s, double scale, Dim d, bool si = false, bool iec = false) {
    exact_[s] = Entry{{scale, d}, si, iec};
  };
  const Dim byte = Dim::base(kByte), flop = Dim::base(kFlop), sec = Dim::base(kSecond), token = Dim::base(kToken),
            param = Dim::base(kParam), usd = Dim::base(kUsd);
  add("B", 1, byte, true, true);
  add("byte", 1, byte, true);
  add("bytes", 1, byte, true);
  add("bit", 0.125, byte, true, true);
  add("b", 0.125, byte, true);  // Gb/s for links; `Gib` is not a unit (did you mean GiB?)
  add("FLOP", 1, flop, true);
  add("FLOPs", 1, flop, true);
  add("flop", 1, flop, true);
  add("flops", 1, flop, true);
  add("s", 1, sec);
  add("ns", 1e-9, sec);
  add("us", 1e-6, sec);
  add("\u00b5s", 1e-6, sec);  // micro sign
  add("\u03bcs", 1e-6, sec);  // Greek mu
  add("ms", 1e-3, sec);
  add("min", 60, sec);
  add("h", 3600, sec);
  add("hour", 3600, sec);
  add("hours", 3600, sec);
  add("day", 86400, sec);
  add("days", 86400, sec);
  add("week", 7 * 86400.0, sec);
  add("weeks", 7 * 86400.0, sec);
  add("year", 365 * 86400.0, sec);
  add("years", 365 * 86400.0, sec);
  add("token", 1, token, true);
  add("tokens", 1, token, true);
  add("param", 1, param, true);
  add("params", 1, param, true);
  add("%", 0.01, Dim{});  // only after `->`: a literal writes 40%
  add("USD", 1, usd);
  add("$", 1, usd);
}

std::optional<UnitDef> UnitTable::lookup(const std::string& symbol) const {
  if (auto it = exact_.find(symbol); it != exact_.end()) return it->second.def;
  for (const auto& p : kIec) {
    const std::string pre = p.symbol;
    if (symbol.size() > pre.size() && symbol.compare(0, pre.size(), pre) == 0) {
      auto it = exact_.find(symbol.substr(pre.size()));
      if (it != exact_.end() && it->second.iec) return UnitDef{it->second.def.scale * p.factor, it->second.def.dim};
    }
  }
  for (const auto& p : kSi) {
    const std::string pre = p.symbol;
    if (symbol.size() > pre.size() && symbol.compare(0, pre.size(), pre) == 0) {
      auto it = exact_.find(symbol.substr(pre.size()));
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

bool UnitTable::declare_base(const std::string& name) {
  if (base_names_.size() >= kMaxBaseUnits) return false;
  const std::size_t i = base_names_.size();
  base_names_.push_back(name);
  exact_[name] = Entry{{1, Dim::base(i)}, true, false};
  last_valid_ = false;
  return true;
}

void UnitTable::declare_derived(const std::string& name, UnitDef def) { exact_[name] = Entry{def, false, false}; }

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
