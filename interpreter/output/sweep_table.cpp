#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "grammar/text_escape.hpp"
#include "interpreter/core/samples.hpp"
#include "interpreter/sweep/sweep.hpp"
#include "escape.hpp"
#include "output.hpp"
#include "grammar/text_width.hpp"

namespace napkin {
namespace {

std::string shown(const Interpreter& in, const SweepCell& c) {
  if (!c.ok && c.needs.empty()) return error_tag(c.error);  // the point failed
  if (!c.ok) return "needs " + c.needs;
  if (c.value.kind == Value::Kind::String) return visible_controls(c.value.str(), false);  // a table cell needs no quotes, and holds one line
  return in.show(c.value);
}

std::vector<std::string> header(const SweepResult& s) {
  std::vector<std::string> h = s.inputs;
  h.insert(h.end(), s.columns.begin(), s.columns.end());
  return h;
}

std::vector<SweepColumn::Reader> readers(const SweepResult& s) {
  std::vector<SweepColumn::Reader> r;
  r.reserve(s.width());
  for (const auto& col : s.table) r.emplace_back(col);
  return r;
}

// Every cell is formatted once, into one buffer of text and an offset per
// cell, so the widths are known before a line is written: a million-point
// sweep's table holds its text once, not a string per cell.
struct CellTexts {
  std::string text;
  std::vector<std::size_t> ends;     // cell i is text[ends[i-1], ends[i])
  std::vector<std::uint32_t> width;  // cell i's width in characters
  std::string_view at(std::size_t i) const {
    const std::size_t from = i ? ends[i - 1] : 0;
    return std::string_view(text).substr(from, ends[i] - from);
  }
};

// The cells row by row, and each column's width and whether it is numeric.
CellTexts format_cells(const Interpreter& in, const SweepResult& s, std::vector<std::size_t>* widths,
                       std::vector<bool>* numeric) {
  CellTexts t;
  const std::size_t rows = s.row_count(), cols = s.width();
  t.ends.reserve(rows * cols);
  t.width.reserve(rows * cols);
  t.text.reserve(rows * cols * 14);
  auto read = readers(s);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < cols; ++i) {
      const SweepCell& c = read[i](r);
      const std::string cell = shown(in, c);
      t.text += cell;
      t.ends.push_back(t.text.size());
      const std::size_t cw = code_points(cell);
      t.width.push_back(static_cast<std::uint32_t>(std::min<std::size_t>(cw, UINT32_MAX)));
      if (widths) (*widths)[i] = std::max((*widths)[i], cw);
      if (numeric && c.ok && c.value.kind != Value::Kind::Quantity) (*numeric)[i] = false;
    }
  return t;
}

}  // namespace

std::string sweep_text(const Interpreter& in, const SweepResult& s) {
  const auto h = header(s);
  std::vector<std::size_t> w(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) w[i] = code_points(h[i]);
  std::vector<bool> numeric(h.size(), true);
  const CellTexts cells = format_cells(in, s, &w, &numeric);
  std::string out = fmt::format("sweep {}\n", s.title());
  std::size_t line_width = 0;
  for (std::size_t x : w) line_width += x + 2;
  out.reserve(out.size() + (s.row_count() + 1) * (line_width + 1));
  auto pad = [&](std::string_view t, std::size_t tw, std::size_t i) {
    const std::size_t fill = w[i] - tw;
    out += "  ";
    if (numeric[i]) out.append(fill, ' ');
    out += t;
    if (!numeric[i]) out.append(fill, ' ');
  };
  auto end_line = [&] {
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += '\n';
  };
  for (std::size_t i = 0; i < h.size(); ++i) pad(h[i], code_points(h[i]), i);
  end_line();
  for (std::size_t r = 0, k = 0; r < s.row_count(); ++r) {
    for (std::size_t i = 0; i < h.size(); ++i, ++k) pad(cells.at(k), cells.width[k], i);
    end_line();
  }
  return out;
}

std::string sweep_markdown(const Interpreter& in, const SweepResult& s) {
  const auto h = header(s);
  // The title and the header are names, which the grammar keeps to letters,
  // digits, `_` and `.`; a string in a cell is the file's text, escaped.
  std::string out = fmt::format("**sweep {}**\n\n|", s.title());
  for (const auto& c : h) out += " " + c + " |";
  out += "\n|";
  for (std::size_t i = 0; i < h.size(); ++i) out += " ---: |";
  out += "\n";
  auto read = readers(s);
  for (std::size_t r = 0; r < s.row_count(); ++r) {
    out += "|";
    for (std::size_t i = 0; i < h.size(); ++i) {
      out += ' ';
      const SweepCell& c = read[i](r);
      const bool text = c.ok && c.value.kind != Value::Kind::Quantity && c.value.kind != Value::Kind::Bool;
      out += text ? markdown_cell(markdown_text(shown(in, c))) : shown(in, c);
      out += " |";
    }
    out += "\n";
  }
  return out;
}

void limit_sweep_points(const SweepResult& s, std::size_t limit, const char* format) {
  if (s.row_count() <= limit) return;
  fail(codes::size_limit, s.stmt ? s.stmt->span : Span{},
       fmt::format("sweep {} has {} points, and {} shows at most {}", s.title(), format_exact(static_cast<double>(s.row_count())),
                   format, format_exact(static_cast<double>(limit))),
       "`napkin sweep FILE --format csv` (or the text table) writes every point; or sweep fewer values");
}

std::string sweep_csv(const Interpreter& in, const SweepResult& s) {
  // Machine-readable: magnitudes in SI base units, the unit in the header.
  // A column that holds a range gives its median, then two more columns
  // with its 5th and 95th percentiles (a plain number repeats there).
  const auto h = header(s);
  fmt::memory_buffer out;
  out.reserve(s.row_count() * h.size() * 20);  // a number is at most 24 characters, most are under 20
  auto it = std::back_inserter(out);
  auto read = readers(s);
  std::vector<bool> band(h.size(), false);
  for (std::size_t i = 0; i < h.size(); ++i)
    if (!s.table[i].compact())
      for (std::size_t r = 0; r < s.row_count() && !band[i]; ++r) band[i] = is_range(read[i](r).value);
  for (std::size_t i = 0; i < h.size(); ++i) {
    std::string unit;
    if (s.row_count() > 0) {
      const SweepCell& c = read[i](0);
      if (c.ok && c.value.kind == Value::Kind::Quantity) {
        const std::string u = in.units().format(c.value.q.dim);
        if (!u.empty()) unit = " (" + u + ")";
      }
    }
    fmt::format_to(it, "{}{}{}", i ? "," : "", h[i], unit);
    if (band[i]) fmt::format_to(it, ",{} p5{},{} p95{}", h[i], unit, h[i], unit);
  }
  out.push_back('\n');
  std::string t;
  for (std::size_t r = 0; r < s.row_count(); ++r) {
    for (std::size_t i = 0; i < h.size(); ++i) {
      if (i) out.push_back(',');
      const SweepCell& c = read[i](r);
      if (c.ok && c.value.kind == Value::Kind::Quantity) {
        if (is_range(c.value)) {
          const RangeSummary& q = range_summary(c.value);
          fmt::format_to(it, FMT_COMPILE("{},{},{}"), q.p50, q.p5, q.p95);
        } else if (band[i]) {
          fmt::format_to(it, FMT_COMPILE("{},{},{}"), unsigned_zero(c.value.q.v), unsigned_zero(c.value.q.v), unsigned_zero(c.value.q.v));
        } else {
          fmt::format_to(it, FMT_COMPILE("{}"), unsigned_zero(c.value.q.v));
        }
        continue;
      }
      if (!c.ok)
        t.clear();
      else if (c.value.kind == Value::Kind::String)
        t = c.value.str();
      else
        t = in.show(c.value);
      if (t.find_first_of(",\"\n") != std::string::npos) {
        std::string q = "\"";
        for (char ch : t) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        t = q + "\"";
      }
      out.append(t.data(), t.data() + t.size());
      if (band[i]) out.append(std::string_view(",,"));
    }
    out.push_back('\n');
  }
  return fmt::to_string(out);
}

}  // namespace napkin
