// `explain --flat`: a derivation on one line. The formula's tree is rebuilt
// with every field and user function call replaced by the tree of its own
// formula (the call's body, with the trace of that call), down to literals,
// inputs and measurements, which show their values; the new tree then
// becomes a term (term.hpp) with the fewest parentheses, as any formula does.
//
// The line is itself napkin: with digit grouping removed, `napkin eval` of
// it gives the result, value and unit (tests/cli/flat_readback.py reads
// every example's back). So it keeps every unit, and reads as a textbook
// writes it by putting a unit on the number it belongs to: `6,144 · 48 · 128
// · 1 param` is `6,144 · 48 · 128 param`, `2 B/value / 1 token` is
// `2 B/value/token`; a `· 1 token` stays only where no number takes it.
// Left out is only what changes no value and no unit: factors and divisors
// of a plain 1, terms that are zero (`+ 0 B` from a layer kind the model
// does not have), and conversions (`-> GiB`: the result says its unit).
// An input of a record (a field declared with a type, such as a model's
// head_dim) stands as its value even where its default formula computed it,
// shown with as many digits as it takes to be exact (`1,307.4 TFLOP/s`).
// The tree (`explain` without --flat) keeps it all.
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "derivation.hpp"
#include "specialise.hpp"
#include "interpreter/core/argument_binding.hpp"

namespace napkin {
namespace {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;

// A synthetic node of the new tree: a number as shown, whose unit the
// simplifications below may rewrite, or any other term.
struct Leaf {
  std::optional<Shown> number;
  Term term;
  std::optional<Term> name;  // in factor lines, what the names line shows
  Term shown() const { return number ? shown_term(*number) : term; }
};

struct Flattener {
  const Interpreter& in;
  std::unordered_map<const Expr*, Leaf> leaves;          // synthetic nodes printed as these
  std::unordered_map<const Expr*, double> values;        // what each new node is known to equal (SI)
  std::vector<ExprPtr> dropped;                          // left out, but their addresses stay taken
  std::size_t budget = 400;  // formulas inlined; past it, values stand in
  int depth = 0;
  // The user function calls being opened: a parameter in a body stands for
  // its argument, built where the call was made.
  struct Frame {
    const ast::Stmt* decl;
    std::vector<const Expr*> args;  // per parameter; null where its default applies
    const Trace* caller;
    int parent;  // the frame the call was made in, -1 for the formula itself
  };
  std::vector<Frame> frames;
  int current = -1;
  // Factor lines: leaves keep their names, and a name whose formula is a
  // sum opens only while the sum has at most `sum_leaves` leaves.
  bool named = false;
  std::size_t sum_leaves = 16;     // a sum that is a term of the line's own sum
  std::size_t nested_leaves = 4;   // a sum inside a product or a call: `(head_dim + v_head_dim)`
  int in_product = 0;
  // The file the answer is written in: a value it defines there is a step
  // of its own, and stays a name.
  const SourceFile* home = nullptr;
  int home_leaves = 0;                  // the file's own values left as names so far
  bool in_home = false;                 // opening one of them
  std::size_t home_opened_leaves = 8;   // the most leaves one of them opens into
  std::vector<CallStep> calls;  // factor lines: the user functions left unopened

  // How a name reads in the names line: `m.kv_heads` inside a function of m
  // is the model's `kv_heads`.
  Term name_of(const Expr& e) const {
    Term t = term_of(e);
    if (current < 0 || t.tokens.size() != 1 || t.tokens[0].kind != Token::Kind::Name) return t;
    std::string& s = t.tokens[0].text;
    for (const auto& p : frames[current].decl->params)
      if (s.size() > p.name.size() + 1 && s.compare(0, p.name.size() + 1, p.name + ".") == 0) {
        s.erase(0, p.name.size() + 1);
        break;
      }
    return t;
  }

  std::size_t leaf_count(const Expr& e) const {
    if (leaves.count(&e)) return 1;
    std::size_t n = 0;
    ast::for_each_child(e, [&](const Expr& c) { n += leaf_count(c); });
    return n;
  }
  // In factor lines, a sum too long to read as one step stays its name.
  ExprPtr open_factor(const Expr& f, const Trace& t) {
    const std::size_t had = calls.size();
    ExprPtr out = open(f, t);
    if (!named || !out || out->kind != ExprKind::Binary ||
        (out->op != ast::BinOp::Add && out->op != ast::BinOp::Sub) ||
        leaf_count(*out) <= (in_product ? nested_leaves : sum_leaves))
      return out;
    dropped.push_back(std::move(out));
    calls.resize(had);
    return nullptr;
  }

  ExprPtr leaf(const Expr& at, Leaf t, std::optional<double> v = std::nullopt) {
    auto n = std::make_unique<Expr>(ExprKind::Name, at.span);
    leaves[n.get()] = std::move(t);
    if (v) values[n.get()] = *v;
    return n;
  }

  // The expression as it is written, standing for itself.
  ExprPtr as_written(const Expr& e, std::optional<double> v = std::nullopt) { return leaf(e, {{}, term_of(e)}, v); }

  // A value with the fewest digits that give it back exactly (to 12 digits):
  // an input is `1,307.4 TFLOP/s`, as the spec writes it, not `1,307`, so the
  // line evaluates to its result. A measured value or a range shows as usual.
  Shown exact(const Value& v) const {
    Shown t = shown_value(in, v);
    if (v.note || !t.rest.empty() || t.number.empty() || t.number[0] == '$') return t;
    const auto number = [](const std::string& s) {
      std::string digits;
      for (char c : s)
        if (c != ',') digits += c;
      return std::strtod(digits.c_str(), nullptr);
    };
    const Shown full = shown_value(in, v, 17);
    if (full.unit != t.unit) return t;
    const double want = number(full.number);
    for (int d = in.options().digits + 1; number(t.number) != want && d <= 17; ++d) {
      Shown more = shown_value(in, v, d);
      if (more.unit != full.unit) break;
      const double got = number(more.number);
      t = std::move(more);
      if (std::abs(got - want) <= 1e-12 * std::abs(want)) break;
    }
    return t;
  }

  // A range stands as it is written, `(35% to 55%)`: its median and interval
  // are no napkin a reader could type back.
  ExprPtr range_leaf(const Expr& at, const Expr& literal) { return leaf(at, {{}, grouped(term_of(literal))}); }

  // `4 1/token`, as a value of that unit shows, is no napkin: `(4 / 1 token)`.
  static Leaf per_unit(Shown t) {
    if (t.unit.rfind("1/", 0) != 0 || !t.rest.empty() || t.unit.find_first_of("/*^()", 2) != std::string::npos)
      return {std::move(t), {}};
    Term div;
    append_number(div.tokens, t.number, "", false);
    Token slash;
    slash.kind = Token::Kind::Operator;
    slash.text = "/";
    slash.space = true;
    slash.breaks = binding::kProduct;
    div.tokens.push_back(std::move(slash));
    append_number(div.tokens, "1", t.unit.substr(2), true);
    return {{}, grouped(std::move(div))};
  }

  ExprPtr value_leaf(const Expr& at, const Value& v) {
    // Factor lines are read, not typed back: values as the sheet shows them.
    Leaf t = v.kind == Value::Kind::Quantity ? per_unit(named ? shown_value(in, v) : exact(v)) : Leaf{{}, value_term(in, v)};
    if (v.note && v.note->rfind("measured", 0) == 0) t = {{}, noted(t.shown(), "measured")};
    if (named && at.kind != ExprKind::Measure && at.kind != ExprKind::Number) t.name = name_of(at);
    return leaf(at, std::move(t), v.kind == Value::Kind::Quantity ? std::optional<double>(v.q.v) : std::nullopt);
  }

  // The new tree's nodes as terms: each leaf as what it stands for.
  TermOptions printing(bool names = false) const {
    TermOptions o;
    o.substitute = [this, names](const Expr& node) -> std::optional<Term> {
      auto it = leaves.find(&node);
      if (it == leaves.end()) return std::nullopt;
      return names && it->second.name ? *it->second.name : it->second.shown();
    };
    return o;
  }

  // The formula `f`, evaluated with trace `t`, inlined.
  ExprPtr open(const Expr& f, const Trace& t) {
    if (budget == 0 || depth > 64) return nullptr;
    --budget;
    ++depth;
    ExprPtr out = build(f, t);
    --depth;
    return out;
  }

  // `131072` and `131_072` as a value shows: `131,072`.
  static std::string digit_groups(const std::string& text) {
    std::string digits;
    for (char c : text)
      if (c != '_') digits += c;
    std::size_t end = 0;
    while (end < digits.size() && std::isdigit(static_cast<unsigned char>(digits[end]))) ++end;
    if (end < 4 || (end < digits.size() && digits[end] != '.' && digits[end] != '%')) return digits;
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && i < end && (end - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return out;
  }

  // A leaf that is a number as shown, with nothing after it but its unit.
  Shown* number_leaf(const Expr& e) {
    auto it = leaves.find(&e);
    if (it == leaves.end() || !it->second.number || !it->second.number->rest.empty()) return nullptr;
    const std::string& s = it->second.number->number;
    if (s.empty() || s[0] == '$' || s.back() == '%') return nullptr;
    return &*it->second.number;
  }
  // A 1 with no unit: left out as a factor or divisor.
  bool plain_one(const Expr& e) {
    const Shown* t = number_leaf(e);
    return t && t->unit.empty() && value_of(&e) == 1.0;
  }
  // `1 token`: a 1 whose unit is one name.
  bool unit_one(const Expr& e) {
    const Shown* t = number_leaf(e);
    if (!t || t->number != "1" || t->unit.empty()) return false;
    for (char c : t->unit)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
  }

  // Multiplies (sign 1) or divides (-1) the number at the end of `e`'s
  // product by `unit`: the last factor (side 1) or the first (0), where it
  // is a number whose unit takes it as napkin writes units: `128` becomes
  // `128 param`, `2 B/value` over token `2 B/value/token`, `8,192 token`
  // over token `8,192`, `2 FLOP/param/token` by token `2 FLOP/param`.
  bool attach(Expr& e, const std::string& unit, int sign, int side) {
    Expr* n = &e;
    while (n->kind == ExprKind::Binary && (n->op == ast::BinOp::Mul || n->op == ast::BinOp::Div)) {
      if (side == 1 && n->op == ast::BinOp::Div) sign = -sign;
      n = n->items[side].get();
    }
    Shown* t = number_leaf(*n);
    if (!t || t->unit.find_first_of("*^() ") != std::string::npos) return false;
    std::string& u = t->unit;
    const std::size_t slash = u.rfind('/');
    if (sign > 0 && u.empty())
      u = unit;
    else if (sign > 0 && slash != std::string::npos && u.compare(slash + 1, std::string::npos, unit) == 0)
      u.resize(slash == 1 && u[0] == '1' ? 0 : slash);  // `1/token` by token: no unit
    else if (sign < 0 && u == unit)
      u.clear();
    else if (sign < 0 && !u.empty())
      u += "/" + unit;
    else
      return false;
    if (value_of(n) != 0.0) values.erase(n);  // a unit may scale it (`1 GB`); zero stays zero
    return true;
  }

  std::optional<double> value_of(const Expr* e) const {
    auto it = values.find(e);
    return it == values.end() ? std::nullopt : std::optional<double>(it->second);
  }

  ExprPtr build(const Expr& e, const Trace& t) {
    // Factor lines are specialised (specialise.hpp): a folded term is not
    // built at all, so no call inside it is listed. The flat line keeps its
    // unit helpers' bodies, so that it reads back to its unit.
    if (named)
      if (const Expr* s = specialised(in, e, t)) return build(*s, t);
    switch (e.kind) {
      case ExprKind::Name:
      case ExprKind::Member:
      case ExprKind::Call:
      case ExprKind::If:
      case ExprKind::Measure: return traced(e, t);
      case ExprKind::Binary: return binary(e, t);
      case ExprKind::Convert: return build(*e.items[0], t);  // the same value: the result says its unit
      case ExprKind::Negate:
      case ExprKind::Not: {
        auto n = std::make_unique<Expr>(e.kind, e.span);
        n->unit = e.unit;
        n->items.push_back(build(*e.items[0], t));
        return n;
      }
      case ExprKind::Number: {
        double v = e.number * (e.percent ? 0.01 : 1);
        // With a unit its value is known only when it is zero, which is all the simplifications need.
        const bool known = !e.unit || e.number == 0;
        Shown written{digit_groups(e.text + (e.percent ? "%" : "")), e.unit ? e.unit->text : "", ""};
        return leaf(e, {std::move(written), {}}, known ? std::optional<double>(v) : std::nullopt);
      }
      default: return as_written(e);
    }
  }

  // A parameter of the function being opened: the argument its caller
  // passed, built in the caller's trace.
  ExprPtr argument(const Expr& e) {
    if (e.kind != ExprKind::Name || current < 0) return nullptr;
    const int at = current;  // frames may grow while the argument is built
    for (std::size_t p = 0; p < frames[at].decl->params.size(); ++p) {
      if (frames[at].decl->params[p].name != e.text || !frames[at].args[p]) continue;
      const Expr* arg = frames[at].args[p];
      const Trace* caller = frames[at].caller;
      current = frames[at].parent;
      ExprPtr out = build(*arg, *caller);
      current = at;
      return out;
    }
    return nullptr;
  }

  // `require(x, condition, "domain")` states x's domain: no step of the
  // arithmetic, so it shows as x.
  static bool is_require(const Expr& e) {
    return e.kind == ExprKind::Call && e.items.size() == 4 && e.items[0]->kind == ExprKind::Name &&
           e.items[0]->text == "require";
  }

  ExprPtr traced(const Expr& e, const Trace& t) {
    if (is_require(e)) return build(*e.items[1], t);
    const TraceEntry* te = entry_of(t, e);
    if (!te) {
      // A name the trace did not record (require's x is read, not traced).
      if (!(e.kind == ExprKind::Name && e.text == "require"))
        if (ExprPtr arg = argument(e)) return arg;
      return as_written(e);
    }
    if (e.kind == ExprKind::If) return build(*e.items[te->value.b ? 1 : 2], t);
    if (te->value.kind == Value::Kind::Record || te->value.kind == Value::Kind::Function) return as_written(e);
    if (e.kind == ExprKind::Measure) return value_leaf(e, te->value);
    if (e.kind == ExprKind::Call) {
      if (te->call && te->call->decl) {
        const ast::Stmt& decl = *te->call->decl;
        Frame fr{&decl, std::vector<const Expr*>(decl.params.size(), nullptr), &t, current};
        // Bound as the interpreter bound them (the call ran).
        const ArgumentBinding binding = bind_arguments(decl.params, e.arg_names);
        for (std::size_t i = 0; i < binding.slot.size(); ++i) fr.args[binding.slot[i]] = e.items[i + 1].get();
        frames.push_back(std::move(fr));
        const int saved = current;
        current = static_cast<int>(frames.size()) - 1;
        ExprPtr body = open_factor(*decl.value, te->call->trace);
        current = saved;
        if (body) return body;
        if (named) {
          // Named as called, its arguments as the line names them.
          auto c = std::make_unique<Expr>(ExprKind::Call, e.span);
          c->arg_names = e.arg_names;
          c->items.push_back(as_written(*e.items[0]));
          for (std::size_t i = 1; i < e.items.size(); ++i) c->items.push_back(build(*e.items[i], t));
          Term name = term_of(*c, printing(true));
          dropped.push_back(std::move(c));
          CallStep step;  // opened one level below the line, as `where`
          step.label = te->call->name + "(";
          for (std::size_t i = 0; i < decl.params.size(); ++i) step.label += (i ? ", " : "") + decl.params[i].name;
          step.label += ")";
          step.derivation =
              std::make_shared<const Derivation>(derive(in, *decl.value, te->call->trace, te->value, 0, true));
          calls.push_back(std::move(step));
          ExprPtr out = value_leaf(e, te->value);
          leaves[out.get()].name = std::move(name);
          return out;
        }
        return value_leaf(e, te->value);
      }
      // A builtin keeps its call, with its arguments inlined.
      auto n = std::make_unique<Expr>(ExprKind::Call, e.span);
      n->arg_names = e.arg_names;
      n->items.push_back(as_written(*e.items[0]));
      ++in_product;
      for (std::size_t i = 1; i < e.items.size(); ++i) n->items.push_back(build(*e.items[i], t));
      --in_product;
      if (te->value.kind == Value::Kind::Quantity) values[n.get()] = te->value.q.v;
      return n;
    }
    if (e.kind == ExprKind::Name && !te->rec && !te->binding)
      if (ExprPtr arg = argument(e)) return arg;
    if (te->value.note) return value_leaf(e, te->value);  // measured, or a fallback: a leaf
    const Expr* formula = nullptr;
    const Trace* inner = nullptr;
    if (te->rec) {
      const Slot& slot = te->rec->slots()[te->field];
      // An input (a field declared with a type) is a figure of the record's
      // spec, shown as a value even where a default formula computed it: a
      // model's head_dim is 128, as the model card writes it, not 4,096 / 32.
      if (slot.decl && slot.decl->value && te->value.samples && is_literal(*slot.decl->value))
        return range_leaf(e, *slot.decl->value);
      if (slot.type_decl) return value_leaf(e, te->value);
      if (slot.decl && slot.decl->value) {
        formula = slot.decl->value.get();
        inner = &te->rec->state[te->field].trace;
      }
    } else if (te->binding && te->binding->stmt->value) {
      formula = te->binding->stmt->value.get();
      inner = &te->binding->state.trace;
    }
    // Factor lines: `d = drill.d_model` is `d`, the name the formula uses.
    if (named && formula && (formula->kind == ExprKind::Name || formula->kind == ExprKind::Member))
      return value_leaf(e, te->value);
    // A value the answer's own file defines is a step of the sheet: it opens
    // only into a short product of what the file was given (`weight_read_time`
    // into `params · dtype.bytes_per_param / gpu.memory_bandwidth`), never
    // into another of the sheet's steps.
    if (named && formula && formula->span.file == home && !is_literal(*formula)) {
      const int before = home_leaves;
      const std::size_t had = calls.size();
      ExprPtr body;
      if (!in_home) {
        in_home = true;
        body = open_factor(*formula, *inner);
        in_home = false;
      }
      if (body && home_leaves == before && leaf_count(*body) <= home_opened_leaves) return body;
      if (body) dropped.push_back(std::move(body));
      calls.resize(had);
      home_leaves = before + 1;
      return value_leaf(e, te->value);
    }
    if (formula && !is_literal(*formula))
      if (ExprPtr body = open_factor(*formula, *inner)) return body;
    if (formula && te->value.samples) return range_leaf(e, *formula);
    return value_leaf(e, te->value);  // an input, a literal, or a function's parameter
  }

  ExprPtr binary(const Expr& e, const Trace& t) {
    const bool product = e.op != ast::BinOp::Add && e.op != ast::BinOp::Sub;
    in_product += product;
    ExprPtr l = build(*e.items[0], t);
    ExprPtr r = build(*e.items[1], t);
    in_product -= product;
    const auto lv = value_of(l.get()), rv = value_of(r.get());
    using ast::BinOp;
    // Unit bookkeeping and empty terms, left out of the one-line form. The
    // side left out is kept alive: the maps above are keyed by address.
    auto keep = [&](ExprPtr& gone, ExprPtr& kept) {
      dropped.push_back(std::move(gone));
      return std::move(kept);
    };
    if ((e.op == BinOp::Mul || e.op == BinOp::Div) && plain_one(*r)) return keep(r, l);
    if (e.op == BinOp::Mul && plain_one(*l)) return keep(l, r);
    // Factor lines: `· 1 param` says only the unit the result line says, as
    // a course writes `3 · 4,096 · 1,536 = 18,874,368 param`.
    if (named && (e.op == BinOp::Mul || e.op == BinOp::Div) && unit_one(*r)) return keep(r, l);
    if (named && e.op == BinOp::Mul && unit_one(*l)) return keep(l, r);
    // `· 1 token` and `/ 1 token`: the unit goes onto the number beside it.
    if ((e.op == BinOp::Mul || e.op == BinOp::Div) && unit_one(*r) &&
        attach(*l, leaves.at(r.get()).number->unit, e.op == BinOp::Mul ? 1 : -1, 1))
      return keep(r, l);
    if (e.op == BinOp::Mul && unit_one(*l) && attach(*r, leaves.at(l.get()).number->unit, 1, 0)) return keep(l, r);

    if ((e.op == BinOp::Add || e.op == BinOp::Sub) && rv == 0.0) return keep(r, l);
    if (e.op == BinOp::Add && lv == 0.0) return keep(l, r);
    auto n = std::make_unique<Expr>(ExprKind::Binary, e.span);
    n->op = e.op;
    if (lv && rv) {
      switch (e.op) {
        case BinOp::Add: values[n.get()] = *lv + *rv; break;
        case BinOp::Sub: values[n.get()] = *lv - *rv; break;
        case BinOp::Mul: values[n.get()] = *lv * *rv; break;
        case BinOp::Div:
          if (*rv != 0) values[n.get()] = *lv / *rv;
          break;
        default: break;
      }
    } else if (e.op == BinOp::Mul && (lv == 0.0 || rv == 0.0)) {
      values[n.get()] = 0;
    }
    n->items.push_back(std::move(l));
    n->items.push_back(std::move(r));
    return n;
  }
};

}  // namespace

Term flat_formula(const Interpreter& in, const ast::Expr& formula, const Trace& trace) {
  Flattener f{in, {}, {}, {}};
  // `... -> GiB`: the result that follows says the unit.
  const ast::Expr* root = &formula;
  while (root->kind == ExprKind::Convert) root = root->items[0].get();
  ExprPtr tree = f.build(*root, trace);
  return term_of(*tree, f.printing());
}

FactorLines factor_lines(const Interpreter& in, const ast::Expr& formula, const Trace& trace,
                         const SourceFile* home) {
  Flattener f{in, {}, {}, {}};
  f.named = true;
  f.home = home;
  const ast::Expr* root = &formula;
  while (root->kind == ExprKind::Convert) root = root->items[0].get();
  ExprPtr tree = f.build(*root, trace);
  FactorLines out;
  out.names = term_of(*tree, f.printing(true));
  out.numbers = term_of(*tree, f.printing(false));
  out.calls = std::move(f.calls);
  return out;
}

}  // namespace napkin
