#pragma once
// What the SVG plots share: an SVG written as text, axes that map values to
// pixels on a linear or logarithmic scale, and tick positions and labels.
#include <string>
#include <vector>

namespace napkin::svg {

// Text for an SVG element or attribute: & < > " escaped, and nothing XML
// 1.0 forbids (interpreter/output/escape.hpp).
std::string escape(const std::string& s);

// A palette that stays distinguishable when printed in grey.
const std::string& color(std::size_t i);

class Canvas {
 public:
  Canvas(double width, double height) : width_(width), height_(height) {}
  void line(double x1, double y1, double x2, double y2, const std::string& style);
  void polyline(const std::vector<std::pair<double, double>>& pts, const std::string& style);
  void polygon(const std::vector<std::pair<double, double>>& pts, const std::string& style);
  void rect(double x, double y, double w, double h, const std::string& style);
  void circle(double x, double y, double r, const std::string& style);
  // anchor: start, middle or end; rotate: degrees about (x, y).
  void text(double x, double y, const std::string& s, const std::string& style, const char* anchor = "start",
            double rotate = 0);
  double width() const { return width_; }
  double height() const { return height_; }
  std::string str() const;

 private:
  double width_, height_;
  std::string body_;
};

// A value-to-pixel mapping along one axis; `log` axes need lo > 0.
struct Axis {
  double lo = 1, hi = 10;
  bool log = false;
  double from = 0, to = 1;  // pixels of lo and hi
  double at(double v) const;
};

// Whole decades around [lo, hi], at least `min_decades` wide.
std::pair<double, double> decade_range(double lo, double hi, int min_decades = 1);
std::vector<double> decade_ticks(double lo, double hi);
// The 2…9 multiples between decade ticks, for minor ticks.
std::vector<double> minor_ticks(double lo, double hi);
// A range that starts at 0 (or below, for negative data) and ends on a
// 1-2-5 step, and its ticks.
std::pair<double, double> nice_range(double lo, double hi);
std::vector<double> nice_ticks(double lo, double hi);

// A tick label: 0.01, 0.5, 10, 1,000, 1e+06.
std::string number(double v);

// Width in pixels of `s` at `size` px in a sans-serif font, near enough to
// keep labels apart.
double text_width(const std::string& s, double size);

}  // namespace napkin::svg
