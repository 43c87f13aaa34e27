#include "svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "interpreter/output/escape.hpp"
#include "grammar/text_width.hpp"

namespace napkin::svg {

std::string escape(const std::string& s) { return xml_text(s); }

const std::string& color(std::size_t i) {
  // Okabe–Ito: safe for colour-blind readers.
  static const std::vector<std::string> palette{"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                "#E69F00", "#56B4E9", "#000000", "#F0E442"};
  return palette[i % palette.size()];
}

void Canvas::line(double x1, double y1, double x2, double y2, const std::string& style) {
  body_ += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" {}/>\n", x1, y1, x2, y2, style);
}

namespace {
std::string points(const std::vector<std::pair<double, double>>& pts) {
  std::string p;
  for (const auto& [x, y] : pts) p += fmt::format("{}{:.1f},{:.1f}", p.empty() ? "" : " ", x, y);
  return p;
}
}  // namespace

void Canvas::polyline(const std::vector<std::pair<double, double>>& pts, const std::string& style) {
  body_ += fmt::format("<polyline points=\"{}\" fill=\"none\" {}/>\n", points(pts), style);
}

void Canvas::polygon(const std::vector<std::pair<double, double>>& pts, const std::string& style) {
  body_ += fmt::format("<polygon points=\"{}\" {}/>\n", points(pts), style);
}

void Canvas::rect(double x, double y, double w, double h, const std::string& style) {
  body_ += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" {}/>\n", x, y, w, h, style);
}

void Canvas::circle(double x, double y, double r, const std::string& style) {
  body_ += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" {}/>\n", x, y, r, style);
}

void Canvas::text(double x, double y, const std::string& s, const std::string& style, const char* anchor, double rotate) {
  const std::string turn = rotate != 0 ? fmt::format(" transform=\"rotate({:.0f} {:.1f} {:.1f})\"", rotate, x, y) : "";
  body_ += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\"{} {}>{}</text>\n", x, y, anchor, turn, style,
                       escape(s));
}

std::string Canvas::str() const {
  return fmt::format(
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
             "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
             "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
             width_, height_) +
         body_ + "</svg>\n";
}

double Axis::at(double v) const {
  double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
  return from + t * (to - from);
}

std::pair<double, double> decade_range(double lo, double hi, int min_decades) {
  int a = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  int b = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  if (b <= a) b = a + 1;
  while (b - a < min_decades) {
    if ((b - a) % 2 == 0) ++b;
    else --a;
  }
  return {std::pow(10.0, a), std::pow(10.0, b)};
}

std::vector<double> decade_ticks(double lo, double hi) {
  std::vector<double> t;
  for (int e = static_cast<int>(std::ceil(std::log10(lo) - 1e-9)); std::pow(10.0, e) <= hi * (1 + 1e-9); ++e)
    t.push_back(std::pow(10.0, e));
  return t;
}

std::vector<double> minor_ticks(double lo, double hi) {
  std::vector<double> t;
  for (double d : decade_ticks(lo / 10, hi))
    for (int k = 2; k <= 9; ++k)
      if (d * k > lo && d * k < hi) t.push_back(d * k);
  return t;
}

namespace {
double nice_step(double span) {
  const double raw = span / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}
}  // namespace

std::pair<double, double> nice_range(double lo, double hi) {
  lo = std::min(lo, 0.0);
  hi = std::max(hi, 0.0);
  if (hi == lo) hi = lo + 1;
  const double step = nice_step(hi - lo);
  return {std::floor(lo / step) * step, std::ceil(hi / step) * step};
}

std::vector<double> nice_ticks(double lo, double hi) {
  const double step = nice_step(hi - lo);
  std::vector<double> t;
  for (double v = lo; v <= hi + step * 1e-6; v += step) t.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  return t;
}

std::string number(double v) {
  if (v == 0) return "0";
  const double a = std::fabs(v);
  if (a >= 1e6 || a < 1e-3) {
    const int e = static_cast<int>(std::floor(std::log10(a) + 1e-9));
    const double m = v / std::pow(10.0, e);
    const std::string mant = std::fabs(m - std::round(m)) < 1e-9 ? fmt::format("{:.0f}", m) : fmt::format("{:.2g}", m);
    return fmt::format("{}e{}", mant, e);
  }
  std::string s = fmt::format("{:.6g}", v);
  const std::size_t start = s[0] == '-' ? 1 : 0;
  std::size_t end = s.find('.');
  if (end == std::string::npos) end = s.size();
  for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(end) - 3; i > static_cast<std::ptrdiff_t>(start); i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

double text_width(const std::string& s, double size) {
  const std::size_t chars = code_points(s);
  return static_cast<double>(chars) * size * 0.6;
}

}  // namespace napkin::svg
