// `require(x, condition, "domain")`: an input's domain, stated in napkin
// beside the input. It is x when the condition holds (for a range, at every
// sample); otherwise an error at the place x's value was written: the
// argument of the call that passed it, followed through parameters passed
// on by name, or the formula of the field it names (a `with` or `extends`
// block's value, else the default).
//
// A field whose formula is a `require(...)` call, or a list of them, states
// its record's domains: it is evaluated as soon as any field of the record
// is, so no value of a record that breaks a domain is ever shown.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "grammar/printer.hpp"
#include "builtins.hpp"
#include "interpreter.hpp"

namespace napkin {
namespace {

bool is_require_call(const ast::Expr& e) {
  return e.kind == ast::ExprKind::Call && e.items[0]->kind == ast::ExprKind::Name && e.items[0]->text == "require";
}

// Following a name through the calls that passed it on stops here: deeper
// than any real chain of helpers.
constexpr int kMaxHops = 64;

}  // namespace

bool is_domain_formula(const ast::Expr& e) {
  if (is_require_call(e)) return true;
  if (e.kind != ast::ExprKind::List || e.items.empty()) return false;
  return std::all_of(e.items.begin(), e.items.end(), [](const ast::ExprPtr& x) { return is_require_call(*x); });
}

void register_require(Interpreter& in) {
  // Evaluated by Interpreter::eval_require: its first argument is a name
  // whose place is reported, and its second a condition per sample.
  add_builtin(in, "require", 3, 3, "require(x, condition, domain)", [](Interpreter&, const CallArgs& a) -> Value {
    fail(codes::bad_arguments, a.call->span, "require() states a domain written in its call, such as `require(n, n >= 1, \"at least 1\")`");
  });
}

Interpreter::Origin Interpreter::origin_of(const ast::Expr& node, Env* env) {
  const ast::Expr* at = &node;
  Origin o{node.span, "", false};
  for (int hop = 0; hop < kMaxHops && at->kind == ast::ExprKind::Name; ++hop) {
    const std::string& name = at->text;
    Env* next_env = nullptr;
    const ast::Expr* next = nullptr;
    for (Env* s = env; s && !next; s = s->parent) {
      if (s->self) {
        const std::size_t i = s->self->table->find(name);
        if (i != SlotTable::npos && field_in_scope(*s->self->table, i, s->sees, false)) {
          const Slot& slot = s->self->slots()[i];
          if (!slot.decl) return o;
          o.span = slot.decl->value ? slot.decl->value->span : slot.decl->span;
          o.what = fmt::format("`{}`", frame_label(Frame{s->self, i, nullptr, Span{}}));
          o.field = true;
          o.rec = s->self;
          o.formula = slot.decl->value.get();
          return o;
        }
      }
      const auto local = std::find_if(s->locals.begin(), s->locals.end(), [&](const auto& l) { return l.first == name; });
      if (local == s->locals.end()) continue;
      const auto call = std::find_if(calls_.rbegin(), calls_.rend(), [&](const ActiveCall& c) { return c.env == s; });
      if (call == calls_.rend()) return o;
      const ast::Stmt& decl = *call->f->decl;
      const std::size_t p = static_cast<std::size_t>(local - s->locals.begin());  // bound in parameter order
      if (p >= decl.params.size()) return o;
      o.what = fmt::format("the argument `{}` of {}", name, call->f->signature);
      std::size_t positional = 0;
      for (std::size_t k = 0; k < call->args->nodes.size(); ++k) {
        const std::string& named = (*call->names)[k];
        const bool match = named.empty() ? positional++ == p : named == decl.params[p].name;
        if (match) next = call->args->nodes[k];
      }
      if (!next) {  // its default
        o.span = decl.params[p].default_value ? decl.params[p].default_value->span : call->args->call->span;
        return o;
      }
      next_env = call->args->env;
    }
    if (!next) return o;
    o.span = next->span;
    at = next;
    env = next_env;
    if (!env) return o;
  }
  return o;
}

Value Interpreter::eval_require(const ast::Expr& call, Env* env) {
  if (call.items.size() != 4 || std::any_of(call.arg_names.begin(), call.arg_names.end(), [](const std::string& n) { return !n.empty(); }))
    fail(codes::bad_arguments, call.span, "require() takes a name, a condition and its domain in words: `require(n, n >= 1, \"at least 1\")`");
  Value x = eval(*call.items[1], env);
  const Condition c = condition(*call.items[2], env);
  std::size_t outside = 0;
  for (char m : c.mask) outside += m == 0;
  if (c.mask.empty() ? c.point : outside == 0) return x;
  const Value words = eval(*call.items[3], env);
  const std::string domain = words.kind == Value::Kind::String ? words.str() : show(words);
  const Origin o = origin_of(*call.items[1], env);
  // A value just off a whole number (16.0016, a nudged input) is shown with
  // the digits that tell it from the whole number, not as `16`.
  std::string shown = show(x);
  if (x.kind == Value::Kind::Quantity && !x.samples && x.q.v != std::floor(x.q.v)) {
    Value whole_x = x;
    whole_x.q.v = std::round(x.q.v);
    for (int digits = 5; digits <= 15 && show(x, digits - 1) == show(whole_x, digits - 1); ++digits) shown = show(x, digits);
  }
  Diagnostic d;
  d.code = o.field ? codes::field_type : codes::bad_arguments;
  const std::string what = o.what.empty() ? fmt::format("`{}`", print_expr(*call.items[1])) : o.what;
  d.message = fmt::format("{} must be {}, but it is {}", what, domain, shown);
  const Span made = o.rec ? o.rec->span : Span{};
  const bool by_default = o.field && o.formula && from_library(o.span) && made.valid() && !from_library(made);
  if (by_default) {
    // The library's default gave the value, from inputs set where the
    // record was made: that is the place to change, so the error is there.
    d.labels.push_back({made, fmt::format("its `{}` is {} here", print_expr(*call.items[1]), shown), true});
    d.labels.push_back({o.span, "by this default", false});
  } else {
    d.labels.push_back({o.span, fmt::format("this is {}", shown), true});
  }
  d.labels.push_back({call.items[2]->span, "its domain, stated here", false});
  if (!c.mask.empty())
    d.notes.push_back(fmt::format("{} of its {} samples are outside the domain", show(Value::quantity(static_cast<double>(outside))),
                                  show(Value::quantity(static_cast<double>(c.mask.size())))));
  // A default too long to read in one line is named by its place.
  const std::string formula = by_default ? print_expr(*o.formula) : "";
  const std::string uses = formula.size() <= 60 ? formula : "at " + o.span.where_line();
  d.help = by_default ? fmt::format("change the inputs its default uses, {}; or, where the record is made, give `{}` a value that is {}",
                                     uses, print_expr(*call.items[1]), domain)
                       : fmt::format("give it a value that is {}", domain);
  throw Error(std::move(d));
}

void Interpreter::validate(Record* r) {
  try {
    check_domains(r);
  } catch (const Error& e) {
    // Kept as it was raised, before the use that found it adds its notes.
    r->domain_error = std::make_exception_ptr(Error(e.diagnostic()));
    throw;
  } catch (...) {
    r->domain_error = std::current_exception();
    throw;
  }
}

void Interpreter::check_domains(Record* r) {
  const auto slots = r->slots();
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const Slot& s = slots[i];
    if (!s.decl || !s.decl->value || !is_domain_formula(*s.decl->value)) continue;
    try {
      field(r, i, Span{});
    } catch (const MissingInput&) {
      // An input with no value yet: reported where it is needed.
    } catch (...) {
      r->domain_slot = i;
      throw;
    }
  }
}

}  // namespace napkin
