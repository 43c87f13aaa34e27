#include "declarations.hpp"

#include <fmt/format.h>

namespace napkin {

namespace {

void name_dimension(Interpreter& in, const ast::Stmt& st) {
  const ast::TypeExpr& unit = st.fields.at(0).type;
  const Dim dim = in.resolve_unit(unit.unit).dim;
  if (dim.dimensionless()) {
    Diagnostic d;
    d.code = codes::dimension_plain;
    d.message = fmt::format("`{}` is a plain number: it has no dimension to name", unit.text);
    d.labels.push_back({unit.span, "a plain number", true});
    d.help = "messages call a plain number \"a plain number\"; name a dimension with a unit, e.g. "
             "`dimension \"bandwidth\" = B/s`";
    throw Error(std::move(d));
  }
  if (const auto* given = in.units().name_dimension(dim, st.name, st.name_span)) {
    Diagnostic d;
    d.code = codes::dimension_named;
    d.message = fmt::format("the dimension {} is already named \"{}\"", in.units().format(dim), given->name);
    d.labels.push_back({st.name_span, "named again here", true});
    if (given->where.valid()) d.labels.push_back({given->where, "first named here", false});
    d.help = "a dimension has one name in messages: remove one of the two declarations";
    throw Error(std::move(d));
  }
}

void check_suggestion(Interpreter& in, Module& m, const ast::Stmt& st) {
  if (!in.find_binding(&m, st.name)) {
    Diagnostic d;
    d.code = codes::suggest_unknown;
    d.message = fmt::format("`{}` is not defined here, so no message can suggest it", st.name);
    d.labels.push_back({st.name_span, "not defined here", true});
    d.help = "`suggest NAME for WORD` names a let, fn or record that this file defines or imports";
    throw Error(std::move(d));
  }
  for (const ast::Column& w : st.suggested_spellings())
    if (w.name == st.name || in.find_binding(&m, w.name)) {
      Diagnostic d;
      d.code = codes::suggest_defined;
      d.message = fmt::format("`{}` is a name here, so no unknown-name message meets it", w.name);
      d.labels.push_back({w.span, "already a name", true});
      d.help = fmt::format("list only words that are not names: remove `{}`", w.name);
      throw Error(std::move(d));
    }
}

}  // namespace

UnitPrefixes unit_prefixes(const UnitTable& units, const ast::Stmt& st) {
  UnitPrefixes out;
  const auto& prefixes = st.unit_prefixes();
  out.si = !st.value && prefixes.empty();
  bool none = false;
  for (std::size_t i = 0; i < prefixes.size(); ++i) {
    const ast::Column& c = prefixes[i];
    bool& on = c.name == "si" ? out.si : c.name == "iec" ? out.iec : none;
    if (on || (i > 0 && (c.name == "none" || none))) {
      Diagnostic d;
      d.code = codes::bad_prefixes;
      d.message = on ? fmt::format("`{}` is written twice in the prefixes of `{}`", c.name, st.name)
                     : fmt::format("`none` cannot stand with other prefixes in the prefixes of `{}`", st.name);
      d.labels.push_back({c.span, on ? "written again here" : "this contradicts the rest", true});
      d.help = "write `prefixes si`, `prefixes iec`, `prefixes si, iec` or `prefixes none`";
      throw Error(std::move(d));
    }
    on = true;
  }
  if (const std::string clash = units.prefix_clash(st.name, out.si, out.iec); !clash.empty()) {
    Diagnostic d;
    d.code = codes::prefix_clash;
    d.message = fmt::format("`{}` with its prefixes would spell `{}`, which is already a unit", st.name, clash);
    d.labels.push_back({st.name_span, fmt::format("`{}` would be read two ways", clash), true});
    d.help = st.value ? fmt::format("choose another symbol, or declare it without prefixes: `unit {} = …`", st.name)
                      : fmt::format("choose another symbol, or declare it `unit {} prefixes none`", st.name);
    throw Error(std::move(d));
  }
  return out;
}

void declare_words(Interpreter& in, Module& m) {
  for (const auto& st : m.ast.statements) {
    if (st.kind == ast::StmtKind::Dimension) name_dimension(in, st);
    if (st.kind == ast::StmtKind::Suggest) check_suggestion(in, m, st);
  }
}

void add_spellings(const Module& m, std::vector<Spelling>& out) {
  for (const auto& st : m.ast.statements)
    if (st.kind == ast::StmtKind::Suggest)
      for (const ast::Column& w : st.suggested_spellings()) out.push_back({w.name, st.name});
}

}  // namespace napkin
