#include "solve_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace napkin::solve_detail {

void no_solution(std::string message, std::string help) {
  Diagnostic d;
  d.code = codes::no_solution;
  d.message = std::move(message);
  d.help = std::move(help);
  throw Error(std::move(d));
}

void usage(std::string message, std::string help) {
  Diagnostic d;
  d.code = codes::usage;
  d.message = std::move(message);
  d.help = std::move(help);
  throw Error(std::move(d));
}

Search::Seen Search::see(Record* r, Trace* trace) {
  if (++evaluations > kMaxSolveEvaluations)
    no_solution(fmt::format("no solution found in {} evaluations", kMaxSolveEvaluations),
                "give a narrower bracket with --lo and --hi");
  Seen s;
  if (spec.goal == SolveGoal::Equal) {
    s.a = in.eval_in({m, r}, *cond.items[0], trace);
    s.b = in.eval_in({m, r}, *cond.items[1], trace);
    const auto& qa = in.expect_quantity(s.a, cond.items[0].get(), "the left side of `==`");
    const auto& qb = in.expect_quantity(s.b, cond.items[1].get(), "the right side of `==`");
    if (!(qa.dim == qb.dim)) {
      Diagnostic d;
      d.code = codes::compare_mismatch;
      d.message = fmt::format("cannot solve {} == {}: the sides have different dimensions", in.dim_name(qa.dim),
                              in.dim_name(qb.dim));
      d.labels.push_back({cond.items[0]->span, fmt::format("this is {} ({})", in.dim_name(qa.dim), in.show(s.a)), true});
      d.labels.push_back({cond.items[1]->span, fmt::format("this is {} ({})", in.dim_name(qb.dim), in.show(s.b)), false});
      throw Error(std::move(d));
    }
    s.f = qa.v - qb.v;
  } else {
    s.a = in.eval_in({m, r}, cond, trace);
    if (s.a.kind != Value::Kind::Bool)
      in.type_error(s.a, &cond, "true or false (the condition of `max where` or `min where`)");
    s.holds = s.a.b;
  }
  return s;
}

// A point tried and left gives back its fields (with --samples 1000000,
// each holds ranges of 8 MB), unless something made there still reaches it.
Search::Seen Search::see(double x) {
  const std::size_t made = in.records_made();
  Record* r = point(x);
  Seen s = see(r, nullptr);
  if (retirable(*r, made)) in.retire(*r);
  return s;
}

namespace {

double bracket_end(Search& s, const std::string& text, const ast::Expr* node, const char* which) {
  const ast::Expr& e = node ? *node : s.in.parse_snippet(std::string("<--") + which + ">", text);
  Value v = s.in.eval_in(s.m, e);
  const Quantity& q = s.in.expect_quantity(v, &e, which);
  if (!(q.dim == s.dim))
    fail(codes::compare_mismatch, e.span,
         fmt::format("--{} is {}, but the input is {}", which, s.in.dim_name(q.dim), s.in.dim_name(s.dim)));
  return q.v;
}

// For ==, the crossing lies between two points where A - B has opposite
// signs, or at one where it is zero.
bool crossed(const Search::Seen& from, const Search::Seen& to) { return (to.f >= 0) != (from.f >= 0) || to.f == 0; }

}  // namespace

Bracket given_bracket(Search& s) {
  const SolveSpec& spec = s.spec;
  if (!spec.lo_node && (spec.lo.empty() || spec.hi.empty())) usage("give both ends of the bracket, --lo and --hi");
  Bracket b;
  b.given = true;
  b.lo = bracket_end(s, spec.lo, spec.lo_node, "lo");
  b.hi = bracket_end(s, spec.hi, spec.hi_node, "hi");
  if (s.integer) {
    b.lo = std::ceil(b.lo);
    b.hi = std::floor(b.hi);
  }
  if (!(b.lo < b.hi)) usage("the bracket is empty: --lo must be below --hi");
  b.slo = s.see(b.lo);
  b.shi = s.see(b.hi);
  return b;
}

Bracket widened_bracket(Search& s, double first, const Search::Seen& seen) {
  const bool integer = s.integer;
  const double floor_ = integer ? 1 : 0;
  const double top = integer ? kMaxWhole : 1e300;
  auto half = [&](double x) { return integer ? std::max(1.0, std::floor(x / 2)) : x / 2; };
  Bracket b;
  b.lo = b.hi = first;
  b.slo = b.shi = seen;
  if (s.spec.goal == SolveGoal::Equal) {
    for (int k = 0; k < 64; ++k) {
      const bool can_down = b.lo / 2 >= floor_ && (!integer || b.lo > 1);
      const bool can_up = b.hi * 2 <= top;
      if (!can_down && !can_up) break;
      if (can_up) {
        b.hi *= 2;
        b.shi = s.see(b.hi);
        if (crossed(b.slo, b.shi)) break;
      }
      if (can_down) {
        const double next = half(b.lo);
        Search::Seen sn = s.see(next);
        if (crossed(b.slo, sn)) {
          b.hi = b.lo;
          b.shi = b.slo;
          b.lo = next;
          b.slo = sn;
          break;
        }
        b.lo = next;
        b.slo = sn;
      }
    }
    return b;
  }
  // max: holds below, fails above; min: fails below, holds above. Move the
  // low end down until it is on its side, the high end up.
  const bool low_holds = s.spec.goal == SolveGoal::Max;
  for (int k = 0; k < 64 && b.slo.holds != low_holds; ++k) {
    if (integer ? b.lo <= 1 : b.lo / 2 < floor_) break;
    b.hi = b.lo;
    b.shi = b.slo;
    b.lo = half(b.lo);
    b.slo = s.see(b.lo);
  }
  for (int k = 0; k < 64 && b.shi.holds == low_holds; ++k) {
    if (b.hi * 2 > top) break;
    if (b.lo == b.hi || b.slo.holds == low_holds) {
      b.lo = b.hi;
      b.slo = b.shi;
    }
    b.hi *= 2;
    b.shi = s.see(b.hi);
  }
  return b;
}

void bisect(Search& s, Bracket& b) {
  const SolveGoal goal = s.spec.goal;
  const bool up = goal == SolveGoal::Equal && b.shi.f > 0;  // A - B at the high end
  auto high_side = [&](const Search::Seen& x) {
    if (goal == SolveGoal::Equal) return x.f == 0 || (x.f > 0) == up;
    return goal == SolveGoal::Max ? !x.holds : x.holds;
  };
  // Invariant: `lo` is on the low side, `hi` on the high side.
  for (int k = 0; k < 2000; ++k) {
    if (s.integer ? b.hi - b.lo <= 1 : !(b.hi - b.lo > kBisectionWidth * std::max(std::abs(b.lo), std::abs(b.hi))))
      break;
    const double mid = s.integer ? std::floor(b.lo + (b.hi - b.lo) / 2) : b.lo + (b.hi - b.lo) / 2;
    if (mid <= b.lo || mid >= b.hi) break;
    Search::Seen sm = s.see(mid);
    if (goal == SolveGoal::Equal && sm.f == 0) {
      b.lo = b.hi = mid;
      b.slo = b.shi = sm;
      return;
    }
    if (high_side(sm))
      b.hi = mid, b.shi = sm;
    else
      b.lo = mid, b.slo = sm;
  }
}

}  // namespace napkin::solve_detail
