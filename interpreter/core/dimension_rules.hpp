#pragma once
// The dimension rules of the arithmetic operators, written once: the
// evaluator (operators.cpp) reports a broken rule as its error, and the
// sweep compiler (sweep/sweep_compile.cpp) leaves an expression that
// breaks one to the evaluator, which says why.
#include <cmath>
#include <cstdlib>
#include <optional>

#include "dimension.hpp"
#include "grammar/ast.hpp"

namespace napkin {

enum class DimBreak {
  none,
  mismatch,            // + − and comparisons: both sides one dimension
  exponent_range,      // a product, quotient or power whose unit exponents leave their range
  exponent_not_plain,  // ^: the exponent has a dimension
  power_not_whole,     // ^: a quantity with a unit to a power not a whole number up to 16 (or not known)
};

struct DimOutcome {
  DimBreak broken = DimBreak::none;
  Dim dim;  // the result's when nothing is broken (a comparison's operands': its result is a boolean)
};

// `a op b` for quantities of dimensions `a` and `b`; for `^`, `exponent`
// is b's value when it is known.
inline DimOutcome binary_dim(ast::BinOp op, const Dim& a, const Dim& b, std::optional<double> exponent = {}) {
  using B = ast::BinOp;
  switch (op) {
    case B::Mul:
      if (!a.product_in_range(b, 1)) return {DimBreak::exponent_range, {}};
      return {DimBreak::none, a * b};
    case B::Div:
      if (!a.product_in_range(b, -1)) return {DimBreak::exponent_range, {}};
      return {DimBreak::none, a / b};
    case B::Pow: {
      if (!b.dimensionless()) return {DimBreak::exponent_not_plain, {}};
      if (a.dimensionless()) return {DimBreak::none, a};
      if (!exponent || *exponent != std::trunc(*exponent) || std::fabs(*exponent) > 16)
        return {DimBreak::power_not_whole, {}};
      const int n = static_cast<int>(*exponent);
      if (!a.power_in_range(n)) return {DimBreak::exponent_range, {}};
      return {DimBreak::none, a.pow(n)};
    }
    default:  // + − and the comparisons (and, or and `to` are no arithmetic: callers settle them first)
      if (a != b) return {DimBreak::mismatch, {}};
      return {DimBreak::none, a};
  }
}

}  // namespace napkin
