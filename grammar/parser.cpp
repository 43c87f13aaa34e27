#include "parser.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <tao/pegtl/contrib/parse_tree.hpp>
#include <unordered_set>

#include "diagnostic.hpp"
#include "errors.hpp"
#include "flat_tree.hpp"
#include "parse_node.hpp"
#include "nesting.hpp"
#include "rules.hpp"
#include "utf8.hpp"

namespace napkin {
namespace {

namespace pt = tao::pegtl::parse_tree;
using namespace rules;
using Node = ParseNode;

// Rules that become parse-tree nodes. Chains fold away when they hold a
// single operand, so `2 * x` is one mul_expr node and `x` alone is a name.
template <typename Rule>
using selector = pt::selector<
    Rule,
    pt::store_content::on<import_stmt, import_path, string_body, let_stmt, let_name, fn_stmt, fn_name, param,
                          unit_stmt, unit_name, unit_value, record_stmt, record_kind, record_name, extends_base,
                          record_alias, block, field, field_type, field_value, unit_expr, unit_factor, unit_symbol,
                          unit_power, unit_mul, unit_div, check_stmt, check_approx, assign_stmt, if_expr,
                          not_op, cmp_op, range_op, add_op, mul_op, neg_expr, call_args, named_arg, member, member_name,
                          with_block, convert_percent, number_literal, number_value, percent, dollar_literal, string_literal,
                          list_literal, kw_true, kw_false, name, measure_expr, probe_name, measure_fallback,
                          sweep_stmt, sweep_var, sweep_var_name, sweep_column, solve_stmt, solve_record,
                          solve_input, solve_bracket, solve_goal>,
    pt::fold_one::on<convert_expr, or_expr, and_expr, not_expr, cmp_expr, range_expr, add_expr, mul_expr, pow_expr,
                     postfix_expr, paren_expr>>;

template <typename Rule>
using control = tao::pegtl::must_if<parse_errors, tao::pegtl::normal, false>::control<Rule>;

// Nesting the bracket count cannot see (`- - - x`, `2^2^2^...`, `not not ...`)
// still recurses; past this many nested rules the parse stops. A level of
// parentheses costs 15 rules, so 256 of them fit; a rule costs up to 1 KB of
// stack in a sanitizer build.
constexpr std::size_t kMaxRuleDepth = 5000;
struct too_deep {
  std::size_t byte;
};
template <typename Rule>
struct depth_limit : tao::pegtl::maybe_nothing {
  template <typename R, tao::pegtl::apply_mode A, tao::pegtl::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename Input, typename... States>
  static bool match(Input& in, States&&... st) {
    if constexpr (!Control<R>::enable) {
      return tao::pegtl::match<R, A, M, Action, Control>(in, st...);
    } else {
      struct Guard {
        std::size_t& d;
        ~Guard() { --d; }
      } guard{++in.private_depth};
      if (in.private_depth > kMaxRuleDepth) throw too_deep{in.byte()};
      return tao::pegtl::match<R, A, M, Action, Control>(in, st...);
    }
  }
};

class Builder {
 public:
  explicit Builder(const SourceFile& f) : file_(f) {}

  // The iterators, not begin()/end(): those copy the file's name into a position.
  Span span(const Node& n) const {
    return Span{&file_, static_cast<std::uint32_t>(n.m_begin.byte), static_cast<std::uint32_t>(n.m_end.byte)};
  }

  ast::Module module(const Node& root) {
    ast::Module m;
    for (const auto& c : root.children) m.statements.push_back(statement(*c));
    return m;
  }

  ast::ExprPtr expr(const Node& n, std::size_t depth = 0) {
    if (depth > kMaxNesting)
      fail(codes::nesting_limit, span(n), fmt::format("expression nested deeper than {} levels", kMaxNesting),
           "split it into named fields; in a chain such as `a + b + c`, each operator is a level");
    const std::size_t d = depth + 1;
    const Span s = span(n);
    if (n.is_type<number_literal>()) return number(n);
    if (n.is_type<dollar_literal>()) return dollar(n);
    if (n.is_type<string_literal>()) {
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::String, s);
      e->text = unescape(n.children.empty() ? std::string_view{} : n.children[0]->string_view(), s);
      return e;
    }
    if (n.is_type<kw_true>() || n.is_type<kw_false>()) {
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::Bool, s);
      e->boolean = n.is_type<kw_true>();
      return e;
    }
    if (n.is_type<name>()) {
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::Name, s);
      e->text = n.string();
      return e;
    }
    if (n.is_type<list_literal>()) {
      if (n.children.size() > kMaxListItems)
        fail(codes::size_limit, span(*n.children[kMaxListItems]),
             fmt::format("a list of {} items; a list holds at most {}", n.children.size(), kMaxListItems));
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::List, s);
      for (const auto& c : n.children) e->items.push_back(expr(*c, d));
      return e;
    }
    if (n.is_type<neg_expr>()) {
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::Negate, s);
      e->items.push_back(expr(*n.children.at(0), d));
      return e;
    }
    if (n.is_type<not_expr>()) {  // [not_op, operand]
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::Not, s);
      e->items.push_back(expr(*n.children.at(1), d));
      return e;
    }
    if (n.is_type<if_expr>()) {
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::If, s);
      for (const auto& c : n.children) e->items.push_back(expr(*c, d));
      return e;
    }
    if (n.is_type<convert_expr>()) {  // [operand, unit_expr]
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::Convert, s);
      e->items.push_back(expr(*n.children.at(0), d));
      const Node& u = *n.children.at(1);
      if (u.is_type<convert_percent>()) {
        ast::UnitExpr pct;
        pct.span = span(u);
        pct.text = "%";
        pct.terms.push_back({"%", 1, pct.span});
        e->unit = std::move(pct);
      } else {
        e->unit = unit(u);
      }
      return e;
    }
    // A chain `a + b + c` folds to the left: its first operand sits one level
    // deeper for every operator, and walking the tree recurses that deep.
    if (n.is_type<or_expr>() || n.is_type<and_expr>()) {
      const ast::BinOp op = n.is_type<or_expr>() ? ast::BinOp::Or : ast::BinOp::And;
      const std::size_t ops = n.children.size() - 1;
      ast::ExprPtr lhs = expr(*n.children.at(0), d + ops);
      for (std::size_t i = 1; i < n.children.size(); ++i)
        lhs = binary(op, std::move(lhs), expr(*n.children[i], d + ops - i), s.file);
      return lhs;
    }
    if (n.is_type<range_expr>())  // [low, range_op, high]
      return binary(ast::BinOp::To, expr(*n.children.at(0), d), expr(*n.children.at(2), d), s.file);
    if (n.is_type<cmp_expr>() || n.is_type<add_expr>() || n.is_type<mul_expr>()) {
      const std::size_t ops = n.children.size() / 2;
      ast::ExprPtr lhs = expr(*n.children.at(0), d + ops);
      for (std::size_t i = 1; i + 1 < n.children.size(); i += 2)
        lhs = binary(op_of(n.children[i]->string_view()), std::move(lhs), expr(*n.children[i + 1], d + ops - i / 2 - 1),
                     s.file);
      return lhs;
    }
    if (n.is_type<pow_expr>()) {
      return binary(ast::BinOp::Pow, expr(*n.children.at(0), d), expr(*n.children.at(1), d), s.file);
    }
    if (n.is_type<postfix_expr>()) return postfix(n, d);
    if (n.is_type<measure_expr>()) {  // [probe_name, named_arg*, measure_fallback?]
      auto e = std::make_unique<ast::Expr>(ast::ExprKind::Measure, s);
      e->text = n.children.at(0)->string();
      for (std::size_t i = 1; i < n.children.size(); ++i) {
        const Node& c = *n.children[i];
        if (c.is_type<measure_fallback>()) {
          e->fallback = expr(*c.children.at(0), d);
        } else {
          e->arg_names.push_back(c.children.at(0)->string());
          e->items.push_back(expr(*c.children.at(1), d));
        }
      }
      return e;
    }
    if (n.is_type<paren_expr>()) return expr(*n.children.at(0), d);
    fail(codes::internal, s, "unexpected syntax node " + std::string(n.type));
  }

 private:
  const SourceFile& file_;

  static ast::BinOp op_of(std::string_view t) {
    if (t == "+") return ast::BinOp::Add;
    if (t == "-") return ast::BinOp::Sub;
    if (t == "/") return ast::BinOp::Div;
    if (t == "==") return ast::BinOp::Eq;
    if (t == "!=") return ast::BinOp::Ne;
    if (t == "<") return ast::BinOp::Lt;
    if (t == "<=") return ast::BinOp::Le;
    if (t == ">") return ast::BinOp::Gt;
    if (t == ">=") return ast::BinOp::Ge;
    return ast::BinOp::Mul;  // '*', '·', '×'
  }

  static ast::ExprPtr binary(ast::BinOp op, ast::ExprPtr a, ast::ExprPtr b, const SourceFile* f) {
    Span s{f, a->span.begin, b->span.end};
    auto e = std::make_unique<ast::Expr>(ast::ExprKind::Binary, s);
    e->op = op;
    e->items.push_back(std::move(a));
    e->items.push_back(std::move(b));
    return e;
  }

  ast::ExprPtr postfix(const Node& n, std::size_t d) {
    const std::size_t ops = n.children.size() - 1;  // `a.b.c(x)` nests like a chain
    ast::ExprPtr e = expr(*n.children.at(0), d + ops);
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      const Node& op = *n.children[i];
      Span s{&file_, e->span.begin, static_cast<std::uint32_t>(op.end().byte)};
      const std::size_t level = d + ops - i;
      if (op.is_type<call_args>()) {
        auto call = std::make_unique<ast::Expr>(ast::ExprKind::Call, s);
        call->items.push_back(std::move(e));
        for (const auto& a : op.children) {
          if (a->is_type<named_arg>()) {
            call->arg_names.push_back(a->children.at(0)->string());
            call->items.push_back(expr(*a->children.at(1), level));
          } else {
            call->arg_names.emplace_back();
            call->items.push_back(expr(*a, level));
          }
        }
        e = std::move(call);
      } else if (op.is_type<member>()) {
        auto m = std::make_unique<ast::Expr>(ast::ExprKind::Member, s);
        m->text = op.children.at(0)->string();
        m->items.push_back(std::move(e));
        e = std::move(m);
      } else {  // with_block: [block]
        auto w = std::make_unique<ast::Expr>(ast::ExprKind::With, s);
        w->items.push_back(std::move(e));
        w->fields = fields(*op.children.at(0), level);
        e = std::move(w);
      }
    }
    return e;
  }

  double parse_number(const Node& n) const {
    std::string digits;
    for (char c : n.string_view())
      if (c != '_') digits += c;
    double v = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || !std::isfinite(v))
      fail(codes::bad_number, span(n), fmt::format("the number {} is out of range", n.string()),
           "write it with a unit prefix instead, e.g. `1.5 EB` rather than a 400-digit number");
    return v;
  }

  ast::ExprPtr number(const Node& n) {
    auto e = std::make_unique<ast::Expr>(ast::ExprKind::Number, span(n));
    const Node& value = *n.children.at(0);
    e->number = parse_number(value);
    e->text = value.string();
    if (n.children.size() > 1) {
      const Node& suffix = *n.children[1];
      if (suffix.is_type<percent>())
        e->percent = true;
      else
        e->unit = unit(suffix);
    }
    return e;
  }

  ast::ExprPtr dollar(const Node& n) {  // [number_value, (unit_mul|unit_div, unit_factor)*]
    auto e = std::make_unique<ast::Expr>(ast::ExprKind::Number, span(n));
    const Node& value = *n.children.at(0);
    e->number = parse_number(value);
    e->text = value.string();
    ast::UnitExpr u;
    const Span dollar_span{&file_, static_cast<std::uint32_t>(n.begin().byte), static_cast<std::uint32_t>(n.begin().byte + 1)};
    u.terms.push_back({"$", 1, dollar_span});
    u.text = "$";
    bool divide = false;
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      const Node& c = *n.children[i];
      if (c.is_type<unit_div>() || c.is_type<unit_mul>()) {
        divide = c.is_type<unit_div>();
        u.text += c.string();
        continue;
      }
      ast::UnitTerm t = factor(c);
      if (divide) t.power = -t.power;
      u.text += c.string();
      u.terms.push_back(std::move(t));
    }
    u.span = Span{&file_, dollar_span.begin, static_cast<std::uint32_t>(n.end().byte)};
    e->unit = std::move(u);
    e->text = "$" + e->text;  // remembered so the formula prints as written
    return e;
  }

  ast::UnitTerm factor(const Node& f) const {  // [unit_symbol, unit_power?]
    ast::UnitTerm t;
    t.symbol = f.children.at(0)->string();
    t.span = span(f);
    if (f.children.size() > 1) {
      const std::string p = f.children[1]->string().substr(1);  // drop '^'
      int v = 0;
      auto [ptr, ec] = std::from_chars(p.data() + (p[0] == '-' ? 1 : 0), p.data() + p.size(), v);
      if (ec != std::errc() || v > 64)
        fail(codes::bad_power, span(*f.children[1]), "a unit's power must be a small integer");
      t.power = p[0] == '-' ? -v : v;
    }
    return t;
  }

 public:
  ast::UnitExpr unit(const Node& n) const {  // [factor, (op, factor)*]
    ast::UnitExpr u;
    u.span = span(n);
    u.text = n.string();
    bool divide = false;
    for (const auto& c : n.children) {
      if (c->is_type<unit_div>() || c->is_type<unit_mul>()) {
        divide = c->is_type<unit_div>();
        continue;
      }
      ast::UnitTerm t = factor(*c);
      if (divide) t.power = -t.power;
      u.terms.push_back(std::move(t));
    }
    return u;
  }

 private:
  std::string unescape(std::string_view body, Span s) const {
    std::string out;
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (body[i] != '\\') {
        out += body[i];
        continue;
      }
      const char c = body[++i];
      switch (c) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        default: {
          const Span at{s.file, static_cast<std::uint32_t>(s.begin + 1 + i - 1), static_cast<std::uint32_t>(s.begin + 1 + i + 1)};
          fail(codes::bad_escape, at, fmt::format("unknown escape '\\{}' in a string", c),
               "the escapes are \\n, \\t, \\\" and \\\\");
        }
      }
    }
    return out;
  }

  ast::TypeExpr type(const Node& u) const {
    ast::TypeExpr t;
    t.span = span(u);
    t.text = u.string();
    static const std::pair<const char*, ast::TypeKind> named[] = {
        {"count", ast::TypeKind::Count}, {"bool", ast::TypeKind::Bool},     {"string", ast::TypeKind::String},
        {"record", ast::TypeKind::Record}, {"list", ast::TypeKind::List}, {"fn", ast::TypeKind::Fn},
        {"any", ast::TypeKind::Any}};
    for (auto [word, kind] : named)
      if (t.text == word) {
        t.kind = kind;
        return t;
      }
    t.kind = ast::TypeKind::Unit;
    t.unit = unit(u);
    return t;
  }

  std::vector<ast::FieldDecl> fields(const Node& block_node, std::size_t depth = 0) {
    std::vector<ast::FieldDecl> out;
    std::unordered_set<std::string_view> seen;  // a block may hold many fields: no pairwise search
    for (const auto& fnode : block_node.children) {  // field: [name, field_type|field_value]
      ast::FieldDecl f;
      f.span = span(*fnode);
      f.name = fnode->children.at(0)->string();
      f.name_span = span(*fnode->children[0]);
      const Node& rest = *fnode->children.at(1);
      if (rest.is_type<field_type>()) {
        f.type = type(*rest.children.at(0));
        if (rest.children.size() > 1) f.value = expr(*rest.children[1], depth);
      } else {
        f.value = expr(*rest.children.at(0), depth);
      }
      if (!seen.insert(fnode->children[0]->string_view()).second)
        for (const auto& prev : out) {
          if (prev.name != f.name) continue;
          Diagnostic dg;
          dg.code = codes::duplicate;
          dg.message = fmt::format("the field `{}` is defined twice in this block", f.name);
          dg.labels.push_back({f.name_span, "defined again here", true});
          dg.labels.push_back({prev.name_span, "first defined here", false});
          dg.help = "remove one of them; to change an inherited value, use `extends` or `with`";
          throw Error(std::move(dg));
        }
      out.push_back(std::move(f));
    }
    return out;
  }

  ast::Stmt statement(const Node& n) {
    const Span s = span(n);
    if (n.is_type<import_stmt>()) {
      ast::Stmt st(ast::StmtKind::Import, s);
      const Node& path = *n.children.at(0);
      const Node& lit = *path.children.at(0);  // string_literal: [string_body]
      st.name = unescape(lit.children.empty() ? std::string_view{} : lit.children[0]->string_view(), span(path));
      st.name_span = span(path);
      return st;
    }
    if (n.is_type<let_stmt>() || n.is_type<assign_stmt>()) {
      ast::Stmt st(ast::StmtKind::Let, s);
      st.record_kind = n.is_type<let_stmt>() ? "let" : "";
      st.name = n.children.at(0)->string();
      st.name_span = span(*n.children[0]);
      st.value = expr(*n.children.at(1));
      return st;
    }
    if (n.is_type<fn_stmt>()) {  // [fn_name, param*, body]
      ast::Stmt st(ast::StmtKind::Fn, s);
      st.name = n.children.at(0)->string();
      st.name_span = span(*n.children[0]);
      std::unordered_set<std::string_view> seen;
      for (std::size_t i = 1; i + 1 < n.children.size(); ++i) {
        const Node& p = *n.children[i];  // param: [name, expr?]
        ast::Param param;
        param.name = p.children.at(0)->string();
        param.span = span(p);
        if (p.children.size() > 1) param.default_value = expr(*p.children[1]);
        if (!seen.insert(p.children[0]->string_view()).second)
          fail(codes::duplicate, param.span, fmt::format("the parameter `{}` appears twice", param.name));
        st.params.push_back(std::move(param));
      }
      st.value = expr(*n.children.back());
      return st;
    }
    if (n.is_type<unit_stmt>()) {
      ast::Stmt st(ast::StmtKind::Unit, s);
      st.name = n.children.at(0)->string();
      st.name_span = span(*n.children[0]);
      if (n.children.size() > 1) st.value = expr(*n.children[1]->children.at(0));
      return st;
    }
    if (n.is_type<record_stmt>()) {  // [kind, name, alias | extends? block]
      ast::Stmt st(ast::StmtKind::Record, s);
      st.record_kind = n.children.at(0)->string();
      st.name = n.children.at(1)->string();
      st.name_span = span(*n.children[1]);
      for (std::size_t i = 2; i < n.children.size(); ++i) {
        const Node& c = *n.children[i];
        if (c.is_type<record_alias>()) {
          st.value = expr(*c.children.at(0));
        } else if (c.is_type<extends_base>()) {
          st.base = base_path(c);
        } else {
          st.fields = fields(c);
        }
      }
      return st;
    }
    if (n.is_type<check_stmt>()) {  // [expr, check_approx?[expected, tolerance]]
      ast::Stmt st(ast::StmtKind::Check, s);
      st.value = expr(*n.children.at(0));
      if (n.children.size() > 1) {
        const Node& a = *n.children[1];
        st.approx = true;
        st.expected = expr(*a.children.at(0));
        st.tolerance = expr(*a.children.at(1));
      }
      return st;
    }
    if (n.is_type<sweep_stmt>()) {  // [target, sweep_var+, sweep_column+]
      ast::Stmt st(ast::StmtKind::Sweep, s);
      st.value = expr(*n.children.at(0));
      for (std::size_t i = 1; i < n.children.size(); ++i) {
        const Node& c = *n.children[i];
        if (c.is_type<sweep_var>()) {  // [sweep_var_name, list_literal]
          ast::SweepVar v;
          v.name = c.children.at(0)->string();
          v.span = span(*c.children[0]);
          v.values = expr(*c.children.at(1));
          for (const auto& prev : st.sweep_vars)
            if (prev.name == v.name) fail(codes::duplicate, v.span, fmt::format("`{}` is swept twice", v.name));
          st.sweep_vars.push_back(std::move(v));
        } else {
          st.columns.push_back({c.string(), span(c)});
        }
      }
      if (st.sweep_vars.size() > 2)
        fail(codes::size_limit, st.sweep_vars[2].span, "a sweep varies one or two inputs",
             "sweep a third input in a second sweep, or write a record per value");
      return st;
    }
    if (n.is_type<solve_stmt>()) {  // [solve_record[name+], solve_input, solve_bracket?, solve_goal?, condition]
      // The record is `base` (its path, as text in `name`), the input and its
      // bracket are the one sweep_var, and the goal ("where", "max", "min")
      // is `record_kind`; the condition is `value`.
      ast::Stmt st(ast::StmtKind::Solve, s);
      const Node& rec = *n.children.at(0);
      st.name = rec.string();
      st.name_span = span(rec);
      st.base = base_path(rec);
      ast::SweepVar v;
      v.name = n.children.at(1)->string();
      v.span = span(*n.children[1]);
      st.record_kind = "where";
      for (std::size_t i = 2; i + 1 < n.children.size(); ++i) {
        const Node& c = *n.children[i];
        if (c.is_type<solve_bracket>()) {
          v.values = expr(*c.children.at(0));
          if (v.values->items.size() != 2)
            fail(codes::syntax, v.values->span, "a bracket to solve in has two ends, `in [LOW, HIGH]`");
        } else {
          st.record_kind = c.string();  // max or min
        }
      }
      st.sweep_vars.push_back(std::move(v));
      st.value = expr(*n.children.back());
      return st;
    }
    fail(codes::internal, s, "unexpected statement node " + std::string(n.type));
  }

  ast::ExprPtr base_path(const Node& n) {  // [name, name, ...]
    ast::ExprPtr e;
    for (const auto& c : n.children) {
      if (!e) {
        e = std::make_unique<ast::Expr>(ast::ExprKind::Name, span(*c));
        e->text = c->string();
      } else {
        auto m = std::make_unique<ast::Expr>(ast::ExprKind::Member, Span{&file_, e->span.begin, static_cast<std::uint32_t>(c->end().byte)});
        m->text = c->string();
        m->items.push_back(std::move(e));
        e = std::move(m);
      }
    }
    return e;
  }
};

// `x GB`, with the unit at `at`: says what to write instead, the operand
// before the unit times one of the unit.
[[noreturn]] void stray_unit(const SourceFile& file, std::size_t at, const std::string& message) {
  const std::string& t = file.text;
  std::size_t e = at;  // the unit runs to the next space or bracket
  while (e < t.size() && !std::isspace(static_cast<unsigned char>(t[e])) &&
         std::string_view(",;)]}#").find(t[e]) == std::string_view::npos)
    ++e;
  const Span unit{&file, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(e)};

  std::size_t end = unit.begin;
  while (end > 0 && (t[end - 1] == ' ' || t[end - 1] == '\t')) --end;
  std::size_t b = end;
  while (b > 0) {
    const char c = t[b - 1];
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') {
      --b;
    } else if (c == ')' || c == ']') {
      int depth = 0;  // back to the matching bracket
      do {
        const char k = t[--b];
        depth += (k == ')' || k == ']') - (k == '(' || k == '[');
      } while (b > 0 && depth > 0 && t[b - 1] != '\n');
      if (depth != 0) break;
    } else {
      break;
    }
  }
  const std::string_view operand = std::string_view(t).substr(b, end - b);
  const std::string_view u = unit.text();
  // `2 GB s`: the operand is itself a number with a unit.
  std::size_t before = b;
  while (before > 0 && (t[before - 1] == ' ' || t[before - 1] == '\t')) --before;
  if (before > 0 && std::isdigit(static_cast<unsigned char>(t[before - 1])))
    fail(codes::misplaced_unit, unit, "a unit is written without spaces",
         fmt::format("write `{}*{}` or `{}/{}`", operand, u, operand, u));
  const std::string shown = operand.empty() || operand.size() > 60 ? "x" : std::string(operand);
  fail(codes::misplaced_unit, unit, message, fmt::format("multiply by one of the unit: `{} * 1 {}`", shown, u));
}

void check_encoding(const SourceFile& f) {
  if (f.text.size() > kMaxSourceBytes)
    fail(codes::size_limit, Span{&f, 0, 0},
         fmt::format("the file is {} bytes; napkin reads files up to {} bytes", f.text.size(), kMaxSourceBytes));
  const auto* p = reinterpret_cast<const unsigned char*>(f.text.data());
  const std::size_t n = f.text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    const std::size_t len = utf8_sequence(p + i, n - i);
    if (len == 0) {
      fail(codes::bad_encoding, Span{&f, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1)},
           fmt::format("this byte (0x{:02X}) is not valid UTF-8", c), "save the file as UTF-8");
    }
    if (c == 0)
      fail(codes::bad_encoding, Span{&f, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1)},
           "a NUL byte in the source", "remove it; napkin files are text");
    i += len;
  }
}

// The character at `b`, whole (a UTF-8 sequence), or an empty span at the end.
Span char_at(const SourceFile& file, std::size_t b) {
  std::size_t end = b;
  if (end < file.text.size()) {
    ++end;
    while (end < file.text.size() && (static_cast<unsigned char>(file.text[end]) & 0xC0) == 0x80) ++end;
  }
  return Span{&file, static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(end)};
}

template <typename Rule>
std::unique_ptr<Node> parse_tree(const SourceFile& file) {
  check_encoding(file);
  check_nesting(file);
  // The tree's nodes keep a view of the source's name: it must be the file's
  // own, which outlives them, not a copy that dies with the input.
  tao::pegtl::memory_input<tao::pegtl::tracking_mode::eager, tao::pegtl::eol::lf_crlf, const char*> in(
      file.text, file.name.c_str());
  try {
    auto root = flat_tree::parse<Rule, Node, selector, depth_limit, control>(in);
    if (!root) fail(codes::syntax, Span{&file, 0, 0}, "could not parse the input");
    return root;
  } catch (const too_deep& e) {
    fail(codes::nesting_limit, char_at(file, e.byte), "expression nested too deeply",
         "name the inner parts: `let inner = ...`, then use `inner`");
  } catch (const tao::pegtl::parse_error& e) {
    std::size_t b = e.positions().front().byte;
    // At the end of the file, the caret goes right after the last thing written.
    if (b >= file.text.size())
      while (b > 0 && std::isspace(static_cast<unsigned char>(file.text[b - 1]))) --b;
    const std::string message(e.message());
    if (message == parse_errors::message<unit_after_operand>) stray_unit(file, b, message);
    fail(codes::syntax, char_at(file, b), message);
  }
}

}  // namespace

ast::Module parse_module(const SourceFile& file) {
  auto root = parse_tree<rules::file>(file);
  Builder b(file);
  return b.module(*root);
}

ast::ExprPtr parse_expression(const SourceFile& file) {
  auto root = parse_tree<rules::expression_only>(file);
  Builder b(file);
  return b.expr(*root->children.at(0));
}

}  // namespace napkin
