#pragma once
// A sweep's formulas as a straight-line program over doubles. Each
// instruction reads and writes registers of kLanes points at once, so the
// per-point cost is a few floating-point operations, not a tree walk.
// Dimensions, kinds and names were settled when it was compiled
// (sweep_compile.hpp); what can only be known per point, an operation that
// the tree walker would stop at (a division by zero, a result that is not
// finite, a square root of a negative number), marks the point for the
// tree walker instead.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace napkin {

enum class Op : std::uint8_t {
  Add, Sub, Mul, Div, Pow, Neg, Abs, Sqrt, Ceil, Floor, Round, Log2, Log10, Ln, Exp,
  Max, Min,                  // b chosen over a only when strictly greater (smaller): max(a, b, ...) in order
  Eq, Ne, Lt, Le, Gt, Ge,    // 1 or 0; equal within four units in the last place, like the tree walker
  And, Or, Not,              // on 1 and 0
  Select,                    // a ? b : c
};

struct Instr {
  Op op;
  std::uint32_t dst = 0, a = 0, b = 0, c = 0;
};

// The operation on one point, for folding constants when the program is
// compiled; `bad` is set where the tree walker would stop with an error.
double apply(Op op, double a, double b, double c, bool& bad);

struct SweepProgram {
  static constexpr std::size_t kLanes = 256;
  std::uint32_t registers = 0;
  std::vector<std::pair<std::uint32_t, double>> constants;
  std::vector<std::uint32_t> inputs;   // the register of each swept input
  std::vector<Instr> code;
  std::vector<std::uint32_t> outputs;  // the register of each column

  // Evaluates n ≤ kLanes points: in[k][l] is input k at point l; writes
  // out[j][l] and bad[l] (1: this point needs the tree walker). `regs` is
  // scratch space the caller keeps between calls.
  void run(std::size_t n, const double* const* in, double* const* out, std::uint8_t* bad,
           std::vector<double>& regs) const;
};

}  // namespace napkin
