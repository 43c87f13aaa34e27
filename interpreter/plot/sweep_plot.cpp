#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_map>

#include "interpreter/core/samples.hpp"
#include "plot.hpp"
#include "svg.hpp"

namespace napkin {
namespace {

// How an axis shows its values: `ktoken/s` and the size of one of it.
struct Scale {
  std::string unit;
  double factor = 1;
};

// The unit `show` picks for the largest value, so ticks read like the tables.
Scale scale_for(const Interpreter& in, const Value& largest) {
  const std::string shown = in.show(largest);
  if (!shown.empty() && shown.back() == '%') return {"%", 0.01};
  const std::size_t space = shown.find(' ');
  if (space == std::string::npos || largest.q.v == 0) return {"", 1};
  std::string digits;
  for (char ch : shown.substr(0, space))
    if (ch != ',') digits += ch;
  const double n = std::strtod(digits.c_str(), nullptr);
  if (n == 0) return {shown.substr(space + 1), 1};
  // The factor is a power of ten or a unit of time; `show` rounded the number.
  const double raw = std::fabs(largest.q.v / n);
  double best = 1;
  std::vector<double> candidates{60, 3600, 86400, 365 * 86400.0};
  for (int e = -24; e <= 24; ++e) candidates.push_back(std::pow(10.0, e));
  for (double cand : candidates)
    if (std::fabs(std::log(raw / cand)) < std::fabs(std::log(raw / best))) best = cand;
  // Minutes and hours make poor ticks over several decades: use seconds.
  if (best == 60 || best == 3600 || best == 86400 || best == 365 * 86400.0) return {"s", 1};
  return {shown.substr(space + 1), best};
}

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> pts;  // (x, y) in SI; missing cells left out; a range's median
  // Where a cell is a range, its 5th and 95th percentiles at x: a band
  // drawn behind the line.
  std::vector<std::array<double, 3>> band;
};

struct Panel {
  Dim dim;
  std::vector<std::size_t> columns;
  std::vector<Series> series;
};

using Rows = std::vector<std::vector<SweepCell>>;

bool numeric(const Rows& rows, std::size_t col) {
  bool any = false;
  for (const auto& row : rows) {
    if (!row[col].ok) continue;
    if (row[col].value.kind != Value::Kind::Quantity) return false;
    any = true;
  }
  return any;
}

std::string text_of(const Interpreter& in, const SweepCell& c) {
  if (!c.ok && c.needs.empty()) return error_tag(c.error);
  if (!c.ok) return "needs " + c.needs;
  return c.value.kind == Value::Kind::String ? c.value.str() : in.show(c.value);
}

svg::Axis make_axis(const std::vector<double>& values, double from, double to, bool& log, std::vector<double>& ticks) {
  double lo = *std::min_element(values.begin(), values.end());
  double hi = *std::max_element(values.begin(), values.end());
  log = lo > 0 && hi / lo > 10;
  if (log) {
    auto [a, b] = svg::decade_range(lo, hi);
    ticks = svg::decade_ticks(a, b);
    return {a, b, true, from, to};
  }
  auto [a, b] = svg::nice_range(lo, hi);
  ticks = svg::nice_ticks(a, b);
  return {a, b, false, from, to};
}

// Refuses a sweep that cannot be drawn: no rows, a first input that is
// not a number, or more points than a reader can see.
void check_plottable(const SweepResult& s) {
  const auto first_numeric = [&] {
    bool any = false;
    for (std::size_t r = 0; r < s.row_count(); ++r) {
      const SweepCell c = s.cell(r, 0);
      if (!c.ok) continue;
      if (c.value.kind != Value::Kind::Quantity) return false;
      any = true;
    }
    return any;
  };
  if (s.row_count() == 0 || !first_numeric())
    fail(codes::cannot_plot, s.stmt ? s.stmt->span : Span{},
         fmt::format("sweep {}: its first input, {}, is not a number to plot along", s.title(), s.inputs[0]),
         "put a numeric input first: `sweep R over NUMBER in [...], OTHER in [...]`");
  // Every point is a circle in the SVG: past this the picture is megabytes
  // of ink no one can read.
  if (s.row_count() > kMaxPlotPoints)
    fail(codes::size_limit, s.stmt ? s.stmt->span : Span{},
         fmt::format("sweep {} has {} points, and a plot draws at most {}", s.title(), s.row_count(), kMaxPlotPoints),
         "plot a coarser sweep (fewer values per input)");
}

// What the picture holds: panels of lines (one per dimension), text strips,
// and the other inputs' values that tell the lines apart.
struct Content {
  std::vector<Panel> panels;
  std::vector<std::size_t> strips;  // text columns
  std::vector<std::string> keys;    // the other inputs' values, in row order
  std::vector<std::size_t> row_key; // index into keys, per row
};

void sort_columns(const SweepResult& s, const Rows& rows, Content& out) {
  const std::size_t nin = s.inputs.size();
  for (std::size_t c = nin; c < rows[0].size(); ++c) {
    if (!numeric(rows, c)) {
      out.strips.push_back(c);
      continue;
    }
    Dim d;
    for (const auto& row : rows)
      if (row[c].ok) d = row[c].value.q.dim;
    auto it = std::find_if(out.panels.begin(), out.panels.end(), [&](const Panel& p) { return p.dim == d; });
    if (it == out.panels.end()) {
      out.panels.push_back({d, {}, {}});
      it = out.panels.end() - 1;
    }
    it->columns.push_back(c);
  }
  if (out.panels.empty())
    fail(codes::cannot_plot, s.stmt ? s.stmt->span : Span{}, fmt::format("sweep {} shows no numeric column to plot", s.title()),
         "show a number: `... show tokens_per_s`");
}

// Each row's key is worked out once: a pass over the rows per column, not
// per column and key.
void key_rows(const Interpreter& in, const SweepResult& s, const Rows& rows, Content& out) {
  const std::size_t nin = s.inputs.size();
  auto key_of = [&](const std::vector<SweepCell>& row) {
    std::string k;
    for (std::size_t i = 1; i < nin; ++i) k += fmt::format("{}{} = {}", i > 1 ? ", " : "", s.inputs[i], text_of(in, row[i]));
    return k;
  };
  std::unordered_map<std::string, std::size_t> seen;
  out.row_key.reserve(rows.size());
  for (const auto& row : rows) {
    std::string k = key_of(row);
    auto [it, added] = seen.emplace(k, out.keys.size());
    if (added) out.keys.push_back(std::move(k));
    out.row_key.push_back(it->second);
  }
}

// Lines: one per shown column and per value of the other inputs.
void fill_series(const SweepResult& s, const Rows& rows, Content& out) {
  const std::size_t nin = s.inputs.size();
  for (auto& p : out.panels)
    for (std::size_t c : p.columns) {
      std::vector<Series> by_key;
      for (const auto& k : out.keys) by_key.push_back(Series{s.columns[c - nin] + (k.empty() ? "" : " (" + k + ")"), {}});
      for (std::size_t r = 0; r < rows.size(); ++r) {
        const auto& row = rows[r];
        if (!row[c].ok || !row[0].ok) continue;
        Series& ser = by_key[out.row_key[r]];
        if (is_range(row[c].value)) {
          const RangeSummary& q = range_summary(row[c].value);
          ser.pts.emplace_back(row[0].value.q.v, q.p50);
          ser.band.push_back({row[0].value.q.v, q.p5, q.p95});
        } else {
          ser.pts.emplace_back(row[0].value.q.v, row[c].value.q.v);
        }
      }
      for (auto& ser : by_key) p.series.push_back(std::move(ser));
    }
}

// Stacked panels sharing the x axis, text strips below them.
struct Frame {
  static constexpr double left = 96, right = 660, gap = 64, top = 70, strip_h = 24;
  double panel_h = 0;
  double width = 0, height = 0;
  double panels_bottom = 0, strips_top = 0, strip_step = strip_h + 24;
};

Frame frame_for(const Content& c) {
  Frame f;
  f.panel_h = c.panels.size() <= 2 ? 210 : 160;
  double legend_w = 150;
  for (const auto& p : c.panels)
    for (const auto& ser : p.series) legend_w = std::max(legend_w, 30 + svg::text_width(ser.name, 12));
  f.width = std::max(900.0, Frame::right + 24 + legend_w + 10);
  f.panels_bottom = Frame::top + static_cast<double>(c.panels.size()) * (f.panel_h + Frame::gap) - Frame::gap;
  f.strips_top = f.panels_bottom + 56;
  f.height = f.strips_top + static_cast<double>(c.strips.size() * c.keys.size()) * f.strip_step + 24;
  return f;
}

// The shared x axis, in the unit `show` would pick for its largest value.
struct XAxis {
  Scale scale;
  svg::Axis axis;
  std::vector<double> ticks;
  std::string title;
};

XAxis x_axis(const Interpreter& in, const SweepResult& s, const Rows& rows) {
  XAxis out;
  std::vector<double> xs;
  for (const auto& row : rows)
    if (row[0].ok) xs.push_back(row[0].value.q.v);
  Value xmax = rows[0][0].value;
  for (const auto& row : rows)
    if (std::fabs(row[0].value.q.v) > std::fabs(xmax.q.v)) xmax = row[0].value;
  out.scale = scale_for(in, xmax);
  std::vector<double> xd;
  for (double v : xs) xd.push_back(v / out.scale.factor);
  bool xlog = false;
  out.axis = make_axis(xd, Frame::left, Frame::right, xlog, out.ticks);
  std::vector<double> distinct = xd;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  // A handful of values on a log axis: tick each one (1, 2, 4, … 256).
  if (xlog && distinct.size() <= 12) {
    out.ticks = distinct;
    out.axis.lo = distinct.front() / 1.25;
    out.axis.hi = distinct.back() * 1.25;
  }
  out.title = s.inputs[0] + (out.scale.unit.empty() ? "" : " (" + out.scale.unit + ")");
  return out;
}

// The unit of a panel's y axis: from its largest value, keeping a display
// unit the file asked for (`-> ms`).
Scale y_scale(const Interpreter& in, const Panel& p, const Rows& rows) {
  Value ymax = Value::quantity(0, p.dim);
  for (const auto& ser : p.series) {
    for (const auto& pt : ser.pts)
      if (std::fabs(pt.second) >= std::fabs(ymax.q.v)) ymax.q.v = pt.second;
    for (const auto& b : ser.band)
      if (std::fabs(b[2]) >= std::fabs(ymax.q.v)) ymax.q.v = b[2];
  }
  for (const auto& row : rows)
    for (std::size_t c : p.columns)
      if (row[c].ok && row[c].value.display && row[c].value.q.v == ymax.q.v) ymax = row[c].value;
  return scale_for(in, ymax);
}

void draw_grid(svg::Canvas& cv, const svg::Axis& x, const std::vector<double>& xticks, const svg::Axis& y,
               const std::vector<double>& yticks, bool ylog, double t, double b) {
  const double left = Frame::left, right = Frame::right;
  for (double v : yticks) {
    cv.line(left, y.at(v), right, y.at(v), "stroke=\"#e4e4e4\"");
    cv.line(left - 6, y.at(v), left, y.at(v), "stroke=\"#333\"");
    cv.text(left - 10, y.at(v) + 4, svg::number(v), "fill=\"#333\"", "end");
  }
  if (ylog)
    for (double v : svg::minor_ticks(y.lo, y.hi)) cv.line(left - 3, y.at(v), left, y.at(v), "stroke=\"#999\"");
  for (double v : xticks) {
    cv.line(x.at(v), t, x.at(v), b, "stroke=\"#f0f0f0\"");
    cv.line(x.at(v), b, x.at(v), b + 6, "stroke=\"#333\"");
    cv.text(x.at(v), b + 20, svg::number(v), "fill=\"#333\"", "middle");
  }
}

void draw_series(svg::Canvas& cv, const Series& ser, const std::string& col, const XAxis& x, const svg::Axis& y,
                 const Scale& ys, double ly) {
  const double right = Frame::right;
  std::vector<std::pair<double, double>> px;
  for (const auto& [vx, vy] : ser.pts) px.emplace_back(x.axis.at(vx / x.scale.factor), y.at(vy / ys.factor));
  if (!ser.band.empty()) {  // the 90% interval: along the 5th percentiles, back along the 95th
    std::vector<std::pair<double, double>> area;
    for (const auto& b : ser.band) area.emplace_back(x.axis.at(b[0] / x.scale.factor), y.at(b[1] / ys.factor));
    for (auto b = ser.band.rbegin(); b != ser.band.rend(); ++b)
      area.emplace_back(x.axis.at((*b)[0] / x.scale.factor), y.at((*b)[2] / ys.factor));
    cv.polygon(area, fmt::format("fill=\"{}\" fill-opacity=\"0.18\" stroke=\"none\"", col));
  }
  cv.polyline(px, fmt::format("stroke=\"{}\" stroke-width=\"2.2\" stroke-linejoin=\"round\"", col));
  for (const auto& [a, bb] : px) cv.circle(a, bb, 3.5, fmt::format("fill=\"{}\" stroke=\"white\" stroke-width=\"1\"", col));
  cv.line(right + 24, ly + 6, right + 46, ly + 6, fmt::format("stroke=\"{}\" stroke-width=\"2.2\"", col));
  cv.circle(right + 35, ly + 6, 3.5, fmt::format("fill=\"{}\"", col));
  cv.text(right + 52, ly + 10, ser.name, "font-size=\"12\"");
}

void draw_panel(svg::Canvas& cv, const Interpreter& in, const SweepResult& s, const Rows& rows, const Panel& p,
                const XAxis& x, double t, double panel_h, std::size_t& color) {
  const double left = Frame::left, right = Frame::right, b = t + panel_h;
  const Scale ys = y_scale(in, p, rows);
  std::vector<double> yd;
  for (const auto& ser : p.series) {
    for (const auto& pt : ser.pts) yd.push_back(pt.second / ys.factor);
    for (const auto& band : ser.band) {
      yd.push_back(band[1] / ys.factor);
      yd.push_back(band[2] / ys.factor);
    }
  }
  if (yd.empty()) yd.push_back(0);
  bool ylog = false;
  std::vector<double> yticks;
  svg::Axis y = make_axis(yd, b, t, ylog, yticks);
  draw_grid(cv, x.axis, x.ticks, y, yticks, ylog, t, b);
  cv.rect(left, t, right - left, panel_h, "fill=\"none\" stroke=\"#333\"");
  // One column: its name and unit; several: the unit, and the legend names them.
  const std::size_t nin = s.inputs.size();
  std::string ytitle = p.columns.size() == 1 ? s.columns[p.columns[0] - nin] : "";
  if (!ys.unit.empty()) ytitle += ytitle.empty() ? ys.unit : " (" + ys.unit + ")";
  cv.text(left - 62, (t + b) / 2, ytitle, "font-size=\"13\"", "middle", -90);
  double ly = t + 6;
  for (const auto& ser : p.series) {
    draw_series(cv, ser, svg::color(color++), x, y, ys, ly);
    ly += 20;
  }
}

// Text columns: a band per column, one shade per value, and a dashed line
// through the panels where the value changes (where decode turns
// compute-bound, for `bound`).
void draw_strip(svg::Canvas& cv, const Interpreter& in, const SweepResult& s, const Rows& rows, const Content& ct,
                const Frame& f, const XAxis& x, std::size_t c, std::size_t ki, double st) {
  const double left = Frame::left, right = Frame::right;
  const std::size_t nin = s.inputs.size();
  const std::string& k = ct.keys[ki];
  std::vector<std::pair<double, std::string>> cells;  // x in pixels, text
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (rows[r][0].ok && ct.row_key[r] == ki)
      cells.emplace_back(x.axis.at(rows[r][0].value.q.v / x.scale.factor), text_of(in, rows[r][c]));
  std::sort(cells.begin(), cells.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::map<std::string, std::size_t> shade;
  cv.text(left, st - 5, s.columns[c - nin] + (k.empty() ? "" : " (" + k + ")"), "font-size=\"12\" fill=\"#333\"");
  for (std::size_t i = 0; i < cells.size();) {
    std::size_t j = i;
    while (j + 1 < cells.size() && cells[j + 1].second == cells[i].second) ++j;
    const double a = i == 0 ? left : (cells[i - 1].first + cells[i].first) / 2;
    const double e = j + 1 == cells.size() ? right : (cells[j].first + cells[j + 1].first) / 2;
    const std::size_t shade_index = shade.emplace(cells[i].second, shade.size()).first->second;
    static const char* fills[] = {"#dbe9f6", "#fbe3d6", "#d9f0e6", "#f3e0ec", "#fdf0d0"};
    cv.rect(a, st, e - a, Frame::strip_h, fmt::format("fill=\"{}\" stroke=\"#333\" stroke-width=\"0.8\"", fills[shade_index % 5]));
    if (svg::text_width(cells[i].second, 12) < e - a - 4)
      cv.text((a + e) / 2, st + Frame::strip_h / 2 + 4, cells[i].second, "font-size=\"12\"", "middle");
    if (i > 0) {
      cv.line(a, Frame::top, a, f.panels_bottom, "stroke=\"#777\" stroke-dasharray=\"5 4\"");
      const std::string change = s.columns[c - nin] + " → " + cells[i].second;
      const bool fits = a + 4 + svg::text_width(change, 10) <= right;
      cv.text(fits ? a + 4 : a - 4, Frame::top - 4, change, "font-size=\"10\" fill=\"#555\"", fits ? "start" : "end");
    }
    i = j + 1;
  }
}

}  // namespace

std::string sweep_svg(const Interpreter& in, const SweepResult& s) {
  check_plottable(s);
  const Rows rows = s.rows();
  Content ct;
  sort_columns(s, rows, ct);
  key_rows(in, s, rows, ct);
  fill_series(s, rows, ct);
  const Frame f = frame_for(ct);
  const std::size_t nin = s.inputs.size();

  svg::Canvas cv(f.width, f.height);
  cv.text(Frame::left, 32, fmt::format("sweep {}", s.title()), "font-size=\"18\" font-weight=\"bold\"");
  if (!ct.strips.empty()) {
    std::string names;
    for (std::size_t i = 0; i < ct.strips.size(); ++i)
      names += (i == 0 ? "" : i + 1 == ct.strips.size() ? " or " : ", ") + s.columns[ct.strips[i] - nin];
    cv.text(Frame::left, 52, fmt::format("dashed lines: where {} changes", names), "font-size=\"13\" fill=\"#555\"");
  }
  const XAxis x = x_axis(in, s, rows);
  std::size_t color = 0;
  for (std::size_t pi = 0; pi < ct.panels.size(); ++pi)
    draw_panel(cv, in, s, rows, ct.panels[pi], x, Frame::top + static_cast<double>(pi) * (f.panel_h + Frame::gap), f.panel_h,
               color);
  cv.text((Frame::left + Frame::right) / 2, f.panels_bottom + 44, x.title, "font-size=\"14\"", "middle");
  double st = f.strips_top + 16;
  for (std::size_t c : ct.strips)
    for (std::size_t ki = 0; ki < ct.keys.size(); ++ki) {
      draw_strip(cv, in, s, rows, ct, f, x, c, ki, st);
      st += f.strip_step;
    }
  return cv.str();
}

}  // namespace napkin
