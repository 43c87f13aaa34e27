#include <fmt/format.h>

#include <algorithm>

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

}  // namespace

std::string sweep_text(const Interpreter& in, const SweepResult& s) {
  const auto h = header(s);
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> w(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) w[i] = width(h[i]);
  std::vector<bool> numeric(h.size(), true);
  for (const auto& row : s.rows) {
    std::vector<std::string> line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line.push_back(shown(in, row[i]));
      w[i] = std::max(w[i], width(line.back()));
      if (row[i].ok && row[i].value.kind != Value::Kind::Quantity) numeric[i] = false;
    }
    cells.push_back(std::move(line));
  }
  auto pad = [&](const std::string& t, std::size_t i, bool right) {
    const std::string fill(w[i] - width(t), ' ');
    return right ? fill + t : t + fill;
  };
  std::string out = fmt::format("sweep {}\n", s.title());
  std::string line;
  for (std::size_t i = 0; i < h.size(); ++i) line += (i ? "  " : "  ") + pad(h[i], i, numeric[i]);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  out += line + "\n";
  for (const auto& row : cells) {
    line.clear();
    for (std::size_t i = 0; i < row.size(); ++i) line += "  " + pad(row[i], i, numeric[i]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string sweep_markdown(const Interpreter& in, const SweepResult& s) {
  const auto h = header(s);
  std::string out = fmt::format("**sweep {}**\n\n|", s.title());
  for (const auto& c : h) out += " " + c + " |";
  out += "\n|";
  for (std::size_t i = 0; i < h.size(); ++i) out += i < s.inputs.size() ? " ---: |" : " ---: |";
  out += "\n";
  for (const auto& row : s.rows) {
    out += "|";
    for (const auto& c : row) out += " " + shown(in, c) + " |";
    out += "\n";
  }
  return out;
}

std::string sweep_csv(const Interpreter& in, const SweepResult& s) {
  // Machine-readable: magnitudes in SI base units, the unit in the header.
  const auto h = header(s);
  std::string out;
  for (std::size_t i = 0; i < h.size(); ++i) {
    std::string name = h[i];
    if (!s.rows.empty() && s.rows[0][i].ok && s.rows[0][i].value.kind == Value::Kind::Quantity) {
      const std::string u = in.units().format(s.rows[0][i].value.q.dim);
      if (!u.empty()) name += " (" + u + ")";
    }
    out += (i ? "," : "") + name;
  }
  out += "\n";
  for (const auto& row : s.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      const SweepCell& c = row[i];
      std::string t;
      if (!c.ok)
        t = "";
      else if (c.value.kind == Value::Kind::Quantity)
        t = fmt::format("{}", c.value.q.v);
      else if (c.value.kind == Value::Kind::String)
        t = *c.value.s;
      else
        t = in.show(c.value);
      if (t.find_first_of(",\"\n") != std::string::npos) {
        std::string q = "\"";
        for (char ch : t) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        t = q + "\"";
      }
      out += (i ? "," : "") + t;
    }
    out += "\n";
  }
  return out;
}

}  // namespace napkin
