#include "sweep_compile.hpp"

#include "interpreter/core/samples.hpp"
#include "interpreter/core/argument_binding.hpp"
#include "interpreter/core/dimension_rules.hpp"

#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <utility>

namespace napkin {
namespace {

// Thrown inside the compiler for anything it does not take: the sweep is
// then left to the tree walker.
struct NotCompilable {};

// Past these a formula is not worth compiling (and a function that calls
// itself, however it is bounded, is not compiled at all).
constexpr std::size_t kMaxDepth = 128;
constexpr std::uint32_t kMaxRegisters = 4096;

// A constant the tree walker computed, or a register; `value` is the
// constant, or for a register the kind, dimension, display and note of
// every number it holds.
struct Operand {
  bool constant = true;
  Value value;
  std::uint32_t reg = 0;
};

bool numeric(const Value& v) { return v.kind == Value::Kind::Quantity || v.kind == Value::Kind::Bool; }

double number(const Value& v) { return v.kind == Value::Kind::Bool ? (v.b ? 1.0 : 0.0) : v.q.v; }

Value quantity_like(const Dim& d) { return Value::quantity(0, d); }

// Where a name is looked up: the point's fields while one of them is
// compiled, an inlined function's parameters, then the tree walker's scopes.
struct Scope {
  Record* self = nullptr;
  const std::vector<std::pair<std::string, Operand>>* locals = nullptr;
  Env* parent = nullptr;
  std::size_t sees = static_cast<std::size_t>(-1);  // of `self`'s fields, those the formula may name (Slot::sees)
};

class Compiler {
 public:
  Compiler(Interpreter& in, Module* m, Record* point, const std::vector<bool>& dependent)
      : in_(in), module_(m), point_(point), dependent_(dependent), memo_(dependent.size()), busy_(dependent.size()) {}

  SweepProgram program;

  Operand input(std::size_t slot, const Value& like) {
    Operand o{false, like, next_register()};
    program.inputs.push_back(o.reg);
    memo_[slot] = o;
    return o;
  }

  Operand field(std::size_t i) {
    if (!dependent_[i]) return constant(walk([&] { return in_.field(point_, i, Span{}); }));
    if (memo_[i]) return *memo_[i];
    if (busy_[i]) throw NotCompilable{};  // a cycle: the tree walker reports it
    const Slot& slot = point_->slots()[i];
    if (!slot.decl || !slot.decl->value) throw NotCompilable{};
    Deeper deeper(depth_);
    busy_[i] = true;
    Operand o = expr(*slot.decl->value, Scope{point_, nullptr, slot.env, slot.sees});
    busy_[i] = false;
    check_type(slot, i, o);
    memo_[i] = o;
    return o;
  }

  std::uint32_t reg(const Operand& o) {
    if (!o.constant) return o.reg;
    const double v = number(o.value);
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    auto [it, added] = constant_regs_.try_emplace(bits, 0);
    if (added) {
      it->second = next_register();
      program.constants.emplace_back(it->second, v);
    }
    return it->second;
  }

 private:
  struct Deeper {
    std::size_t& d;
    explicit Deeper(std::size_t& x) : d(x) {
      if (++d > kMaxDepth) throw NotCompilable{};
    }
    ~Deeper() { --d; }
  };

  std::uint32_t next_register() {
    if (program.registers >= kMaxRegisters) throw NotCompilable{};
    return program.registers++;
  }

  // The tree walker's answer, or NotCompilable where it stops with an error
  // (the walker then reports it at the point where it arises).
  template <class F>
  Value walk(F f) {
    try {
      return f();
    } catch (const Error&) {
      throw NotCompilable{};
    }
  }

  static Operand constant(Value v) {
    if (is_range(v)) throw NotCompilable{};  // a range is a set of samples, not one number a point
    return Operand{true, std::move(v), 0};
  }

  void check_type(const Slot& slot, std::size_t i, const Operand& o) {
    if (!slot.type_decl) return;
    if (o.constant) {
      walk([&] {
        in_.check_type(point_, i, o.value);
        return Value{};
      });
      return;
    }
    const ast::TypeExpr& t = slot.type_decl->type;
    const Value& v = o.value;
    bool ok = false;
    switch (t.kind) {
      case ast::TypeKind::None:
      case ast::TypeKind::Any: ok = true; break;
      case ast::TypeKind::Count: ok = v.kind == Value::Kind::Quantity && v.q.dim.dimensionless(); break;
      case ast::TypeKind::Bool: ok = v.kind == Value::Kind::Bool; break;
      case ast::TypeKind::Unit:
        ok = v.kind == Value::Kind::Quantity && v.q.dim == walk_unit(t.unit).dim;
        break;
      default: ok = false;
    }
    if (!ok) throw NotCompilable{};
  }

  UnitDef walk_unit(const ast::UnitExpr& u) {
    try {
      return in_.resolve_unit(u);
    } catch (const Error&) {
      throw NotCompilable{};
    }
  }

  // One instruction, or its value when every operand is a constant.
  Operand emit(Op op, Value like, const Operand& a, const Operand& b, const Operand& c) {
    if (a.constant && b.constant && c.constant) {
      bool bad = false;
      const double r = apply(op, number(a.value), number(b.value), number(c.value), bad);
      if (bad) throw NotCompilable{};  // an error at every point
      if (like.kind == Value::Kind::Bool)
        like.b = r != 0;
      else
        like.q.v = r;
      return constant(std::move(like));
    }
    Instr i;
    i.op = op;
    i.a = reg(a);
    i.b = reg(b);
    i.c = reg(c);
    i.dst = next_register();
    program.code.push_back(i);
    return Operand{false, std::move(like), i.dst};
  }
  Operand emit(Op op, Value like, const Operand& a) { return emit(op, std::move(like), a, zero(), zero()); }
  Operand emit(Op op, Value like, const Operand& a, const Operand& b) { return emit(op, std::move(like), a, b, zero()); }
  static Operand zero() { return constant(Value::quantity(0)); }

  static const Value& quantity(const Operand& o) {
    if (o.value.kind != Value::Kind::Quantity) throw NotCompilable{};
    return o.value;
  }
  static const Value& boolean(const Operand& o) {
    if (o.value.kind != Value::Kind::Bool) throw NotCompilable{};
    return o.value;
  }

  Operand expr(const ast::Expr& e, const Scope& s) {
    Deeper deeper(depth_);
    using K = ast::ExprKind;
    switch (e.kind) {
      case K::Number:
      case K::String:
      case K::Bool: return constant(walk([&] { return in_.eval_in(module_, e); }));
      case K::Name: return name(e, s);
      case K::Member: {
        const Operand base = expr(*e.items[0], s);
        if (!base.constant || base.value.kind != Value::Kind::Record) throw NotCompilable{};
        Record* r = base.value.rec;
        const std::size_t i = r->table->find(e.text);
        if (i == SlotTable::npos) throw NotCompilable{};
        if (r == point_) return field(i);
        return constant(walk([&] { return in_.field(r, i, e.span); }));
      }
      case K::Call: return call(e, s);
      case K::Negate: {
        const Operand a = expr(*e.items[0], s);
        return emit(Op::Neg, quantity_like(quantity(a).q.dim), a);
      }
      case K::Not: {
        const Operand a = expr(*e.items[0], s);
        boolean(a);
        return emit(Op::Not, Value::boolean(false), a);
      }
      case K::Binary: return binary(e, s);
      case K::If: {
        const Operand c = expr(*e.items[0], s);
        boolean(c);
        if (c.constant) return expr(*e.items[c.value.b ? 1 : 2], s);
        const Operand a = expr(*e.items[1], s);
        const Operand b = expr(*e.items[2], s);
        const Value& x = a.value;
        const Value& y = b.value;
        if (!numeric(x) || x.kind != y.kind) throw NotCompilable{};
        if (x.kind == Value::Kind::Quantity && x.q.dim != y.q.dim) throw NotCompilable{};
        if (x.display != y.display || x.note != y.note) throw NotCompilable{};  // interned: equal iff the same
        Value like = x.kind == Value::Kind::Bool ? Value::boolean(false) : quantity_like(x.q.dim);
        like.display = x.display;
        like.note = x.note;
        return emit(Op::Select, std::move(like), c, a, b);
      }
      case K::Convert: {
        Operand a = expr(*e.items[0], s);
        const Dim d = quantity(a).q.dim;
        const UnitDef u = walk_unit(*e.unit);
        if (u.dim != d) throw NotCompilable{};
        a.value.display = intern_display(e.unit->text, u.scale);
        return a;
      }
      default: throw NotCompilable{};  // lists, `with`, measure(...), ranges
    }
  }

  // As Interpreter::eval_name resolves it (field_in_scope, lookup_binding).
  Operand name(const ast::Expr& e, const Scope& s, bool callee = false) {
    const std::string& n = e.text;
    // A field that a function's parameter of its name would have meant is
    // the tree walker's to refuse (E0310).
    auto shadows = [&](const Env* from) { return scope_with_local(from, n) != nullptr; };
    if (s.self)
      if (const std::size_t i = s.self->table->find(n);
          i != SlotTable::npos && field_in_scope(*s.self->table, i, s.sees, callee)) {
        if (shadows(s.parent)) throw NotCompilable{};
        return field(i);
      }
    if (s.locals)
      for (const auto& [local, v] : *s.locals)
        if (local == n) return v;
    for (Env* env = s.parent; env; env = env->parent) {
      if (env->self) {
        if (env->self == point_) throw NotCompilable{};
        if (const std::size_t i = env->self->table->find(n);
            i != SlotTable::npos && field_in_scope(*env->self->table, i, env->sees, callee)) {
          if (shadows(env->parent)) throw NotCompilable{};
          Record* r = env->self;
          return constant(walk([&] { return in_.field(r, i, e.span); }));
        }
      }
      for (const auto& [local, v] : env->locals)
        if (local == n) return constant(v);
      if (env->module)
        if (Binding* b = in_.lookup_binding(env->module, e)) return constant(walk([&] { return in_.top_value(b, e.span); }));
    }
    if (const Function* f = in_.builtin(n)) return constant(Value::function(f));
    throw NotCompilable{};  // `super`, or an unknown name: the tree walker says which
  }

  Operand binary(const ast::Expr& e, const Scope& s) {
    using B = ast::BinOp;
    if (e.op == B::And || e.op == B::Or) {
      const Operand l = expr(*e.items[0], s);
      boolean(l);
      if (l.constant && (e.op == B::And ? !l.value.b : l.value.b)) return l;
      const Operand r = expr(*e.items[1], s);
      boolean(r);
      if (l.constant) return r;
      return emit(e.op == B::And ? Op::And : Op::Or, Value::boolean(false), l, r);
    }
    const Operand l = expr(*e.items[0], s);
    const Operand r = expr(*e.items[1], s);
    const Value& a = l.value;
    const Value& b = r.value;
    if ((e.op == B::Eq || e.op == B::Ne) && (a.kind != Value::Kind::Quantity || b.kind != Value::Kind::Quantity)) {
      if (a.kind != b.kind) throw NotCompilable{};
      if (a.kind == Value::Kind::Bool) return emit(e.op == B::Eq ? Op::Eq : Op::Ne, Value::boolean(false), l, r);
      if (!l.constant || !r.constant) throw NotCompilable{};
      bool same;
      if (a.kind == Value::Kind::String)
        same = a.str() == b.str();
      else if (a.kind == Value::Kind::Record)
        same = a.rec == b.rec;
      else
        throw NotCompilable{};
      return constant(Value::boolean(e.op == B::Eq ? same : !same));
    }
    if (e.op == B::And || e.op == B::Or || e.op == B::To) throw NotCompilable{};
    // The evaluator's dimension rules (core/dimension_rules.hpp): an
    // expression that breaks one is the evaluator's to report.
    const DimOutcome out = binary_dim(e.op, quantity(l).q.dim, quantity(r).q.dim,
                                      r.constant ? std::optional<double>(b.q.v) : std::nullopt);
    if (out.broken != DimBreak::none) throw NotCompilable{};
    switch (e.op) {
      case B::Add: return emit(Op::Add, quantity_like(out.dim), l, r);
      case B::Sub: return emit(Op::Sub, quantity_like(out.dim), l, r);
      case B::Mul: return emit(Op::Mul, quantity_like(out.dim), l, r);
      case B::Div: return emit(Op::Div, quantity_like(out.dim), l, r);
      case B::Pow: return emit(Op::Pow, quantity_like(out.dim), l, r);
      default: {
        static constexpr Op ops[] = {Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge};
        return emit(ops[static_cast<int>(e.op) - static_cast<int>(B::Eq)], Value::boolean(false), l, r);
      }
    }
  }

  Operand call(const ast::Expr& e, const Scope& s) {
    const ast::Expr& head = *e.items[0];
    const Operand callee = head.kind == ast::ExprKind::Name ? name(head, s, true) : expr(head, s);
    if (!callee.constant || callee.value.kind != Value::Kind::Function) throw NotCompilable{};
    const Function& f = *callee.value.fn;
    if (f.builtin && f.name == "require") return require(e, s);
    std::vector<Operand> args;
    args.reserve(e.items.size() - 1);
    for (std::size_t i = 1; i < e.items.size(); ++i) args.push_back(expr(*e.items[i], s));
    if (f.builtin) return builtin(e, f, args);
    return inline_call(e, f, args);
  }

  // `require(x, condition, domain)`: x divided by the condition (1 or 0),
  // so a point outside the domain divides by zero and goes to the tree
  // walker, which reports where its value was written.
  Operand require(const ast::Expr& e, const Scope& s) {
    if (e.items.size() != 4) throw NotCompilable{};
    for (const auto& n : e.arg_names)
      if (!n.empty()) throw NotCompilable{};
    const Operand x = expr(*e.items[1], s);
    const Operand c = expr(*e.items[2], s);
    boolean(c);
    if (c.constant) {
      if (!c.value.b) throw NotCompilable{};
      return x;
    }
    Value like = quantity(x);
    like.samples = nullptr;
    return emit(Op::Div, std::move(like), x, c);
  }

  Operand builtin(const ast::Expr& e, const Function& f, const std::vector<Operand>& args) {
    for (const auto& n : e.arg_names)
      if (!n.empty()) throw NotCompilable{};
    const int n = static_cast<int>(args.size());
    if (n < f.min_args || (f.max_args >= 0 && n > f.max_args)) throw NotCompilable{};
    bool all_constant = true;
    for (const auto& a : args) all_constant = all_constant && a.constant;
    if (all_constant) {
      CallArgs call;
      call.call = &e;
      for (std::size_t i = 0; i < args.size(); ++i) {
        call.values.push_back(args[i].value);
        call.nodes.push_back(e.items[i + 1].get());
      }
      return constant(walk([&] { return f.builtin(in_, call); }));
    }
    if (f.name == "max" || f.name == "min") {
      const Value& first = quantity(args[0]);
      for (const auto& a : args)
        if (quantity(a).q.dim != first.q.dim || a.value.note != first.note) throw NotCompilable{};
      Value like = quantity_like(first.q.dim);
      like.note = first.note;  // the chosen argument's note stays, its display does not
      Operand acc = args[0];
      for (std::size_t i = 1; i < args.size(); ++i) acc = emit(f.name == "max" ? Op::Max : Op::Min, like, acc, args[i]);
      acc.value.display = nullptr;
      return acc;
    }
    const Value& x = quantity(args[0]);
    if (f.name == "abs") return emit(Op::Abs, quantity_like(x.q.dim), args[0]);
    if (f.name == "sqrt") {
      Dim half;
      for (std::size_t k = 0; k < kMaxBaseUnits; ++k) {
        if (x.q.dim.e[k] % 2 != 0) throw NotCompilable{};
        half.e[k] = static_cast<std::int8_t>(x.q.dim.e[k] / 2);
      }
      return emit(Op::Sqrt, quantity_like(half), args[0]);
    }
    static const std::pair<const char*, Op> plain[] = {{"ceil", Op::Ceil}, {"floor", Op::Floor}, {"round", Op::Round},
                                                       {"log2", Op::Log2}, {"log10", Op::Log10}, {"ln", Op::Ln},
                                                       {"exp", Op::Exp}};
    for (const auto& [name, op] : plain)
      if (f.name == name) {
        if (!x.q.dim.dimensionless()) throw NotCompilable{};
        return emit(op, quantity_like(Dim{}), args[0]);
      }
    throw NotCompilable{};
  }

  // A user function's body, compiled with its parameters bound to the
  // arguments' operands, as Interpreter::call_user binds them.
  Operand inline_call(const ast::Expr& e, const Function& f, const std::vector<Operand>& args) {
    if (!f.decl || !f.module) throw NotCompilable{};
    const ast::Stmt& decl = *f.decl;
    Deeper deeper(depth_);
    const ArgumentBinding binding = bind_arguments(decl.params, e.arg_names);
    if (binding.problem != ArgumentBinding::Problem::none) throw NotCompilable{};
    std::vector<const Operand*> bound(decl.params.size(), nullptr);
    for (std::size_t i = 0; i < args.size(); ++i) bound[binding.slot[i]] = &args[i];
    std::vector<std::pair<std::string, Operand>> locals;
    locals.reserve(decl.params.size());
    const Scope body{nullptr, &locals, f.module->env};
    for (std::size_t p = 0; p < decl.params.size(); ++p) {
      if (bound[p])
        locals.emplace_back(decl.params[p].name, *bound[p]);
      else if (decl.params[p].default_value)
        locals.emplace_back(decl.params[p].name, expr(*decl.params[p].default_value, body));
      else
        throw NotCompilable{};
    }
    return expr(*decl.value, body);
  }

  Interpreter& in_;
  Module* module_;
  Record* point_;
  const std::vector<bool>& dependent_;
  std::vector<std::optional<Operand>> memo_;
  std::vector<bool> busy_;
  std::size_t depth_ = 0;
  std::unordered_map<std::uint64_t, std::uint32_t> constant_regs_;
};

}  // namespace

std::unique_ptr<CompiledSweep> compile_sweep(Interpreter& in, Module* m, Record* point,
                                             const std::vector<std::size_t>& inputs,
                                             const std::vector<Value>& input_like,
                                             const std::vector<bool>& dependent,
                                             const std::vector<std::size_t>& columns) {
  try {
    Compiler c(in, m, point, dependent);
    for (std::size_t k = 0; k < inputs.size(); ++k) c.input(inputs[k], input_like[k]);
    auto out = std::make_unique<CompiledSweep>();
    for (std::size_t col : columns) {
      const Operand o = c.field(col);
      if (!numeric(o.value)) throw NotCompilable{};
      c.program.outputs.push_back(c.reg(o));
      out->outputs.push_back(o.value);
    }
    out->program = std::move(c.program);
    return out;
  } catch (const NotCompilable&) {
    return nullptr;
  }
}

}  // namespace napkin
