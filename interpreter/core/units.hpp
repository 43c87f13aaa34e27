#pragma once
// The unit table: symbols, prefixes and user-declared units. GB (10^9 B) and
// GiB (2^30 B) are separate entries reached through separate prefix families,
// so they never mix silently.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dimension.hpp"

namespace napkin {

struct UnitDef {
  double scale = 1;  // size of one of this unit in base units
  Dim dim;
};

class UnitTable {
 public:
  UnitTable();

  std::optional<UnitDef> lookup(const std::string& symbol) const;
  // Closest known symbols, for "did you mean".
  std::vector<std::string> suggest(const std::string& symbol) const;

  // `unit request`: a new base dimension. Returns false when the table is full.
  bool declare_base(const std::string& name);
  void declare_derived(const std::string& name, UnitDef def);
  bool has_exact(const std::string& name) const { return exact_.count(name) != 0; }

  std::size_t base_count() const { return base_names_.size(); }
  const std::string& base_name(std::size_t i) const { return base_names_[i]; }

  // Every symbol declared, in order, and whether it takes SI (`GB`) or IEC
  // (`GiB`) prefixes: what an editor offers to complete.
  struct Symbol {
    std::string name;
    bool si = false, iec = false;
  };
  std::vector<Symbol> symbols() const {
    std::vector<Symbol> out;
    for (const auto& [name, e] : exact_) out.push_back({name, e.si, e.iec});
    return out;
  }

  // "B/s", "FLOP/param/token", "s^2": the dimension in base symbols.
  std::string format(const Dim& d) const;

 private:
  struct Entry {
    UnitDef def;
    bool si = false;   // k M G T P E
    bool iec = false;  // Ki Mi Gi Ti Pi Ei
  };
  std::string format_uncached(const Dim& d) const;
  std::map<std::string, Entry> exact_;
  std::vector<std::string> base_names_;
  // The last dimension formatted and its text: a table's column formats the
  // same dimension for every cell. A new base unit empties it.
  mutable Dim last_dim_;
  mutable std::string last_text_;
  mutable bool last_valid_ = false;
};

}  // namespace napkin
