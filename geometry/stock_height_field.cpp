#include "geometry/stock_height_field.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

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

// Squared distances (one square root at the end; mm-sized coordinates cannot overflow, and an
// underflow only shortens a distance).
double point_segment_distance2(Point2 p, Point2 a, Point2 b) {
  const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  double t = 0;
  if (len2 > 0) t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0);
  const double ex = p.x - (a.x + t * dx), ey = p.y - (a.y + t * dy);
  return ex * ex + ey * ey;
}

struct Rect {
  double x0, y0, x1, y1;
};

double point_rect_distance2(Point2 p, const Rect& r) {
  const double dx = std::max({r.x0 - p.x, 0.0, p.x - r.x1});
  const double dy = std::max({r.y0 - p.y, 0.0, p.y - r.y1});
  return dx * dx + dy * dy;
}

// A distance taken a little short of its computed value, for lower bounds: the square root and
// the squares round by a few ulps.
double shortened(double d2) {
  return std::sqrt(d2) * (1 - 1e-12);
}

// The times t in [0, 1] at which a + t (b - a) lies in the rectangle (Liang-Barsky clipping);
// false when there are none.
bool clip_segment(Point2 a, Point2 b, const Rect& r, double& t0, double& t1) {
  t0 = 0, t1 = 1;
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

// The least distance between a segment and a rectangle, from below: 0 when they meet, otherwise
// reached at an end of the segment or a corner of the rectangle (both are convex).
double segment_rect_distance(Point2 a, Point2 b, const Rect& r) {
  if (double t0, t1; clip_segment(a, b, r, t0, t1)) return 0;
  double d2 = std::min(point_rect_distance2(a, r), point_rect_distance2(b, r));
  const Point2 corners[4] = {{r.x0, r.y0}, {r.x1, r.y0}, {r.x0, r.y1}, {r.x1, r.y1}};
  for (const Point2& c : corners) d2 = std::min(d2, point_segment_distance2(c, a, b));
  return shortened(d2);
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

// A block's rectangle, padded outward so that it holds its cells' rectangles whatever the
// rounding of their corners: tests that skip a block must skip only what its cells would.
Rect block_rect(const StockHeightField& f, const FieldBlocks& b, std::size_t bi, std::size_t bj) {
  const double i0 = static_cast<double>(bi * b.span), j0 = static_cast<double>(bj * b.span);
  const double i1 = static_cast<double>(std::min((bi + 1) * b.span, f.nx));
  const double j1 = static_cast<double>(std::min((bj + 1) * b.span, f.ny));
  Rect r{f.x0 + f.cell_x * i0, f.y0 + f.cell_y * j0, f.x0 + f.cell_x * i1, f.y0 + f.cell_y * j1};
  const double pad =
      1e-12 * (1 + std::max({std::fabs(r.x0), std::fabs(r.x1), std::fabs(r.y0), std::fabs(r.y1)}));
  return {r.x0 - pad, r.y0 - pad, r.x1 + pad, r.y1 + pad};
}

// The grid a level's blocks are made of: the cells for level 0, else the level below's blocks.
struct Grid {
  std::size_t nx, ny;
  const std::vector<double>& top;
};
Grid grid_below(const StockHeightField& f, std::size_t level) {
  if (level == 0) return {f.nx, f.ny, f.top};
  const FieldBlocks& b = f.blocks[level - 1];
  return {b.nx, b.ny, b.top};
}

// Recomputes level `level`'s bounds over blocks [bi0, bi1) x [bj0, bj1) from the level below (the
// cells for level 0).
void refresh_level(StockHeightField& f, std::size_t level, std::size_t bi0, std::size_t bi1,
                   std::size_t bj0, std::size_t bj1) {
  FieldBlocks& b = f.blocks[level];
  const Grid below = grid_below(f, level);
  for (std::size_t bj = bj0; bj < bj1; ++bj) {
    for (std::size_t bi = bi0; bi < bi1; ++bi) {
      double m = -kInfinity;
      const std::size_t j1 = std::min((bj + 1) * kFieldBlock, below.ny);
      const std::size_t i1 = std::min((bi + 1) * kFieldBlock, below.nx);
      for (std::size_t j = bj * kFieldBlock; j < j1; ++j) {
        for (std::size_t i = bi * kFieldBlock; i < i1; ++i)
          m = std::max(m, below.top[i + below.nx * j]);
      }
      b.top[bi + b.nx * bj] = m;
    }
  }
}

// Refreshes the blocks over cells [i0, i1) x [j0, j1), every level.
void refresh_cells(StockHeightField& f, std::size_t i0, std::size_t i1, std::size_t j0,
                   std::size_t j1) {
  for (std::size_t level = 0; level < f.blocks.size() && i0 < i1 && j0 < j1; ++level) {
    i0 /= kFieldBlock, j0 /= kFieldBlock;
    i1 = (i1 + kFieldBlock - 1) / kFieldBlock, j1 = (j1 + kFieldBlock - 1) / kFieldBlock;
    refresh_level(f, level, i0, i1, j0, j1);
  }
}

// Walks the field from its coarsest blocks down to its cells. gap(rectangle, top bound) says how
// far the tool can stay above a block or cell: +infinity rules it out, and of the rest the least
// gap is visited first (where the tool goes deepest, a contact is found soonest). visit(i, j) is
// called for each cell left; the walk stops when it returns true, and then returns true.
template <class Gap, class Visit>
bool walk_block(const StockHeightField& f, std::size_t level, std::size_t bi, std::size_t bj,
                Gap& gap, Visit& visit) {
  const Grid below = grid_below(f, level);
  const std::size_t j1 = std::min((bj + 1) * kFieldBlock, below.ny);
  const std::size_t i1 = std::min((bi + 1) * kFieldBlock, below.nx);
  struct Child {
    double gap;
    std::size_t i, j;
  };
  std::array<Child, kFieldBlock * kFieldBlock> children;
  std::size_t n = 0;
  for (std::size_t j = bj * kFieldBlock; j < j1; ++j) {
    for (std::size_t i = bi * kFieldBlock; i < i1; ++i) {
      const Rect r = level == 0 ? cell_rect(f, i, j) : block_rect(f, f.blocks[level - 1], i, j);
      const double g = gap(r, below.top[i + below.nx * j]);
      if (g != kInfinity) children[n++] = {g, i, j};
    }
  }
  std::sort(children.begin(), children.begin() + n,
            [](const Child& x, const Child& y) { return x.gap < y.gap; });
  for (std::size_t k = 0; k < n; ++k) {
    const Child& c = children[k];
    if (level == 0 ? visit(c.i, c.j) : walk_block(f, level - 1, c.i, c.j, gap, visit)) return true;
  }
  return false;
}

template <class Gap, class Visit>
bool walk_cells(const StockHeightField& f, Gap&& gap, Visit&& visit) {
  if (f.blocks.empty()) {  // a field built by hand without refresh_blocks: every cell
    for (std::size_t j = 0; j < f.ny; ++j) {
      for (std::size_t i = 0; i < f.nx; ++i) {
        if (gap(cell_rect(f, i, j), f.top[i + f.nx * j]) != kInfinity && visit(i, j)) return true;
      }
    }
    return false;
  }
  const std::size_t level = f.blocks.size() - 1;
  const FieldBlocks& b = f.blocks[level];
  for (std::size_t bj = 0; bj < b.ny; ++bj) {
    for (std::size_t bi = 0; bi < b.nx; ++bi) {
      if (gap(block_rect(f, b, bi, bj), b.top[bi + b.nx * bj]) == kInfinity) continue;
      if (walk_block(f, level, bi, bj, gap, visit)) return true;
    }
  }
  return false;
}

// The times t in [0, 1] at which the axis of a tool moving from a to b can be within `radius` of
// rectangle r (Liang-Barsky clipping against r grown by the radius, padded so that rounding
// never shortens the span); false when there are none.
bool times_within(Point2 a, Point2 b, const Rect& r, double radius, double& t0, double& t1) {
  const double pad =
      radius * (1 + 1e-9) +
      1e-9 * (1 + std::max({std::fabs(r.x0), std::fabs(r.x1), std::fabs(r.y0), std::fabs(r.y1),
                            std::fabs(a.x), std::fabs(a.y), std::fabs(b.x), std::fabs(b.y)}));
  if (!clip_segment(a, b, {r.x0 - pad, r.y0 - pad, r.x1 + pad, r.y1 + pad}, t0, t1)) return false;
  t0 = std::max(0.0, t0 - 1e-9);
  t1 = std::min(1.0, t1 + 1e-9);
  return true;
}

}  // namespace

void refresh_blocks(StockHeightField& f) {
  f.blocks.clear();
  std::size_t nx = f.nx, ny = f.ny, span = 1;
  do {
    span *= kFieldBlock;
    nx = (nx + kFieldBlock - 1) / kFieldBlock;
    ny = (ny + kFieldBlock - 1) / kFieldBlock;
    f.blocks.push_back({span, nx, ny, std::vector<double>(nx * ny)});
  } while (nx > kFieldBlock || ny > kFieldBlock);
  refresh_cells(f, 0, f.nx, 0, f.ny);
}

void refresh_blocks_near(StockHeightField& f, Vec3 from, Vec3 to, double radius) {
  const CellRange r = cells_near(f, from, to, radius);
  refresh_cells(f, r.i0, r.i1, r.j0, r.j1);
}

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
  refresh_blocks(f);
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
  refresh_blocks(f);
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

namespace {

// swept_contact's walk over the field for the move from `from` to `to`.
StockContact walk_contact(const StockHeightField& field, const RevolvedSolid& solid, Vec3 from,
                          Vec3 to, double margin) {
  const double top_of_solid = highest_z(solid);
  const double radius = reach(solid);
  const Point2 a{from.x, from.y}, b{to.x, to.y};
  // The tool's lowest point over rectangle r at times [t0, t1], from below; +infinity when that
  // proves it clear of material up to `top`: above top plus the margin, or its own top below the
  // field's bottom.
  auto lowest_over = [&](const Rect& r, double t0, double t1, double top) {
    const double z0 = lerp_z(from, to, t0), z1 = lerp_z(from, to, t1);
    const double d = segment_rect_distance(lerp2(from, to, t0), lerp2(from, to, t1), r);
    // (Rounding of the interval's ends: the distance taken a little shorter still.)
    const double lower = std::min(z0, z1) + lowest_z_at(solid, d * (1 - 1e-12));
    if (lower == kInfinity || lower - slack(lower) >= top + margin) return kInfinity;
    const double z_high = std::max(z0, z1) + top_of_solid;
    if (z_high + slack(z_high) < field.z_bottom - margin) return kInfinity;
    return lower;
  };
  // A block or cell is clear when the tool's lowest point over it, at the times it can reach it,
  // proves it so; otherwise the gap is how far that point stays above the block's bound.
  auto gap = [&](const Rect& r, double bound) {
    if (bound <= field.z_bottom) return kInfinity;
    double t0, t1;
    if (!times_within(a, b, r, radius, t0, t1)) return kInfinity;
    return lowest_over(r, t0, t1, bound) - bound;
  };
  StockContact result = StockContact::clear;
  struct Interval {
    double t0, t1;
    double lower;  // the tool's lowest point over the cell in [t0, t1], from below
  };
  auto lowest_first = [](const Interval& x, const Interval& y) { return x.lower > y.lower; };
  std::vector<Interval> heap;
  auto touches = [&](std::size_t i, std::size_t j) {
    const double top = field.top[i + field.nx * j];
    const Rect r = cell_rect(field, i, j);
    const double limit = top + margin;
    auto bound = [&](double t0, double t1) { return lowest_over(r, t0, t1, top); };
    // A witness: the cell's point nearest the axis at time t, with the tool's lowest point there
    // within the margin of the material's top and its highest point within it of the bottom.
    auto witness = [&](double t) {
      const Point2 c = lerp2(from, to, t);
      const Point2 p{std::clamp(c.x, r.x0, r.x1), std::clamp(c.y, r.y0, r.y1)};
      const double at = lerp_z(from, to, t) + lowest_z_at(solid, std::hypot(p.x - c.x, p.y - c.y));
      const double up = lerp_z(from, to, t) + top_of_solid;
      return at + slack(at) < limit && up - slack(up) >= field.z_bottom - margin;
    };
    // The move's ends first (a contact that begins or ends there is found at once), then branch
    // and bound over the move's time, lowest bound first (a short window where the tool dips into
    // the cell is reached in about log2 of the move's length over the window's splits), a witness
    // at each interval's middle. The budget keeps a tool that runs along the material's top at
    // exactly the limit from splitting forever (the cell ends as `near`).
    if (witness(0) || witness(1)) return true;
    const double whole = bound(0, 1);
    if (whole == kInfinity) return false;
    // Once a cell has ended `near`, the walk's answer is `near` at least, and cells the tool can
    // reach only marginally (by the bounds over the whole move: at most 64 margins below their
    // top, or above the field's bottom) get a small budget: a tool within rounding of the limit is
    // so over many cells (a depth's bisection meets it once), and each would spend the whole
    // budget, where any contact it has is `near` anyway. A cell the tool may go deeper into keeps
    // the whole budget, so a real contact there is still shown as one.
    const double marginal = 64 * (margin + slack(limit));
    const double reach_up = std::max(from.z, to.z) + top_of_solid - (field.z_bottom - margin);
    const bool shallow = limit - whole < marginal || reach_up < marginal;
    int budget = result == StockContact::near && shallow ? 8 : 200;
    heap.assign(1, {0, 1, whole});
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), lowest_first);
      const Interval iv = heap.back();
      heap.pop_back();
      const double tm = 0.5 * (iv.t0 + iv.t1);
      if (witness(tm)) return true;
      if (--budget <= 0) {
        result = StockContact::near;
        return false;
      }
      for (const auto& [t0, t1] : {std::pair{iv.t0, tm}, std::pair{tm, iv.t1}}) {
        const double lower = bound(t0, t1);
        if (lower == kInfinity) continue;
        heap.push_back({t0, t1, lower});
        std::push_heap(heap.begin(), heap.end(), lowest_first);
      }
    }
    return false;
  };
  return walk_cells(field, gap, touches) ? StockContact::touches : result;
}

}  // namespace

StockContact swept_contact(const StockHeightField& field, const RevolvedSolid& solid, Vec3 from,
                           Vec3 to, double margin) {
  if (solid.parts.empty()) return StockContact::clear;
  // Wholly below the field's bottom all along: no material there.
  const double highest = std::max(from.z, to.z) + highest_z(solid);
  if (highest + slack(highest) < field.z_bottom - margin) return StockContact::clear;
  // The tool standing at the move's lower end first: there the walk's bounds are exact, so it
  // goes straight to the material the tool is deepest in, where the move's own bounds (the lowest
  // height over all the times the tool is near a block) would visit every cell it passed over.
  if (from.x != to.x || from.y != to.y || from.z != to.z) {
    const Vec3 low = to.z <= from.z ? to : from;
    if (walk_contact(field, solid, low, low, margin) == StockContact::touches) {
      return StockContact::touches;
    }
  }
  return walk_contact(field, solid, from, to, margin);
}

bool rise_meets_nothing_new(const StockHeightField& field, Vec3 from, double reach,
                            double column_top) {
  const double limit = from.z + column_top;
  const Point2 axis{from.x, from.y};
  auto gap = [&](const Rect& r, double bound) {
    const bool clear = bound <= field.z_bottom || bound + slack(bound) <= limit ||
                       shortened(point_rect_distance2(axis, r)) > reach;
    return clear ? kInfinity : 0.0;
  };
  auto meets = [](std::size_t, std::size_t) { return true; };
  return !walk_cells(field, gap, meets);
}

}  // namespace kdop
