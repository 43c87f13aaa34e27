#include "builtins.hpp"

#include <fmt/format.h>

#include <cmath>

#include "interpreter.hpp"
#include "range_ops.hpp"

namespace napkin {
namespace {

const Quantity& arg(Interpreter& in, const CallArgs& a, std::size_t i) {
  return in.expect_quantity(a.values[i], a.nodes[i], "a number");
}

void same_dims(Interpreter& in, const CallArgs& a, const char* fn) {
  const Quantity& first = arg(in, a, 0);
  for (std::size_t i = 1; i < a.values.size(); ++i) {
    const Quantity& q = arg(in, a, i);
    if (q.dim != first.dim) {
      Diagnostic d;
      d.code = codes::compare_mismatch;
      d.message = fmt::format("{}() needs arguments of one dimension, but these are {} and {}", fn,
                              in.dim_name(first.dim), in.dim_name(q.dim));
      d.labels.push_back({a.nodes[0]->span, "this is " + in.dim_name(first.dim), true});
      d.labels.push_back({a.nodes[i]->span, "this is " + in.dim_name(q.dim), false});
      throw Error(std::move(d));
    }
  }
}

Value extreme(Interpreter& in, const CallArgs& a, bool want_max) {
  // max(list) or max(a, b, ...)
  if (a.values.size() == 1 && a.values[0].kind == Value::Kind::List) {
    const auto& items = a.values[0].items();
    if (items.empty()) fail(codes::bad_arguments, a.call->span, "max/min of an empty list");
    CallArgs flat;
    flat.call = a.call;
    for (const auto& v : items) {
      flat.values.push_back(v);
      flat.nodes.push_back(a.nodes[0]);
    }
    return extreme(in, flat, want_max);
  }
  same_dims(in, a, want_max ? "max" : "min");
  std::size_t best = 0;
  for (std::size_t i = 1; i < a.values.size(); ++i) {
    const double v = a.values[i].q.v, b = a.values[best].q.v;
    if (want_max ? v > b : v < b) best = i;
  }
  Value out = a.values[best];
  out.display = nullptr;
  bool ranges = false;
  for (const Value& v : a.values) ranges |= v.samples != nullptr;
  if (!ranges) return out;
  // Sample by sample: max(read_time, compute_time) of two ranges.
  out.samples = nullptr;
  Value acc = a.values[0];
  for (std::size_t i = 1; i < a.values.size(); ++i)
    acc = want_max ? zip_samples(in, acc, a.values[i], out, a.call->span, [](double x, double y) { return x < y ? y : x; })
                   : zip_samples(in, acc, a.values[i], out, a.call->span, [](double x, double y) { return y < x ? y : x; });
  acc.display = nullptr;
  return acc;
}

Value dimensionless(Interpreter& in, const CallArgs& a, const char* fn, double (*f)(double)) {
  const Quantity& q = arg(in, a, 0);
  if (!q.dim.dimensionless())
    fail(codes::needs_dimensionless, a.nodes[0]->span,
         fmt::format("{}() needs a plain number, but this is {}", fn, in.dim_name(q.dim)),
         "divide by a unit first, e.g. `ceil(x / 1 GB)`");
  Value nominal = in.finite(f(q.v), {}, a.call->span);
  return map_samples(in, a.values[0], std::move(nominal), a.call->span, f);
}

}  // namespace

void add_builtin(Interpreter& in, const char* name, int min, int max, const char* signature,
                 Value (*f)(Interpreter&, const CallArgs&)) {
  Function fn;
  fn.name = name;
  fn.min_args = min;
  fn.max_args = max;
  fn.signature = signature;
  fn.builtin = f;
  in.register_builtin(std::move(fn));
}

void register_builtins(Interpreter& in) {
  auto add = [&](const char* name, int min, int max, const char* sig, Function::Builtin f) {
    add_builtin(in, name, min, max, sig, f);
  };
  add("max", 1, -1, "max(a, b, ...)", [](Interpreter& i, const CallArgs& a) { return extreme(i, a, true); });
  add("min", 1, -1, "min(a, b, ...)", [](Interpreter& i, const CallArgs& a) { return extreme(i, a, false); });
  add("abs", 1, 1, "abs(x)", [](Interpreter& i, const CallArgs& a) {
    const Quantity& q = arg(i, a, 0);
    return map_samples(i, a.values[0], Value::quantity(std::fabs(q.v), q.dim), a.call->span,
                       [](double x) { return std::fabs(x); });
  });
  add("sqrt", 1, 1, "sqrt(x)", [](Interpreter& i, const CallArgs& a) {
    const Quantity& q = arg(i, a, 0);
    Dim half;
    for (std::size_t k = 0; k < kMaxBaseUnits; ++k) {
      if (q.dim.e[k] % 2 != 0)
        fail(codes::bad_power, a.nodes[0]->span,
             fmt::format("sqrt() of {} has no unit: only even powers have a square root", i.dim_name(q.dim)));
      half.e[k] = static_cast<std::int8_t>(q.dim.e[k] / 2);
    }
    if (q.v < 0) fail(codes::not_finite, a.nodes[0]->span, "sqrt() of a negative number");
    if (a.values[0].samples)
      for (double x : a.values[0].samples->v)
        if (x < 0)
          fail(codes::not_finite, a.nodes[0]->span,
               fmt::format("sqrt() of a range that reaches below zero ({})", i.show(a.values[0])));
    return map_samples(i, a.values[0], Value::quantity(std::sqrt(q.v), half), a.call->span,
                       [](double x) { return std::sqrt(x); });
  });
  add("ceil", 1, 1, "ceil(x)", [](Interpreter& i, const CallArgs& a) { return dimensionless(i, a, "ceil", [](double x) { return std::ceil(x); }); });
  add("floor", 1, 1, "floor(x)", [](Interpreter& i, const CallArgs& a) { return dimensionless(i, a, "floor", [](double x) { return std::floor(x); }); });
  add("round", 1, 1, "round(x)", [](Interpreter& i, const CallArgs& a) { return dimensionless(i, a, "round", [](double x) { return std::round(x); }); });
  add("log2", 1, 1, "log2(x)", [](Interpreter& i, const CallArgs& a) { return dimensionless(i, a, "log2", [](double x) { return std::log2(x); }); });
  add("log10", 1, 1, "log10(x)", [](Interpreter& i, const CallArgs& a) { return dimensionless(i, a, "log10", [](double x) { return std::log10(x); }); });
  add("ln", 1, 1, "ln(x)", [](Interpreter& i, const CallArgs& a) { return dimensionless(i, a, "ln", [](double x) { return std::log(x); }); });
  add("exp", 1, 1, "exp(x)", [](Interpreter& i, const CallArgs& a) { return dimensionless(i, a, "exp", [](double x) { return std::exp(x); }); });
  add("sum", 1, 1, "sum(list)", [](Interpreter& i, const CallArgs& a) {
    if (a.values[0].kind != Value::Kind::List) i.type_error(a.values[0], a.nodes[0], "a list");
    const auto& items = a.values[0].items();
    if (items.empty()) return Value::quantity(0);
    CallArgs flat;
    flat.call = a.call;
    for (const auto& v : items) {
      flat.values.push_back(v);
      flat.nodes.push_back(a.nodes[0]);
    }
    same_dims(i, flat, "sum");
    double s = 0;
    for (const auto& v : items) s += v.q.v;
    Value total = i.finite(s, items[0].q.dim, a.call->span);
    Value acc = items[0];
    for (std::size_t k = 1; k < items.size(); ++k)
      acc = zip_samples(i, acc, items[k], total, a.call->span, [](double x, double y) { return x + y; });
    if (!acc.samples) return total;
    acc.display = nullptr;
    return acc;
  });
  add("len", 1, 1, "len(list)", [](Interpreter& i, const CallArgs& a) {
    if (a.values[0].kind != Value::Kind::List) i.type_error(a.values[0], a.nodes[0], "a list");
    return Value::quantity(static_cast<double>(a.values[0].items().size()));
  });
}

}  // namespace napkin
