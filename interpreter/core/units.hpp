#pragma once
// The unit table: symbols, prefixes and declared units. GB (10^9 B) and GiB
// (2^30 B) are separate entries reached through separate prefix families,
// so they never mix silently.
//
// The table starts empty but for `%`, which the grammar writes (`40%`): the
// base dimensions, their spellings, which prefix family each takes and the
// names messages give dimensions are declared in napkin (std/units, loaded
// before any other module), as a user's file declares its own. What is here
// is the mechanism: the two prefix families, lookup, suggestions, and how a
// dimension is written.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dimension.hpp"
#include "grammar/source.hpp"

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
  // `si`: it takes k M G T P E; `iec`: Ki Mi Gi Ti Pi Ei (`unit B prefixes si, iec`).
  bool declare_base(const std::string& name, bool si = true, bool iec = false);
  void declare_derived(const std::string& name, UnitDef def, bool si = false, bool iec = false);
  bool has_exact(const std::string& name) const { return exact_.count(name) != 0; }
  // The first spelling of `name` with one of these prefixes that is already
  // a unit (`kWh`, for `Wh` with si), or "".
  std::string prefix_clash(const std::string& name, bool si, bool iec) const;

  std::size_t base_count() const { return base_names_.size(); }
  const std::string& base_name(std::size_t i) const { return base_names_[i]; }
  // The base dimension a symbol declared (`s`), if it is one.
  std::optional<std::size_t> base_index(std::string_view symbol) const;
  // A dimension as format() writes it (`B/s`, `FLOP/param/token`, `s^2`, ""),
  // read back: what a probe's unit is (measure/); nullopt for an unknown
  // symbol.
  std::optional<Dim> dimension(std::string_view text) const;

  // The base dimensions napkin shows by its own conventions (format.cpp):
  // time in ns … year, money per second per hour, counts exactly, bytes,
  // FLOPs, tokens and parameters with the SI prefix that fits. Found by
  // their symbols (stdlib_names.hpp) as std/units declares them; -1 while
  // one is not declared, and then its convention does not apply.
  struct Shown {
    int byte = -1, flop = -1, second = -1, token = -1, param = -1, usd = -1;
  };
  const Shown& shown() const { return shown_; }

  // `dimension "bandwidth" = B/s`: the name a message gives a dimension, with
  // where it was declared. Returns the name already given, if any, and
  // then gives none.
  struct DimensionName {
    Dim dim;
    std::string name;
    Span where;
  };
  const DimensionName* name_dimension(const Dim& d, std::string name, Span where);
  const DimensionName* dimension_name(const Dim& d) const;

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
  std::map<std::string, Entry, std::less<>> exact_;  // found by string_view: no copy per prefix tried
  std::vector<std::string> base_names_;
  Shown shown_;
  std::vector<DimensionName> dimension_names_;
  // The last dimension formatted and its text: a table's column formats the
  // same dimension for every cell. A new base unit empties it.
  mutable Dim last_dim_;
  mutable std::string last_text_;
  mutable bool last_valid_ = false;
};

}  // namespace napkin
