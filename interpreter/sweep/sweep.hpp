#pragma once
// Sweeps: a record evaluated over every combination of the values of one or
// two of its inputs, with chosen fields shown as a table.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/core/interpreter.hpp"
#include "interpreter/core/sample_buffer.hpp"

namespace napkin {

struct SweepCell {
  bool ok = true;
  Value value;
  std::string needs;  // the missing input, when !ok
  Code error = Code::internal;  // when !ok and `needs` is empty: the error at this point ("error[E0400]")
};

// One column of a sweep's table. A column whose cells are all numbers (or
// all true/false) of one dimension, display unit and note keeps only the
// numbers, 8 bytes a cell; the first cell that differs turns it into a
// column of whole cells.
class SweepColumn {
 public:
  void push(const SweepCell& c);
  // Appends numbers to a compact column of this kind, dimension, display
  // and note (the compiled sweep's cells, which all share them).
  void push_numbers(const Value& like, const double* v, std::size_t n);
  SweepCell at(std::size_t row) const;
  std::size_t size() const { return compact_ ? numbers_.size() : cells_.size(); }
  void reserve(std::size_t n);
  bool compact() const { return compact_; }

  // Reads a column cell by cell without copying a value's shared parts
  // for each: the cell it returns is valid until the next call.
  class Reader {
   public:
    explicit Reader(const SweepColumn& c) : c_(c) {
      if (c.compact_) scratch_.value = c.like_;
    }
    const SweepCell& operator()(std::size_t row) {
      if (!c_.compact_) return c_.cells_[row];
      if (scratch_.value.kind == Value::Kind::Bool)
        scratch_.value.b = c_.numbers_[row] != 0;
      else
        scratch_.value.q.v = c_.numbers_[row];
      return scratch_;
    }

   private:
    const SweepColumn& c_;
    SweepCell scratch_;
  };

 private:
  bool fits(const Value& v) const;
  void spill();
  bool compact_ = true;
  Value like_;  // kind, dimension, display and note of every cell, while compact
  // A million-point sweep's column is 8 MB: held as a range's samples are,
  // in huge pages, never zero-filled (core/sample_buffer.hpp).
  SampleVector numbers_;
  std::vector<SweepCell> cells_;
};

struct SweepResult {
  const ast::Stmt* stmt = nullptr;
  std::string target;                // "decode"
  std::vector<std::string> inputs;   // "batch", "context"
  std::vector<std::string> columns;  // "tokens_per_s", ...
  std::vector<SweepColumn> table;    // inputs first, then columns
  bool compiled = false;             // the columns came from a compiled program (sweep_compile.hpp)
  // Points whose value is an error (a division by zero at b = 2): each such
  // cell shows its code and the rest of the table stands; the first error,
  // with a note naming its point and the sweep, is kept to report.
  std::size_t failed_points = 0;
  std::optional<Diagnostic> first_error;
  std::string title() const;         // "decode over batch, context"
  std::size_t row_count() const { return table.empty() ? 0 : table[0].size(); }
  std::size_t width() const { return table.size(); }
  SweepCell cell(std::size_t row, std::size_t col) const { return table[col].at(row); }
  // Every cell, row by row: for a small sweep (a plot's), never a large one.
  std::vector<std::vector<SweepCell>> rows() const;
};

// The largest number of points one sweep may have. A compiled sweep keeps
// 8 bytes a cell: exercise 1's decode scenario over a million points, two
// inputs and two columns, takes about 40 MB. A sweep the compiler cannot
// take keeps the shell of each point's record as well (about 150 bytes).
inline constexpr std::size_t kMaxSweepPoints = 1'000'000;

// A range's samples stay in its cell, and a point of ranges costs each
// range's samples in time as well: a sweep's cells may hold this many
// samples together (80 MB), 1,000 points of 10,000-sample ranges, say.
inline constexpr std::size_t kMaxSweepSamples = 10'000'000;

// `compile`: false evaluates every point with the tree walker, as the
// compiled program's tests compare against.
SweepResult run_sweep(Interpreter& in, const ast::Stmt& sweep, bool compile = true);
std::vector<SweepResult> run_sweeps(Interpreter& in, Module* m, bool compile = true);
// The first error at one of a sweep's points, thrown (for what cannot show
// part of a table: a plot); or rendered for stderr, with how many other
// points failed ("" when none did).
void throw_point_error(const SweepResult& s);
std::string point_error_text(const SweepResult& s);

}  // namespace napkin
