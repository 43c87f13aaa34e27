#include "declarations.hpp"

#include <fmt/format.h>

namespace napkin {

namespace {

void name_dimension(Interpreter& in, const ast::Stmt& st) {
  const ast::TypeExpr& unit = st.fields.at(0).type;
  const Dim dim = in.unit_of(unit.unit).dim;
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
  for (const ast::Column& w : st.columns)
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

void declare_words(Interpreter& in, Module& m) {
  for (const auto& st : m.ast.statements) {
    if (st.kind == ast::StmtKind::Dimension) name_dimension(in, st);
    if (st.kind == ast::StmtKind::Suggest) check_suggestion(in, m, st);
  }
}

void add_spellings(const Module& m, std::vector<Spelling>& out) {
  for (const auto& st : m.ast.statements)
    if (st.kind == ast::StmtKind::Suggest)
      for (const ast::Column& w : st.columns) out.push_back({w.name, st.name});
}

}  // namespace napkin
