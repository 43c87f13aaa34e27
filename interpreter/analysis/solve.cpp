#include "solve.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

#include "grammar/printer.hpp"
#include "interpreter/core/suggest.hpp"
#include "solve_search.hpp"

namespace napkin {
namespace {

using solve_detail::Bracket;
using solve_detail::kMaxWhole;
using solve_detail::no_solution;
using solve_detail::Search;
using solve_detail::usage;

[[noreturn]] void not_a_root(std::string message) {
  Diagnostic d;
  d.code = codes::no_root;
  d.message = std::move(message);
  d.help = "the condition is not continuous there: solve for a condition that crosses, or bracket a real root";
  throw Error(std::move(d));
}

// The input and where the search starts: what solving needs to know of the
// record before it evaluates the condition.
struct Target {
  Record* base = nullptr;
  std::size_t slot = 0;
  Dim dim;
  double start = 1;
  bool integer = false;
};

// A statement's record is given as text (its path) and parsed on its own:
// an error there points into the statement, not into the snippet.
Value record_value(Interpreter& in, Module* m, const SolveSpec& spec) {
  const ast::Expr& e = in.parse_snippet("<record>", spec.record);
  in.expect_record(&e);
  try {
    return in.eval_in(m, e);
  } catch (Error& err) {
    if (!spec.record_at.valid() || spec.record_at.text() != spec.record) throw;
    for (auto& l : err.diagnostic().labels)
      if (l.span.file == e.span.file)
        l.span = Span{spec.record_at.file, spec.record_at.begin + l.span.begin, spec.record_at.begin + l.span.end};
    throw;
  }
}

Target find_target(Interpreter& in, Module* m, const SolveSpec& spec, SolveResult& out) {
  Target t;
  Value rv = record_value(in, m, spec);
  if (rv.kind != Value::Kind::Record) {
    const std::string message =
        fmt::format("only a record's input can be solved for, but `{}` is {}", spec.record, describe_kind(rv));
    if (spec.record_at.valid()) fail(codes::not_a_record, spec.record_at, message);
    fail(codes::not_a_record, in.parse_snippet("<record>", spec.record).span, message);
  }
  t.base = rv.rec;
  out.record = t.base->name.empty() ? spec.record : t.base->name;

  auto it = t.base->index().find(spec.input);
  if (it == t.base->index().end()) {
    std::vector<std::string> names;
    for (const auto& s : t.base->slots()) names.push_back(s.name);
    auto close = closest(spec.input, names);
    const std::string help =
        close.empty() ? std::string("name one of its inputs") : fmt::format("did you mean `{}`?", close[0]);
    const std::string message = fmt::format("{} has no field `{}` to solve for", out.record, spec.input);
    if (spec.input_at.valid()) fail(codes::usage, spec.input_at, message, help);
    usage(message, help);
  }
  t.slot = it->second;
  const Slot& s = t.base->slots()[t.slot];
  if (spec.input_at.valid()) in.refuse_derived(t.base, s, spec.input_at, "solved for, but it is worked out");
  else {
    try {
      in.refuse_derived(t.base, s, Span{}, "");
    } catch (const Error& e) {
      usage(e.diagnostic().message, e.diagnostic().help);
    }
  }
  const ast::FieldDecl* declared = s.decl && s.decl->value ? s.decl : (s.type_decl ? s.type_decl : s.decl);
  if (declared) out.where_set = declared->span.where_line();

  // The input's current value, when it has one: its dimension, where the
  // search starts, and whether it is a whole number.
  std::optional<Value> current;
  try {
    current = in.field(t.base, t.slot, Span{});
  } catch (const MissingInput&) {
  }
  if (current) {
    if (current->kind != Value::Kind::Quantity)
      usage(fmt::format("{}.{} is {}; only a number can be solved for", out.record, spec.input, describe_kind(*current)));
    t.dim = current->q.dim;
    t.start = current->q.v;
    t.integer = t.dim.dimensionless() && std::floor(t.start) == t.start && std::abs(t.start) < kMaxWhole;
  } else if (s.type_decl && s.type_decl->type.kind == ast::TypeKind::Count) {
    t.integer = true;
  } else if (spec.lo.empty() && !spec.lo_node) {
    usage(fmt::format("{}.{} has no value to start from", out.record, spec.input), "give a bracket with --lo and --hi");
  }
  if (!current && s.type_decl && s.type_decl->type.kind == ast::TypeKind::Unit) {
    // A required input with a unit: its dimension comes from the bracket.
    const ast::Expr& e = spec.lo_node ? *spec.lo_node : in.parse_snippet("<--lo>", spec.lo);
    Value v = in.eval_in(m, e);
    t.dim = in.expect_quantity(v, &e, "--lo").dim;
  }
  return t;
}

// An input's value written in full ("2.9999999999999996", "3 TB/s"): the
// places of a jump are closer together than a display rounds to.
std::string exact_text(const Interpreter& in, double x, const Dim& dim) {
  std::string s = fmt::format("{}", x);
  if (!dim.dimensionless()) s += " " + in.units().format(dim);
  return s;
}

// The bracket's ends: an answer there, or no answer at all.
struct AtEnds {
  bool found = false;
  double answer = 0;
  bool at_bracket_end = false;
};

AtEnds check_ends(Interpreter& in, const SolveSpec& spec, const Search& s, const Bracket& b, const std::string& bracket) {
  const std::string widen = b.given ? "widen the bracket (--lo, --hi)" : "give a bracket with --lo and --hi";
  if (spec.goal == SolveGoal::Equal) {
    if (b.slo.f == 0) return {true, b.lo, false};
    if (b.shi.f == 0) return {true, b.hi, false};
    if ((b.slo.f > 0) == (b.shi.f > 0))
    {
      // Each side's values at both ends: their difference alone reads as
      // the value. A right side that does not move is said once.
      const std::string left = print_expr(*s.cond.items[0]), right = print_expr(*s.cond.items[1]);
      const std::string rlo = in.show(b.slo.b), rhi = in.show(b.shi.b);
      std::string detail = fmt::format("{} is {} at {} and {} at {}", left, in.show(b.slo.a), in.show(s.at(b.lo)),
                                       in.show(b.shi.a), in.show(s.at(b.hi)));
      if (rlo != rhi) detail += fmt::format("; {} is {} and {}", right, rlo, rhi);
      no_solution(fmt::format("no solution in {}: {} stays {} {} ({})", bracket, left, b.slo.f > 0 ? "above" : "below",
                              rlo == rhi ? rlo : right, detail),
                  widen);
    }
    return {};
  }
  const bool max = spec.goal == SolveGoal::Max;
  const Search::Seen& inner = max ? b.slo : b.shi;  // the end that must hold
  const Search::Seen& outer = max ? b.shi : b.slo;
  if (!inner.holds)
    no_solution(fmt::format("no solution in {}: {} does not hold at {}, the bracket's {} end", bracket, spec.condition,
                            in.show(s.at(max ? b.lo : b.hi)), max ? "low" : "high"),
                widen);
  if (!outer.holds) return {};
  // A whole-number input starts at 1: `min where` may hold there.
  const bool at_one = s.integer && !max && b.lo <= 1;
  if (!b.given && !at_one)
    no_solution(fmt::format("{} still holds at {}: no {} value", spec.condition, in.show(s.at(max ? b.hi : b.lo)),
                            max ? "largest" : "smallest"),
                "give a bracket with --lo and --hi");
  return {true, max ? b.hi : b.lo, true};
}

// What bisection ended on: for max, the largest value known to hold; for
// min, the smallest; for == over whole numbers, the first one at or past
// the crossing; for == over other values, the end nearer the root, or a
// whole number in the last interval that is nearer still (a crossing at
// 8192 is 8192, not 8191.99999999779).
double pick(Search& s, const Bracket& b) {
  switch (s.spec.goal) {
    case SolveGoal::Max: return b.lo;
    case SolveGoal::Min: return b.hi;
    case SolveGoal::Equal: break;
  }
  if (s.integer) return b.hi;
  double answer = std::abs(b.slo.f) <= std::abs(b.shi.f) ? b.lo : b.hi;
  const double best = std::min(std::abs(b.slo.f), std::abs(b.shi.f));
  const double whole = std::round(answer);
  if (whole == answer || whole < b.lo || whole > b.hi || std::abs(whole) >= kMaxWhole) return answer;
  try {
    if (std::abs(s.see(whole).f) <= best) answer = whole;
  } catch (const Error& e) {
    // No value there (1 / (x - 2) at 2): the answer stays where bisection
    // ended, and verification says what lies between. Any other error (a
    // limit, a bug) is the solve's own.
    const Code c = e.diagnostic().code;
    if (c != codes::division_by_zero && c != codes::not_finite) throw;
  }
  return answer;
}

// For == over a real input, A - B at the answer must be within
// kEqualTolerance of the sides' size at the bracket's ends; otherwise A - B
// changed sign without passing zero, across a jump or a pole, and the
// message names both and where.
void verify_root(Interpreter& in, Search& s, const Bracket& ends, const Bracket& last, const Search::Seen& at,
                 const std::string& bracket) {
  auto size = [](const Search::Seen& x) { return std::max(std::abs(x.a.q.v), std::abs(x.b.q.v)); };
  const double scale = std::max(size(ends.slo), size(ends.shi));
  if (std::abs(at.f) <= solve_detail::kEqualTolerance * scale) return;
  const auto& lhs = *s.cond.items[0];
  const auto& rhs = *s.cond.items[1];
  const std::string input = s.spec.input;
  const std::string where = fmt::format("between {} = {} and {} = {}", input, exact_text(in, last.lo, s.dim), input,
                                        exact_text(in, last.hi, s.dim));
  const std::string values = fmt::format("{} = {} and {}", print_expr(lhs), in.show(last.slo.a), in.show(last.shi.a));
  const std::string target = rhs.kind == ast::ExprKind::Number ? in.show(last.slo.b) : print_expr(rhs);
  // A pole: the sides grow far beyond anything seen at the bracket's ends.
  if (std::max(size(last.slo), size(last.shi)) > 1e6 * scale)
    not_a_root(fmt::format("no solution in {}: {} has a pole {} ({}): it changes sign there without equalling {}",
                           bracket, print_expr(lhs), where, values, target));
  not_a_root(fmt::format("no solution in {}: {} jumps {} ({}) without equalling {}", bracket, print_expr(lhs), where,
                         values, target));
}

// The condition at the solution must hold: a point where it does not is
// never reported (for == over whole numbers, A - B is zero there or has
// the other sign one step before).
void verify(Interpreter& in, const SolveSpec& spec, const SolveResult& out, const Search::Seen& at,
            const Search::Seen* beyond) {
  bool ok = true;
  if (spec.goal == SolveGoal::Equal) {
    if (out.integer && at.f != 0) ok = beyond && (beyond->f == 0 || (beyond->f > 0) != (at.f > 0));
  } else {
    ok = at.holds && (!beyond || !beyond->holds);
  }
  if (!ok)
    no_solution(fmt::format("the search ended at {} = {}, where {} does not hold", spec.input, in.show(out.solution),
                            spec.condition),
                "the condition is not monotone in the input over the bracket: give a narrower bracket with --lo and --hi");
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
  const Target t = find_target(in, m, spec, out);
  out.integer = t.integer;

  const ast::Expr& cond = spec.condition_node ? *spec.condition_node : in.parse_snippet("<condition>", spec.condition);
  if (spec.goal == SolveGoal::Equal && !(cond.kind == ast::ExprKind::Binary && cond.op == ast::BinOp::Eq))
    fail(codes::usage, cond.span, "`where` needs an equation, `A == B`",
         "for the largest or smallest value at which a condition holds, use --max or --min");
  out.condition_expr = &cond;

  Search search{in, m, t.base, t.slot, t.dim, spec, cond, t.integer};

  // The condition once with derivations recorded, before the search turns
  // them off: fields that do not depend on the input are computed here and
  // shared by every point, and must keep their derivations.
  const double first = t.integer ? std::max(1.0, t.start) : t.start;
  const Search::Seen seen_first = search.see(search.point(first), nullptr);
  const Interpreter::TracingOff no_derivations(in);  // until the solution, below

  const bool given = !spec.lo.empty() || !spec.hi.empty() || spec.lo_node;
  if (!given && !t.integer && !(t.start > 0))
    usage(fmt::format("{}.{} is {}: the search widens a bracket around a positive value", out.record, spec.input,
                      in.show(search.at(t.start))),
          "give a bracket with --lo and --hi");
  const Bracket ends = given ? solve_detail::given_bracket(search) : solve_detail::widened_bracket(search, first, seen_first);
  out.lo = search.at(ends.lo);
  out.hi = search.at(ends.hi);
  const std::string bracket = fmt::format("[{}, {}]", in.show(out.lo), in.show(out.hi));

  const AtEnds end = check_ends(in, spec, search, ends, bracket);
  out.at_bracket_end = end.at_bracket_end;
  Bracket last = ends;
  double answer = end.answer;
  if (!end.found) {
    solve_detail::bisect(search, last);
    answer = pick(search, last);
  }
  out.solution = search.at(answer);
  if (out.integer && !out.at_bracket_end && !(spec.goal == SolveGoal::Equal && end.found))
    out.beyond = search.at(spec.goal == SolveGoal::Max ? answer + 1 : answer - 1);

  // The condition at the solution, with derivations, in the record with the
  // input set there; and at the whole number beyond it.
  in.set_tracing(true);
  Record* r = search.point(answer);
  r->name = out.record;
  // The answer must be a record its domains allow (a plan's batch a whole
  // number of micro-batches for every replica): the search's points skip
  // them, and an answer that breaks one is no answer.
  try {
    in.validate(r);
  } catch (const Error& e) {
    Diagnostic d = e.diagnostic();
    d.message = fmt::format("the answer, {} = {}, is no value {} allows: {}", spec.input, in.show(out.solution),
                            out.record, e.diagnostic().message);
    // Its place is the statement's input, not where the record's own value
    // was written; the domain's statement stays beside it.
    std::erase_if(d.labels, [](const Label& l) { return l.primary; });
    if (spec.input_at.valid()) d.labels.insert(d.labels.begin(), Label{spec.input_at, "solved for here", true});
    d.help = "the search treats it as any number; its domain allows fewer: bracket the search or change the goal";
    throw Error(std::move(d));
  }
  out.at = r;
  const Search::Seen at = search.see(r, &out.trace);
  out.value = at.a;
  out.target = at.b;
  std::optional<Search::Seen> beyond;
  if (out.beyond) {
    beyond = search.see(out.beyond->q.v);
    out.beyond_value = beyond->a;
    out.beyond_target = beyond->b;
  }
  if (spec.goal == SolveGoal::Equal && !out.integer && !end.found) verify_root(in, search, ends, last, at, bracket);
  verify(in, spec, out, at, beyond ? &*beyond : nullptr);
  out.evaluations = search.evaluations;
  return out;
}

}  // namespace napkin
