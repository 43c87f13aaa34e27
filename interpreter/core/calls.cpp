// Calls: builtins, user functions with their arguments bound, and measure().
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "argument_binding.hpp"
#include "grammar/parser.hpp"
#include "grammar/printer.hpp"
#include "builtins.hpp"
#include "interpreter.hpp"
#include "interpreter/io/read_source.hpp"
#include "stack_guard.hpp"
#include "stdlib_files.hpp"
#include "suggest.hpp"

namespace napkin {

namespace {
constexpr std::size_t kMaxCallDepth = 512;
}  // namespace

Value Interpreter::eval_call(const ast::Expr& e, Env* env) {
  const ast::Expr& head = *e.items[0];
  Value callee = head.kind == ast::ExprKind::Name ? eval_name(head, env, true) : eval(head, env);
  if (callee.kind != Value::Kind::Function)
    fail(codes::not_callable, e.items[0]->span,
         fmt::format("only functions can be called, but this is {} ({})", describe_kind(callee), show(callee)));
  const Function& f = *callee.fn;
  if (f.builtin && f.name == "prob") return eval_probability(e, env);  // its argument is a condition per sample
  if (f.builtin && f.name == "require") return eval_require(e, env);  // its first argument is a name, its place reported
  CallArgs args;
  args.call = &e;
  args.env = env;
  args.values.reserve(e.items.size() - 1);
  args.nodes.reserve(e.items.size() - 1);
  const std::vector<std::string>& names = e.arg_names;  // parallel to the arguments
  for (std::size_t i = 1; i < e.items.size(); ++i) {
    args.values.push_back(eval(*e.items[i], env));
    args.nodes.push_back(e.items[i].get());
  }
  if (f.builtin) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (!names[i].empty())
        fail(codes::bad_arguments, args.nodes[i]->span, fmt::format("{} takes no named arguments", f.signature));
    const int n = static_cast<int>(args.values.size());
    if (n < f.min_args || (f.max_args >= 0 && n > f.max_args))
      fail(codes::bad_arguments, e.span,
           fmt::format("{} takes {} argument{}, but {} {} given", f.signature,
                       f.max_args < 0 ? fmt::format("at least {}", f.min_args)
                       : f.min_args == f.max_args ? fmt::format("{}", f.min_args)
                                                  : fmt::format("{} to {}", f.min_args, f.max_args),
                       f.max_args == 1 ? "" : "s", n, n == 1 ? "was" : "were"));
    Value v = f.builtin(*this, args);
    if (trace_) {
      auto ct = std::make_shared<CallTrace>();
      ct->name = f.name;
      for (std::size_t i = 0; i < args.values.size(); ++i) ct->args.emplace_back("", args.values[i]);
      trace_->entries.push_back({&e, v, nullptr, 0, nullptr, std::move(ct)});
    }
    return v;
  }
  if (!trace_) return call_user(f, args, names, nullptr);
  auto ct = std::make_shared<CallTrace>();
  Value v = call_user(f, args, names, ct.get());
  trace_->entries.push_back({&e, v, nullptr, 0, nullptr, std::move(ct)});
  return v;
}

// With `ct`, the call is recorded: its parameters' values and what the body
// saw, so a derivation can open the call into the function's formula.
Value Interpreter::call_user(const Function& f, const CallArgs& args, const std::vector<std::string>& names,
                             CallTrace* ct) {
  const ast::Stmt& decl = *f.decl;
  if (call_depth_ >= kMaxCallDepth)
    fail(codes::recursion_limit, args.call->span,
         fmt::format("functions nested deeper than {} calls (unbounded recursion in {}?)", kMaxCallDepth, f.name));
  Env* fenv = new_env(f.module->env, nullptr, nullptr);
  fenv->fn = &decl;
  struct Release {
    Interpreter* in;
    Env* env;
    ~Release() { in->release_env(env); }
  } release{this, fenv};
  const ArgumentBinding binding = bind_arguments(decl.params, names);
  const std::size_t at = binding.at;
  switch (binding.problem) {
    case ArgumentBinding::Problem::none: break;
    case ArgumentBinding::Problem::too_many:
      fail(codes::bad_arguments, args.nodes[at]->span,
           fmt::format("{} takes {} argument{}, but {} were given", f.signature, decl.params.size(),
                       decl.params.size() == 1 ? "" : "s", args.values.size()));
    case ArgumentBinding::Problem::unknown_name: {
      std::vector<std::string> pn;
      for (const auto& p : decl.params) pn.push_back(p.name);
      auto close = closest(names[at], pn);
      fail(codes::bad_arguments, args.nodes[at]->span, fmt::format("{} has no parameter `{}`", f.signature, names[at]),
           close.empty() ? "" : fmt::format("did you mean `{}`?", close[0]));
    }
    case ArgumentBinding::Problem::given_twice: {
      // The parameter filled twice: the one the argument names, or the
      // next positional one.
      std::size_t slot = 0;
      if (!names[at].empty()) {
        while (decl.params[slot].name != names[at]) ++slot;
      } else {
        for (std::size_t i = 0; i < at; ++i) slot += names[i].empty() ? 1 : 0;
      }
      fail(codes::bad_arguments, args.nodes[at]->span,
           fmt::format("the argument `{}` of {} is given twice", decl.params[slot].name, f.signature));
    }
  }
  std::vector<const Value*> bound(decl.params.size(), nullptr);
  for (std::size_t i = 0; i < binding.slot.size(); ++i) bound[binding.slot[i]] = &args.values[i];
  TraceScope scope(*this, ct ? &ct->trace : nullptr);
  calls_.push_back({fenv, &f, &args, &names});
  struct Active {
    std::vector<ActiveCall>& calls;
    ~Active() { calls.pop_back(); }
  } active{calls_};
  struct Depth {
    std::size_t& d;
    explicit Depth(std::size_t& x) : d(x) { ++d; }
    ~Depth() { --d; }
  } depth(call_depth_);
  try {
    for (std::size_t i = 0; i < decl.params.size(); ++i) {
      if (bound[i]) {
        fenv->locals.emplace_back(decl.params[i].name, *bound[i]);
      } else if (decl.params[i].default_value) {
        fenv->locals.emplace_back(decl.params[i].name, eval(*decl.params[i].default_value, fenv));
      } else {
        fail(codes::bad_arguments, args.call->span,
             fmt::format("{} needs the argument `{}`", f.signature, decl.params[i].name),
             fmt::format("pass it by position or by name: {}({} = ...)", f.name, decl.params[i].name));
      }
    }
    if (ct) {
      ct->name = f.name;
      ct->decl = &decl;
      ct->args = fenv->locals;
    }
    return eval(*decl.value, fenv);
  } catch (Error& e) {
    Diagnostic& d = e.diagnostic();
    if (d.notes.size() < 3)
      d.notes.push_back(fmt::format("in the call {} at {}", print_expr(*args.call), mention(d, args.call->span, Mention::In::note)));
    throw;
  }
}

Value Interpreter::eval_measure(const ast::Expr& e, Env* env) {
  MeasureRequest req;
  req.probe = e.text;
  req.span = e.span;
  for (std::size_t i = 0; i < e.items.size(); ++i) req.args.emplace_back(e.arg_names[i], eval(*e.items[i], env));
  MeasureResult r;
  if (opts_.prober) {
    r = opts_.prober(*this, req);
  } else {
    r.reason = "measurements are off";
  }
  if (r.unknown_probe)
    fail(codes::unknown_probe, e.span, fmt::format("there is no probe `{}`", e.text), r.reason);
  if (r.bad_argument) fail(codes::bad_arguments, e.span, fmt::format("measure({}): {}", e.text, r.reason));
  Value v;
  if (r.ok) {
    v = r.value;
    v.note = intern_note("measured: " + r.provenance);
  } else if (e.fallback) {
    v = eval(*e.fallback, env);
    v.note = intern_note("fallback: " + r.reason);
  } else {
    Diagnostic d;
    d.code = codes::probe_unavailable;
    d.message = fmt::format("`{}` could not be measured: {}", e.text, r.reason);
    d.labels.push_back({e.span, "measured here", true});
    d.help = fmt::format("give a value to use instead: `measure({}) else 4.8 TB/s`", e.text);
    throw Error(std::move(d));
  }
  record_trace(e, v, nullptr, 0, nullptr);
  return v;
}

Value Interpreter::call_function(Module* m, const std::string& name, std::vector<Value> values) {
  // The call's tree gives errors their place and the callee's name its
  // node; it is parsed the first time a name is called, then kept.
  auto site = call_sites_.find(name);
  if (site == call_sites_.end()) site = call_sites_.emplace(name, &parse_snippet("<" + name + ">", name + "()")).first;
  const ast::Expr& call = *site->second;
  const Value callee = eval_in(m, *call.items[0]);
  if (callee.kind != Value::Kind::Function)
    fail(codes::not_callable, call.span, fmt::format("`{}` is {}, not a function", name, describe_kind(callee)));
  CallArgs args;
  args.call = &call;
  args.nodes.assign(values.size(), &call);
  args.values = std::move(values);
  if (callee.fn->builtin) return callee.fn->builtin(*this, args);
  TraceScope untraced(*this, nullptr);
  return call_user(*callee.fn, args, std::vector<std::string>(args.values.size()), nullptr);
}

}  // namespace napkin
