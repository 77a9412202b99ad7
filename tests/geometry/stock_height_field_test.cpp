// The stock height field: the lowest height of a revolved primitive against a brute-force scan of
// its meridian section; removal that never takes more than a cutter really sweeps (checked at
// random points of every cell against a dense sampling of the move); contact of a rapid with
// the material a pocket leaves, on hand-built cases; contact on random fields and moves against a
// dense sampling of the move over every cell, with the block bounds fresh and stale.
#include "geometry/stock_height_field.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "geometry/shapes.hpp"

namespace kdop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The lowest height at distance d by scanning the lower boundary of the frustum's meridian
// trapezoid (points (r, z), |r| up to the radius at z) and dropping the rounding disc from each.
double lowest_by_scan(const RevolvedPrimitive& p, double d) {
  const double r_max = std::max(p.r0, p.r1);
  double best = kInf;
  const int n = 40000;
  for (int k = 0; k <= n; ++k) {
    const double r = -r_max + 2 * r_max * k / n;
    const double a = std::fabs(r);
    double z;
    if (a <= p.r0) {
      z = p.z0;
    } else if (p.r1 > p.r0 && a <= p.r1) {
      z = p.z0 + (a - p.r0) * (p.z1 - p.z0) / (p.r1 - p.r0);
    } else {
      continue;
    }
    const double u = d - r;
    if (std::fabs(u) > p.rounding) continue;
    best = std::min(best, z - std::sqrt(p.rounding * p.rounding - u * u));
  }
  return best;
}

TEST(StockHeightField, LowestHeightMatchesAScanOfTheSection) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 200; ++trial) {
    RevolvedPrimitive p;
    p.z0 = 10 * u(rng) - 5;
    p.z1 = p.z0 + (trial % 5 == 0 ? 0 : 10 * u(rng));
    p.r0 = trial % 7 == 0 ? 0 : 5 * u(rng);
    p.r1 = trial % 3 == 0 ? p.r0 : 6 * u(rng);
    p.rounding = trial % 4 == 0 ? 0 : 3 * u(rng);
    if (trial % 4 == 0 && p.r0 == 0 && p.r1 == 0) p.r1 = 1;  // keep a radius to scan
    const double reach = std::max(p.r0, p.r1) + p.rounding;
    double previous = -kInf;
    for (int k = 0; k <= 60; ++k) {
      const double d = reach * 1.1 * k / 60;
      const double z = lowest_z_at(p, d);
      const double scan = lowest_by_scan(p, d);
      if (d > reach) {
        EXPECT_EQ(z, kInf);
        continue;
      }
      // The scan's points are points of the solid: the lowest is at or below each.
      EXPECT_LE(z, scan + 1e-12) << trial << " d " << d;
      // And the scan comes close to it (its step is 2 r_max / 40000; near the rounding's rim the
      // drop is steep, so allow the square root of the step there).
      if (scan < kInf) {
        EXPECT_GE(z, scan - 2e-2) << trial << " d " << d;
      }
      EXPECT_GE(z, previous) << "not non-decreasing, trial " << trial;
      previous = z;
    }
  }
}

TEST(StockHeightField, FlatEndMillFacesToItsDepth) {
  StockHeightField f = make_stock_height_field({{0, 0, -20}, {50, 40, 0}}, 0.5, 1 << 20);
  EXPECT_EQ(f.nx, 100u);
  EXPECT_EQ(f.ny, 80u);
  ToolParameters flat;
  flat.shape = CutterShape::kFlat;
  flat.diameter = 10;
  flat.cutting_length = 20;
  const CutterBody body = cutter_body(flat);
  remove_swept(f, make_cutter_profile(body), {10, 20, -3}, {40, 20, -3});
  // Cells wholly within 5 of the path's axis are cut to -3; cells the cutter's edge crosses keep
  // their top; cells beyond it are untouched.
  for (std::size_t j = 0; j < f.ny; ++j) {
    for (std::size_t i = 0; i < f.nx; ++i) {
      const double x = 0.5 * i, y = 0.5 * j, top = f.top[i + f.nx * j];
      const bool inside = x >= 10 && x + 0.5 <= 40 && y >= 16 && y + 0.5 <= 24;
      const bool beyond = x + 0.5 < 5 || x > 45 || y + 0.5 < 15 || y > 25;
      if (inside) {
        EXPECT_NEAR(top, -3, 1e-8) << i << " " << j;
      }
      if (beyond) {
        EXPECT_EQ(top, 0) << i << " " << j;
      }
    }
  }
}

// The real material's top at (x, y) after a cutter swept along [a, b]: the lowest the cutter
// reaches there, by dense sampling of the move (an upper bound of the real lowest, and close).
double swept_bottom(const RevolvedSolid& cutter, Vec3 a, Vec3 b, double x, double y) {
  double best = kInf;
  const int n = 2000;
  for (int k = 0; k <= n; ++k) {
    const double t = static_cast<double>(k) / n;
    const Vec3 p{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), a.z + t * (b.z - a.z)};
    best = std::min(best, p.z + lowest_z_at(cutter, std::hypot(x - p.x, y - p.y)));
  }
  return best;
}

TEST(StockHeightField, RemovalNeverTakesMoreThanTheCutterSweeps) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  const CutterShape shapes[] = {CutterShape::kFlat, CutterShape::kBall, CutterShape::kBullNose,
                                CutterShape::kCone};
  for (const CutterShape shape : shapes) {
    ToolParameters tool;
    tool.shape = shape;
    tool.diameter = 6;
    tool.corner_radius = 1;
    tool.included_angle = 60;
    tool.cutting_length = 15;
    const CutterBody body = cutter_body(tool);
    const RevolvedSolid cutter = to_solid(body);
    const CutterProfile profile = make_cutter_profile(body);
    StockHeightField f = make_stock_height_field({{0, 0, -10}, {20, 20, 0}}, 0.7, 1 << 20);
    // Sample points, each with the real material's top (sampled) as the moves cut it.
    std::vector<std::array<double, 3>> points;
    for (int k = 0; k < 1000; ++k) points.push_back({20 * u(rng), 20 * u(rng), 0});
    for (int move = 0; move < 12; ++move) {
      const Vec3 a{20 * u(rng), 20 * u(rng), -4 * u(rng)};
      // Lines, ramps and plunges.
      const Vec3 b = move % 4 == 0 ? Vec3{a.x, a.y, a.z - 2 * u(rng)}
                                   : Vec3{20 * u(rng), 20 * u(rng), -4 * u(rng)};
      // Every third move as an arc's chord: the cutter eroded by 0.3 is what it removes.
      const double shrink = move % 3 == 2 ? 0.3 : 0;
      remove_swept(f, profile, a, b, shrink);
      const RevolvedSolid removing = shrink > 0 ? to_solid(*eroded(body, shrink)) : cutter;
      for (auto& p : points) {
        p[2] = std::min(p[2], swept_bottom(removing, a, b, p[0], p[1]));
        const std::size_t i = std::min(f.nx - 1, static_cast<std::size_t>(p[0] / f.cell_x));
        const std::size_t j = std::min(f.ny - 1, static_cast<std::size_t>(p[1] / f.cell_y));
        ASSERT_GE(f.top[i + f.nx * j], p[2] - 1e-9)
            << "shape " << static_cast<int>(shape) << " move " << move << " at " << p[0] << ", "
            << p[1];
      }
    }
    // And it removed something: the field is not left whole.
    EXPECT_LT(*std::min_element(f.top.begin(), f.top.end()), -1);
  }
}

TEST(StockHeightField, RapidInsideAPocketAndThroughItsWall) {
  // A 30 x 30 pocket 5 deep, cut with a 10 mm flat end mill in passes 4 mm apart.
  StockHeightField f = make_stock_height_field({{0, 0, -20}, {100, 60, 0}}, 0.25, 1 << 20);
  ToolParameters flat;
  flat.shape = CutterShape::kFlat;
  flat.diameter = 10;
  flat.cutting_length = 20;
  const CutterBody body = cutter_body(flat);
  const CutterProfile profile = make_cutter_profile(body);
  for (double y = 20; y <= 40; y += 4) remove_swept(f, profile, {35, y, -5}, {65, y, -5});
  const RevolvedSolid rapid = to_solid(*eroded(body, 1e-6));
  // Inside, 1 mm above the floor: clear. The floor is at -5 up to the cells' over-estimate.
  EXPECT_EQ(swept_contact(f, rapid, {40, 30, -4}, {60, 30, -4}, 1e-6), StockContact::clear);
  EXPECT_EQ(swept_contact(f, rapid, {50, 30, 10}, {50, 30, -4}, 1e-6), StockContact::clear);
  // Below the floor: touches.
  EXPECT_EQ(swept_contact(f, rapid, {40, 30, -4}, {60, 30, -5.1}, 1e-6), StockContact::touches);
  // Through the wall at x = 30 (the passes reach x = 35 - 5): touches.
  EXPECT_EQ(swept_contact(f, rapid, {50, 30, -4}, {20, 30, -4}, 1e-6), StockContact::touches);
  // Above the stock: clear; just below its top outside the pocket: touches.
  EXPECT_EQ(swept_contact(f, rapid, {5, 5, 0.01}, {95, 55, 0.01}, 1e-6), StockContact::clear);
  EXPECT_EQ(swept_contact(f, rapid, {5, 5, 5}, {5, 5, -0.01}, 1e-6), StockContact::touches);
}

// A mesh stock's field holds every point of the solid: random points inside a convex polyhedron
// (an ellipsoid's mesh, inside every face plane) lie in their cell's column [bottom, top]; and a
// box mesh gives the box's own field.
TEST(StockHeightField, MeshFieldHoldsTheSolid) {
  const Mesh m = make_ellipsoid({30, 20, -10}, {25, 15, 8}, 24, 12);
  const StockHeightField f = mesh_stock_height_field(m, 0.7, 1 << 20);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> ux(5, 55), uy(5, 35), uz(-18, -2);
  int inside = 0;
  for (int trial = 0; trial < 200000 && inside < 20000; ++trial) {
    const Vec3 p{ux(rng), uy(rng), uz(rng)};
    bool in = true;
    for (std::size_t t = 0; t < m.triangle_count() && in; ++t) {
      const Vec3 a{m.x[m.a[t]], m.y[m.a[t]], m.z[m.a[t]]};
      const Vec3 b{m.x[m.b[t]], m.y[m.b[t]], m.z[m.b[t]]};
      const Vec3 c{m.x[m.c[t]], m.y[m.c[t]], m.z[m.c[t]]};
      in = dot(cross(b - a, c - a), p - a) <= 0;  // outward normals
    }
    if (!in) continue;
    ++inside;
    const auto i = static_cast<std::size_t>((p.x - f.x0) / f.cell_x);
    const auto j = static_cast<std::size_t>((p.y - f.y0) / f.cell_y);
    ASSERT_LT(i, f.nx);
    ASSERT_LT(j, f.ny);
    ASSERT_GE(f.top[i + f.nx * j], p.z) << p.x << " " << p.y << " " << p.z;
    ASSERT_LE(f.z_bottom, p.z);
  }
  EXPECT_GT(inside, 10000);
  // Not much more: a cell's top is within its rise of the surface (the ellipsoid's top, -2).
  EXPECT_LE(*std::max_element(f.top.begin(), f.top.end()), -2 + 1e-6);
  // Corner cells, outside the ellipse's footprint, hold nothing.
  EXPECT_LE(f.top[0], f.z_bottom);

  const StockHeightField box =
      mesh_stock_height_field(make_box({0, 0, -20}, {50, 40, 0}), 0.5, 1 << 20);
  EXPECT_EQ(box.z_bottom, -20);
  for (double top : box.top) EXPECT_NEAR(top, 0, 1e-8);
}

// A tool wholly below the field's bottom meets nothing; one reaching into it does.
TEST(StockHeightField, NothingBelowTheBottom) {
  const StockHeightField f = make_stock_height_field({{0, 0, -10}, {100, 100, 0}}, 1, 1 << 20);
  ToolParameters flat;
  flat.shape = CutterShape::kFlat;
  flat.diameter = 10;
  flat.cutting_length = 20;
  const RevolvedSolid cutter = to_solid(cutter_body(flat));
  EXPECT_EQ(swept_contact(f, cutter, {50, 50, -100}, {60, 50, -31}, 1e-6), StockContact::clear);
  EXPECT_EQ(swept_contact(f, cutter, {50, 50, -100}, {60, 50, -29}, 1e-6), StockContact::touches);
}

// A rise meets nothing new while no material stands above its columns' tops within its reach.
TEST(StockHeightField, RiseMeetsNothingNew) {
  StockHeightField f = make_stock_height_field({{0, 0, -10}, {100, 100, 0}}, 1, 1 << 20);
  EXPECT_TRUE(rise_meets_nothing_new(f, {50, 50, -5}, 5, 20));    // tops at 15 > 0
  EXPECT_FALSE(rise_meets_nothing_new(f, {50, 50, -25}, 5, 20));  // tops at -5 < 0
  // Material only beyond the reach does not count.
  std::fill(f.top.begin(), f.top.end(), -10.0);
  f.top[10 + f.nx * 10] = 0;  // the cell [10, 11] x [10, 11]
  refresh_blocks(f);
  EXPECT_TRUE(rise_meets_nothing_new(f, {50, 50, -25}, 5, 20));
  EXPECT_FALSE(rise_meets_nothing_new(f, {15.5, 10.5, -25}, 5, 20));
}

// Every block bound holds every cell of its block: at least the largest top, and equal to it when
// `fresh`.
void expect_blocks_hold_cells(const StockHeightField& f, bool fresh) {
  ASSERT_FALSE(f.blocks.empty());
  EXPECT_LE(f.blocks.back().nx, kFieldBlock);
  EXPECT_LE(f.blocks.back().ny, kFieldBlock);
  for (const FieldBlocks& b : f.blocks) {
    ASSERT_EQ(b.top.size(), b.nx * b.ny);
    std::vector<double> most(b.top.size(), -kInf);
    for (std::size_t j = 0; j < f.ny; ++j) {
      for (std::size_t i = 0; i < f.nx; ++i) {
        double& m = most[i / b.span + b.nx * (j / b.span)];
        m = std::max(m, f.top[i + f.nx * j]);
      }
    }
    for (std::size_t k = 0; k < most.size(); ++k) {
      if (fresh) {
        ASSERT_EQ(b.top[k], most[k]) << "span " << b.span << " block " << k;
      } else {
        ASSERT_GE(b.top[k], most[k]) << "span " << b.span << " block " << k;
      }
    }
  }
}

// The contact the field defines, sampled: at `samples` + 1 times of the move, every cell's point
// nearest the axis. `exact` asks for a witness at a sampled time; otherwise the test is relaxed by
// how far the tool moves between samples, so that a witness anywhere on the move is found.
bool sampled_contact(const StockHeightField& f, const RevolvedSolid& solid, Vec3 a, Vec3 b,
                     double margin, int samples, bool exact) {
  const double top_of_solid = highest_z(solid);
  const double step_xy = exact ? 0 : std::hypot(b.x - a.x, b.y - a.y) / samples * 1.01;
  const double step_z = exact ? 0 : std::fabs(b.z - a.z) / samples * 1.01;
  const double guard = exact ? -1e-9 : 1e-9;  // exact: a clear witness; relaxed: a loose one
  for (int k = 0; k <= samples; ++k) {
    const double t = static_cast<double>(k) / samples;
    const double x = a.x + t * (b.x - a.x), y = a.y + t * (b.y - a.y), z = a.z + t * (b.z - a.z);
    if (z + step_z + top_of_solid < f.z_bottom - margin - guard) continue;
    for (std::size_t j = 0; j < f.ny; ++j) {
      for (std::size_t i = 0; i < f.nx; ++i) {
        const double top = f.top[i + f.nx * j];
        if (top <= f.z_bottom) continue;
        const double x0 = f.x0 + f.cell_x * i, y0 = f.y0 + f.cell_y * j;
        const double px = std::clamp(x, x0, x0 + f.cell_x), py = std::clamp(y, y0, y0 + f.cell_y);
        const double d = std::max(0.0, std::hypot(px - x, py - y) - step_xy);
        if (z - step_z + lowest_z_at(solid, d) < top + margin + guard) return true;
      }
    }
  }
  return false;
}

// Random fields (a box and a mesh stock, cut by random moves) and random tool parts and moves
// (standing, vertical, level and sloped): a move the field calls clear has no sampled witness, and
// one it says touches has a witness somewhere on the move. The same with the block bounds left
// stale by the cuts (looser, still bounds) and refreshed.
TEST(StockHeightField, BlockWalkAgreesWithSampledContact) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(0, 1);
  ToolParameters ball;
  ball.shape = CutterShape::kBall;
  ball.diameter = 6;
  ball.cutting_length = 12;
  const CutterBody ball_body = cutter_body(ball);
  ToolParameters flat = ball;
  flat.shape = CutterShape::kFlat;
  flat.diameter = 4;
  ToolParameters cone = ball;
  cone.shape = CutterShape::kCone;
  cone.included_angle = 90;
  // A shank and a holder: a cylinder, then a wider frustum above it.
  RevolvedSolid holder;
  holder.parts = {make_frustum(12, 3, 20, 3), make_frustum(20, 6, 28, 9)};
  const std::vector<RevolvedSolid> solids = {to_solid(ball_body), to_solid(cutter_body(flat)),
                                             to_solid(cutter_body(cone)), holder,
                                             to_solid(*eroded(ball_body, 0.4))};
  const CutterProfile carving = make_cutter_profile(ball_body);
  int clear = 0, touches = 0, near = 0;
  for (int field_kind = 0; field_kind < 2; ++field_kind) {
    StockHeightField f = field_kind == 0
                             ? make_stock_height_field({{0, 0, -10}, {20, 20, 0}}, 0.5, 1 << 20)
                             : mesh_stock_height_field(
                                   make_ellipsoid({10, 10, -5}, {9, 8, 5}, 24, 12), 0.45, 1 << 20);
    expect_blocks_hold_cells(f, true);
    // Cut: a pocket's passes and plunges, the bounds stale until refreshed (every other round).
    std::vector<std::pair<Vec3, Vec3>> cuts;
    for (int round = 0; round < 6; ++round) {
      for (int k = 0; k < 4; ++k) {
        const Vec3 a{20 * u(rng), 20 * u(rng), -8 * u(rng)};
        const Vec3 b =
            k % 2 ? Vec3{a.x, a.y, a.z - 2 * u(rng)} : Vec3{20 * u(rng), 20 * u(rng), a.z - u(rng)};
        remove_swept(f, carving, a, b);
        cuts.push_back({a, b});
      }
      const bool fresh = round % 2 == 1;
      if (fresh) {
        for (const auto& [a, b] : cuts) refresh_blocks_near(f, a, b, carving.reach);
        cuts.clear();
      }
      expect_blocks_hold_cells(f, fresh);
      for (int move = 0; move < 40; ++move) {
        const RevolvedSolid& solid = solids[move % solids.size()];
        const Vec3 a{-4 + 28 * u(rng), -4 + 28 * u(rng), -14 + 16 * u(rng)};
        Vec3 b;
        switch (move % 4) {
          case 0:
            b = a;
            break;
          case 1:
            b = {a.x, a.y, -14 + 16 * u(rng)};
            break;
          case 2:
            b = {-4 + 28 * u(rng), -4 + 28 * u(rng), a.z};
            break;
          default:
            b = {-4 + 28 * u(rng), -4 + 28 * u(rng), -14 + 16 * u(rng)};
        }
        const double margin = 1e-6;
        const StockContact c = swept_contact(f, solid, a, b, margin);
        const int samples = move % 4 == 0 ? 1 : 300;
        if (c == StockContact::clear) {
          ++clear;
          ASSERT_FALSE(sampled_contact(f, solid, a, b, margin, samples, true))
              << "field " << field_kind << " round " << round << " move " << move;
        } else if (c == StockContact::touches) {
          ++touches;
          ASSERT_TRUE(sampled_contact(f, solid, a, b, margin, samples, false))
              << "field " << field_kind << " round " << round << " move " << move;
        } else {
          ++near;
        }
      }
    }
  }
  // Both answers were asked for often.
  EXPECT_GT(clear, 100);
  EXPECT_GT(touches, 100);
  EXPECT_LT(near, 10);
}

// A tool standing on the field's bottom from below (its top exactly at the bottom) touches it, as a
// tool standing on the top does: the contact within the margin counts on both sides.
TEST(StockHeightField, TouchingTheBottomFromBelowIsAContact) {
  const StockHeightField f = make_stock_height_field({{0, 0, -20}, {100, 60, 0}}, 0.1, 1 << 20);
  RevolvedSolid shank;
  shank.parts = {make_frustum(0, 5, 60, 5)};
  EXPECT_EQ(swept_contact(f, shank, {50, 30, -80}, {50, 30, -90}, 1e-6), StockContact::touches);
  EXPECT_EQ(swept_contact(f, shank, {50, 30, -90}, {50, 30, -80}, 1e-6), StockContact::touches);
  EXPECT_EQ(swept_contact(f, shank, {50, 30, -80.001}, {50, 30, -90}, 1e-6), StockContact::clear);
  EXPECT_EQ(swept_contact(f, shank, {50, 30, 0}, {50, 30, 10}, 1e-6), StockContact::touches);
  EXPECT_EQ(swept_contact(f, shank, {50, 30, 0.001}, {50, 30, 10}, 1e-6), StockContact::clear);
}

// A reviewer's case: a thin tool grazing one cell at exactly its top plus the margin (undecidable,
// `near`) and then ploughing 5 mm into another for a 1/40,000 of its move: a contact, not `near`
// (the cells after a `near` get a smaller budget, searched lowest bound first).
TEST(StockHeightField, ADeepCellAfterAGrazingOneIsStillAContact) {
  StockHeightField f = make_stock_height_field({{0, 0, -10}, {32, 4, 0}}, 1, 1 << 20);
  std::fill(f.top.begin(), f.top.end(), -10.0);
  f.top[2 + f.nx * 2] = 0;   // grazed
  f.top[20 + f.nx * 2] = 5;  // a pin the tool runs into
  refresh_blocks(f);
  RevolvedSolid pin_tool;
  pin_tool.parts = {make_frustum(0, 0.05, 10, 0.05)};
  EXPECT_EQ(swept_contact(f, pin_tool, {-2000, 2.5, 1e-6}, {2000, 2.5, 1e-6}, 1e-6),
            StockContact::touches);
  // Without the pin: only the grazed cell, undecided.
  f.top[20 + f.nx * 2] = -10;
  EXPECT_EQ(swept_contact(f, pin_tool, {-2000, 2.5, 1e-6}, {2000, 2.5, 1e-6}, 1e-6),
            StockContact::near);
  // A field without block bounds (built by hand) is walked cell by cell.
  f.top[20 + f.nx * 2] = 5;
  f.blocks.clear();
  EXPECT_EQ(swept_contact(f, pin_tool, {-2000, 2.5, 1e-6}, {2000, 2.5, 1e-6}, 1e-6),
            StockContact::touches);
  EXPECT_FALSE(rise_meets_nothing_new(f, {20.5, 2.5, -20}, 1, 20));
}

TEST(StockHeightField, RejectsBadGrids) {
  EXPECT_THROW(make_stock_height_field({{0, 0, 0}, {0, 1, 1}}, 0.1, 100), std::invalid_argument);
  EXPECT_THROW(make_stock_height_field({{0, 0, 0}, {1, 1, 1}}, 0, 100), std::invalid_argument);
  EXPECT_THROW(make_stock_height_field({{0, 0, 0}, {1, 1, 1}}, std::nan(""), 100),
               std::invalid_argument);
  EXPECT_THROW(make_stock_height_field({{0, 0, 0}, {100, 100, 1}}, 0.1, 1000),
               std::invalid_argument);
}

}  // namespace
}  // namespace kdop
