#pragma once
namespace napkin {
class Interpreter;
// min, max, abs, sqrt, ceil, floor, round, log2, log10, ln, exp, sum, len.
void register_builtins(Interpreter& in);
}  // namespace napkin
