#include "solve.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

#include "grammar/printer.hpp"
#include "interpreter/core/suggest.hpp"

namespace napkin {
namespace {

// Whole numbers beyond 2^53 are not all doubles: the search stops there.
constexpr double kMaxWhole = 9007199254740992.0;

[[noreturn]] void no_solution(std::string message, std::string help) {
  Diagnostic d;
  d.code = codes::no_solution;
  d.message = std::move(message);
  d.help = std::move(help);
  throw Error(std::move(d));
}

[[noreturn]] void usage(std::string message, std::string help = {}) {
  Diagnostic d;
  d.code = codes::usage;
  d.message = std::move(message);
  d.help = std::move(help);
  throw Error(std::move(d));
}

struct Search {
  Interpreter& in;
  Module* m;
  Record* base;
  std::size_t slot;
  Dim dim;
  const SolveSpec& spec;
  const ast::Expr& cond;
  bool integer = false;
  int evaluations = 0;

  Value at(double x) const { return Value::quantity(x, dim); }

  Record* point(double x) { return in.with_values(base, {{slot, at(x)}}); }

  // The condition at x: a boolean for max/min; for ==, the sign of A - B.
  struct Seen {
    bool holds = false;  // max/min: the condition; ==: A - B has reached (or passed) zero going up
    double f = 0;        // ==: A - B
    Value a, b;
  };

  Seen see(Record* r, Trace* trace) {
    if (++evaluations > kMaxSolveEvaluations)
      no_solution(fmt::format("no solution found in {} evaluations", kMaxSolveEvaluations),
                  "give a narrower bracket with --lo and --hi");
    Seen s;
    if (spec.goal == SolveGoal::Equal) {
      s.a = in.eval_in_record(m, r, *cond.items[0], trace);
      s.b = in.eval_in_record(m, r, *cond.items[1], trace);
      const auto& qa = in.expect_quantity(s.a, cond.items[0].get(), "the left side of `==`");
      const auto& qb = in.expect_quantity(s.b, cond.items[1].get(), "the right side of `==`");
      if (!(qa.dim == qb.dim)) {
        Diagnostic d;
        d.code = codes::compare_mismatch;
        d.message = fmt::format("cannot solve {} == {}: the sides have different dimensions",
                                in.dim_name(qa.dim), in.dim_name(qb.dim));
        d.labels.push_back({cond.items[0]->span, fmt::format("this is {} ({})", in.dim_name(qa.dim), in.show(s.a)), true});
        d.labels.push_back({cond.items[1]->span, fmt::format("this is {} ({})", in.dim_name(qb.dim), in.show(s.b)), false});
        throw Error(std::move(d));
      }
      s.f = qa.v - qb.v;
    } else {
      s.a = in.eval_in_record(m, r, cond, trace);
      if (s.a.kind != Value::Kind::Bool)
        in.type_error(s.a, &cond, "true or false (the condition of `max where` or `min where`)");
      s.holds = s.a.b;
    }
    return s;
  }
  // A point tried and left gives back its fields (with --samples 1000000,
  // each holds ranges of 8 MB), unless something made there still reaches it.
  Seen see(double x) {
    const std::size_t made = in.records_made();
    Record* r = point(x);
    Seen s = see(r, nullptr);
    if (retirable(*r, made)) in.retire(*r);
    return s;
  }
};

// A value from the file: a bracket end.
double bracket_end(Interpreter& in, Module* m, const std::string& text, const ast::Expr* node, const char* which,
                   const Dim& dim) {
  const ast::Expr& e = node ? *node : in.parse_snippet(std::string("<--") + which + ">", text);
  Value v = in.eval_in(m, e);
  const Quantity& q = in.expect_quantity(v, &e, which);
  if (!(q.dim == dim))
    fail(codes::compare_mismatch, e.span,
         fmt::format("--{} is {}, but the input is {}", which, in.dim_name(q.dim), in.dim_name(dim)));
  return q.v;
}

std::string literal(const Interpreter& in, double x, const Dim& dim, bool integer) {
  if (integer) return fmt::format("{}", static_cast<std::int64_t>(x));
  std::string s = fmt::format("{:.17g}", x);
  if (!dim.dimensionless()) s += " " + in.units().format(dim);
  return s;
}

}  // namespace

std::string goal_text(SolveGoal g, const std::string& condition) {
  switch (g) {
    case SolveGoal::Max: return "max where " + condition;
    case SolveGoal::Min: return "min where " + condition;
    case SolveGoal::Equal: break;
  }
  return "where " + condition;
}

static SolveResult solve_here(Interpreter& in, Module* m, const SolveSpec& spec);

SolveResult solve(Interpreter& in, Module* m, const SolveSpec& spec) {
  if (!spec.at.valid()) return solve_here(in, m, spec);
  try {
    return solve_here(in, m, spec);
  } catch (Error& e) {
    Diagnostic& d = e.diagnostic();
    if (d.labels.empty()) d.labels.push_back({spec.at, "in this solve", true});
    // A statement's bracket is written after its input, not as options.
    for (const auto& [option, written] : {std::pair<std::string, std::string>{"(--lo, --hi)", "(`in [LOW, HIGH]` after the input)"},
                                          {"--lo and --hi", "`in [LOW, HIGH]` after the input"}})
      if (auto at = d.help.find(option); at != std::string::npos) d.help.replace(at, option.size(), written);
    throw;
  }
}

static SolveResult solve_here(Interpreter& in, Module* m, const SolveSpec& spec) {
  SolveResult out;
  out.input = spec.input;
  out.goal = spec.goal;
  out.condition = spec.condition;

  const ast::Expr& rec_expr = in.parse_snippet("<record>", spec.record);
  Value rv = in.eval_in(m, rec_expr);
  if (rv.kind != Value::Kind::Record)
    fail(codes::not_a_record, rec_expr.span,
         fmt::format("only a record's input can be solved for, but `{}` is {}", spec.record, describe_kind(rv)));
  Record* base = rv.rec;
  out.record = base->name.empty() ? spec.record : base->name;

  auto it = base->index().find(spec.input);
  if (it == base->index().end()) {
    std::vector<std::string> names;
    for (const auto& s : base->slots()) names.push_back(s.name);
    auto close = closest(spec.input, names);
    usage(fmt::format("{} has no field `{}` to solve for", out.record, spec.input),
          close.empty() ? std::string("name one of its inputs") : fmt::format("did you mean `{}`?", close[0]));
  }
  const std::size_t slot = it->second;
  const Slot& s = base->slots()[slot];
  const ast::FieldDecl* declared = s.decl && s.decl->value ? s.decl : (s.type_decl ? s.type_decl : s.decl);
  if (declared) out.where_set = declared->span.where_line();

  // The input's current value, when it has one: its dimension, where the
  // search starts, and whether it is a whole number.
  std::optional<Value> current;
  try {
    current = in.field(base, slot, Span{});
  } catch (const MissingInput&) {
  }
  Dim dim;
  double start = 1;
  bool integer = false;
  if (current) {
    if (current->kind != Value::Kind::Quantity)
      usage(fmt::format("{}.{} is {}; only a number can be solved for", out.record, spec.input, describe_kind(*current)));
    dim = current->q.dim;
    start = current->q.v;
    integer = dim.dimensionless() && std::floor(start) == start && std::abs(start) < kMaxWhole;
  } else if (s.type_decl && s.type_decl->type.kind == ast::TypeKind::Count) {
    integer = true;
  } else if (spec.lo.empty() && !spec.lo_node) {
    usage(fmt::format("{}.{} has no value to start from", out.record, spec.input), "give a bracket with --lo and --hi");
  }
  if (!current && s.type_decl && s.type_decl->type.kind == ast::TypeKind::Unit) {
    // A required input with a unit: its dimension comes from the bracket.
    const ast::Expr& e = spec.lo_node ? *spec.lo_node : in.parse_snippet("<--lo>", spec.lo);
    Value v = in.eval_in(m, e);
    dim = in.expect_quantity(v, &e, "--lo").dim;
  }
  out.integer = integer;

  const ast::Expr& cond = spec.condition_node ? *spec.condition_node : in.parse_snippet("<condition>", spec.condition);
  if (spec.goal == SolveGoal::Equal && !(cond.kind == ast::ExprKind::Binary && cond.op == ast::BinOp::Eq))
    fail(codes::usage, cond.span, "`where` needs an equation, `A == B`",
         "for the largest or smallest value at which a condition holds, use --max or --min");
  out.condition_expr = &cond;

  Search search{in, m, base, slot, dim, spec, cond, integer};

  // The condition once with derivations recorded, before the search turns
  // them off: fields that do not depend on the input are computed here and
  // shared by every point, and must keep their derivations.
  const double first = integer ? std::max(1.0, start) : start;
  Search::Seen seen_first = search.see(search.point(first), nullptr);
  const Interpreter::TracingOff no_derivations(in);  // until the solution, below

  // ---- the bracket ----------------------------------------------------
  // For ==, `holds` means A - B has the sign it has at the top of the
  // bracket (or is zero): false below the crossing, true from it on.
  double lo, hi;
  Search::Seen slo, shi;
  const bool given = !spec.lo.empty() || !spec.hi.empty() || spec.lo_node;
  if (given) {
    if (!spec.lo_node && (spec.lo.empty() || spec.hi.empty())) usage("give both ends of the bracket, --lo and --hi");
    lo = bracket_end(in, m, spec.lo, spec.lo_node, "lo", dim);
    hi = bracket_end(in, m, spec.hi, spec.hi_node, "hi", dim);
    if (integer) {
      lo = std::ceil(lo);
      hi = std::floor(hi);
    }
    if (!(lo < hi)) usage(fmt::format("the bracket is empty: --lo must be below --hi"));
    slo = search.see(lo);
    shi = search.see(hi);
  } else {
    if (!integer && !(start > 0))
      usage(fmt::format("{}.{} is {}: the search widens a bracket around a positive value", out.record, spec.input,
                        in.show(search.at(start))),
            "give a bracket with --lo and --hi");
    // Widen by doubling from the current value until the condition changes.
    const double floor_ = integer ? 1 : 0;
    lo = hi = first;
    slo = shi = seen_first;
    if (spec.goal == SolveGoal::Equal) {
      for (int k = 0; k < 64; ++k) {
        const bool can_down = lo / 2 >= floor_ && (!integer || lo > 1);
        const bool can_up = hi * 2 <= (integer ? kMaxWhole : 1e300);
        if (!can_down && !can_up) break;
        if (can_up) {
          hi = integer ? hi * 2 : hi * 2;
          shi = search.see(hi);
          if ((shi.f >= 0) != (slo.f >= 0) || shi.f == 0) break;
        }
        if (can_down) {
          const double next = integer ? std::max(1.0, std::floor(lo / 2)) : lo / 2;
          Search::Seen sn = search.see(next);
          if ((sn.f >= 0) != (slo.f >= 0) || sn.f == 0) {
            hi = lo;
            shi = slo;
            lo = next;
            slo = sn;
            break;
          }
          lo = next;
          slo = sn;
        }
      }
    } else {
      // max: holds below, fails above; min: fails below, holds above.
      const bool want_low_holds = spec.goal == SolveGoal::Max;
      // Move the low end down until it is on its side, the high end up.
      for (int k = 0; k < 64 && slo.holds != want_low_holds; ++k) {
        if (integer ? lo <= 1 : lo / 2 < floor_) break;
        hi = lo;
        shi = slo;
        lo = integer ? std::max(1.0, std::floor(lo / 2)) : lo / 2;
        slo = search.see(lo);
      }
      for (int k = 0; k < 64 && shi.holds == want_low_holds; ++k) {
        if (hi * 2 > (integer ? kMaxWhole : 1e300)) break;
        if (lo == hi || slo.holds == want_low_holds) {
          lo = hi;
          slo = shi;
        }
        hi *= 2;
        shi = search.see(hi);
      }
    }
  }
  out.lo = search.at(lo);
  out.hi = search.at(hi);

  const std::string what = goal_text(spec.goal, spec.condition);
  const std::string bracket = fmt::format("[{}, {}]", in.show(out.lo), in.show(out.hi));
  const std::string widen = given ? "widen the bracket (--lo, --hi)" : "give a bracket with --lo and --hi";

  double answer = 0;
  bool exact = false;  // ==: A - B is exactly zero at the answer
  if (spec.goal == SolveGoal::Equal) {
    if (slo.f == 0) {
      answer = lo, exact = true;
    } else if (shi.f == 0) {
      answer = hi, exact = true;
    } else if ((slo.f > 0) == (shi.f > 0)) {
      no_solution(fmt::format("no solution in {}: {} - {} does not change sign between {} and {} ({} and {})", bracket,
                              print_expr(*cond.items[0]), print_expr(*cond.items[1]), in.show(out.lo),
                              in.show(out.hi), in.show(Value::quantity(slo.f, slo.a.q.dim)),
                              in.show(Value::quantity(shi.f, shi.a.q.dim))),
                  widen);
    }
  } else {
    const bool max = spec.goal == SolveGoal::Max;
    const Search::Seen& inner = max ? slo : shi;  // the end that must hold
    const Search::Seen& outer = max ? shi : slo;
    if (!inner.holds)
      no_solution(fmt::format("no solution in {}: {} does not hold at {}, the bracket's {} end", bracket,
                              spec.condition, in.show(max ? out.lo : out.hi), max ? "low" : "high"),
                  widen);
    if (outer.holds) {
      // A whole-number input starts at 1: `min where` may hold there.
      const bool at_one = integer && !max && lo <= 1;
      if (!given && !at_one)
        no_solution(fmt::format("{} still holds at {}: no {} value", spec.condition, in.show(max ? out.hi : out.lo),
                                max ? "largest" : "smallest"),
                    "give a bracket with --lo and --hi");
      answer = max ? hi : lo;
      exact = true;
      out.at_bracket_end = true;
    }
  }

  // ---- bisection ------------------------------------------------------
  if (!exact) {
    // Invariant: `lo` is on the low side, `hi` on the high side.
    const bool up = spec.goal == SolveGoal::Equal ? shi.f > 0 : false;
    auto high_side = [&](const Search::Seen& s) {
      if (spec.goal == SolveGoal::Equal) return s.f == 0 || (s.f > 0) == up;
      return spec.goal == SolveGoal::Max ? !s.holds : s.holds;
    };
    for (int k = 0; k < 2000; ++k) {
      if (integer ? hi - lo <= 1 : !(hi - lo > 1e-12 * std::max(std::abs(lo), std::abs(hi)))) break;
      double mid = integer ? std::floor(lo + (hi - lo) / 2) : lo + (hi - lo) / 2;
      if (mid <= lo || mid >= hi) break;
      Search::Seen sm = search.see(mid);
      if (spec.goal == SolveGoal::Equal && sm.f == 0) {
        lo = hi = mid;
        slo = shi = sm;
        break;
      }
      if (high_side(sm))
        hi = mid, shi = sm;
      else
        lo = mid, slo = sm;
    }
    if (spec.goal == SolveGoal::Max) {
      answer = lo;  // the largest value known to hold
    } else if (spec.goal == SolveGoal::Min) {
      answer = hi;  // the smallest value known to hold
    } else if (integer) {
      answer = hi;  // the first whole number at or past the crossing
    } else {
      answer = std::abs(slo.f) <= std::abs(shi.f) ? lo : hi;
    }
  }
  out.solution = search.at(answer);
  if (out.integer && !out.at_bracket_end && !(spec.goal == SolveGoal::Equal && exact)) {
    const double next = spec.goal == SolveGoal::Max ? answer + 1 : answer - 1;
    out.beyond = search.at(next);
  }
  in.set_tracing(true);

  // ---- the record at the solution, with its derivations ---------------
  // Written as `(RECORD) with { INPUT = VALUE }` so that its derivation
  // shows the input as set to the solution.
  Record* r = nullptr;
  try {
    const ast::Expr& w = in.parse_snippet(
        "<solution>", fmt::format("({}) with {{ {} = {} }}", spec.record, spec.input, literal(in, answer, dim, integer)));
    Value v = in.eval_in(m, w);
    if (v.kind == Value::Kind::Record) r = v.rec;
  } catch (const Error&) {
  }
  if (!r) r = search.point(answer);
  r->name = out.record;
  out.at = r;
  Search::Seen sa = search.see(r, &out.trace);
  out.value = sa.a;
  out.target = sa.b;
  if (out.beyond) {
    Search::Seen sb = search.see(out.beyond->q.v);
    out.beyond_value = sb.a;
    out.beyond_target = sb.b;
  }
  out.evaluations = search.evaluations;
  (void)seen_first;
  return out;
}

}  // namespace napkin
