#pragma once
// Sweeps: a record evaluated over every combination of the values of one or
// two of its inputs, with chosen fields shown as a table.
#include <string>
#include <vector>

#include "interpreter/core/interpreter.hpp"

namespace napkin {

struct SweepCell {
  bool ok = true;
  Value value;
  std::string needs;  // the missing input, when !ok
};

struct SweepResult {
  const ast::Stmt* stmt = nullptr;
  std::string target;                // "decode"
  std::vector<std::string> inputs;   // "batch", "context"
  std::vector<std::string> columns;  // "tokens_per_s", ...
  std::vector<std::vector<SweepCell>> rows;  // inputs first, then columns
  std::string title() const;         // "decode over batch, context"
};

// The largest number of points one sweep may have. Every point keeps its
// row, and the shell of its record, until the table is printed: about 1 KB
// a point for exercise 1's decode scenario, so a million points is about
// 1 GB.
inline constexpr std::size_t kMaxSweepPoints = 1'000'000;

SweepResult run_sweep(Interpreter& in, const ast::Stmt& sweep);
std::vector<SweepResult> run_sweeps(Interpreter& in, Module* m);

// Output formats for a sweep's table.
std::string sweep_text(const Interpreter& in, const SweepResult& s);
std::string sweep_markdown(const Interpreter& in, const SweepResult& s);
std::string sweep_csv(const Interpreter& in, const SweepResult& s);

}  // namespace napkin
