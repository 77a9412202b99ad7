// The NC plot (cairo): where on the part the findings are, and when in the program.
//
// Layout (pixels of the 1200 x 700 canvas):
//   title line (program, moves, findings per kind) and a grey line (deepest gouge, first finding,
//   tolerance, stock caveat, run time);
//   left: plan view, XY at one scale for both axes, as wide as the setup needs (380 to 640 px):
//   the solids' bounding boxes (stock, part, fixtures; named), rapids dashed grey, cutting moves
//   blue, findings on top (collision: red circle, rapid into material: orange diamond, gouge:
//   purple square); findings on consecutive moves with the same kind and object form a run,
//   labelled once ("L24-26") where a label fits away from the other labels (at most 24);
//   right, sharing the x axis (move index, ticks named by the program line of that move): the
//   tip's z with the stock and part tops dashed and the findings marked; under it a strip with a
//   row per kind of finding, a tick per finding;
//   bottom: the legend.
// Ranges follow the cutting moves, the solids and the findings: rapids far away (a G28 home) run
// off the panel instead of shrinking the work to a dot.
// Size: 100,000 moves draw in about 0.1 s into about 200 kB of SVG (2.5 MB unmerged).
// Segments are clipped to the panel, points within half a pixel of the last drawn one are dropped
// and straight runs are merged while every merged point stays within a quarter pixel of the run
// (a sleeve: the run's direction must stay inside every point's cone). Arcs are sampled to a
// quarter pixel. The z profile of a program with more moves than half the panel's pixels is drawn
// as one z range per pixel column. Markers share 4-5 px cells, so a dense cluster of findings
// stays a few hundred shapes.
#include "io/nc_plot.hpp"

#include <cairo.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "io/plot_canvas.hpp"

namespace kdop {
namespace {

using namespace plot;

constexpr Rgb kCut = kPalette[0];
constexpr Rgb kRapid{0.60, 0.60, 0.60};
constexpr Rgb kPurple{0.55, 0.15, 0.65};
constexpr double kTop = 70, kPanelBottom = 620;
constexpr double kStripRow = 20, kStripGap = 20;
constexpr std::size_t kMaxLabels = 24;
constexpr double kSleeve = 0.25;  // px: how far a merged point may stray from its run

// ---- styles ----------------------------------------------------------------------------------

struct KindStyle {
  Rgb colour;
  const char* name;
};

// Indexed by NcFindingKind.
constexpr std::array<KindStyle, 3> kKinds = {
    {{kRed, "collision"}, {kOrange, "rapid into material"}, {kPurple, "gouge"}}};

const KindStyle& style_of(NcFindingKind kind) {
  return kKinds[static_cast<std::size_t>(kind)];
}

struct RoleStyle {
  Rgb fill, line, text;
  double width;
};

RoleStyle role_style(const std::string& role) {
  if (role == "stock") return {{0.97, 0.93, 0.84}, {0.60, 0.45, 0.22}, {0.45, 0.32, 0.12}, 3};
  if (role == "part") return {{0.84, 0.93, 0.82}, kPalette[1], {0.10, 0.42, 0.10}, 1.2};
  return {{0.86, 0.86, 0.89}, {0.35, 0.35, 0.42}, {0.25, 0.25, 0.30}, 1.5};
}

// Adds a marker's outline to the path: collision a circle, rapid into material a diamond, gouge a
// square.
void marker_path(cairo_t* cr, NcFindingKind kind, double x, double y, double r) {
  cairo_new_sub_path(cr);
  switch (kind) {
    case NcFindingKind::collision:
      cairo_arc(cr, x, y, r, 0, 2 * std::numbers::pi);
      break;
    case NcFindingKind::rapid_into_material:
      cairo_move_to(cr, x, y - 1.25 * r);
      cairo_line_to(cr, x + 1.25 * r, y);
      cairo_line_to(cr, x, y + 1.25 * r);
      cairo_line_to(cr, x - 1.25 * r, y);
      cairo_close_path(cr);
      break;
    case NcFindingKind::gouge:
      cairo_rectangle(cr, x - 0.9 * r, y - 0.9 * r, 1.8 * r, 1.8 * r);
      break;
  }
}

struct Px {
  double x, y;
};

// The markers of one kind as one shape: all white rims, then all fills, so that a cluster reads
// as one blob with a rim.
void draw_markers(cairo_t* cr, NcFindingKind kind, const std::vector<Px>& at, double r) {
  if (at.empty()) return;
  cairo_new_path(cr);
  for (const Px& p : at) marker_path(cr, kind, p.x, p.y, r);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_set_line_width(cr, 2);
  cairo_stroke_preserve(cr);
  set_colour(cr, style_of(kind).colour);
  cairo_fill(cr);
}

// Gouges first, collisions last: the smaller shapes stay visible on the larger.
constexpr std::array<NcFindingKind, 3> kDrawOrder = {
    NcFindingKind::gouge, NcFindingKind::rapid_into_material, NcFindingKind::collision};

// ---- strokes ---------------------------------------------------------------------------------

double distance(Px a, Px b) {
  return std::hypot(b.x - a.x, b.y - a.y);
}

// Clips a-b to `r` (Liang-Barsky); false when nothing is left or a coordinate is not finite.
bool clip_segment(const Rect& r, Px& a, Px& b) {
  if (!std::isfinite(a.x) || !std::isfinite(a.y) || !std::isfinite(b.x) || !std::isfinite(b.y)) {
    return false;
  }
  const double dx = b.x - a.x, dy = b.y - a.y;
  const std::array<double, 4> p = {-dx, dx, -dy, dy};
  const std::array<double, 4> q = {a.x - r.x, r.x + r.w - a.x, a.y - r.y, r.y + r.h - a.y};
  double t0 = 0, t1 = 1;
  for (std::size_t i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
    } else if (p[i] < 0) {
      t0 = std::max(t0, q[i] / p[i]);
    } else {
      t1 = std::min(t1, q[i] / p[i]);
    }
  }
  if (t0 > t1) return false;
  const Px from = a;
  a = {from.x + t0 * dx, from.y + t0 * dy};
  b = {from.x + t1 * dx, from.y + t1 * dy};
  return true;
}

// Polylines in pixels with what nobody can see left out (see the top of the file). The points of
// sub-path k are points[starts[k]] up to the next start.
class Stroke {
 public:
  explicit Stroke(const Rect& clip) : clip_(clip) {}

  // A straight piece from a to b; it continues the current sub-path when a is where the last
  // piece ended and neither was clipped there.
  void segment(Px a, Px b) {
    const bool joined = open_ && a.x == end_.x && a.y == end_.y;
    end_ = b;
    Px ca = a, cb = b;
    open_ = clip_segment(clip_, ca, cb);
    if (!open_) return;
    if (!joined || ca.x != a.x || ca.y != a.y) start(ca);
    extend(cb);
    open_ = cb.x == b.x && cb.y == b.y;
  }

  // Appends the sub-paths to cairo's current path.
  void add_to(cairo_t* cr) const {
    for (std::size_t k = 0; k < starts_.size(); ++k) {
      const std::size_t stop = k + 1 < starts_.size() ? starts_[k + 1] : points_.size();
      cairo_move_to(cr, points_[starts_[k]].x, points_[starts_[k]].y);
      for (std::size_t i = starts_[k] + 1; i < stop; ++i) {
        cairo_line_to(cr, points_[i].x, points_[i].y);
      }
    }
  }

 private:
  void start(Px p) {
    starts_.push_back(points_.size());
    points_.push_back(p);
    run_ = false;
  }

  void extend(Px p) {
    if (distance(points_.back(), p) < 0.5) return;
    if (run_) {
      const double d = distance(anchor_, p);
      const double rel = std::remainder(std::atan2(p.y - anchor_.y, p.x - anchor_.x) - base_,
                                        2 * std::numbers::pi);
      if (d >= reach_ && rel >= lo_ && rel <= hi_) {
        points_.back() = p;
        narrow(d, rel);
        return;
      }
    }
    anchor_ = points_.back();
    points_.push_back(p);
    base_ = std::atan2(p.y - anchor_.y, p.x - anchor_.x);
    lo_ = -std::numbers::pi;
    hi_ = std::numbers::pi;
    narrow(distance(anchor_, p), 0);
    run_ = true;
  }

  // Keeps the run's directions (from the anchor) that pass within kSleeve of a point at
  // distance d and angle rel.
  void narrow(double d, double rel) {
    const double half = std::asin(std::min(1.0, kSleeve / d));
    lo_ = std::max(lo_, rel - half);
    hi_ = std::min(hi_, rel + half);
    reach_ = d;
  }

  Rect clip_;
  std::vector<Px> points_;
  std::vector<std::size_t> starts_;
  Px end_{0, 0};       // where the last piece ended, before clipping
  bool open_ = false;  // the current sub-path ends at end_
  bool run_ = false;   // the last point may still slide along its run
  Px anchor_{0, 0};
  double base_ = 0, lo_ = 0, hi_ = 0, reach_ = 0;
};

// Strokes the two strokes of a panel: rapids thin, grey and dashed, then cutting moves blue.
void stroke_moves(cairo_t* cr, const Stroke& rapids, const Stroke& cuts) {
  static constexpr double kDash[2] = {4, 3};
  cairo_new_path(cr);
  rapids.add_to(cr);
  set_colour(cr, kRapid);
  cairo_set_line_width(cr, 1);
  cairo_set_dash(cr, kDash, 2, 0);
  cairo_stroke(cr);
  cairo_set_dash(cr, nullptr, 0, 0);
  cuts.add_to(cr);
  set_colour(cr, kCut);
  cairo_set_line_width(cr, 1.4);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_stroke(cr);
}

// ---- data ------------------------------------------------------------------------------------

// Grows over finite points; clamped so that spans stay finite.
struct Extent {
  double lo = INFINITY, hi = -INFINITY;
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, clamped(v));
    hi = std::max(hi, clamped(v));
  }
  bool empty() const { return !(lo <= hi); }
};

struct Marker {
  std::array<double, 3> at;  // machine mm
  double move;               // move index plus the fraction along the move
  NcFindingKind kind;
  std::uint32_t line;
};

// Where along the move the point is, in [0, 1]: the nearest of 64 samples of an arc, the
// projection onto a line.
double fraction_along(const NcMove& m, const std::array<double, 3>& p) {
  if (m.kind == NcMoveKind::arc) {
    std::vector<std::array<double, 3>> samples;
    sample_move(m, 64, samples);
    std::size_t best = 0;
    double best_d = INFINITY;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const double d = std::hypot(samples[i][0] - p[0], samples[i][1] - p[1], samples[i][2] - p[2]);
      if (d < best_d) best_d = d, best = i;
    }
    return static_cast<double>(best) / 64;
  }
  double dot = 0, len2 = 0;
  for (int i = 0; i < 3; ++i) {
    dot += (p[i] - m.start[i]) * (m.end[i] - m.start[i]);
    len2 += (m.end[i] - m.start[i]) * (m.end[i] - m.start[i]);
  }
  const double f = dot / len2;
  return std::isfinite(f) ? std::clamp(f, 0.0, 1.0) : 0.5;
}

std::vector<Marker> markers_of(const NcProgram& program, const NcReport& report) {
  std::vector<Marker> out;
  out.reserve(report.findings.size());
  for (const NcFinding& f : report.findings) {
    double at = static_cast<double>(f.move) + 0.5;
    if (f.move < program.moves.size()) {
      at = static_cast<double>(f.move) + fraction_along(program.moves[f.move], f.position);
    }
    out.push_back({f.position, at, f.kind, f.line});
  }
  return out;
}

// Marker positions by kind inside `r`, one per `cell` x `cell` pixels (the marker's radius, so
// that a cluster still looks solid): thousands of findings along a few passes stay a few hundred
// shapes.
std::array<std::vector<Px>, 3> marker_cells(const std::vector<Marker>& markers, const Rect& r,
                                            double cell,
                                            const std::function<Px(const Marker&)>& to_px) {
  std::array<std::vector<Px>, 3> out;
  std::set<std::tuple<NcFindingKind, long, long>> cells;
  for (const Marker& m : markers) {
    const Px p = to_px(m);
    if (!(p.x >= r.x && p.x <= r.x + r.w && p.y >= r.y && p.y <= r.y + r.h)) continue;
    if (!cells.insert({m.kind, std::lround(p.x / cell), std::lround(p.y / cell)}).second) continue;
    out[static_cast<std::size_t>(m.kind)].push_back(p);
  }
  return out;
}

// The XY range of the work: solids, cutting moves (arcs by their whole circle) and findings;
// the rapids only when there is nothing else.
std::pair<Extent, Extent> plan_extent(const NcProgram& program, const NcReport& report) {
  Extent x, y;
  for (const NcSolidExtent& s : report.solids) {
    x.add(s.lo[0]), x.add(s.hi[0]), y.add(s.lo[1]), y.add(s.hi[1]);
  }
  for (const NcFinding& f : report.findings) x.add(f.position[0]), y.add(f.position[1]);
  for (const bool rapids : {false, true}) {
    if (rapids && !x.empty() && !y.empty()) break;
    for (const NcMove& m : program.moves) {
      if (is_rapid(m.kind) != rapids) continue;
      for (const auto& p : {m.start, m.end}) x.add(p[0]), y.add(p[1]);
      if (m.kind == NcMoveKind::arc) {
        const double r = arc_radius(m);
        x.add(m.centre[0] - r), x.add(m.centre[0] + r), y.add(m.centre[1] - r);
        y.add(m.centre[1] + r);
      }
    }
  }
  return {x, y};
}

// The z range: cutting moves, stock, part and findings, then rapids unless they are more than
// twice that range above it (or one range below).
Extent z_extent(const NcProgram& program, const NcReport& report) {
  Extent z;
  for (const NcSolidExtent& s : report.solids) {
    if (s.role != "fixture") z.add(s.lo[2]), z.add(s.hi[2]);
  }
  for (const NcFinding& f : report.findings) z.add(f.position[2]);
  for (const NcMove& m : program.moves) {
    if (!is_rapid(m.kind)) z.add(m.start[2]), z.add(m.end[2]);
  }
  const Extent core = z;
  const double span = core.empty() ? 0 : std::max(core.hi - core.lo, 1.0);
  for (const NcMove& m : program.moves) {
    if (!is_rapid(m.kind)) continue;
    for (const double v : {m.start[2], m.end[2]}) {
      if (core.empty() || (v >= core.lo - span && v <= core.hi + 2 * span)) z.add(v);
    }
  }
  return z;
}

// An axis over the extent with a margin of `pad` of its span on both sides.
Axis padded_axis(const Extent& e, double pad) {
  if (e.empty()) return {0, 1, false};
  const Axis a = linear_axis(e.lo, e.hi);
  const double m = (a.hi - a.lo) * pad;
  return {a.lo - m, a.hi + m, false};
}

// Pixels without the clamping of Axis::frac (segments are clipped instead).
Px pixel(const Rect& r, const Axis& x, const Axis& y, double vx, double vy) {
  return {r.x + (vx - x.lo) / (x.hi - x.lo) * r.w, r.y + r.h - (vy - y.lo) / (y.hi - y.lo) * r.h};
}

Rect grown(const Rect& r, double by) {
  return {r.x - by, r.y - by, r.w + 2 * by, r.h + 2 * by};
}

// Enough chords that none strays more than a quarter pixel from the arc.
std::uint32_t chords_for(const NcMove& m, double px_per_mm) {
  if (m.kind != NcMoveKind::arc) return 1;
  const double r = arc_radius(m) * px_per_mm;
  const double step = r > 2 * kSleeve ? 2 * std::acos(1 - kSleeve / r) : std::numbers::pi / 2;
  const double n = std::ceil(std::fabs(arc_sweep(m)) / std::min(step, std::numbers::pi / 8));
  return static_cast<std::uint32_t>(std::clamp(n, 1.0, 100000.0));
}

// ---- labels ----------------------------------------------------------------------------------

// "L16": line 16 of the program. (Appended, not "L" + ...: GCC 12 warns about that falsely.)
std::string line_label(std::uint32_t line) {
  std::string s = "L";
  s += std::to_string(line);
  return s;
}

struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// Greedy label placement: a label goes where it fits inside `bounds` without covering a marker
// or another label.
struct LabelSpace {
  Rect bounds;
  std::vector<Box> taken;

  bool take(const Box& b) {
    if (b.x0 < bounds.x || b.y0 < bounds.y || b.x1 > bounds.x + bounds.w ||
        b.y1 > bounds.y + bounds.h) {
      return false;
    }
    for (const Box& t : taken) {
      if (t.overlaps(b)) return false;
    }
    taken.push_back(b);
    return true;
  }
};

// Text on a pale backing, so that it reads over the tool path. (A halo stroked around the glyph
// outlines would look better, but in SVG every such label costs 10 kB of outlines.)
void draw_backed_text(cairo_t* cr, double x, double y, const std::string& s, Rgb colour) {
  const double w = text_width(cr, s);
  cairo_new_path(cr);
  cairo_rectangle(cr, x - 2, y - 7, w + 4, 14);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
  cairo_fill(cr);
  set_colour(cr, colour);
  draw_text(cr, x, y, s, 0);
}

// ---- plan view -------------------------------------------------------------------------------

struct PlanView {
  Rect rect;
  Axis x, y;
  Px at(double vx, double vy) const { return pixel(rect, x, y, vx, vy); }
  double px_per_mm() const { return rect.w / (x.hi - x.lo); }
};

// Axes over the extent at one scale: the longer side fills the rectangle, the other is centred.
void fit_equal(PlanView& v, const Extent& ex, const Extent& ey) {
  const Axis ax = padded_axis(ex, 0.05), ay = padded_axis(ey, 0.05);
  const double scale = std::min(v.rect.w / (ax.hi - ax.lo), v.rect.h / (ay.hi - ay.lo));
  const double cx = (ax.lo + ax.hi) / 2, cy = (ay.lo + ay.hi) / 2;
  const double hx = v.rect.w / scale / 2, hy = v.rect.h / scale / 2;
  v.x = {cx - hx, cx + hx, false};
  v.y = {cy - hy, cy + hy, false};
}

void draw_solids(cairo_t* cr, const PlanView& v, const NcReport& report, LabelSpace& labels) {
  struct Drawn {
    Box box;
    const NcSolidExtent* solid;
  };
  std::vector<Drawn> drawn;
  const Box clip{v.rect.x - 10, v.rect.y - 10, v.rect.x + v.rect.w + 10, v.rect.y + v.rect.h + 10};
  for (const NcSolidExtent& s : report.solids) {
    const Px a = v.at(s.lo[0], s.hi[1]), b = v.at(s.hi[0], s.lo[1]);
    if (std::isnan(a.x) || std::isnan(a.y) || std::isnan(b.x) || std::isnan(b.y)) continue;
    drawn.push_back({{std::clamp(std::round(a.x), clip.x0, clip.x1),
                      std::clamp(std::round(a.y), clip.y0, clip.y1),
                      std::clamp(std::round(b.x), clip.x0, clip.x1),
                      std::clamp(std::round(b.y), clip.y0, clip.y1)},
                     &s});
  }
  for (const auto& [b, solid] : drawn) {
    set_colour(cr, role_style(solid->role).fill, solid->role == "stock" ? 1 : 0.6);
    cairo_rectangle(cr, b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0);
    cairo_fill(cr);
  }
  // Outlines after every fill, so that a part as large as the stock still shows both.
  for (const auto& [b, solid] : drawn) {
    const RoleStyle style = role_style(solid->role);
    set_colour(cr, style.line);
    cairo_set_line_width(cr, style.width);
    // On pixel centres: a 3 px line covers 3 whole pixels.
    cairo_rectangle(cr, b.x0 + 0.5, b.y0 + 0.5, b.x1 - b.x0, b.y1 - b.y0);
    cairo_stroke(cr);
  }
  // Names inside a corner, else above or below the box.
  set_font(cr, 11.5, true);
  for (const auto& [b, solid] : drawn) {
    const std::string name = fitted(cr, clean_text(solid->name), 160);
    const double w = text_width(cr, name), h = 14;
    const std::array<Px, 6> corners = {{{b.x0 + 5, b.y0 + 4},
                                        {b.x1 - 5 - w, b.y0 + 4},
                                        {b.x0 + 5, b.y1 - 4 - h},
                                        {b.x1 - 5 - w, b.y1 - 4 - h},
                                        {b.x0, b.y0 - 3 - h},
                                        {b.x0, b.y1 + 3}}};
    for (const Px& c : corners) {
      if (labels.take({c.x, c.y, c.x + w, c.y + h})) {
        draw_backed_text(cr, c.x, c.y + h / 2, name, role_style(solid->role).text);
        break;
      }
    }
  }
}

void draw_plan_path(cairo_t* cr, const PlanView& v, const NcProgram& program) {
  Stroke rapids(grown(v.rect, 3)), cuts(grown(v.rect, 3));
  std::vector<std::array<double, 3>> samples;
  const double scale = v.px_per_mm();
  for (const NcMove& m : program.moves) {
    Stroke& stroke = is_rapid(m.kind) ? rapids : cuts;
    if (m.kind != NcMoveKind::arc) {
      stroke.segment(v.at(m.start[0], m.start[1]), v.at(m.end[0], m.end[1]));
      continue;
    }
    samples.clear();
    sample_move(m, chords_for(m, scale), samples);
    for (std::size_t i = 1; i < samples.size(); ++i) {
      stroke.segment(v.at(samples[i - 1][0], samples[i - 1][1]),
                     v.at(samples[i][0], samples[i][1]));
    }
  }
  stroke_moves(cr, rapids, cuts);
}

// The plan view's markers; returns the boxes they cover.
std::vector<Box> draw_plan_markers(cairo_t* cr, const PlanView& v,
                                   const std::vector<Marker>& markers) {
  const auto at =
      marker_cells(markers, v.rect, 5, [&](const Marker& m) { return v.at(m.at[0], m.at[1]); });
  std::vector<Box> boxes;
  for (const NcFindingKind kind : kDrawOrder) {
    const std::vector<Px>& points = at[static_cast<std::size_t>(kind)];
    draw_markers(cr, kind, points, 5);
    for (const Px& p : points) boxes.push_back({p.x - 6, p.y - 6, p.x + 6, p.y + 6});
  }
  return boxes;
}

// Findings on consecutive moves with the same kind and object share a label ("L30069-30112").
struct Run {
  std::size_t first, last;  // indices into the findings
};

std::vector<Run> runs_of(const NcReport& report) {
  std::vector<Run> runs;
  std::map<std::pair<NcFindingKind, std::string>, std::size_t> open;
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    const NcFinding& f = report.findings[i];
    const auto it = open.find({f.kind, f.object});
    if (it != open.end() && f.move <= report.findings[runs[it->second].last].move + 1) {
      runs[it->second].last = i;
    } else {
      open[{f.kind, f.object}] = runs.size();
      runs.push_back({i, i});
    }
  }
  return runs;
}

std::string run_label(const NcReport& report, const Run& run) {
  const std::uint32_t a = report.findings[run.first].line, b = report.findings[run.last].line;
  return a == b ? line_label(a) : line_label(a) + "\xE2\x80\x93" + std::to_string(b);
}

// The order runs are labelled in: the first finding's, the deepest gouge's, the first of each
// kind, then the rest in program order.
std::vector<std::size_t> label_order(const NcReport& report, const std::vector<Run>& runs) {
  std::vector<std::size_t> order;
  if (runs.empty()) return order;
  order.push_back(0);
  std::size_t deepest = runs.size();
  double depth = -INFINITY;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    for (std::size_t i = runs[k].first; i <= runs[k].last; ++i) {
      const NcFinding& f = report.findings[i];
      if (f.kind == NcFindingKind::gouge && f.depth > depth) depth = f.depth, deepest = k;
    }
  }
  if (deepest < runs.size()) order.push_back(deepest);
  for (const NcFindingKind kind : kDrawOrder) {
    for (std::size_t k = 0; k < runs.size(); ++k) {
      if (report.findings[runs[k].first].kind == kind) {
        order.push_back(k);
        break;
      }
    }
  }
  for (std::size_t k = 0; k < runs.size(); ++k) order.push_back(k);
  std::set<std::size_t> seen;
  std::vector<std::size_t> out;
  for (const std::size_t k : order) {
    if (seen.insert(k).second) out.push_back(k);
  }
  return out;
}

// Labels at the first marker of each run where one fits, away from the labelled ones; returns
// how many runs got one and how many there are.
std::pair<std::size_t, std::size_t> draw_plan_labels(cairo_t* cr, const PlanView& v,
                                                     const NcReport& report,
                                                     const std::vector<Marker>& markers,
                                                     LabelSpace& labels) {
  set_font(cr, 11.5, true);
  const std::vector<Run> runs = runs_of(report);
  std::vector<Px> anchors;
  for (const std::size_t k : label_order(report, runs)) {
    if (anchors.size() == kMaxLabels) break;
    const Marker& m = markers[runs[k].first];
    const Px p = v.at(m.at[0], m.at[1]);
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
    // A cluster of findings gets one label, not a stack of them.
    bool crowded = false;
    for (const Px& a : anchors) crowded = crowded || distance(a, p) < 28;
    if (crowded) continue;
    const std::string text = run_label(report, runs[k]);
    const double w = text_width(cr, text), h = 13;
    const std::array<Px, 8> spots = {{{p.x + 8, p.y - h / 2},
                                      {p.x - 8 - w, p.y - h / 2},
                                      {p.x - w / 2, p.y - 8 - h},
                                      {p.x - w / 2, p.y + 8},
                                      {p.x + 7, p.y - 6 - h},
                                      {p.x - 7 - w, p.y - 6 - h},
                                      {p.x + 7, p.y + 6},
                                      {p.x - 7 - w, p.y + 6}}};
    for (const Px& s : spots) {
      if (labels.take({s.x, s.y, s.x + w, s.y + h})) {
        draw_backed_text(cr, s.x, s.y + h / 2, text, kInk);
        anchors.push_back(p);
        break;
      }
    }
  }
  return {anchors.size(), runs.size()};
}

// ---- along the program -----------------------------------------------------------------------

struct Profile {
  Rect rect;
  Axis x, z;
};

// Dense programs: per pixel column, the z range each class of move covers there.
void draw_profile_columns(cairo_t* cr, const Profile& p, const NcProgram& program) {
  const std::size_t columns = static_cast<std::size_t>(std::ceil(p.rect.w)) + 1;
  const auto column_of = [&](double move) {
    return (move - p.x.lo) / (p.x.hi - p.x.lo) * p.rect.w;
  };
  for (const bool rapids : {true, false}) {
    std::vector<double> lo(columns, INFINITY), hi(columns, -INFINITY);
    for (std::size_t i = 0; i < program.moves.size(); ++i) {
      const NcMove& m = program.moves[i];
      if (is_rapid(m.kind) != rapids) continue;
      const double x0 = column_of(static_cast<double>(i)),
                   x1 = column_of(static_cast<double>(i + 1));
      const double z0 = std::min(m.start[2], m.end[2]), z1 = std::max(m.start[2], m.end[2]);
      const auto c0 = static_cast<std::size_t>(std::clamp(std::floor(x0), 0.0, columns - 1.0));
      const auto c1 = static_cast<std::size_t>(std::clamp(std::floor(x1), 0.0, columns - 1.0));
      for (std::size_t c = c0; c <= c1; ++c) {
        lo[c] = std::min(lo[c], z0);
        hi[c] = std::max(hi[c], z1);
      }
    }
    for (std::size_t c = 0; c < columns; ++c) {
      if (!(lo[c] <= hi[c])) continue;
      const double top = std::clamp(p.rect.py(p.z, hi[c]), p.rect.y - 2, p.rect.y + p.rect.h + 2);
      const double bottom =
          std::clamp(p.rect.py(p.z, lo[c]), p.rect.y - 2, p.rect.y + p.rect.h + 2);
      cairo_rectangle(cr, p.rect.x + static_cast<double>(c), top - 0.6, 1, bottom - top + 1.2);
    }
    set_colour(cr, rapids ? kRapid : kCut);
    cairo_fill(cr);
  }
}

// Sparse programs: every move as a line (arcs sampled), rapids dashed.
void draw_profile_lines(cairo_t* cr, const Profile& p, const NcProgram& program) {
  Stroke rapids(grown(p.rect, 3)), cuts(grown(p.rect, 3));
  std::vector<std::array<double, 3>> samples;
  for (std::size_t i = 0; i < program.moves.size(); ++i) {
    const NcMove& m = program.moves[i];
    samples.clear();
    // Only arcs about x or y change z along the way.
    const bool bends = m.kind == NcMoveKind::arc && m.plane != 17;
    sample_move(m, bends ? 32 : 1, samples);
    Stroke& stroke = is_rapid(m.kind) ? rapids : cuts;
    const double n = static_cast<double>(samples.size() - 1);
    for (std::size_t k = 1; k < samples.size(); ++k) {
      const double x0 = static_cast<double>(i) + static_cast<double>(k - 1) / n;
      const double x1 = static_cast<double>(i) + static_cast<double>(k) / n;
      stroke.segment(pixel(p.rect, p.x, p.z, x0, samples[k - 1][2]),
                     pixel(p.rect, p.x, p.z, x1, samples[k][2]));
    }
  }
  stroke_moves(cr, rapids, cuts);
}

// The stock's and the part's tops, dashed in their colours, named at the left.
void draw_tops(cairo_t* cr, const Profile& p, const NcReport& report) {
  static constexpr double kDash[2] = {6, 4};
  set_font(cr, 11);
  double last_label_y = -100;
  for (const char* role : {"stock", "part"}) {
    for (const NcSolidExtent& s : report.solids) {
      if (s.role != role || !std::isfinite(s.hi[2])) continue;
      const double frac = p.z.frac(s.hi[2]);
      if (frac < 0 || frac > 1) continue;
      const double y = std::round(p.rect.py(p.z, s.hi[2])) + 0.5;
      const RoleStyle style = role_style(role);
      set_colour(cr, style.line);
      cairo_set_line_width(cr, 1);
      cairo_set_dash(cr, kDash, 2, 0);
      cairo_move_to(cr, p.rect.x, y);
      cairo_line_to(cr, p.rect.x + p.rect.w, y);
      cairo_stroke(cr);
      cairo_set_dash(cr, nullptr, 0, 0);
      // Below the line when the previous name sits just above.
      const double ly = std::abs(y - 8 - last_label_y) < 13 ? y + 8 : y - 8;
      draw_backed_text(cr, p.rect.x + 6, ly, std::string(role) + " top", style.text);
      last_label_y = ly;
    }
  }
}

void draw_profile_markers(cairo_t* cr, const Profile& p, const std::vector<Marker>& markers) {
  const auto at = marker_cells(markers, p.rect, 4, [&](const Marker& m) {
    return Px{p.rect.px(p.x, m.move), p.rect.py(p.z, m.at[2])};
  });
  for (const NcFindingKind kind : kDrawOrder) {
    draw_markers(cr, kind, at[static_cast<std::size_t>(kind)], 4);
  }
}

// The strip's row names: "collision 3", "rapid 1", "gouge 0".
std::array<std::string, 3> strip_names(const std::vector<Marker>& markers) {
  std::array<std::size_t, 3> counts{};
  for (const Marker& m : markers) ++counts[static_cast<std::size_t>(m.kind)];
  std::array<std::string, 3> names;
  for (std::size_t k = 0; k < kKinds.size(); ++k) {
    names[k] = std::string(k == 1 ? "rapid" : kKinds[k].name) + " " + std::to_string(counts[k]);
  }
  return names;
}

// A row per kind: a tick per finding (one per pixel column), the count in the row's name.
void draw_strip(cairo_t* cr, const Rect& r, const Axis& x, const std::vector<Marker>& markers,
                const std::vector<Tick>& x_ticks) {
  draw_grid(cr, r, x_ticks, {});
  std::array<bool, 3> any{};
  for (std::size_t k = 0; k < kKinds.size(); ++k) {
    std::set<long> columns;
    for (const Marker& m : markers) {
      if (static_cast<std::size_t>(m.kind) != k) continue;
      any[k] = true;
      columns.insert(std::lround(r.px(x, m.move)));
    }
    const double y0 = r.y + kStripRow * static_cast<double>(k) + 3;
    for (const long c : columns)
      cairo_rectangle(cr, static_cast<double>(c) - 1, y0, 2, kStripRow - 6);
    set_colour(cr, kKinds[k].colour);
    cairo_fill(cr);
  }
  set_colour(cr, kGrid);
  cairo_set_line_width(cr, 1);
  for (std::size_t k = 1; k < kKinds.size(); ++k) {
    const double y = std::round(r.y + kStripRow * static_cast<double>(k)) + 0.5;
    cairo_move_to(cr, r.x, y);
    cairo_line_to(cr, r.x + r.w, y);
  }
  cairo_stroke(cr);
  draw_frame_and_ticks(cr, r, x_ticks, {}, true);
  set_font(cr, 11.5);
  const std::array<std::string, 3> names = strip_names(markers);
  for (std::size_t k = 0; k < kKinds.size(); ++k) {
    set_colour(cr, any[k] ? kInk : kGrey);
    draw_text(cr, r.x - 8, r.y + kStripRow * (static_cast<double>(k) + 0.5), names[k], 1.0);
  }
}

// ---- titles and legend -----------------------------------------------------------------------

std::string program_name(const NcProgram& program) {
  const std::string name = std::filesystem::path(program.file).filename().string();
  return clean_text(name.empty() ? program.file : name);
}

std::string headline(const NcProgram& program, const NcReport& report) {
  const NcSummary& s = report.summary;
  std::string line = program_name(program);
  line += (line.empty() ? "" : ": ") + count_of(s.moves, "move", "moves") + ", ";
  if (report.findings.empty()) return line + "no findings";
  return line + count_of(report.findings.size(), "finding", "findings") + " (" +
         count_of(s.collisions, "collision", "collisions") + ", " +
         count_of(s.rapids_into_material, "rapid into material", "rapids into material") + ", " +
         count_of(s.gouges, "gouge", "gouges") + ")";
}

std::string details(const NcReport& report) {
  const NcSummary& s = report.summary;
  const std::string dot = "  \xC2\xB7  ";
  std::string line;
  if (s.gouges > 0) line += "deepest gouge " + fmt(s.max_gouge_depth, 4) + " mm" + dot;
  if (s.first_line > 0) line += "first finding at line " + std::to_string(s.first_line) + dot;
  line += "tolerance " + fmt(s.tolerance) + " mm";
  std::size_t initial = 0;
  for (const NcFinding& f : report.findings) initial += f.initial_stock ? 1 : 0;
  if (initial > 0) {
    line += dot + std::to_string(initial) + " against the initial stock (possibly false alarms)";
  }
  if (s.unchecked_moves > 0) {
    line += dot + count_of(s.unchecked_moves, "move", "moves") + " without a tool, not checked";
  }
  line += dot + "check " + fmt(s.check_s, 3) + " s on " + count_of(s.threads, "thread", "threads");
  return line;
}

struct LegendItem {
  enum Kind { cut, rapid, solid, marker, note } kind;
  std::string text;
  std::string role;  // solid
  NcFindingKind finding = NcFindingKind::collision;
};

std::vector<LegendItem> legend_items(const NcReport& report) {
  std::vector<LegendItem> items = {{LegendItem::cut, "cutting move", "", {}},
                                   {LegendItem::rapid, "rapid", "", {}}};
  for (const char* role : {"stock", "part", "fixture"}) {
    for (const NcSolidExtent& s : report.solids) {
      if (s.role == role) {
        items.push_back({LegendItem::solid, role, role, {}});
        break;
      }
    }
  }
  for (std::size_t k = 0; k < kKinds.size(); ++k) {
    items.push_back({LegendItem::marker, kKinds[k].name, "", static_cast<NcFindingKind>(k)});
  }
  if (!report.solids.empty())
    items.push_back({LegendItem::note, "(solids: bounding boxes)", "", {}});
  return items;
}

void draw_legend(cairo_t* cr, double x, double y, double right, const NcReport& report) {
  static constexpr double kDash[2] = {4, 3};
  set_font(cr, 12);
  for (const LegendItem& item : legend_items(report)) {
    const double swatch = item.kind == LegendItem::note ? 0 : 30;
    const double w = swatch + text_width(cr, item.text);
    if (x + w > right) break;
    switch (item.kind) {
      case LegendItem::cut:
      case LegendItem::rapid:
        set_colour(cr, item.kind == LegendItem::cut ? kCut : kRapid);
        cairo_set_line_width(cr, item.kind == LegendItem::cut ? 1.6 : 1.2);
        if (item.kind == LegendItem::rapid) cairo_set_dash(cr, kDash, 2, 0);
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x + 22, y);
        cairo_stroke(cr);
        cairo_set_dash(cr, nullptr, 0, 0);
        break;
      case LegendItem::solid: {
        const RoleStyle style = role_style(item.role);
        cairo_rectangle(cr, x + 1.5, y - 6.5, 19, 13);
        set_colour(cr, style.fill);
        cairo_fill_preserve(cr);
        set_colour(cr, style.line);
        cairo_set_line_width(cr, std::min(style.width, 2.0));
        cairo_stroke(cr);
        break;
      }
      case LegendItem::marker:
        draw_markers(cr, item.finding, {{x + 11, y}}, 5);
        break;
      case LegendItem::note:
        break;
    }
    set_colour(cr, item.kind == LegendItem::note ? kGrey : kInk);
    draw_text(cr, x + swatch, y, item.text, 0);
    x += w + 22;
  }
}

// ---- the whole plot --------------------------------------------------------------------------

// Width of the widest tick label.
double labels_width(cairo_t* cr, const std::vector<Tick>& ticks) {
  set_font(cr, 11.5);
  double w = 0;
  for (const Tick& t : ticks) w = std::max(w, text_width(cr, t.label));
  return std::min(w, 120.0);
}

void draw_plot(cairo_t* cr, const NcProgram& program, const NcReport& report) {
  const std::vector<Marker> markers = markers_of(program, report);
  const auto [ex, ey] = plan_extent(program, report);
  const double panel_h = kPanelBottom - kTop;

  // Horizontal layout: plan view as wide as the work's aspect asks (380 to 640 px), then the
  // right panels, whose left margin holds z labels and the strip's row names.
  PlanView plan;
  const Axis rough_y = padded_axis(ey, 0.05);
  const double plan_left = 16 + 16 + 10 + labels_width(cr, linear_ticks(rough_y, 12)) + 8;
  const Axis rough_x = padded_axis(ex, 0.05);
  const double aspect = (rough_x.hi - rough_x.lo) / (rough_y.hi - rough_y.lo);
  const double plan_w = std::clamp(panel_h * (std::isfinite(aspect) ? aspect : 1.0), 380.0, 640.0);
  plan.rect = {plan_left, kTop, plan_w, panel_h};
  fit_equal(plan, ex, ey);

  Profile profile;
  profile.z = padded_axis(z_extent(program, report), 0.06);
  const double profile_h = panel_h - 3 * kStripRow - kStripGap;
  const std::vector<Tick> z_ticks = ticks_of(profile.z, static_cast<int>(profile_h / 45));
  set_font(cr, 11.5);
  double names_w = 0;
  for (const std::string& name : strip_names(markers))
    names_w = std::max(names_w, text_width(cr, name));
  const double right_left =
      plan.rect.x + plan.rect.w + 36 + 16 + 10 + std::max(labels_width(cr, z_ticks), names_w) + 8;
  // 32 px on the right: room for half of the last tick's label.
  profile.rect = {right_left, kTop, kWidth - 32 - right_left, profile_h};
  profile.x = linear_axis(0, static_cast<double>(std::max<std::size_t>(program.moves.size(), 1)));
  const Rect strip{right_left, kTop + profile_h + kStripGap, profile.rect.w, 3 * kStripRow};

  // Plan view.
  const std::vector<Tick> px_ticks = fitting_x_ticks(cr, plan.x, plan.rect.w);
  const std::vector<Tick> py_ticks = linear_ticks(plan.y, static_cast<int>(plan.rect.h / 50));
  draw_grid(cr, plan.rect, px_ticks, py_ticks);
  LabelSpace labels{plan.rect, {}};
  cairo_save(cr);
  cairo_rectangle(cr, plan.rect.x, plan.rect.y, plan.rect.w, plan.rect.h);
  cairo_clip(cr);
  draw_solids(cr, plan, report, labels);
  draw_plan_path(cr, plan, program);
  const std::vector<Box> marker_boxes = draw_plan_markers(cr, plan, markers);
  labels.taken.insert(labels.taken.end(), marker_boxes.begin(), marker_boxes.end());
  const auto [labelled, runs] = draw_plan_labels(cr, plan, report, markers, labels);
  cairo_restore(cr);
  if (program.moves.empty() && report.solids.empty()) draw_note(cr, plan.rect, "no moves");
  if (labelled < runs) {
    set_font(cr, 11);
    draw_backed_text(cr, plan.rect.x + 6, plan.rect.y + plan.rect.h - 10,
                     "labelled: " + std::to_string(labelled) + " of " + std::to_string(runs) +
                         " runs of findings",
                     kGrey);
  }
  draw_frame_and_ticks(cr, plan.rect, px_ticks, py_ticks, true);
  draw_y_title(cr, 16 + 8, plan.rect, "Y (mm)");

  // Along the program.
  const auto line_at = [&](double v) {
    if (program.moves.empty()) return fmt(v);
    const double i = std::clamp(std::floor(v), 0.0, static_cast<double>(program.moves.size() - 1));
    return line_label(program.moves[static_cast<std::size_t>(i)].line);
  };
  const std::vector<Tick> mx_ticks = fitting_x_ticks(cr, profile.x, profile.rect.w, line_at);
  draw_grid(cr, profile.rect, mx_ticks, z_ticks);
  cairo_save(cr);
  cairo_rectangle(cr, profile.rect.x, profile.rect.y, profile.rect.w, profile.rect.h);
  cairo_clip(cr);
  draw_tops(cr, profile, report);
  if (static_cast<double>(program.moves.size()) > profile.rect.w / 2) {
    draw_profile_columns(cr, profile, program);
  } else {
    draw_profile_lines(cr, profile, program);
  }
  draw_profile_markers(cr, profile, markers);
  cairo_restore(cr);
  if (program.moves.empty()) draw_note(cr, profile.rect, "no moves");
  draw_frame_and_ticks(cr, profile.rect, mx_ticks, z_ticks, false);
  draw_y_title(cr, plan.rect.x + plan.rect.w + 36 + 8, profile.rect, "tip Z (mm)");
  draw_strip(cr, strip, profile.x, markers, mx_ticks);

  // Axis titles, titles, legend.
  set_font(cr, 12.5);
  set_colour(cr, kInk);
  draw_text(cr, plan.rect.x + plan.rect.w / 2, kPanelBottom + 36, "X (mm)", 0.5);
  draw_text(cr, strip.x + strip.w / 2, kPanelBottom + 36, "program line (moves evenly spaced)",
            0.5);
  const double title_w = kWidth - plan.rect.x - 24;
  set_font(cr, 16, true);
  draw_text(cr, plan.rect.x, 24, fitted(cr, headline(program, report), title_w), 0);
  set_font(cr, 12.5);
  set_colour(cr, kGrey);
  draw_text(cr, plan.rect.x, 48, fitted(cr, details(report), title_w), 0);
  draw_legend(cr, plan.rect.x, kHeight - 16, kWidth - 24, report);
}

}  // namespace

void write_nc_plot(const NcProgram& program, const NcReport& report, const std::string& path) {
  write_outputs_atomic({{path, [&](AtomicFileWriter& f) { write_nc_plot(program, report, f); }}});
}

void write_nc_plot(const NcProgram& program, const NcReport& report, AtomicFileWriter& file) {
  std::string desc = headline(program, report) + ". " + details(report) + ".";
  for (std::size_t i = 0; i < report.solids.size(); ++i) {
    desc +=
        (i == 0 ? " Solids: " : ", ") + report.solids[i].name + " (" + report.solids[i].role + ")";
  }
  write_plot(
      file, [&](cairo_t* cr) { draw_plot(cr, program, report); }, headline(program, report), desc);
}

}  // namespace kdop
