#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "interpreter/sweep/sweep.hpp"

namespace napkin {
namespace {

std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string shown(const Interpreter& in, const SweepCell& c) {
  if (!c.ok) return "needs " + c.needs;
  if (c.value.kind == Value::Kind::String) return *c.value.s;  // a table cell needs no quotes
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

}  // namespace

// Two passes over the cells, one for the column widths and one to write
// them, so that a large sweep's table never holds every cell's text.
std::string sweep_text(const Interpreter& in, const SweepResult& s) {
  const auto h = header(s);
  const std::size_t rows = s.row_count();
  std::vector<std::size_t> w(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) w[i] = width(h[i]);
  std::vector<bool> numeric(h.size(), true);
  auto read = readers(s);
  for (std::size_t i = 0; i < h.size(); ++i)
    for (std::size_t r = 0; r < rows; ++r) {
      const SweepCell& c = read[i](r);
      w[i] = std::max(w[i], width(shown(in, c)));
      if (c.ok && c.value.kind != Value::Kind::Quantity) numeric[i] = false;
    }
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "sweep {}\n", s.title());
  std::string line;
  auto pad = [&](const std::string& t, std::size_t i) {
    const std::string fill(w[i] - width(t), ' ');
    line += "  ";
    line += numeric[i] ? fill + t : t + fill;
  };
  auto end_line = [&] {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    line += '\n';
    out.append(line.data(), line.data() + line.size());
    line.clear();
  };
  for (std::size_t i = 0; i < h.size(); ++i) pad(h[i], i);
  end_line();
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t i = 0; i < h.size(); ++i) pad(shown(in, read[i](r)), i);
    end_line();
  }
  return fmt::to_string(out);
}

std::string sweep_markdown(const Interpreter& in, const SweepResult& s) {
  const auto h = header(s);
  std::string out = fmt::format("**sweep {}**\n\n|", s.title());
  for (const auto& c : h) out += " " + c + " |";
  out += "\n|";
  for (std::size_t i = 0; i < h.size(); ++i) out += " ---: |";
  out += "\n";
  auto read = readers(s);
  for (std::size_t r = 0; r < s.row_count(); ++r) {
    out += "|";
    for (std::size_t i = 0; i < h.size(); ++i) out += " " + shown(in, read[i](r)) + " |";
    out += "\n";
  }
  return out;
}

std::string sweep_csv(const Interpreter& in, const SweepResult& s) {
  // Machine-readable: magnitudes in SI base units, the unit in the header.
  const auto h = header(s);
  fmt::memory_buffer out;
  out.reserve(s.row_count() * h.size() * 20);  // a number is at most 24 characters, most are under 20
  auto it = std::back_inserter(out);
  auto read = readers(s);
  for (std::size_t i = 0; i < h.size(); ++i) {
    std::string name = h[i];
    if (s.row_count() > 0) {
      const SweepCell& c = read[i](0);
      if (c.ok && c.value.kind == Value::Kind::Quantity) {
        const std::string u = in.units().format(c.value.q.dim);
        if (!u.empty()) name += " (" + u + ")";
      }
    }
    fmt::format_to(it, "{}{}", i ? "," : "", name);
  }
  out.push_back('\n');
  std::string t;
  for (std::size_t r = 0; r < s.row_count(); ++r) {
    for (std::size_t i = 0; i < h.size(); ++i) {
      if (i) out.push_back(',');
      const SweepCell& c = read[i](r);
      if (c.ok && c.value.kind == Value::Kind::Quantity) {
        fmt::format_to(it, FMT_COMPILE("{}"), c.value.q.v);
        continue;
      }
      if (!c.ok)
        t.clear();
      else if (c.value.kind == Value::Kind::String)
        t = *c.value.s;
      else
        t = in.show(c.value);
      if (t.find_first_of(",\"\n") != std::string::npos) {
        std::string q = "\"";
        for (char ch : t) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        t = q + "\"";
      }
      out.append(t.data(), t.data() + t.size());
    }
    out.push_back('\n');
  }
  return fmt::to_string(out);
}

}  // namespace napkin
