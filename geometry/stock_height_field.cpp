#include "geometry/stock_height_field.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace kdop {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Rounding allowance for heights computed from mm-sized coordinates: far above the few ulps
// the formulas lose, far below any tolerance a user asks for.
double slack(double z) {
  return 1e-9 * (1 + std::fabs(z));
}

struct Point2 {
  double x = 0, y = 0;
};

Point2 lerp2(Vec3 a, Vec3 b, double t) {
  return {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
}

double lerp_z(Vec3 a, Vec3 b, double t) {
  return a.z + t * (b.z - a.z);
}

double point_segment_distance(Point2 p, Point2 a, Point2 b) {
  const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  double t = 0;
  if (len2 > 0) t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0);
  return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

struct Rect {
  double x0, y0, x1, y1;
};

double point_rect_distance(Point2 p, const Rect& r) {
  const double dx = std::max({r.x0 - p.x, 0.0, p.x - r.x1});
  const double dy = std::max({r.y0 - p.y, 0.0, p.y - r.y1});
  return std::hypot(dx, dy);
}

// Whether segment a-b meets the rectangle (Liang-Barsky clipping).
bool segment_meets_rect(Point2 a, Point2 b, const Rect& r) {
  double t0 = 0, t1 = 1;
  const double d[2] = {b.x - a.x, b.y - a.y};
  const double lo[2] = {r.x0 - a.x, r.y0 - a.y}, hi[2] = {r.x1 - a.x, r.y1 - a.y};
  for (int k = 0; k < 2; ++k) {
    if (d[k] == 0) {
      if (lo[k] > 0 || hi[k] < 0) return false;
      continue;
    }
    double ta = lo[k] / d[k], tb = hi[k] / d[k];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

// The least distance between a segment and a rectangle: 0 when they meet, otherwise reached at an
// end of the segment or a corner of the rectangle (both are convex).
double segment_rect_distance(Point2 a, Point2 b, const Rect& r) {
  if (segment_meets_rect(a, b, r)) return 0;
  double d = std::min(point_rect_distance(a, r), point_rect_distance(b, r));
  const Point2 corners[4] = {{r.x0, r.y0}, {r.x1, r.y0}, {r.x0, r.y1}, {r.x1, r.y1}};
  for (const Point2& c : corners) d = std::min(d, point_segment_distance(c, a, b));
  return d;
}

// The cells whose rectangles come within `radius` of the segment's horizontal bounding box.
struct CellRange {
  std::size_t i0 = 0, i1 = 0, j0 = 0, j1 = 0;  // half-open
};

CellRange cells_near(const StockHeightField& f, Vec3 a, Vec3 b, double radius) {
  auto range = [](double lo, double hi, double origin, double size, std::size_t n) {
    const double first = std::floor((lo - origin) / size), last = std::floor((hi - origin) / size);
    const double nn = static_cast<double>(n);
    const std::size_t i0 = static_cast<std::size_t>(std::clamp(first, 0.0, nn));
    const std::size_t i1 = static_cast<std::size_t>(std::clamp(last + 1, 0.0, nn));
    return std::pair{i0, std::max(i0, i1)};
  };
  const auto [i0, i1] =
      range(std::min(a.x, b.x) - radius, std::max(a.x, b.x) + radius, f.x0, f.cell_x, f.nx);
  const auto [j0, j1] =
      range(std::min(a.y, b.y) - radius, std::max(a.y, b.y) + radius, f.y0, f.cell_y, f.ny);
  return {i0, i1, j0, j1};
}

Rect cell_rect(const StockHeightField& f, std::size_t i, std::size_t j) {
  const double x = f.x0 + f.cell_x * static_cast<double>(i);
  const double y = f.y0 + f.cell_y * static_cast<double>(j);
  return {x, y, x + f.cell_x, y + f.cell_y};
}

}  // namespace

double cell_size_for(AxisBox box, std::size_t cells) {
  const double area = (box.hi.x - box.lo.x) * (box.hi.y - box.lo.y);
  return std::sqrt(area / static_cast<double>(std::max<std::size_t>(cells, 1)));
}

StockHeightField make_stock_height_field(AxisBox box, double cell, std::size_t max_cells) {
  if (!(box.lo.x < box.hi.x && box.lo.y < box.hi.y && box.lo.z < box.hi.z)) {
    throw std::invalid_argument("stock height field: the stock box is empty");
  }
  if (!(cell > 0) || !std::isfinite(cell)) {
    throw std::invalid_argument("stock height field: the cell size must be a number > 0");
  }
  const double nx = std::ceil((box.hi.x - box.lo.x) / cell);
  const double ny = std::ceil((box.hi.y - box.lo.y) / cell);
  if (nx * ny > static_cast<double>(max_cells)) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "stock height field: cells of %.3g mm would make %.3g cells, more than %llu",
                  cell, nx * ny, static_cast<unsigned long long>(max_cells));
    throw std::invalid_argument(text);
  }
  StockHeightField f;
  f.x0 = box.lo.x;
  f.y0 = box.lo.y;
  f.nx = static_cast<std::size_t>(nx);
  f.ny = static_cast<std::size_t>(ny);
  // Cells round outward: the grid covers the whole box.
  f.cell_x = (box.hi.x - box.lo.x) / nx * (1 + 1e-12);
  f.cell_y = (box.hi.y - box.lo.y) / ny * (1 + 1e-12);
  f.z_bottom = box.lo.z;
  f.top.assign(f.cells(), box.hi.z);
  return f;
}

namespace {

// The highest z of triangle (p0, p1, p2) over rectangle r (Sutherland-Hodgman clipping in the
// plane; z is linear over the triangle, so its maximum over the clipped polygon is at a corner),
// or -infinity when the triangle's projection misses the rectangle. A vertical triangle (zero
// projected area) counts its edges: the clipped polygon keeps the parts of them in r.
double highest_over(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Rect& r) {
  std::array<Vec3, 9> a{p0, p1, p2}, b{};
  std::size_t n = 3;
  // Clip against x >= x0, x <= x1, y >= y0, y <= y1 in turn; z follows linearly.
  for (int side = 0; side < 4 && n > 0; ++side) {
    auto inside = [&](const Vec3& p) {
      switch (side) {
        case 0:
          return p.x >= r.x0;
        case 1:
          return p.x <= r.x1;
        case 2:
          return p.y >= r.y0;
        default:
          return p.y <= r.y1;
      }
    };
    auto cross_at = [&](const Vec3& p, const Vec3& q) {
      const double pv = side < 2 ? p.x : p.y, qv = side < 2 ? q.x : q.y;
      const double edge = side == 0 ? r.x0 : side == 1 ? r.x1 : side == 2 ? r.y0 : r.y1;
      const double t = (edge - pv) / (qv - pv);
      return Vec3{p.x + t * (q.x - p.x), p.y + t * (q.y - p.y), p.z + t * (q.z - p.z)};
    };
    std::size_t m = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const Vec3& p = a[k];
      const Vec3& q = a[(k + 1) % n];
      const bool pin = inside(p), qin = inside(q);
      if (pin) b[m++] = p;
      if (pin != qin) b[m++] = cross_at(p, q);
    }
    std::swap(a, b);
    n = m;
  }
  double z = -kInfinity;
  for (std::size_t k = 0; k < n; ++k) z = std::max(z, a[k].z);
  return z;
}

}  // namespace

StockHeightField mesh_stock_height_field(const Mesh& mesh, double cell, std::size_t max_cells) {
  if (mesh.triangle_count() == 0) {
    throw std::invalid_argument("stock height field: the stock mesh is empty");
  }
  Vec3 lo{kInfinity, kInfinity, kInfinity}, hi{-kInfinity, -kInfinity, -kInfinity};
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    lo = {std::min(lo.x, mesh.x[v]), std::min(lo.y, mesh.y[v]), std::min(lo.z, mesh.z[v])};
    hi = {std::max(hi.x, mesh.x[v]), std::max(hi.y, mesh.y[v]), std::max(hi.z, mesh.z[v])};
  }
  StockHeightField f = make_stock_height_field({lo, hi}, cell, max_cells);
  std::fill(f.top.begin(), f.top.end(), f.z_bottom);  // empty until the surface reaches a cell
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const auto at = [&](std::uint32_t v) { return Vec3{mesh.x[v], mesh.y[v], mesh.z[v]}; };
    const Vec3 p[3] = {at(mesh.a[t]), at(mesh.b[t]), at(mesh.c[t])};
    const Vec3 tlo{std::min({p[0].x, p[1].x, p[2].x}), std::min({p[0].y, p[1].y, p[2].y}), 0};
    const Vec3 thi{std::max({p[0].x, p[1].x, p[2].x}), std::max({p[0].y, p[1].y, p[2].y}), 0};
    const CellRange range = cells_near(f, tlo, thi, 0);
    for (std::size_t j = range.j0; j < range.j1; ++j) {
      for (std::size_t i = range.i0; i < range.i1; ++i) {
        const double z = highest_over(p[0], p[1], p[2], cell_rect(f, i, j));
        double& top = f.top[i + f.nx * j];
        // Rounded up: the clipped corners' z are off by a few ulps.
        if (z > -kInfinity) top = std::max(top, z + slack(z));
      }
    }
  }
  return f;
}

CutterProfile make_cutter_profile(const CutterBody& cutter, std::size_t n) {
  const RevolvedSolid solid = to_solid(cutter);
  CutterProfile p;
  if (solid.parts.empty() || n == 0) return p;
  p.z_hi = cutter.z_hi;
  p.reach = reach(solid);
  p.step = p.reach / static_cast<double>(n);
  p.lowest.resize(n + 1);
  for (std::size_t k = 0; k <= n; ++k) {
    p.lowest[k] = lowest_z_at(solid, std::min(p.reach, p.step * static_cast<double>(k)));
  }
  return p;
}

void remove_swept(StockHeightField& field, const CutterProfile& cutter, Vec3 from, Vec3 to,
                  double shrink, std::size_t row_begin, std::size_t row_end) {
  if (cutter.lowest.empty()) return;
  // Every point of a cell within half a diagonal of its centre; an eroded cutter reaches as far
  // as the cutter does `shrink` farther out.
  const double widen = 0.5 * std::hypot(field.cell_x, field.cell_y) + shrink;
  const double cut_top = cutter.z_hi - shrink;
  // Cells farther than this from the axis cannot be cut (a quick test before the square root).
  const double reach_in = std::max(0.0, cutter.reach - widen),
               reach2 = reach_in * reach_in * (1 + 1e-12);
  const std::size_t last = cutter.lowest.size() - 1;
  // The cutter's lowest height at up to distance d from its axis, from above.
  auto lowest_within = [&](double d) {
    const double k = std::ceil(d / cutter.step);
    return cutter.lowest[k < static_cast<double>(last) ? static_cast<std::size_t>(k) : last];
  };
  const Point2 a{from.x, from.y}, b{to.x, to.y};
  const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  const bool level = from.z == to.z;
  const CellRange range = cells_near(field, from, to, cutter.reach);
  const std::size_t j0 = std::max(range.j0, row_begin), j1 = std::min(range.j1, row_end);
  // The lower end: on a plunge or a ramp it may cut deeper than the closest approach.
  const bool descends = to.z < from.z;
  const double low_end = descends ? 1.0 : 0.0;
  const double height_step = std::min(field.cell_x, field.cell_y);
  const bool steep = std::fabs(to.z - from.z) > height_step;
  const double x_lo = std::min(a.x, b.x), x_hi = std::max(a.x, b.x);
  for (std::size_t j = j0; j < j1; ++j) {
    const double qy = field.y0 + field.cell_y * (static_cast<double>(j) + 0.5);
    // The row's cells whose centres can be within reach: the segment's x extent widened by the
    // reach's half-chord at the row's least distance in y from the segment.
    const double gap_y = std::max({0.0, std::min(a.y, b.y) - qy, qy - std::max(a.y, b.y)});
    if (gap_y * gap_y > reach2) continue;
    const double half = std::sqrt(reach2 - gap_y * gap_y) + field.cell_x;
    const CellRange row = cells_near(field, {x_lo - half, qy, 0}, {x_hi + half, qy, 0}, 0);
    const std::size_t i0 = std::max(range.i0, row.i0), i1 = std::min(range.i1, row.i1);
    for (std::size_t i = i0; i < i1; ++i) {
      double& top = field.top[i + field.nx * j];
      if (top <= field.z_bottom) continue;
      const double qx = field.x0 + field.cell_x * (static_cast<double>(i) + 0.5);
      // Times to try (any time gives a valid bound; more only lower it): the closest approach in
      // the plane and, on a sloped move, the stretch from there toward its lower end up to where
      // the cell leaves the cutter's reach, in steps of about a cell's height change. A ramp cuts
      // a cell deepest where the cutter is lowest while still over it, not where its axis passes
      // closest (a probe's ramp kept 3 mm of material it had cut). A move that drops less than a
      // cell's height in all (a finishing pass's short moves) tries its lower end instead.
      double closest = 0, lowest_t = low_end;
      const double along = len2 > 0 ? ((qx - a.x) * dx + (qy - a.y) * dy) / len2 : 0;
      if (len2 > 0) closest = std::clamp(along, 0.0, 1.0);
      if (len2 > 0 && steep) {
        const double ex = qx - (a.x + along * dx), ey = qy - (a.y + along * dy);
        // Just inside the reach, so rounding does not put the last sample outside it.
        const double room = reach2 * (1 - 1e-9) - (ex * ex + ey * ey);
        lowest_t = room < 0
                       ? closest
                       : std::clamp(along + (descends ? 1 : -1) * std::sqrt(room / len2), 0.0, 1.0);
      }
      int steps = 0;
      if (!level) {
        const double drop = std::fabs(lerp_z(from, to, lowest_t) - lerp_z(from, to, closest));
        steps = static_cast<int>(std::min(64.0, std::ceil(drop / height_step)));
      }
      double best = top;
      for (int k = 0; k <= steps; ++k) {
        const double t = k == 0 ? closest : closest + (lowest_t - closest) * k / steps;
        const double px = a.x + t * dx, py = a.y + t * dy;
        // (sqrt, not hypot: this is the replay's inner loop, and mm-sized values cannot
        // overflow.)
        const double ex = qx - px, ey = qy - py, e2 = ex * ex + ey * ey;
        if (e2 > reach2) continue;
        const double d = std::sqrt(e2) + widen;
        if (d > cutter.reach) continue;
        const double z = lerp_z(from, to, t);
        if (z + cut_top < top) continue;  // the cut does not reach up to the material's top
        const double bound = z + lowest_within(d) + shrink;
        best = std::min(best, bound + slack(bound));
      }
      top = best;
    }
  }
}

StockContact swept_contact(const StockHeightField& field, const RevolvedSolid& solid, Vec3 from,
                           Vec3 to, double margin) {
  if (solid.parts.empty()) return StockContact::clear;
  // Wholly below the field's bottom all along: no material there.
  const double top_of_solid = highest_z(solid);
  const double highest = std::max(from.z, to.z) + top_of_solid;
  if (highest + slack(highest) < field.z_bottom - margin) return StockContact::clear;
  const double radius = reach(solid);
  const CellRange range = cells_near(field, from, to, radius);
  StockContact result = StockContact::clear;
  struct Interval {
    double t0, t1;
  };
  std::vector<Interval> stack;
  for (std::size_t j = range.j0; j < range.j1; ++j) {
    for (std::size_t i = range.i0; i < range.i1; ++i) {
      const double top = field.top[i + field.nx * j];
      if (top <= field.z_bottom) continue;
      const Rect r = cell_rect(field, i, j);
      const double limit = top + margin;
      // Branch and bound over the move's time; the budget keeps a tool that runs along the
      // material's top at exactly the limit from splitting forever (it ends as `near`).
      int budget = 200;
      stack.assign(1, {0, 1});
      while (!stack.empty()) {
        const Interval iv = stack.back();
        stack.pop_back();
        const double z_low = std::min(lerp_z(from, to, iv.t0), lerp_z(from, to, iv.t1));
        const double d = segment_rect_distance(lerp2(from, to, iv.t0), lerp2(from, to, iv.t1), r);
        const double lower = z_low + lowest_z_at(solid, d);
        // (Beyond the tool's reach the lower bound is +infinity: nothing to split.)
        if (lower == kInfinity || lower - slack(lower) >= limit) continue;
        const double z_high = std::max(lerp_z(from, to, iv.t0), lerp_z(from, to, iv.t1));
        if (z_high + top_of_solid + slack(z_high + top_of_solid) < field.z_bottom - margin)
          continue;
        // A witness: the cell's point nearest the axis at the interval's middle.
        const double tm = 0.5 * (iv.t0 + iv.t1);
        const Point2 c = lerp2(from, to, tm);
        const Point2 p{std::clamp(c.x, r.x0, r.x1), std::clamp(c.y, r.y0, r.y1)};
        const double at =
            lerp_z(from, to, tm) + lowest_z_at(solid, std::hypot(p.x - c.x, p.y - c.y));
        // The witness also needs the solid to reach up to the bottom there.
        if (at + slack(at) < limit && lerp_z(from, to, tm) + top_of_solid > field.z_bottom) {
          return StockContact::touches;
        }
        if (--budget <= 0) {
          result = StockContact::near;
          break;
        }
        stack.push_back({iv.t0, tm});
        stack.push_back({tm, iv.t1});
      }
    }
  }
  return result;
}

bool rise_meets_nothing_new(const StockHeightField& field, Vec3 from, double reach,
                            double column_top) {
  const double limit = from.z + column_top;
  const CellRange range = cells_near(field, from, from, reach);
  for (std::size_t j = range.j0; j < range.j1; ++j) {
    for (std::size_t i = range.i0; i < range.i1; ++i) {
      const double top = field.top[i + field.nx * j];
      if (top <= field.z_bottom || top + slack(top) <= limit) continue;
      if (point_rect_distance({from.x, from.y}, cell_rect(field, i, j)) <= reach) return false;
    }
  }
  return true;
}

}  // namespace kdop
