#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "../grammar/parser.hpp"
#include "plot.hpp"
#include "plot_svg.hpp"
#include "report.hpp"

namespace napkin {
namespace {

struct Point {
  std::string label;
  double intensity;  // FLOP/B
};

Dim flop_per_byte() {
  Dim d;
  d.e[kFlop] = 1;
  d.e[kByte] = -1;
  return d;
}

Dim flop_per_second() {
  Dim d;
  d.e[kFlop] = 1;
  d.e[kSecond] = -1;
  return d;
}

bool is_intensity(const Value& v) {
  return v.kind == Value::Kind::Quantity && v.q.dim == flop_per_byte() && v.q.v > 0 && std::isfinite(v.q.v);
}

std::vector<Point> operations(const Interpreter& in, const Report& r) {
  std::vector<Point> out;
  for (const auto& s : r.sections) {
    if (s.kind == "hardware") continue;
    for (const auto& f : s.fields)
      if (f.ok && is_intensity(f.value) && f.name != "ridge" && f.name != "ridge_point")
        out.push_back({f.qualified, f.value.q.v});
  }
  for (const auto& sw : r.sweeps)
    for (std::size_t c = 0; c < sw.columns.size(); ++c)
      for (const auto& row : sw.rows) {
        const SweepCell& cell = row[sw.inputs.size() + c];
        if (!cell.ok || !is_intensity(cell.value)) continue;
        std::string at;
        for (std::size_t i = 0; i < sw.inputs.size(); ++i) {
          const SweepCell& x = row[i];
          at += fmt::format("{}{} = {}", i ? ", " : "", sw.inputs[i], x.value.kind == Value::Kind::String ? *x.value.s : in.show(x.value));
        }
        out.push_back({fmt::format("{}.{} ({})", sw.target, sw.columns[c], at), cell.value.q.v});
      }
  return out;
}

// The GPU a file is about: the first hardware it defines, else the first
// record field named `gpu`.
std::string default_gpu(const Report& r) {
  for (const auto& s : r.sections)
    if (s.kind == "hardware") return s.name;
  for (const auto& s : r.sections)
    for (const auto& f : s.fields)
      if (f.ok && f.name == "gpu" && f.value.kind == Value::Kind::Record) return s.name + ".gpu";
  throw PlotError("this file defines no hardware and no field named `gpu`; name one with --gpu, e.g. --gpu h100_sxm");
}

Record* eval_record(Interpreter& in, Module* m, const std::string& what) {
  // Kept alive: spans in diagnostics and traces point into the text.
  static std::vector<std::unique_ptr<SourceFile>> sources;
  static std::vector<ast::ExprPtr> exprs;
  sources.push_back(std::make_unique<SourceFile>(SourceFile{"<--gpu>", what, ""}));
  exprs.push_back(parse_expression(*sources.back()));
  Value v = in.eval_in(m, *exprs.back());
  if (v.kind != Value::Kind::Record) throw PlotError(fmt::format("--gpu {} is not a hardware record", what));
  return v.rec;
}

Quantity field(Interpreter& in, Record* r, const std::string& name, const Dim& dim, const char* unit) {
  auto it = r->index().find(name);
  if (it == r->index().end()) throw PlotError(fmt::format("{} has no field `{}`", r->name, name));
  Value v = in.field(r, it->second, Span{});
  if (v.kind != Value::Kind::Quantity || v.q.dim != dim || !(v.q.v > 0))
    throw PlotError(fmt::format("{}.{} is {}, not a positive {}", r->name, name, in.show(v), unit));
  return v.q;
}

struct Box {
  double x0, y0, x1, y1;
  bool hits(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// A number beside each point, on the first side where it overlaps nothing.
void place_label(svg::Canvas& c, double x, double y, const std::string& text, std::vector<Box>& taken) {
  const double w = svg::text_width(text, 11), h = 11;
  struct Try {
    double dx, dy;
    const char* anchor;
  };
  static constexpr Try tries[] = {{8, -7, "start"},  {8, 14, "start"},   {-8, -7, "end"},   {-8, 14, "end"},
                                  {0, -12, "middle"}, {0, 22, "middle"}, {18, -18, "start"}, {-18, -18, "end"},
                                  {18, 26, "start"},  {-18, 26, "end"}};
  Try pick = tries[0];
  for (const auto& t : tries) {
    const double left = t.anchor[0] == 's' ? x + t.dx : t.anchor[0] == 'e' ? x + t.dx - w : x + t.dx - w / 2;
    Box b{left - 1, y + t.dy - h, left + w + 1, y + t.dy + 2};
    if (std::none_of(taken.begin(), taken.end(), [&](const Box& o) { return b.hits(o); })) {
      pick = t;
      break;
    }
  }
  const double left = pick.anchor[0] == 's' ? x + pick.dx : pick.anchor[0] == 'e' ? x + pick.dx - w : x + pick.dx - w / 2;
  taken.push_back({left - 1, y + pick.dy - h, left + w + 1, y + pick.dy + 2});
  c.text(x + pick.dx, y + pick.dy, text, "font-size=\"11\" font-weight=\"bold\" fill=\"#222\"", pick.anchor);
}

}  // namespace

std::string roofline_svg(Interpreter& in, Module* m, const RooflineOptions& o) {
  Report report = build_report(in, m, false);
  const std::string gpu_name = o.gpu.empty() ? default_gpu(report) : o.gpu;
  Record* gpu = eval_record(in, m, gpu_name);
  const Quantity peak = field(in, gpu, o.peak, flop_per_second(), "FLOP/s");
  const Quantity bw = field(in, gpu, "memory_bandwidth", Dim::base(kByte) / Dim::base(kSecond), "B/s");
  const double ridge = peak.v / bw.v;
  std::vector<Point> points = operations(in, report);

  double imin = ridge, imax = ridge;
  for (const auto& p : points) {
    imin = std::min(imin, p.intensity);
    imax = std::max(imax, p.intensity);
  }
  auto [xlo, xhi] = svg::decade_range(imin / 3, imax * 3, 3);
  const double tera = 1e12;
  auto [ylo, yhi] = svg::decade_range(bw.v * xlo / tera, peak.v * 3 / tera, 2);

  auto show_q = [&](double v, const Dim& d) { return in.show(Value::quantity(v, d)); };
  const std::string gpu_label = gpu->name.empty() ? gpu_name : gpu->name;

  // The legend sits right of the plot and may make the picture taller.
  double legend_w = 200;
  for (std::size_t i = 0; i < points.size(); ++i)
    legend_w = std::max(legend_w, 28 + svg::text_width(points[i].label, 12));
  const double plot_l = 84, plot_r = 590, plot_t = 78, plot_b = 548;
  const double width = std::max(900.0, plot_r + 36 + legend_w + 16);
  const double height = std::max(620.0, plot_t + 40 + 32.0 * static_cast<double>(points.size()) + 20);
  svg::Canvas c(width, height);
  svg::Axis x{xlo, xhi, true, plot_l, plot_r};
  svg::Axis y{ylo, yhi, true, plot_b, plot_t};

  c.text(plot_l, 30, fmt::format("Roofline: {}", gpu_label), "font-size=\"18\" font-weight=\"bold\"");
  c.text(plot_l, 52,
         fmt::format("{} {} · memory {} · ridge point {}", o.peak, show_q(peak.v, peak.dim), show_q(bw.v, bw.dim),
                     show_q(ridge, flop_per_byte())),
         "font-size=\"13\" fill=\"#555\"");

  // Grid, ticks and labels.
  for (double v : svg::minor_ticks(xlo, xhi)) c.line(x.at(v), plot_b, x.at(v), plot_b + 4, "stroke=\"#999\"");
  for (double v : svg::minor_ticks(ylo, yhi)) c.line(plot_l - 4, y.at(v), plot_l, y.at(v), "stroke=\"#999\"");
  for (double v : svg::decade_ticks(xlo, xhi)) {
    c.line(x.at(v), plot_t, x.at(v), plot_b, "stroke=\"#e4e4e4\"");
    c.line(x.at(v), plot_b, x.at(v), plot_b + 7, "stroke=\"#333\"");
    c.text(x.at(v), plot_b + 22, svg::number(v), "fill=\"#333\"", "middle");
  }
  for (double v : svg::decade_ticks(ylo, yhi)) {
    c.line(plot_l, y.at(v), plot_r, y.at(v), "stroke=\"#e4e4e4\"");
    c.line(plot_l - 7, y.at(v), plot_l, y.at(v), "stroke=\"#333\"");
    c.text(plot_l - 11, y.at(v) + 4, svg::number(v), "fill=\"#333\"", "end");
  }
  c.text((plot_l + plot_r) / 2, plot_b + 46, "arithmetic intensity (FLOP/B)", "font-size=\"14\"", "middle");
  c.text(24, (plot_t + plot_b) / 2, "attainable performance (TFLOP/s)", "font-size=\"14\"", "middle", -90);

  // The roof: bandwidth × intensity up to the ridge, then the peak. Where
  // the slope enters below the axis it starts at the axis instead.
  const double x_start = std::max(xlo, ylo * tera / bw.v);
  const double roof_y = peak.v / tera;
  c.polygon({{x.at(x_start), plot_b}, {x.at(x_start), y.at(bw.v * x_start / tera)}, {x.at(ridge), y.at(roof_y)},
             {plot_r, y.at(roof_y)}, {plot_r, plot_b}},
            "fill=\"#eef3f8\" stroke=\"none\"");
  c.rect(plot_l, plot_t, plot_r - plot_l, plot_b - plot_t, "fill=\"none\" stroke=\"#333\"");
  c.line(x.at(ridge), y.at(roof_y), x.at(ridge), plot_b, "stroke=\"#777\" stroke-dasharray=\"5 4\"");
  c.polyline({{x.at(x_start), y.at(bw.v * x_start / tera)}, {x.at(ridge), y.at(roof_y)}, {plot_r, y.at(roof_y)}},
             "stroke=\"#222\" stroke-width=\"2.5\" stroke-linejoin=\"round\"");

  // Name the two bounds along the roof.
  const double sx0 = x.at(x_start), sy0 = y.at(bw.v * x_start / tera), sx1 = x.at(ridge), sy1 = y.at(roof_y);
  const double angle = std::atan2(sy1 - sy0, sx1 - sx0) * 180 / M_PI;
  const double mx = sx0 + (sx1 - sx0) * 0.3, my = sy0 + (sy1 - sy0) * 0.3;
  c.text(mx - 6, my - 8, fmt::format("memory: {} × intensity", show_q(bw.v, bw.dim)), "font-size=\"12\" fill=\"#333\"",
         "start", angle);
  c.text(plot_r - 6, y.at(roof_y) - 8, fmt::format("compute: {}", show_q(peak.v, peak.dim)), "font-size=\"12\" fill=\"#333\"",
         "end");
  c.circle(sx1, sy1, 5, "fill=\"white\" stroke=\"#222\" stroke-width=\"2\"");
  c.text(sx1, plot_b - 8, fmt::format("ridge {}", show_q(ridge, flop_per_byte())), "font-size=\"11\" fill=\"#555\"",
         "end", -90);

  // Operations, numbered, coloured by the bound they sit under.
  std::vector<Box> taken{{sx1 - 6, sy1 - 6, sx1 + 6, sy1 + 6}};
  for (const auto& p : points) {
    const double px = x.at(p.intensity), py = y.at(std::min(peak.v, p.intensity * bw.v) / tera);
    taken.push_back({px - 6, py - 6, px + 6, py + 6});
  }
  const std::string memory_color = svg::color(0), compute_color = svg::color(1);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    const double attained = std::min(peak.v, p.intensity * bw.v);
    const double px = x.at(p.intensity), py = y.at(attained / tera);
    const std::string& col = p.intensity < ridge ? memory_color : compute_color;
    c.circle(px, py, 5.5, fmt::format("fill=\"{}\" stroke=\"white\" stroke-width=\"1.5\"", col));
    place_label(c, px, py, std::to_string(i + 1), taken);
  }

  // Legend.
  const double lx = plot_r + 36;
  double ly = plot_t + 4;
  c.text(lx, ly, "operations", "font-size=\"14\" font-weight=\"bold\"");
  ly += 10;
  c.circle(lx + 6, ly + 10, 5, fmt::format("fill=\"{}\"", memory_color));
  c.text(lx + 16, ly + 14, "memory-bound", "font-size=\"11\" fill=\"#555\"");
  c.circle(lx + 112, ly + 10, 5, fmt::format("fill=\"{}\"", compute_color));
  c.text(lx + 122, ly + 14, "compute-bound", "font-size=\"11\" fill=\"#555\"");
  ly += 26;
  if (points.empty())
    c.text(lx, ly + 14, "no field in FLOP/B in this file", "font-size=\"12\" fill=\"#555\"");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    const double attained = std::min(peak.v, p.intensity * bw.v);
    c.text(lx, ly + 14, std::to_string(i + 1), "font-size=\"12\" font-weight=\"bold\"");
    c.text(lx + 24, ly + 14, p.label, "font-size=\"12\"");
    c.text(lx + 24, ly + 28, fmt::format("{} → {}", show_q(p.intensity, flop_per_byte()), show_q(attained, flop_per_second())),
           "font-size=\"11\" fill=\"#555\"");
    ly += 32;
  }
  return c.str();
}

}  // namespace napkin
