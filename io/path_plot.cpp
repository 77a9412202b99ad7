// The path plot (cairo): query time and least distance along the trajectory, two panels sharing
// the time axis, in the spirit of Klosowski et al. 1998, Fig. 3.
//
// Layout (pixels of the 1200 x 700 canvas):
//   title line (segment counts, first collision) and a grey line (waypoints, least distance,
//   check settings, run time);
//   top panel: query time per sample in microseconds (log scale over more than 2 decades);
//   bottom panel: least distance per sample and each segment's least where it was found (a
//   contact between samples reaches 0: least_distance_curve), the clearance as a dashed line,
//   t labels below;
//   right column: the legend (one colour per object, then the markings present).
// Colliding segments are red bands over [t0, t1] with a red line at t_hit, undecided segments
// orange bands, colliding samples red dots. Series with more samples than twice the panel width
// keep the first, last, least and greatest point of every pixel column, so a million samples
// draw the same envelope as all of them.
// The SVG's <title> and <desc> hold the summary and the object names. Canvas, axes and files:
// io/plot_canvas.hpp.
#include <cairo.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "io/path_report.hpp"
#include "io/plot_canvas.hpp"

namespace kdop {
namespace {

using namespace plot;

// ---- data ------------------------------------------------------------------------------------

struct Point {
  double t, y;
  bool collides;
};

struct Series {
  std::uint32_t object;
  std::vector<Point> time, distance;
};

std::vector<Series> series_of(const PathReport& report) {
  std::map<std::uint32_t, Series> by_object;
  for (std::uint32_t i = 0; i < report.objects.size(); ++i) by_object[i].object = i;
  for (const PathSample& s : report.samples) {
    if (!std::isfinite(s.t)) continue;
    Series& series = by_object[s.object];
    series.object = s.object;
    const double t = clamped(s.t);
    if (std::isfinite(s.time_us)) series.time.push_back({t, clamped(s.time_us), s.collides});
  }
  std::vector<Series> out;
  for (auto& [object, series] : by_object) {
    const auto by_t = [](const Point& a, const Point& b) { return a.t < b.t; };
    std::stable_sort(series.time.begin(), series.time.end(), by_t);
    for (const PathSample& s : least_distance_curve(report, object)) {
      series.distance.push_back({clamped(s.t), clamped(s.distance), s.collides});
    }
    out.push_back(std::move(series));
  }
  return out;
}

}  // namespace

std::vector<PathSample> least_distance_curve(const PathReport& report, std::uint32_t object) {
  std::vector<PathSample> curve;
  for (const PathSample& s : report.samples) {
    if (s.object != object || !std::isfinite(s.t)) continue;
    if (std::isfinite(s.distance)) {
      curve.push_back(s);
    } else if (s.collides) {
      curve.push_back({s.object, s.t, 0.0, s.time_us, true});  // touching: distance 0
    }
  }
  const std::string& name = object < report.objects.size() ? report.objects[object] : "";
  for (const SegmentReport& r : report.segments) {
    if (r.object != name || !std::isfinite(r.min_distance)) continue;
    // A contact's least distance is 0 at t_hit (min_distance_t may be unset then).
    const bool hit = r.status == SegmentStatus::collides && r.min_distance == 0;
    const double t = hit && std::isfinite(r.t_hit) ? r.t_hit : r.min_distance_t;
    if (!std::isfinite(t)) continue;
    curve.push_back({object, t, r.min_distance, kNotComputed, hit});
  }
  std::stable_sort(curve.begin(), curve.end(),
                   [](const PathSample& a, const PathSample& b) { return a.t < b.t; });
  return curve;
}

namespace {

std::string object_name(const PathReport& report, std::uint32_t object) {
  if (object < report.objects.size()) return clean_text(report.objects[object]);
  return "object #" + std::to_string(object);
}

Axis time_axis(const PathReport& report) {
  double lo = INFINITY, hi = -INFINITY;
  const auto add = [&](double t) {
    if (!std::isfinite(t)) return;
    lo = std::min(lo, clamped(t));
    hi = std::max(hi, clamped(t));
  };
  for (const PathSample& s : report.samples) add(s.t);
  for (const SegmentReport& s : report.segments) {
    add(s.t0);
    add(s.t1);
  }
  for (const WaypointReport& w : report.waypoints) add(w.t);
  return linear_axis(lo, hi);
}

// Query times: log scale when the positive values span more than 2 decades.
Axis query_time_axis(const std::vector<Series>& series) {
  double lo = INFINITY, hi = -INFINITY, min_positive = INFINITY;
  for (const Series& s : series) {
    for (const Point& p : s.time) {
      lo = std::min(lo, p.y);
      hi = std::max(hi, p.y);
      if (p.y > 0) min_positive = std::min(min_positive, p.y);
    }
  }
  if (!(lo <= hi)) return {0, 1, false};
  if (hi > 0 && hi / min_positive > 100) {
    return {std::floor(std::log10(min_positive)), std::ceil(std::log10(hi)), true};
  }
  lo = std::min(lo, 0.0);
  if (!(hi > lo)) return linear_axis(lo, hi);
  const double span = hi - lo;
  return {lo - span * 0.04, hi + span * 0.08, false};
}

Axis distance_axis(const std::vector<Series>& series, double clearance) {
  double lo = INFINITY, hi = -INFINITY;
  for (const Series& s : series) {
    for (const Point& p : s.distance) {
      lo = std::min(lo, p.y);
      hi = std::max(hi, p.y);
    }
  }
  if (!(lo <= hi)) return {0, 1, false};
  if (clearance > 0 && clearance < kHuge) hi = std::max(hi, clearance);
  lo = std::min(lo, 0.0);
  if (!(hi > lo)) return linear_axis(lo, hi);
  // Margins, so that the dots of touching samples (distance 0) are drawn whole.
  const double span = hi - lo;
  return {lo - span * 0.04, hi + span * 0.08, false};
}

// At most 4 points per pixel column (first, least, greatest, last), in time order.
std::vector<Point> decimated(const std::vector<Point>& points, const Rect& r, const Axis& x) {
  if (points.size() <= 2 * static_cast<std::size_t>(r.w)) return points;
  std::vector<Point> out;
  std::size_t i = 0;
  while (i < points.size()) {
    const double column = std::floor(r.px(x, points[i].t));
    std::size_t j = i, lo = i, hi = i;
    while (j < points.size() && std::floor(r.px(x, points[j].t)) == column) {
      if (points[j].y < points[lo].y) lo = j;
      if (points[j].y > points[hi].y) hi = j;
      ++j;
    }
    std::array<std::size_t, 4> keep = {i, lo, hi, j - 1};
    std::sort(keep.begin(), keep.end());
    for (std::size_t k = 0; k < keep.size(); ++k) {
      if (k == 0 || keep[k] != keep[k - 1]) out.push_back(points[keep[k]]);
    }
    i = j;
  }
  return out;
}

// ---- drawing ---------------------------------------------------------------------------------

struct Panel {
  Rect rect;
  Axis y;
  std::vector<Tick> y_ticks;
  std::string title;
};

struct Bands {
  std::vector<std::pair<double, double>> colliding, undecided;
  std::vector<double> hits;
};

Bands bands_of(const PathReport& report) {
  Bands b;
  for (const SegmentReport& s : report.segments) {
    if (!std::isfinite(s.t0) || !std::isfinite(s.t1)) continue;
    const double t0 = std::min(clamped(s.t0), clamped(s.t1));
    const double t1 = std::max(clamped(s.t0), clamped(s.t1));
    if (s.status == SegmentStatus::collides) {
      b.colliding.emplace_back(t0, t1);
      if (std::isfinite(s.t_hit)) b.hits.push_back(clamped(s.t_hit));
    } else if (s.status == SegmentStatus::undecided) {
      b.undecided.emplace_back(t0, t1);
    }
  }
  return b;
}

// Pixel intervals, sorted and merged, at least 2 px wide so a short segment still shows.
std::vector<std::pair<double, double>> merged_pixels(
    const std::vector<std::pair<double, double>>& list, const Rect& r, const Axis& x) {
  std::vector<std::pair<double, double>> px;
  px.reserve(list.size());
  for (const auto& [t0, t1] : list) {
    double x0 = r.px(x, t0), x1 = r.px(x, t1);
    if (x1 - x0 < 2) {
      const double mid = (x0 + x1) / 2;
      x0 = mid - 1;
      x1 = mid + 1;
    }
    px.emplace_back(x0, x1);
  }
  std::sort(px.begin(), px.end());
  std::vector<std::pair<double, double>> out;
  for (const auto& band : px) {
    if (!out.empty() && band.first <= out.back().second + 0.5) {
      out.back().second = std::max(out.back().second, band.second);
    } else {
      out.push_back(band);
    }
  }
  return out;
}

void draw_bands(cairo_t* cr, const Rect& r, const Axis& x, const Bands& bands) {
  const auto fill = [&](const std::vector<std::pair<double, double>>& list, Rgb c) {
    set_colour(cr, c, 0.16);
    for (const auto& [x0, x1] : merged_pixels(list, r, x)) {
      cairo_rectangle(cr, x0, r.y, x1 - x0, r.h);
    }
    cairo_fill(cr);
  };
  fill(bands.undecided, kOrange);
  fill(bands.colliding, kRed);
  std::set<double> columns;  // one line per pixel column
  for (double t : bands.hits) columns.insert(std::round(r.px(x, t)) + 0.5);
  set_colour(cr, kRed, 0.85);
  cairo_set_line_width(cr, 1.4);
  for (double px : columns) {
    cairo_move_to(cr, px, r.y);
    cairo_line_to(cr, px, r.y + r.h);
  }
  cairo_stroke(cr);
}

void set_series_style(cairo_t* cr, std::uint32_t object) {
  set_colour(cr, kPalette[object % kPalette.size()]);
  cairo_set_line_width(cr, 1.6);
  // Past the palette, the same colours again with dashes.
  const std::size_t round = (object / kPalette.size()) % 3;
  static constexpr double kDash[2][2] = {{6, 3}, {2, 2.5}};
  if (round == 0) {
    cairo_set_dash(cr, nullptr, 0, 0);
  } else {
    cairo_set_dash(cr, kDash[round - 1], 2, 0);
  }
}

void draw_series(cairo_t* cr, const Rect& r, const Axis& x, const Axis& y,
                 const std::vector<Point>& all, std::uint32_t object) {
  if (all.empty()) return;
  const std::vector<Point> points = decimated(all, r, x);
  set_series_style(cr, object);
  cairo_new_path(cr);
  for (const Point& p : points) cairo_line_to(cr, r.px(x, p.t), r.py(y, p.y));
  cairo_stroke(cr);
  cairo_set_dash(cr, nullptr, 0, 0);
  // Few samples (or one): mark each, so a lone sample is visible.
  if (all.size() <= 50) {
    for (const Point& p : points) {
      cairo_arc(cr, r.px(x, p.t), r.py(y, p.y), 2.6, 0, 2 * std::numbers::pi);
      cairo_fill(cr);
    }
  }
}

void draw_collision_dots(cairo_t* cr, const Rect& r, const Axis& x, const Axis& y,
                         const std::vector<Point>& points) {
  std::set<std::pair<long, long>> drawn;  // one dot per pixel
  for (const Point& p : points) {
    if (!p.collides) continue;
    const double px = r.px(x, p.t), py = r.py(y, p.y);
    const std::pair<long, long> cell{std::lround(px), std::lround(py)};
    if (!drawn.insert(cell).second) continue;
    cairo_arc(cr, px, py, 3.6, 0, 2 * std::numbers::pi);
    set_colour(cr, kRed);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
  }
}

std::string headline(const PathSummary& s) {
  std::string line = count_of(s.segments, "segment", "segments") + ": " + std::to_string(s.free) +
                     " free, " + std::to_string(s.colliding) +
                     (s.colliding == 1 ? " collides, " : " collide, ") +
                     std::to_string(s.undecided) + " undecided; ";
  if (s.first_collision_t) {
    line += "first collision t=" + fmt(*s.first_collision_t);
    if (!s.first_collision_object.empty()) {
      line += " (" + clean_text(s.first_collision_object);
      if (!s.first_collision_with.empty()) line += " with " + clean_text(s.first_collision_with);
      line += ")";
    }
  } else {
    line += "no collision";
  }
  return line;
}

std::string details(const PathSummary& s) {
  const std::string dot = "  \xC2\xB7  ";
  std::string line = count_of(s.waypoints, "waypoint", "waypoints") + " (" +
                     std::to_string(s.colliding_waypoints) + " colliding)";
  if (!std::isnan(s.worst_clearance)) {
    line += dot + "least distance " + fmt(s.worst_clearance);
    if (std::isfinite(s.worst_clearance_t)) line += " at t=" + fmt(s.worst_clearance_t);
    if (!s.worst_clearance_object.empty()) {
      line += " (" + clean_text(s.worst_clearance_object);
      if (!s.worst_clearance_with.empty())
        line += " \xE2\x80\x93 " + clean_text(s.worst_clearance_with);
      line += ")";
    }
  }
  line += dot + (s.continuous ? "continuous check" : "discrete check");
  if (s.clearance > 0) line += ", clearance " + fmt(s.clearance);
  if (s.continuous && s.time_tolerance > 0) line += ", time tolerance " + fmt(s.time_tolerance);
  line += dot + fmt(s.time_s, 4) + " s on " + count_of(s.threads, "thread", "threads");
  return line;
}

struct LegendEntry {
  enum Kind { line, band_red, band_orange, hit_line, dot, dashed } kind;
  std::uint32_t object = 0;
  std::string text;
};

void draw_legend(cairo_t* cr, double x, double y, double width, double bottom,
                 const std::vector<LegendEntry>& entries) {
  constexpr double kRow = 20;
  set_font(cr, 12);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double cy = y + kRow * static_cast<double>(i) + kRow / 2;
    const LegendEntry& e = entries[i];
    if (cy + kRow > bottom && i + 1 < entries.size()) {
      set_colour(cr, kGrey);
      draw_text(cr, x, cy, "\xE2\x80\xA6 " + std::to_string(entries.size() - i) + " more", 0);
      return;
    }
    switch (e.kind) {
      case LegendEntry::line:
        set_series_style(cr, e.object);
        cairo_move_to(cr, x, cy);
        cairo_line_to(cr, x + 24, cy);
        cairo_stroke(cr);
        cairo_set_dash(cr, nullptr, 0, 0);
        break;
      case LegendEntry::band_red:
      case LegendEntry::band_orange:
        set_colour(cr, e.kind == LegendEntry::band_red ? kRed : kOrange, 0.25);
        cairo_rectangle(cr, x, cy - 6, 24, 12);
        cairo_fill(cr);
        break;
      case LegendEntry::hit_line:
        set_colour(cr, kRed, 0.85);
        cairo_set_line_width(cr, 1.4);
        cairo_move_to(cr, x + 12.5, cy - 8);
        cairo_line_to(cr, x + 12.5, cy + 8);
        cairo_stroke(cr);
        break;
      case LegendEntry::dot:
        cairo_arc(cr, x + 12, cy, 3.6, 0, 2 * std::numbers::pi);
        set_colour(cr, kRed);
        cairo_fill(cr);
        break;
      case LegendEntry::dashed: {
        static constexpr double kDash[2] = {5, 3};
        set_colour(cr, kGrey);
        cairo_set_line_width(cr, 1.2);
        cairo_set_dash(cr, kDash, 2, 0);
        cairo_move_to(cr, x, cy);
        cairo_line_to(cr, x + 24, cy);
        cairo_stroke(cr);
        cairo_set_dash(cr, nullptr, 0, 0);
        break;
      }
    }
    set_colour(cr, kInk);
    draw_text(cr, x + 32, cy, fitted(cr, e.text, width - 32), 0);
  }
}

void draw_plot(cairo_t* cr, const PathReport& report) {
  const std::vector<Series> series = series_of(report);
  const Bands bands = bands_of(report);
  const PathSummary& summary = report.summary;
  const bool has_clearance = summary.clearance > 0 && summary.clearance < kHuge;

  // Legend entries, which size the right column.
  std::vector<LegendEntry> legend;
  bool any_collision_sample = false;
  for (const Series& s : series) {
    legend.push_back({LegendEntry::line, s.object, object_name(report, s.object)});
    for (const Point& p : s.time) any_collision_sample |= p.collides;
    for (const Point& p : s.distance) any_collision_sample |= p.collides;
  }
  if (!bands.colliding.empty()) legend.push_back({LegendEntry::band_red, 0, "colliding segment"});
  if (!bands.hits.empty()) legend.push_back({LegendEntry::hit_line, 0, "first contact (t_hit)"});
  if (!bands.undecided.empty()) {
    legend.push_back({LegendEntry::band_orange, 0, "undecided segment"});
  }
  if (any_collision_sample) legend.push_back({LegendEntry::dot, 0, "colliding sample"});
  if (has_clearance) legend.push_back({LegendEntry::dashed, 0, "clearance"});

  set_font(cr, 12);
  double legend_width = 0;
  for (const LegendEntry& e : legend) legend_width = std::max(legend_width, text_width(cr, e.text));
  legend_width = std::clamp(legend_width + 32, 120.0, 230.0);

  // Vertical layout: titles, two panels, x labels.
  constexpr double kTop = 70, kBottom = 58, kGap = 20;
  const double panels_h = kHeight - kTop - kBottom - kGap;
  Panel top, bottom;
  top.rect = {0, kTop, 0, std::floor(panels_h * 0.5)};
  bottom.rect = {0, top.rect.y + top.rect.h + kGap, 0, panels_h - top.rect.h};
  top.y = query_time_axis(series);
  bottom.y = distance_axis(series, summary.clearance);
  top.y_ticks = ticks_of(top.y, static_cast<int>(top.rect.h / 45));
  bottom.y_ticks = ticks_of(bottom.y, static_cast<int>(bottom.rect.h / 45));
  top.title = top.y.log ? "query time (\xC2\xB5s, log scale)" : "query time (\xC2\xB5s)";
  bottom.title = "least distance";

  // Horizontal layout: y title, y labels, plot, legend.
  set_font(cr, 11.5);
  double label_w = 0;
  for (const Panel* p : {&top, &bottom}) {
    for (const Tick& t : p->y_ticks) label_w = std::max(label_w, text_width(cr, t.label));
  }
  label_w = std::min(label_w, 160.0);
  const double left = 16 + 16 + 10 + label_w + 8;
  const double right = legend.empty() ? 24 : legend_width + 40;
  for (Panel* p : {&top, &bottom}) {
    p->rect.x = left;
    p->rect.w = kWidth - left - right;
  }
  const Axis x = time_axis(report);
  const std::vector<Tick> x_ticks = fitting_x_ticks(cr, x, top.rect.w);

  for (Panel* p : {&top, &bottom}) {
    const Rect& r = p->rect;
    draw_grid(cr, r, x_ticks, p->y_ticks);
    cairo_save(cr);
    cairo_rectangle(cr, r.x, r.y, r.w, r.h);
    cairo_clip(cr);
    draw_bands(cr, r, x, bands);
    if (p == &bottom && has_clearance) {
      static constexpr double kDash[2] = {5, 3};
      set_colour(cr, kGrey);
      cairo_set_line_width(cr, 1.2);
      cairo_set_dash(cr, kDash, 2, 0);
      const double py = std::round(r.py(p->y, summary.clearance)) + 0.5;
      cairo_move_to(cr, r.x, py);
      cairo_line_to(cr, r.x + r.w, py);
      cairo_stroke(cr);
      cairo_set_dash(cr, nullptr, 0, 0);
    }
    bool any = false;
    for (const Series& s : series) {
      const std::vector<Point>& points = p == &top ? s.time : s.distance;
      any |= !points.empty();
      draw_series(cr, r, x, p->y, points, s.object);
    }
    for (const Series& s : series) {
      draw_collision_dots(cr, r, x, p->y, p == &top ? s.time : s.distance);
    }
    cairo_restore(cr);
    if (!any) {
      draw_note(cr, r,
                report.samples.empty() ? "no samples"
                                       : (p == &top ? "no query times" : "no distances computed"));
    }
    draw_frame_and_ticks(cr, r, x_ticks, p->y_ticks, p == &bottom);
    draw_y_title(cr, 16 + 8, r, p->title);
  }

  // X axis title, centred under the plots.
  set_font(cr, 12.5);
  set_colour(cr, kInk);
  draw_text(cr, bottom.rect.x + bottom.rect.w / 2, kHeight - 17, "t (trajectory time)", 0.5);

  // Titles, left-aligned with the plots.
  const double title_w = kWidth - left - 24;
  set_font(cr, 16, true);
  set_colour(cr, kInk);
  draw_text(cr, left, 24, fitted(cr, headline(summary), title_w), 0);
  set_font(cr, 12.5);
  set_colour(cr, kGrey);
  draw_text(cr, left, 48, fitted(cr, details(summary), title_w), 0);

  if (!legend.empty()) {
    const double lx = kWidth - right + 20;
    draw_legend(cr, lx, top.rect.y, legend_width, bottom.rect.y + bottom.rect.h, legend);
  }
}

}  // namespace

void write_path_plot(const PathReport& report, const std::string& path) {
  write_outputs_atomic({{path, [&](AtomicFileWriter& f) { write_path_plot(report, f); }}});
}

void write_path_plot(const PathReport& report, AtomicFileWriter& file) {
  std::string desc = details(report.summary) + ". Objects:";
  for (std::size_t i = 0; i < report.objects.size(); ++i) {
    desc += (i == 0 ? " " : ", ") + clean_text(report.objects[i]);
  }
  write_plot(
      file, [&](cairo_t* cr) { draw_plot(cr, report); }, headline(report.summary), desc);
}

}  // namespace kdop
