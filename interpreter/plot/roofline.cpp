#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include "grammar/parser.hpp"
#include "plot.hpp"
#include "svg.hpp"
#include "interpreter/core/stdlib_names.hpp"
#include "interpreter/output/report.hpp"

namespace napkin {
namespace {

namespace names = stdlib_names;

struct Point {
  std::string label;
  double intensity;  // FLOP/B
};

// The dimensions the plot's axes take, as std/units declares their units.
Dim dimension(const Interpreter& in, const char* text) { return in.units().dimension(text).value_or(Dim{}); }

bool is_intensity(const Interpreter& in, const Value& v) {
  return v.kind == Value::Kind::Quantity && v.q.dim == dimension(in, "FLOP/B") && v.q.v > 0 && std::isfinite(v.q.v);
}

std::vector<Point> operations(const Interpreter& in, const Report& r) {
  std::vector<Point> out;
  for (const auto& s : r.sections) {
    if (s.keyword == "hardware") continue;
    for (const auto& f : s.fields)
      if (f.ok && is_intensity(in, f.value) && f.name != names::ridge && f.name != names::ridge_point)
        out.push_back({f.qualified, f.value.q.v});
  }
  for (const auto& sw : r.sweeps)
    for (std::size_t c = 0; c < sw.columns.size(); ++c)
      for (std::size_t row = 0; row < sw.row_count(); ++row) {
        const SweepCell cell = sw.cell(row, sw.inputs.size() + c);
        if (!cell.ok || !is_intensity(in, cell.value)) continue;
        const std::string field = sw.target + "." + sw.columns[c];
        // The row that repeats the record's own value adds nothing.
        if (std::any_of(out.begin(), out.end(), [&](const Point& p) { return p.label == field && p.intensity == cell.value.q.v; }))
          continue;
        std::string at;
        for (std::size_t i = 0; i < sw.inputs.size(); ++i) {
          const SweepCell x = sw.cell(row, i);
          at += fmt::format("{}{} = {}", i ? ", " : "", sw.inputs[i], x.value.kind == Value::Kind::String ? x.value.str() : in.show(x.value));
        }
        out.push_back({fmt::format("{} ({})", field, at), cell.value.q.v});
      }
  return out;
}

// The GPU a file is about: the first hardware it defines with both a
// bandwidth and the peak, else the first record field named `gpu`.
std::string default_gpu(const Report& r, const std::string& peak) {
  auto has = [](const Section& s, const std::string& name) {
    return std::any_of(s.fields.begin(), s.fields.end(), [&](const FieldReport& f) { return f.ok && f.name == name; });
  };
  for (const auto& s : r.sections)
    if (s.keyword == "hardware" && has(s, names::memory_bandwidth) && has(s, peak)) return s.name;
  for (const auto& s : r.sections)
    for (const auto& f : s.fields)
      if (f.ok && f.name == names::gpu && f.value.kind == Value::Kind::Record) return s.name + "." + names::gpu;
  fail(codes::cannot_plot, fmt::format(
      "this file defines no hardware with memory_bandwidth and {} and no field named `gpu`; name one with --gpu, e.g. --gpu h100_sxm",
      peak));
}

Record* eval_record(Interpreter& in, Module* m, const std::string& what) {
  // Kept alive: spans in diagnostics and traces point into the text.
  static std::vector<std::unique_ptr<SourceFile>> sources;
  static std::vector<ast::ExprPtr> exprs;
  sources.push_back(std::make_unique<SourceFile>(SourceFile{"<--gpu>", what, ""}));
  exprs.push_back(parse_expression(*sources.back()));
  Value v = in.eval_in(m, *exprs.back());
  if (v.kind != Value::Kind::Record)
    fail(codes::cannot_plot, exprs.back()->span, fmt::format("--gpu {} is {}, not a hardware record", what, describe_kind(v)),
         "name a hardware record, e.g. --gpu h100_sxm");
  return v.rec;
}

Quantity field(Interpreter& in, Record* r, const std::string& name, const Dim& dim, const char* unit) {
  // The place: where the field is written, else where the record is.
  auto it = r->index().find(name);
  if (it == r->index().end())
    fail(codes::cannot_plot, r->span, fmt::format("{} has no field `{}`", r->name, name),
         "a roofline needs a hardware record with memory_bandwidth and the peak it draws");
  Value v = in.field(r, it->second, Span{});
  if (v.kind != Value::Kind::Quantity || v.q.dim != dim || !(v.q.v > 0)) {
    const Slot* s = r->find(name);
    fail(codes::cannot_plot, s && s->decl ? s->decl->span : r->span,
         fmt::format("{} is {}, not a positive {}", r->name.empty() ? name : r->name + "." + name, in.show(v), unit),
         fmt::format("a roofline is drawn from a positive {}", unit));
  }
  return v.q;
}

// A std/roofline function of these arguments, evaluated by napkin: the plot
// draws the library's roofline, not a copy of it.
Value roofline(Interpreter& in, const char* fn, std::vector<Value> args) {
  return in.call_function(in.load_std(names::roofline_module), fn, std::move(args));
}

struct Box {
  double x0, y0, x1, y1;
  // Boxes that overlap by less than half a pixel do not hit: a label's box
  // is made to end where its point's begins, and neither a rounding error
  // nor a second point a hundredth of a pixel away may push it aside.
  bool hits(const Box& o) const {
    constexpr double e = 0.5;
    return x0 < o.x1 - e && o.x0 < x1 - e && y0 < o.y1 - e && o.y0 < y1 - e;
  }
};

// Where a line of text at (x, y), turned by `angle` degrees, lies: small
// boxes along its baseline, enough to keep numbers and points off it.
std::vector<Box> footprint(double x, double y, double angle, double width, double size) {
  std::vector<Box> out;
  const double dx = std::cos(angle * std::numbers::pi / 180), dy = std::sin(angle * std::numbers::pi / 180);
  for (double d = 0; d <= width; d += size / 2) {
    const double cx = x + d * dx + dy * size / 2, cy = y + d * dy - dx * size / 2;
    out.push_back({cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2});
  }
  return out;
}

bool clear(const std::vector<Box>& boxes, const std::vector<Box>& taken) {
  for (const auto& b : boxes)
    for (const auto& t : taken)
      if (b.hits(t)) return false;
  return true;
}

// A number beside each point, on the first side where it overlaps nothing.
void place_label(svg::Canvas& c, double x, double y, const std::string& text, std::vector<Box>& taken) {
  const double w = svg::text_width(text, 11), h = 11;
  struct Try {
    double dx, dy;
    const char* anchor;
  };
  static constexpr Try tries[] = {{8, 15, "start"},  {8, -7, "start"},   {-8, 15, "end"},   {-8, -7, "end"},
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

// What the picture is drawn from: the roof of one GPU and the operations
// of the file placed under it.
struct Roof {
  Dim flop_per_byte, flop_per_second;
  Quantity peak, bw;
  Value peak_v, bw_v;
  double ridge = 0;
  std::vector<Point> points;
  std::vector<double> attained;   // FLOP/s under the roof, per point
  std::vector<bool> memory_bound;  // per point
  std::string gpu_label;
};

// The roof at an intensity (FLOP/B), in FLOP/s.
double roof_at(Interpreter& in, const Roof& r, double intensity) {
  return roofline(in, names::attainable_performance_fn, {Value::quantity(intensity, r.flop_per_byte), r.peak_v, r.bw_v}).q.v;
}

Roof build_roof(Interpreter& in, Module* m, const RooflineOptions& o) {
  Roof r;
  r.flop_per_byte = dimension(in, "FLOP/B");
  r.flop_per_second = dimension(in, "FLOP/s");
  Report report = build_report(in, m, false);
  const std::string gpu_name = o.gpu.empty() ? default_gpu(report, o.peak) : o.gpu;
  Record* gpu = eval_record(in, m, gpu_name);
  r.peak = field(in, gpu, o.peak, r.flop_per_second, "FLOP/s");
  r.bw = field(in, gpu, names::memory_bandwidth, dimension(in, "B/s"), "B/s");
  r.peak_v = Value::quantity(r.peak.v, r.peak.dim);
  r.bw_v = Value::quantity(r.bw.v, r.bw.dim);
  r.ridge = roofline(in, names::ridge_point_fn, {r.peak_v, r.bw_v}).q.v;
  r.points = operations(in, report);
  for (const auto& p : r.points) {
    r.attained.push_back(roof_at(in, r, p.intensity));
    const Value bound =
        roofline(in, names::intensity_bound_fn, {Value::quantity(p.intensity, r.flop_per_byte), r.peak_v, r.bw_v});
    r.memory_bound.push_back(bound.kind == Value::Kind::String && bound.str() == "memory");
  }
  r.gpu_label = gpu->name.empty() ? gpu_name : gpu->name;
  return r;
}

constexpr double plot_l = 84, plot_r = 590, plot_t = 78, plot_b = 548, tera = 1e12;

void draw_axes(svg::Canvas& c, const svg::Axis& x, const svg::Axis& y) {
  for (double v : svg::minor_ticks(x.lo, x.hi)) c.line(x.at(v), plot_b, x.at(v), plot_b + 4, "stroke=\"#999\"");
  for (double v : svg::minor_ticks(y.lo, y.hi)) c.line(plot_l - 4, y.at(v), plot_l, y.at(v), "stroke=\"#999\"");
  for (double v : svg::decade_ticks(x.lo, x.hi)) {
    c.line(x.at(v), plot_t, x.at(v), plot_b, "stroke=\"#e4e4e4\"");
    c.line(x.at(v), plot_b, x.at(v), plot_b + 7, "stroke=\"#333\"");
    c.text(x.at(v), plot_b + 22, svg::number(v), "fill=\"#333\"", "middle");
  }
  for (double v : svg::decade_ticks(y.lo, y.hi)) {
    c.line(plot_l, y.at(v), plot_r, y.at(v), "stroke=\"#e4e4e4\"");
    c.line(plot_l - 7, y.at(v), plot_l, y.at(v), "stroke=\"#333\"");
    c.text(plot_l - 11, y.at(v) + 4, svg::number(v), "fill=\"#333\"", "end");
  }
  c.text((plot_l + plot_r) / 2, plot_b + 46, "arithmetic intensity (FLOP/B)", "font-size=\"14\"", "middle");
  c.text(24, (plot_t + plot_b) / 2, "attainable performance (TFLOP/s)", "font-size=\"14\"", "middle", -90);
}

// The slope's two ends in pixels: where it enters the plot and the ridge.
struct Slope {
  double x0, y0, x1, y1;
};

// The roof: bandwidth × intensity up to the ridge, then the peak. Where the
// slope enters below the axis it starts at the axis instead (the intensity
// at which bandwidth × intensity reaches the axis is the ridge point of a
// peak that low).
Slope draw_roof(svg::Canvas& c, Interpreter& in, const Roof& r, const svg::Axis& x, const svg::Axis& y) {
  const double x_start =
      std::max(x.lo, roofline(in, names::ridge_point_fn, {Value::quantity(y.lo * tera, r.peak.dim), r.bw_v}).q.v);
  const double roof_y = r.peak.v / tera, start_y = roof_at(in, r, x_start) / tera;
  c.polygon({{x.at(x_start), plot_b}, {x.at(x_start), y.at(start_y)}, {x.at(r.ridge), y.at(roof_y)},
             {plot_r, y.at(roof_y)}, {plot_r, plot_b}},
            "fill=\"#eef3f8\" stroke=\"none\"");
  c.rect(plot_l, plot_t, plot_r - plot_l, plot_b - plot_t, "fill=\"none\" stroke=\"#333\"");
  c.line(x.at(r.ridge), y.at(roof_y), x.at(r.ridge), plot_b, "stroke=\"#777\" stroke-dasharray=\"5 4\"");
  c.polyline({{x.at(x_start), y.at(start_y)}, {x.at(r.ridge), y.at(roof_y)}, {plot_r, y.at(roof_y)}},
             "stroke=\"#222\" stroke-width=\"2.5\" stroke-linejoin=\"round\"");
  return {x.at(x_start), y.at(start_y), x.at(r.ridge), y.at(roof_y)};
}

// The memory bound's name, along the slope and above it: as close as the
// points allow.
void label_slope(svg::Canvas& c, const std::string& text, const Slope& s, std::vector<Box>& taken) {
  const double angle = std::atan2(s.y1 - s.y0, s.x1 - s.x0) * 180 / std::numbers::pi;
  const double len = std::hypot(s.x1 - s.x0, s.y1 - s.y0);
  const double w = svg::text_width(text, 12);
  const double ux = (s.x1 - s.x0) / len, uy = (s.y1 - s.y0) / len;
  for (double off : {9.0, 24.0, 40.0})
    for (double t : {0.5, 0.4, 0.3, 0.2, 0.1, 0.02}) {
      if (t * len + w > len) continue;
      const double tx = s.x0 + t * (s.x1 - s.x0) + uy * off, ty = s.y0 + t * (s.y1 - s.y0) - ux * off;
      auto boxes = footprint(tx, ty, angle, w, 14);
      if (!clear(boxes, taken)) continue;
      c.text(tx, ty, text, "font-size=\"12\" fill=\"#333\"", "start", angle);
      taken.insert(taken.end(), boxes.begin(), boxes.end());
      return;
    }
}

// The compute bound's name, on or under the flat roof where nothing is.
void label_roof(svg::Canvas& c, const std::string& text, const Slope& s, std::vector<Box>& taken) {
  const double w = svg::text_width(text, 12);
  const double ry = s.y1;
  struct Spot {
    double x, y;
    const char* anchor;
  };
  const Spot spots[] = {{plot_r - 6, ry - 8, "end"},  {s.x1 + 10, ry - 8, "start"},  {plot_r - 6, ry + 18, "end"},
                        {s.x1 + 10, ry + 18, "start"}, {plot_r - 6, ry - 24, "end"}, {plot_r - 6, ry + 34, "end"}};
  auto box_of = [&](const Spot& sp) {
    const double l = sp.anchor[0] == 'e' ? sp.x - w : sp.x;
    return Box{l, sp.y - 12, l + w, sp.y + 2};
  };
  const Spot* pick = &spots[0];
  for (const auto& sp : spots)
    if (box_of(sp).x0 >= plot_l && box_of(sp).x1 <= plot_r && clear({box_of(sp)}, taken)) {
      pick = &sp;
      break;
    }
  c.text(pick->x, pick->y, text, "font-size=\"12\" fill=\"#333\"", pick->anchor);
  taken.push_back(box_of(*pick));
}

// Operations, numbered, coloured by the bound they sit under. Points drawn
// on the same spot share one label, "1, 3": two numbers on either side of
// one dot say neither that there are two nor which is which.
void draw_points(svg::Canvas& c, const Roof& r, const std::vector<std::pair<double, double>>& at, std::vector<Box>& taken) {
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const std::string col = svg::color(r.memory_bound[i] ? 0 : 1);
    c.circle(at[i].first, at[i].second, 5.5, fmt::format("fill=\"{}\" stroke=\"white\" stroke-width=\"1.5\"", col));
  }
  std::vector<bool> labelled(r.points.size(), false);
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    if (labelled[i]) continue;
    std::string text = std::to_string(i + 1);
    for (std::size_t j = i + 1; j < r.points.size(); ++j)
      if (!labelled[j] && std::hypot(at[j].first - at[i].first, at[j].second - at[i].second) < 1.0) {
        text += ", " + std::to_string(j + 1);
        labelled[j] = true;
      }
    place_label(c, at[i].first, at[i].second, text, taken);
  }
}

void draw_legend(svg::Canvas& c, const Interpreter& in, const Roof& r) {
  auto show_q = [&](double v, const Dim& d) { return in.show(Value::quantity(v, d)); };
  const double lx = plot_r + 36;
  double ly = plot_t + 4;
  c.text(lx, ly, "operations", "font-size=\"14\" font-weight=\"bold\"");
  ly += 10;
  c.circle(lx + 6, ly + 10, 5, fmt::format("fill=\"{}\"", svg::color(0)));
  c.text(lx + 16, ly + 14, "memory-bound", "font-size=\"11\" fill=\"#555\"");
  c.circle(lx + 112, ly + 10, 5, fmt::format("fill=\"{}\"", svg::color(1)));
  c.text(lx + 122, ly + 14, "compute-bound", "font-size=\"11\" fill=\"#555\"");
  ly += 26;
  if (r.points.empty())
    c.text(lx, ly + 14, "no field in FLOP/B in this file", "font-size=\"12\" fill=\"#555\"");
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const auto& p = r.points[i];
    c.text(lx, ly + 14, std::to_string(i + 1), "font-size=\"12\" font-weight=\"bold\"");
    c.text(lx + 24, ly + 14, p.label, "font-size=\"12\"");
    c.text(lx + 24, ly + 28,
           fmt::format("{} → {}", show_q(p.intensity, r.flop_per_byte), show_q(r.attained[i], r.flop_per_second)),
           "font-size=\"11\" fill=\"#555\"");
    ly += 32;
  }
}

}  // namespace

std::string roofline_svg(Interpreter& in, Module* m, const RooflineOptions& o) {
  const Roof r = build_roof(in, m, o);
  double imin = r.ridge, imax = r.ridge;
  for (const auto& p : r.points) {
    imin = std::min(imin, p.intensity);
    imax = std::max(imax, p.intensity);
  }
  auto [xlo, xhi] = svg::decade_range(std::min(imin / 3, r.ridge / 30), std::max(imax * 3, r.ridge * 30), 3);
  auto [ylo, yhi] = svg::decade_range(roof_at(in, r, xlo) / tera, r.peak.v * 3 / tera, 2);
  auto show_q = [&](double v, const Dim& d) { return in.show(Value::quantity(v, d)); };

  // The legend sits right of the plot and may make the picture taller.
  double legend_w = 200;
  for (const auto& p : r.points) legend_w = std::max(legend_w, 28 + svg::text_width(p.label, 12));
  const double width = std::max(900.0, plot_r + 36 + legend_w + 16);
  const double height = std::max(620.0, plot_t + 40 + 32.0 * static_cast<double>(r.points.size()) + 20);
  svg::Canvas c(width, height);
  svg::Axis x{xlo, xhi, true, plot_l, plot_r};
  svg::Axis y{ylo, yhi, true, plot_b, plot_t};

  c.text(plot_l, 30, fmt::format("Roofline: {}", r.gpu_label), "font-size=\"18\" font-weight=\"bold\"");
  c.text(plot_l, 52,
         fmt::format("{} {} · memory {} · ridge point {}", o.peak, show_q(r.peak.v, r.peak.dim), show_q(r.bw.v, r.bw.dim),
                     show_q(r.ridge, r.flop_per_byte)),
         "font-size=\"13\" fill=\"#555\"");
  draw_axes(c, x, y);
  const Slope s = draw_roof(c, in, r, x, y);
  c.circle(s.x1, s.y1, 5, "fill=\"white\" stroke=\"#222\" stroke-width=\"2\"");
  const std::string ridge_text = fmt::format("ridge point {}", show_q(r.ridge, r.flop_per_byte));
  c.text(s.x1 - 5, plot_b - 8, ridge_text, "font-size=\"11\" fill=\"#555\"", "start", -90);

  // The points first, so the names of the two bounds can go where no point is.
  std::vector<Box> taken{{s.x1 - 7, s.y1 - 7, s.x1 + 7, s.y1 + 7}};
  for (const auto& b : footprint(s.x1 - 5, plot_b - 8, -90, svg::text_width(ridge_text, 11), 11)) taken.push_back(b);
  std::vector<std::pair<double, double>> at;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    at.emplace_back(x.at(r.points[i].intensity), y.at(r.attained[i] / tera));
    taken.push_back({at.back().first - 7, at.back().second - 7, at.back().first + 7, at.back().second + 7});
  }
  label_slope(c, fmt::format("memory: {} × intensity", show_q(r.bw.v, r.bw.dim)), s, taken);
  label_roof(c, fmt::format("compute: {}", show_q(r.peak.v, r.peak.dim)), s, taken);
  draw_points(c, r, at, taken);
  draw_legend(c, in, r);
  return c.str();
}

}  // namespace napkin
