#include "sweep_program.hpp"

#include "interpreter/core/compare.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

namespace napkin {
namespace {

// False for NaN and ±inf, and cheap enough to run over every lane.
inline bool finite(double x) { return std::fabs(x) <= DBL_MAX; }

inline double one(Op op, double a, double b, double c) {
  switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return a / b;
    case Op::Pow: return std::pow(a, b);
    case Op::Neg: return -a;
    case Op::Abs: return std::fabs(a);
    case Op::Sqrt: return std::sqrt(a);
    case Op::Ceil: return std::ceil(a);
    case Op::Floor: return std::floor(a);
    case Op::Round: return std::round(a);
    case Op::Log2: return std::log2(a);
    case Op::Log10: return std::log10(a);
    case Op::Ln: return std::log(a);
    case Op::Exp: return std::exp(a);
    case Op::Max: return b > a ? b : a;
    case Op::Min: return b < a ? b : a;
    case Op::Eq: return same_magnitude(a, b) ? 1 : 0;
    case Op::Ne: return same_magnitude(a, b) ? 0 : 1;
    case Op::Lt: return a < b && !same_magnitude(a, b) ? 1 : 0;
    case Op::Le: return a <= b || same_magnitude(a, b) ? 1 : 0;
    case Op::Gt: return a > b && !same_magnitude(a, b) ? 1 : 0;
    case Op::Ge: return a >= b || same_magnitude(a, b) ? 1 : 0;
    case Op::And: return a != 0 && b != 0 ? 1 : 0;
    case Op::Or: return a != 0 || b != 0 ? 1 : 0;
    case Op::Not: return a != 0 ? 0 : 1;
    case Op::Select: return a != 0 ? b : c;
  }
  return 0;
}

// Whether the tree walker stops at this operation: the operations it checks
// with `finite`, a division by zero, the square root of a negative number.
inline bool stops(Op op, double a, double b, double r) {
  switch (op) {
    case Op::Div: return b == 0 || !finite(r);
    case Op::Sqrt: return a < 0;
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Pow: case Op::Ceil: case Op::Floor:
    case Op::Round: case Op::Log2: case Op::Log10: case Op::Ln: case Op::Exp:
      return !finite(r);
    default: return false;
  }
}

template <Op op>
void lanes(std::size_t n, double* d, const double* a, const double* b, const double* c, std::uint8_t* bad) {
  for (std::size_t l = 0; l < n; ++l) d[l] = one(op, a[l], b[l], c[l]);
  if constexpr (op == Op::Div) {
    for (std::size_t l = 0; l < n; ++l) bad[l] |= static_cast<std::uint8_t>((b[l] == 0) | !finite(d[l]));
  } else if constexpr (op == Op::Sqrt) {
    for (std::size_t l = 0; l < n; ++l) bad[l] |= static_cast<std::uint8_t>(a[l] < 0);
  } else if constexpr (op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Pow || op == Op::Ceil ||
                       op == Op::Floor || op == Op::Round || op == Op::Log2 || op == Op::Log10 || op == Op::Ln ||
                       op == Op::Exp) {
    for (std::size_t l = 0; l < n; ++l) bad[l] |= static_cast<std::uint8_t>(!finite(d[l]));
  }
}

}  // namespace

double apply(Op op, double a, double b, double c, bool& bad) {
  const double r = one(op, a, b, c);
  bad = stops(op, a, b, r);
  return r;
}

void SweepProgram::run(std::size_t n, const double* const* in, double* const* out, std::uint8_t* bad,
                       std::vector<double>& regs) const {
  constexpr std::size_t L = kLanes;
  if (regs.size() != registers * L) {
    regs.assign(registers * L, 0.0);
    for (const auto& [r, v] : constants) std::fill_n(regs.begin() + static_cast<std::ptrdiff_t>(r * L), L, v);
  }
  double* R = regs.data();
  std::fill_n(bad, n, std::uint8_t{0});
  for (std::size_t k = 0; k < inputs.size(); ++k) std::copy_n(in[k], n, R + inputs[k] * L);
  for (const Instr& i : code) {
    double* d = R + i.dst * L;
    const double* a = R + i.a * L;
    const double* b = R + i.b * L;
    const double* c = R + i.c * L;
    switch (i.op) {
#define NAPKIN_LANES(name) \
  case Op::name: lanes<Op::name>(n, d, a, b, c, bad); break;
      NAPKIN_LANES(Add) NAPKIN_LANES(Sub) NAPKIN_LANES(Mul) NAPKIN_LANES(Div) NAPKIN_LANES(Pow)
      NAPKIN_LANES(Neg) NAPKIN_LANES(Abs) NAPKIN_LANES(Sqrt) NAPKIN_LANES(Ceil) NAPKIN_LANES(Floor)
      NAPKIN_LANES(Round) NAPKIN_LANES(Log2) NAPKIN_LANES(Log10) NAPKIN_LANES(Ln) NAPKIN_LANES(Exp)
      NAPKIN_LANES(Max) NAPKIN_LANES(Min) NAPKIN_LANES(Eq) NAPKIN_LANES(Ne) NAPKIN_LANES(Lt)
      NAPKIN_LANES(Le) NAPKIN_LANES(Gt) NAPKIN_LANES(Ge) NAPKIN_LANES(And) NAPKIN_LANES(Or)
      NAPKIN_LANES(Not) NAPKIN_LANES(Select)
#undef NAPKIN_LANES
    }
  }
  for (std::size_t j = 0; j < outputs.size(); ++j) std::copy_n(R + outputs[j] * L, n, out[j]);
}

}  // namespace napkin
