// Units: the ones a module declares (`unit GB = 1e9 B`), and every unit
// written in a module checked when it loads, so that a misspelt unit is an
// error even in a formula nothing asks for.
#include <fmt/format.h>

#include <cmath>

#include "declarations.hpp"
#include "interpreter.hpp"

namespace napkin {

void Interpreter::declare_units(Module* m) {
  for (const auto& st : m->ast.statements) {
    if (st.kind != ast::StmtKind::Unit) continue;
    if (units_.lookup(st.name)) {
      // Importing the same file twice declares its units once; anything else
      // is a clash, a prefixed spelling (`GB`) included.
      fail(codes::unit_redefined, st.name_span, fmt::format("the unit `{}` is already defined", st.name),
           "choose another symbol, or use the existing unit");
    }
    const UnitPrefixes prefixes = unit_prefixes(units_, st);
    if (!st.value) {
      if (!units_.declare_base(st.name, prefixes.si, prefixes.iec))
        fail(codes::size_limit, st.name_span,
             fmt::format("too many base units: napkin holds at most {}", kMaxBaseUnits));
      continue;
    }
    check_units(*st.value);
    Value v = eval(*st.value, m->env);
    const Quantity& q = expect_quantity(v, st.value.get(), "a unit's definition");
    if (v.samples) {
      // A unit is one number: `3 foo` would keep its point value and drop
      // the interval without a word.
      Diagnostic d;
      d.code = codes::range_unit;
      d.message = fmt::format("a unit is one number, but `{}` is defined as a range ({})", st.name, show(v));
      d.labels.push_back({st.value->span, "this is a range", true});
      d.help = fmt::format("define the unit by one value, `unit {0} = {1}`, and put the uncertainty where the unit "
                           "is used: `3 {0} * (80% to 120%)`",
                           st.name, show(Value::quantity(q.v, q.dim)));
      throw Error(std::move(d));
    }
    if (q.v <= 0) fail(codes::type_mismatch, st.value->span, "a unit must be a positive quantity");
    units_.declare_derived(st.name, UnitDef{q.v, q.dim}, prefixes.si, prefixes.iec);
  }
}

void Interpreter::check_units(const std::vector<ast::FieldDecl>& fields) {
  for (const auto& f : fields) {
    if (f.value) check_units(*f.value);
    if (f.type.kind == ast::TypeKind::Unit) resolve_unit(f.type.unit);
  }
}

void Interpreter::check_units(const ast::Expr& e) {
  if (e.unit) resolve_unit(*e.unit);
  for (const auto& f : e.fields)
    if (f.type.kind == ast::TypeKind::Unit) resolve_unit(f.type.unit);
  ast::for_each_child(e, [&](const ast::Expr& c) { check_units(c); });
}

UnitDef Interpreter::resolve_unit(const ast::UnitExpr& u) {
  if (auto it = unit_cache_.find(u.text); it != unit_cache_.end()) return it->second;
  UnitDef out;
  for (const auto& t : u.terms) {
    auto def = units_.lookup(t.symbol);
    if (!def) {
      Diagnostic d;
      d.code = codes::unknown_unit;
      d.message = fmt::format("unknown unit `{}`", t.symbol);
      d.labels.push_back({t.span, "not a unit napkin knows", true});
      auto s = units_.suggest(t.symbol);
      // "per second" written as the networking shorthand: Gbps, GBps, MiBps.
      const std::string& sym = t.symbol;
      const auto per_unit = sym.size() > 2 && sym.ends_with("ps") ? units_.lookup(sym.substr(0, sym.size() - 2))
                                                                   : std::nullopt;
      const auto byte = units_.lookup("B");
      if (per_unit && byte && per_unit->dim == byte->dim) {
        const std::string per = sym.substr(0, sym.size() - 2);
        d.help = fmt::format("napkin writes a rate with a slash: `{}/s`{}", per,
                             per.ends_with("b") ? fmt::format(" (bits; `{}B/s` is bytes)", per.substr(0, per.size() - 1))
                                                : "");
        throw Error(std::move(d));
      }
      if (!s.empty()) {
        std::string list;
        for (std::size_t i = 0; i < s.size(); ++i) list += (i ? (i + 1 == s.size() ? " or " : ", ") : "") + s[i];
        d.help = fmt::format("did you mean {}?", list);
      } else {
        d.help = "units follow a number without spaces (5.3 TB/s); to divide by a name, put spaces around '/', "
                 "or declare a new unit with `unit NAME`";
      }
      throw Error(std::move(d));
    }
    const Dim term = def->dim.pow(t.power);
    if (!def->dim.power_in_range(t.power) || !out.dim.product_in_range(term))
      fail(codes::exponent_range, t.span,
           fmt::format("the unit `{}` has a power beyond ±{}", u.text, Dim::kMaxExponent));
    out.scale *= std::pow(def->scale, t.power);
    out.dim = out.dim * term;
  }
  unit_cache_.emplace(u.text, out);
  return out;
}

}  // namespace napkin
