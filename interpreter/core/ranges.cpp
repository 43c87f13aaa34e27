// Ranges as values: `a to b`, normal(), uniform(), the builtins that read a
// range's quantiles, and the checks every range result passes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "grammar/printer.hpp"
#include "builtins.hpp"
#include "interpreter.hpp"
#include "range_ops.hpp"
#include "samples.hpp"

namespace napkin {

std::size_t Interpreter::samples() const { return opts_.samples; }

Value Interpreter::range_result(SampleVector v, Value nominal, Span span) {
  double lo = v.empty() ? 0 : v[0], hi = lo;
  bool nan = false;
  for (double x : v) {
    lo = x < lo ? x : lo;
    hi = x > hi ? x : hi;
    nan |= x != x;
  }
  if (nan || !std::isfinite(lo) || !std::isfinite(hi))
    fail(codes::not_finite, span,
         nan ? "for some of the range's samples this has no defined value (not a number)"
             : "for some of the range's samples this overflows to infinity",
         "the range reaches values where the formula is not defined: narrow it, or bound it with max() or min()");
  if (lo == hi) {  // every sample the same (`x - x`): a plain number
    Value out = Value::quantity(lo, nominal.q.dim);
    out.display = nominal.display;
    return out;
  }
  auto s = std::make_shared<Samples>();
  s->count(v.size(), span);
  s->v = std::move(v);
  nominal.samples = std::move(s);
  return nominal;
}

Value Interpreter::draw_range(const ast::Expr& site, Distribution d, double a, double b, Value nominal) {
  const std::size_t n = opts_.samples;
  RangeDraw& c = range_draws_[&site];
  if (!c.samples || c.dist != d || c.a != a || c.b != b || c.samples->v.size() != n) {
    const SourceFile* f = site.span.file;
    const std::uint64_t seed =
        f ? range_seed(f->name, f->text, site.span.begin, site.span.text()) : range_seed("", "", 0, "");
    SampleVector v = draw(d, a, b, n, seed);
    // A distribution whose tail passes the largest double (`normal(1e308,
    // 1e308)`, `1 to 1e308`) is refused where it is written, as any
    // overflowing sample is, before a summary reads infinities.
    for (double x : v)
      if (!std::isfinite(x))
        fail(codes::not_finite, site.span,
             "some of this range's samples overflow to infinity: its tail goes past the largest number napkin "
             "holds (about 1.8e308)",
             "a range's samples go beyond its 90% interval; narrow it, or write it in a larger unit");
    auto s = std::make_shared<Samples>();
    s->count(n, site.span);
    s->v = std::move(v);
    c = {d, a, b, std::move(s)};
  }
  nominal.samples = c.samples;
  return nominal;
}

void Interpreter::range_compare_error(const ast::Expr& at, const ast::Expr& operand, const Value& v, std::string_view op) {
  Diagnostic d;
  d.code = codes::range_compare;
  d.message = fmt::format("cannot compare a range as if it were one number: {} is {}", print_expr(operand), show(v));
  d.labels.push_back({operand.span, "this is a range", true});
  if (at.span.begin != operand.span.begin || at.span.end != operand.span.end)
    d.labels.push_back({at.span, fmt::format("`{}` needs one number on each side", op), false});
  const std::string x = print_expr(operand);
  if (op == "≈" || op == "within")
    d.help = fmt::format("check one of its values: `check median({0}) ≈ …`, or `p5({0})`, `p95({0})`, `quantile({0}, 99%)`", x);
  else
    d.help = fmt::format("compare one of its values, `p95({0}) {1} …` (or `median`, `p5`, `quantile({0}, 99%)`), or ask how likely it is: `prob({0} {1} …)`", x, op);
  throw Error(std::move(d));
}

// `a to b`: a 90% interval, lognormal when both ends are positive and
// normal otherwise.
Value Interpreter::eval_range(const ast::Expr& e, Env* env) {
  const ast::Expr& le = *e.items[0];
  const ast::Expr& re = *e.items[1];
  Value l = eval(le, env);
  Value r = eval(re, env);
  for (auto [v, node] : {std::pair{&l, &le}, std::pair{&r, &re}}) {
    expect_quantity(*v, node, "a number at the end of a range");
    if (v->samples)
      fail(codes::bad_range, node->span, fmt::format("the ends of a range must be numbers, but this is a range ({})", show(*v)),
           "write the range from two numbers; a range of ranges has no single 90% interval");
  }
  if (l.q.dim != r.q.dim)
    dimension_mismatch(codes::range_mismatch,
                       fmt::format("the ends of a range must have one dimension, but these are {} and {}",
                                   dim_name(l.q.dim), dim_name(r.q.dim)),
                       "write both ends with units of one dimension, e.g. `80 GB to 90 GB`", le, l, re, r);
  const double a = l.q.v, b = r.q.v;
  if (a > b) {
    Diagnostic d;
    d.code = codes::bad_range;
    d.message = fmt::format("a range goes from low to high, but {} is above {}", show(l), show(r));
    d.labels.push_back({le.span, "the low end", true});
    d.labels.push_back({re.span, "the high end", false});
    d.help = fmt::format("write `{} to {}`", print_expr(re), print_expr(le));
    throw Error(std::move(d));
  }
  const DisplayUnit* display = nullptr;
  if (l.display && r.display && l.display->text == r.display->text) display = l.display;
  if (a == b) {
    Value out = Value::quantity(a, l.q.dim);
    out.display = display;
    return out;
  }
  Value nominal;
  Distribution dist;
  double p1, p2;
  if (a > 0) {
    dist = Distribution::LogNormal;
    p1 = (std::log(a) + std::log(b)) / 2;
    p2 = (std::log(b) - std::log(a)) / (2 * kZ95);
    nominal = finite(std::exp(p1), l.q.dim, e.span);
  } else {
    dist = Distribution::Normal;
    p1 = a / 2 + b / 2;
    p2 = (b / 2 - a / 2) / kZ95;
    nominal = finite(p1, l.q.dim, e.span);
  }
  nominal.display = display;
  return draw_range(e, dist, p1, p2, std::move(nominal));
}

namespace {

const Quantity& scalar_arg(Interpreter& in, const CallArgs& a, std::size_t i, const char* fn) {
  const Quantity& q = in.expect_quantity(a.values[i], a.nodes[i], "a number");
  if (a.values[i].samples)
    fail(codes::bad_range, a.nodes[i]->span,
         fmt::format("the arguments of {}() must be numbers, but this is a range ({})", fn, in.show(a.values[i])),
         "a distribution's parameters are numbers; combine ranges with arithmetic instead");
  return q;
}

void same_dim(Interpreter& in, const CallArgs& a, const char* fn) {
  const Dim& d0 = a.values[0].q.dim;
  const Dim& d1 = a.values[1].q.dim;
  if (d0 == d1) return;
  Diagnostic d;
  d.code = codes::range_mismatch;
  d.message = fmt::format("{}() needs two arguments of one dimension, but these are {} and {}", fn, in.dim_name(d0),
                          in.dim_name(d1));
  d.labels.push_back({a.nodes[0]->span, "this is " + in.dim_name(d0), true});
  d.labels.push_back({a.nodes[1]->span, "this is " + in.dim_name(d1), false});
  throw Error(std::move(d));
}

// A statistic of a range (of a number: the number itself), shown as the
// range was.
Value statistic(Interpreter& in, const CallArgs& a, double (*f)(const Samples&), bool spread) {
  const Value& x = a.values[0];
  in.expect_quantity(x, a.nodes[0], "a number or a range");
  Value out = Value::quantity(x.samples ? f(*x.samples) : spread ? 0 : x.q.v, x.q.dim);
  out.display = x.display;
  return out;
}

}  // namespace

void register_range_builtins(Interpreter& in) {
  auto add = [&](const char* name, int min, int max, const char* sig, Function::Builtin f) {
    add_builtin(in, name, min, max, sig, f);
  };
  add("normal", 2, 2, "normal(mean, sd)", [](Interpreter& i, const CallArgs& a) {
    const Quantity& m = scalar_arg(i, a, 0, "normal");
    const Quantity& s = scalar_arg(i, a, 1, "normal");
    same_dim(i, a, "normal");
    if (s.v < 0)
      fail(codes::bad_range, a.nodes[1]->span,
           fmt::format("a standard deviation cannot be negative, but this is {}", i.show(a.values[1])));
    Value nominal = a.values[0];
    nominal.note = nullptr;
    if (s.v == 0) return nominal;
    return i.draw_range(*a.call, Distribution::Normal, m.v, s.v, std::move(nominal));
  });
  add("uniform", 2, 2, "uniform(low, high)", [](Interpreter& i, const CallArgs& a) {
    const Quantity& lo = scalar_arg(i, a, 0, "uniform");
    const Quantity& hi = scalar_arg(i, a, 1, "uniform");
    same_dim(i, a, "uniform");
    if (lo.v > hi.v) {
      Diagnostic d;
      d.code = codes::bad_range;
      d.message = fmt::format("uniform(low, high) needs low ≤ high, but {} is above {}", i.show(a.values[0]),
                              i.show(a.values[1]));
      d.labels.push_back({a.nodes[0]->span, "the low end", true});
      d.labels.push_back({a.nodes[1]->span, "the high end", false});
      throw Error(std::move(d));
    }
    Value nominal = i.finite(lo.v / 2 + hi.v / 2, lo.dim, a.call->span);
    if (a.values[0].display && a.values[1].display && a.values[0].display->text == a.values[1].display->text)
      nominal.display = a.values[0].display;
    if (lo.v == hi.v) return a.values[0];
    return i.draw_range(*a.call, Distribution::Uniform, lo.v, hi.v, std::move(nominal));
  });
  add("median", 1, 1, "median(x)", [](Interpreter& i, const CallArgs& a) {
    return statistic(i, a, [](const Samples& s) { return s.summary().p50; }, false);
  });
  add("p5", 1, 1, "p5(x)", [](Interpreter& i, const CallArgs& a) {
    return statistic(i, a, [](const Samples& s) { return s.summary().p5; }, false);
  });
  add("p95", 1, 1, "p95(x)", [](Interpreter& i, const CallArgs& a) {
    return statistic(i, a, [](const Samples& s) { return s.summary().p95; }, false);
  });
  add("mean", 1, 1, "mean(x)", [](Interpreter& i, const CallArgs& a) {
    return statistic(i, a, [](const Samples& s) { return s.summary().mean; }, false);
  });
  add("sd", 1, 1, "sd(x)", [](Interpreter& i, const CallArgs& a) {
    return statistic(i, a, [](const Samples& s) { return s.summary().sd; }, true);
  });
  // Evaluated by Interpreter::eval_probability: its argument is a condition
  // that holds for some samples and not others, not a value.
  add("prob", 1, 1, "prob(condition)", [](Interpreter&, const CallArgs& a) -> Value {
    fail(codes::bad_arguments, a.call->span, "prob() takes a condition written in its call, such as `prob(memory <= 80 GB)`");
  });
  add("quantile", 2, 2, "quantile(x, q)", [](Interpreter& i, const CallArgs& a) {
    const Value& x = a.values[0];
    i.expect_quantity(x, a.nodes[0], "a number or a range");
    const Quantity& q = scalar_arg(i, a, 1, "quantile");
    if (!q.dim.dimensionless() || q.v < 0 || q.v > 1)
      fail(codes::bad_arguments, a.nodes[1]->span,
           fmt::format("quantile(x, q) needs q between 0 and 1 (0% and 100%), but this is {}", i.show(a.values[1])),
           "the 99th percentile is `quantile(x, 99%)` or `quantile(x, 0.99)`");
    Value out = Value::quantity(x.samples ? x.samples->quantile(q.v) : x.q.v, x.q.dim);
    out.display = x.display;
    return out;
  });
}

}  // namespace napkin
