// GJK bounds of the distance from a triangle to a swept revolved primitive, against oracles that
// do not share its method:
// - a ball swept along a segment: the segment-triangle distance (geometry/triangle_distance.hpp)
//   minus the radius, exact up to that routine's rounding;
// - hand-computed cases (a cylinder over a horizontal triangle, a frustum beside a vertical
//   wall, triangles through or inside the solid);
// - random primitives and triangles: nested golden-section minimisation of the point-solid
//   distance over the triangle and the move (the distance from a point to the swept solid is
//   convex in the triangle's barycentric parameters and the move's time jointly, so nested 1-D
//   minimisations of convex functions find its minimum; they only evaluate real points, so they
//   can only overestimate it);
// - exactly constructed touching and near-touching cases at machine coordinates, where the
//   exact distance is known, for the rounding margin of the lower bound.
#include "geometry/convex_distance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <tuple>
#include <vector>

#include "geometry/shapes.hpp"
#include "geometry/triangle_distance.hpp"

namespace kdop {
namespace {

constexpr double kDelta = 1e-6;

double segment_triangle_distance(Vec3 a, Vec3 b, const Triangle& t) {
  if (segment_triangle_intersect(a, b, t)) return 0;
  double d = std::min(norm(a - closest_point_on_triangle(a, t)),
                      norm(b - closest_point_on_triangle(b, t)));
  Vec3 x, y;
  d = std::min(d, segment_distance(a, b, t.p0, t.p1, x, y));
  d = std::min(d, segment_distance(a, b, t.p1, t.p2, x, y));
  d = std::min(d, segment_distance(a, b, t.p2, t.p0, x, y));
  return d;
}

// The distance in the (radius, z) half-plane from (rho, z) to the primitive's meridian section
// without its rounding: the quadrilateral (0, z0), (r0, z0), (r1, z1), (0, z1).
double section_distance(const RevolvedPrimitive& p, double rho, double z) {
  const double vx[4] = {0, p.r0, p.r1, 0}, vz[4] = {p.z0, p.z0, p.z1, p.z1};
  const bool solid = p.z1 > p.z0 && p.r0 + p.r1 > 0;
  bool inside = solid;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 4; ++i) {
    const int j = (i + 1) % 4;
    const double ex = vx[j] - vx[i], ez = vz[j] - vz[i];
    const double px = rho - vx[i], pz = z - vz[i];
    if (ex * pz - ez * px < 0) inside = false;  // counterclockwise: inside is to the left
    const double ee = ex * ex + ez * ez;
    const double s = ee > 0 ? std::clamp((px * ex + pz * ez) / ee, 0.0, 1.0) : 0;
    best = std::min(best, std::hypot(px - s * ex, pz - s * ez));
  }
  return inside ? 0 : best;
}

// The distance from point y to the primitive translated to from + s (to - from).
double point_distance(const RevolvedPrimitive& p, Vec3 from, Vec3 to, Vec3 y, double s) {
  const Vec3 q = y - (from + s * (to - from));
  return std::max(0.0, section_distance(p, std::hypot(q.x, q.y), q.z) - p.rounding);
}

// The least of f over [lo, hi] by golden-section search (f convex), counting the ends.
template <class F>
double golden_min(F f, double lo, double hi, int iterations) {
  const double g = (std::sqrt(5.0) - 1) / 2;
  double best = std::min(f(lo), f(hi));
  double a = lo, b = hi, c = b - g * (b - a), d = a + g * (b - a);
  double fc = f(c), fd = f(d);
  for (int i = 0; i < iterations; ++i) {
    if (fc < fd) {
      b = d, d = c, fd = fc, c = b - g * (b - a), fc = f(c);
    } else {
      a = c, c = d, fc = fd, d = a + g * (b - a), fd = f(d);
    }
  }
  return std::min(best, std::min(fc, fd));
}

// Nested minimisation over the triangle (a, b >= 0, a + b <= 1) and the move (s in [0, 1]).
double sampled_distance(const Triangle& t, const RevolvedPrimitive& p, Vec3 from, Vec3 to) {
  constexpr int kIterations = 46;  // 0.618^46: the interval shrinks below 3e-10
  const Vec3 e1 = t.p1 - t.p0, e2 = t.p2 - t.p0;
  return golden_min(
      [&](double a) {
        return golden_min(
            [&](double b) {
              const Vec3 y = t.p0 + a * e1 + b * e2;
              return golden_min([&](double s) { return point_distance(p, from, to, y, s); }, 0, 1,
                                kIterations);
            },
            0, 1 - a, kIterations);
      },
      0, 1, kIterations);
}

Vec3 random_point(std::uint64_t& state, double half) {
  return {half * (2 * next_uniform(state) - 1), half * (2 * next_uniform(state) - 1),
          half * (2 * next_uniform(state) - 1)};
}

// Random triangles near the origin, some degenerate (segments, points, slivers).
Triangle random_triangle(std::uint64_t& state, double half) {
  Triangle t{random_point(state, half), random_point(state, half), random_point(state, half)};
  const double kind = next_uniform(state);
  if (kind < 0.1)
    t.p2 = t.p1;  // a segment
  else if (kind < 0.15)
    t.p1 = t.p2 = t.p0;  // a point
  else if (kind < 0.2)
    t.p2 = t.p0 + 0.5 * (t.p1 - t.p0);  // collinear corners
  return t;
}

RevolvedPrimitive random_primitive(std::uint64_t& state) {
  const double kind = next_uniform(state);
  const double z0 = 4 * next_uniform(state) - 2, h = 6 * next_uniform(state);
  const double r0 = 4 * next_uniform(state), r1 = 4 * next_uniform(state);
  if (kind < 0.2) return make_frustum(z0, r0, z0 + h, r1);
  if (kind < 0.35) return make_frustum(z0, r0, z0 + h, r0);  // cylinder
  if (kind < 0.5) return make_frustum(z0, 0, z0 + h, r1);    // cone, pointed tip
  if (kind < 0.65) return make_rounded_disc(r0, z0, 0.2 + 2 * next_uniform(state));
  if (kind < 0.8) return make_rounded_disc(0, z0, 0.2 + 3 * next_uniform(state));  // ball
  if (kind < 0.85) return make_frustum(z0, 0, z0 + h, 0);  // a segment of the axis
  if (kind < 0.9) return make_frustum(z0, 0, z0, 0);       // a point
  return {z0, r0, z0 + h, r1, 0.5 * next_uniform(state)};  // a rounded frustum
}

TEST(ConvexDistance, BallSweptAlongASegment) {
  // A ball of radius rho moving along [from, to] is the segment dilated by rho: its distance to
  // a triangle is the segment's minus rho.
  std::uint64_t state = 17;
  double worst = 0;
  int most_iterations = 0;
  for (const double offset : {0.0, 1e4}) {
    for (int i = 0; i < 400; ++i) {
      const Vec3 shift{offset, -0.5 * offset, 0.03 * offset};
      const Triangle t0 = random_triangle(state, 5);
      const Triangle t{t0.p0 + shift, t0.p1 + shift, t0.p2 + shift};
      const double rho = 0.05 + 2 * next_uniform(state);
      const RevolvedPrimitive ball = make_rounded_disc(0, rho, rho);
      const Vec3 from = random_point(state, 8) + shift;
      const Vec3 to = next_uniform(state) < 0.2 ? from : random_point(state, 8) + shift;
      const Vec3 c0 = from + Vec3{0, 0, rho}, c1 = to + Vec3{0, 0, rho};
      const double exact = std::max(0.0, segment_triangle_distance(c0, c1, t) - rho);
      const double oracle_error = triangle_distance_error(offset + 20);
      const DistanceBounds b = triangle_sweep_distance(t, ball, from, to);
      ASSERT_TRUE(b.converged) << i;
      EXPECT_LE(b.lower, exact + oracle_error) << i;
      EXPECT_GE(b.upper, exact - oracle_error) << i;
      EXPECT_LE(b.upper - b.lower, kDelta) << i;
      EXPECT_GE(b.lower, 0);
      // The witness pair is as far apart as claimed, and on its shapes.
      EXPECT_LE(norm(b.on_solid - b.on_triangle), b.upper + 1e-12);
      EXPECT_LE(norm(b.on_triangle - closest_point_on_triangle(b.on_triangle, t)), 1e-9);
      worst = std::max(worst, std::fabs((b.lower + b.upper) / 2 - exact));
      most_iterations = std::max(most_iterations, b.iterations);
    }
  }
  std::printf("ball sweeps: largest |midpoint - exact| %.3g mm, most iterations %d\n", worst,
              most_iterations);
}

TEST(ConvexDistance, CylinderOverAHorizontalTriangle) {
  // A flat end mill of radius 3 with its tip 0.25 above a big horizontal triangle.
  const RevolvedPrimitive cylinder = make_frustum(0, 3, 0, 3);
  const RevolvedPrimitive mill = make_frustum(0, 3, 20, 3);
  for (const Vec3 base : {Vec3{0, 0, 0}, Vec3{12345.5, -6789.25, -432.125}}) {
    const Triangle floor{base + Vec3{-50, -50, 0}, base + Vec3{50, -50, 0}, base + Vec3{0, 60, 0}};
    const Vec3 above = base + Vec3{1, 2, 0.25};
    for (const RevolvedPrimitive& p : {cylinder, mill}) {
      // Resting, moving horizontally, and moving down to touch: 0.25, 0.25, 0.
      const DistanceBounds rest = triangle_sweep_distance(floor, p, above, above);
      EXPECT_LE(rest.lower, 0.25);
      EXPECT_GE(rest.upper, 0.25);
      EXPECT_LE(rest.upper - rest.lower, kDelta);
      const DistanceBounds slide =
          triangle_sweep_distance(floor, p, above, above + Vec3{20, -15, 0});
      EXPECT_LE(slide.lower, 0.25);
      EXPECT_GE(slide.upper, 0.25);
      EXPECT_LE(slide.upper - slide.lower, kDelta);
      const DistanceBounds plunge =
          triangle_sweep_distance(floor, p, above, above + Vec3{0, 0, -0.25});
      EXPECT_EQ(plunge.lower, 0);
      EXPECT_LE(plunge.upper, kDelta);
      const DistanceBounds through =
          triangle_sweep_distance(floor, p, above, above + Vec3{3, 0, -10});
      EXPECT_EQ(through.lower, 0);
      EXPECT_LE(through.upper, kDelta);
    }
  }
}

TEST(ConvexDistance, TriangleInThePlaneOfTheToolTip) {
  // Coplanar with the flat end's bottom face: the nearest corner 5 from the axis, 2 from the rim.
  const RevolvedPrimitive mill = make_frustum(0, 3, 20, 3);
  for (const Vec3 at : {Vec3{0, 0, 0}, Vec3{-11000.5, 2500.25, 610.125}}) {
    const Triangle t{at + Vec3{5, 0, 0}, at + Vec3{10, -5, 0}, at + Vec3{10, 5, 0}};
    const auto expect_distance = [&](Vec3 to, double want) {
      const DistanceBounds b = triangle_sweep_distance(t, mill, at, to);
      EXPECT_LE(b.lower, want);
      EXPECT_GE(b.upper, want);
      EXPECT_LE(b.upper - b.lower, kDelta);
    };
    expect_distance(at, 2);
    expect_distance(at + Vec3{1.5, 0, 0}, 0.5);
    expect_distance(at + Vec3{2, 0, 0}, 0);
    expect_distance(at + Vec3{0, 7, 0}, 2);     // passing by, parallel to the near edge's face
    expect_distance(at + Vec3{0, 0, 3}, 2);     // rising along the axis
    expect_distance(at + Vec3{2, 0, -0.5}, 0);  // the corner enters the side
  }
}

TEST(ConvexDistance, NonFiniteInputsEnd) {
  // Garbage in: the loop still ends, and nothing is proved apart.
  const double nan = std::nan("");
  const Triangle t{{nan, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const DistanceBounds b = triangle_sweep_distance(t, make_frustum(0, 1, 2, 1), {}, {});
  EXPECT_LE(b.iterations, DistanceOptions{}.max_iterations);
  EXPECT_FALSE(b.lower > 0);
}

TEST(ConvexDistance, FrustumBesideAVerticalWall) {
  // A frustum widening from radius 1 to 4 over z in [0, 6], next to the wall x = wall.
  const RevolvedPrimitive p = make_frustum(0, 1, 6, 4);
  for (const double offset : {0.0, 9876.5}) {
    const double wall = offset + 4.75;
    const Triangle t{{wall, offset - 30, offset - 30},
                     {wall, offset + 30, offset - 30},
                     {wall, offset, offset + 40}};
    const Vec3 at{offset, offset, offset};
    const DistanceBounds b = triangle_sweep_distance(t, p, at, at);
    EXPECT_LE(b.lower, 0.75);
    EXPECT_GE(b.upper, 0.75);
    EXPECT_LE(b.upper - b.lower, kDelta);
    // Moving parallel to the wall keeps the distance; toward it, it closes to 0.25 short.
    const DistanceBounds along = triangle_sweep_distance(t, p, at, at + Vec3{0, 5, -3});
    EXPECT_LE(along.lower, 0.75);
    EXPECT_GE(along.upper, 0.75);
    EXPECT_LE(along.upper - along.lower, kDelta);
    const DistanceBounds toward = triangle_sweep_distance(t, p, at, at + Vec3{0.5, 0, 0});
    EXPECT_LE(toward.lower, 0.25);
    EXPECT_GE(toward.upper, 0.25);
    EXPECT_LE(toward.upper - toward.lower, kDelta);
    // Upside down (the narrow end at the wall's side is the bottom): the wide rim faces it.
    const DistanceBounds cone =
        triangle_sweep_distance(t, make_frustum(0, 0, 6, 4), at + Vec3{0, 0, 1}, at);
    EXPECT_LE(cone.lower, 0.75);
    EXPECT_GE(cone.upper, 0.75);
  }
}

TEST(ConvexDistance, TrianglesThroughAndInsideTheSolid) {
  const RevolvedPrimitive mill = make_frustum(0, 3, 20, 3);
  const RevolvedPrimitive ball = make_rounded_disc(0, 5, 5);
  const Vec3 at{100, 200, 300};
  // Through the cylinder's side.
  const Triangle across{at + Vec3{-10, 0, 5}, at + Vec3{10, 1, 5}, at + Vec3{0, -1, 7}};
  // Wholly inside the ball (no surface contact at all).
  const Triangle inside{at + Vec3{0, 0, 5}, at + Vec3{1, 0, 5}, at + Vec3{0, 1, 6}};
  // Inside only the swept volume, between the two end positions.
  const Triangle between{at + Vec3{50, -1, 4}, at + Vec3{50, 1, 4}, at + Vec3{50, 0, 6}};
  for (const auto& [t, p, to] :
       {std::tuple{across, mill, at}, std::tuple{inside, ball, at}, std::tuple{inside, mill, at},
        std::tuple{between, mill, at + Vec3{100, 0, 0}},
        std::tuple{between, ball, at + Vec3{100, 0, 0}}}) {
    const DistanceBounds b = triangle_sweep_distance(t, p, at, to);
    EXPECT_EQ(b.lower, 0);
    EXPECT_LE(b.upper, kDelta);
    EXPECT_TRUE(b.converged);
  }
}

TEST(ConvexDistance, RandomCasesAgainstNestedMinimisation) {
  std::uint64_t state = 99;
  double worst = 0;
  int most_iterations = 0, cases = 0;
  for (const double offset : {0.0, 1e4}) {
    for (int i = 0; i < 60; ++i) {
      const Vec3 shift{-offset, 0.7 * offset, 0.1 * offset};
      const RevolvedPrimitive p = random_primitive(state);
      const Triangle t0 = random_triangle(state, 6);
      const Triangle t{t0.p0 + shift, t0.p1 + shift, t0.p2 + shift};
      const Vec3 from = random_point(state, 7) + shift;
      const Vec3 to = next_uniform(state) < 0.25 ? from : random_point(state, 7) + shift;
      const double sampled = sampled_distance(t, p, from, to);
      const DistanceBounds b = triangle_sweep_distance(t, p, from, to);
      const double margin = separation_margin(t, p, from, to);
      ASSERT_TRUE(b.converged) << i;
      // The sample only overestimates (up to the rounding of its own points at this offset).
      EXPECT_LE(b.lower, sampled + 1e-15 * (offset + 20)) << i;
      EXPECT_LE(b.upper, sampled + kDelta + 2 * margin) << i;
      EXPECT_LE(b.upper - b.lower, kDelta) << i;
      // Tight: golden sections converge to well within 1e-7 here.
      EXPECT_LE(sampled - b.lower, kDelta + 1e-7) << i;
      worst = std::max(worst, std::fabs(sampled - (b.lower + b.upper) / 2));
      most_iterations = std::max(most_iterations, b.iterations);
      cases += sampled == 0;
    }
  }
  std::printf(
      "random primitives: largest |sampled - midpoint| %.3g mm, most iterations %d, "
      "%d touching\n",
      worst, most_iterations, cases);
}

TEST(ConvexDistance, ToolUnionIsTheLeastOverItsParts) {
  ToolParameters tool;
  tool.shape = CutterShape::kBullNose, tool.diameter = 10, tool.corner_radius = 1.5;
  tool.cutting_length = 15;
  const RevolvedSolid cutter = make_cutter(tool);
  std::uint64_t state = 5;
  for (int i = 0; i < 30; ++i) {
    const Triangle t = random_triangle(state, 12);
    const Vec3 from = random_point(state, 10), to = random_point(state, 10);
    double least = std::numeric_limits<double>::infinity();
    for (const RevolvedPrimitive& p : cutter.parts) {
      least = std::min(least, sampled_distance(t, p, from, to));
    }
    const DistanceBounds b = triangle_sweep_distance(t, cutter, from, to);
    EXPECT_LE(b.lower, least + 1e-15);
    EXPECT_LE(b.upper - b.lower, kDelta);
    EXPECT_LE(least - b.lower, kDelta + 1e-7);
    // The threshold question agrees with the distance.
    EXPECT_EQ(may_touch(t, cutter, from, to, 0.5), b.lower <= 0.5) << i;
  }
  const DistanceBounds none = triangle_sweep_distance(Triangle{}, RevolvedSolid{}, {}, {});
  EXPECT_EQ(none.lower, std::numeric_limits<double>::infinity());
}

TEST(ConvexDistance, MayTouchAtAThousandthOfAMillimetre) {
  // A ball end mill of radius 3 over a horizontal floor, at machine coordinates.
  ToolParameters tool;
  tool.shape = CutterShape::kBall, tool.diameter = 6, tool.cutting_length = 20;
  const RevolvedSolid cutter = make_cutter(tool);
  const Vec3 base{-9000.5, 4000.25, -300};
  const Triangle floor{base + Vec3{-40, -40, 0}, base + Vec3{40, -40, 0}, base + Vec3{0, 40, 0}};
  const Vec3 xy{5, -3, 0};
  EXPECT_FALSE(
      may_touch(floor, cutter, base + xy + Vec3{0, 0, 0.001}, base + Vec3{0, 0, 0.001}, kDelta));
  EXPECT_TRUE(
      may_touch(floor, cutter, base + xy + Vec3{0, 0, 0.001}, base + Vec3{0, 0, 0}, kDelta));
  EXPECT_TRUE(
      may_touch(floor, cutter, base + xy + Vec3{0, 0, 5e-7}, base + Vec3{0, 0, 5e-7}, kDelta));
  EXPECT_TRUE(may_touch(floor, cutter, base + xy + Vec3{0, 0, -1}, base + Vec3{0, 0, 0.5}, kDelta));
}

TEST(ConvexDistance, DegenerateInputs) {
  // Point and segment triangles, a point and an axis segment as primitives, zero-length moves:
  // against the exact segment-triangle distance.
  const Vec3 a{1, 2, 3};
  const Triangle point{a, a, a};
  const Triangle segment{a, a + Vec3{4, 0, 0}, a + Vec3{4, 0, 0}};
  const RevolvedPrimitive dot_primitive = make_frustum(0, 0, 0, 0);
  const RevolvedPrimitive axis = make_frustum(0, 0, 2, 0);
  const Vec3 from{0, 0, -5}, to{3, 1, -4};
  for (const Triangle& t : {point, segment}) {
    for (const auto& [p, lo, hi] :
         {std::tuple{dot_primitive, 0.0, 0.0}, std::tuple{axis, 0.0, 2.0}}) {
      // The swept axis segment is the parallelogram conv(from + lo, from + hi, to + lo, to + hi);
      // check against both triangles of it.
      const Vec3 up_lo{0, 0, lo}, up_hi{0, 0, hi};
      const Triangle q1{from + up_lo, to + up_lo, to + up_hi};
      const Triangle q2{from + up_lo, to + up_hi, from + up_hi};
      const double exact =
          std::min(triangle_distance(t, q1).distance, triangle_distance(t, q2).distance);
      for (const bool moving : {false, true}) {
        const double want =
            moving ? exact : segment_triangle_distance(from + up_lo, from + up_hi, t);
        const DistanceBounds b = triangle_sweep_distance(t, p, from, moving ? to : from);
        EXPECT_TRUE(b.converged);
        EXPECT_LE(b.lower, want + 1e-14);
        EXPECT_GE(b.upper, want - 1e-14);
        EXPECT_LE(b.upper - b.lower, kDelta);
      }
    }
  }
}

TEST(ConvexDistance, IterationCapKeepsValidBounds) {
  const RevolvedPrimitive ball = make_rounded_disc(0, 2, 2);
  const Triangle t{{5, -4, -3}, {6, 5, 1}, {4, 0, 8}};
  const Vec3 from{0, 0, 0}, to{1, 1, 0};
  const double exact =
      std::max(0.0, segment_triangle_distance(from + Vec3{0, 0, 2}, to + Vec3{0, 0, 2}, t) - 2);
  for (const int cap : {1, 2, 3}) {
    DistanceOptions o;
    o.max_iterations = cap;
    const DistanceBounds b = triangle_sweep_distance(t, ball, from, to, o);
    EXPECT_LE(b.lower, exact);
    EXPECT_GE(b.upper, exact);
    EXPECT_LE(b.iterations, cap);
  }
  // A tolerance of 0 cannot be met: the loop still ends, with the margins' gap between bounds.
  DistanceOptions exacting;
  exacting.tolerance = 0;
  const DistanceBounds b = triangle_sweep_distance(t, ball, from, to, exacting);
  EXPECT_LE(b.lower, exact);
  EXPECT_GE(b.upper, exact);
  EXPECT_LE(b.upper - b.lower, 1e-11);
  EXPECT_LT(b.iterations, exacting.max_iterations);
}

// Exact constructions at machine coordinates: a ball of radius 7 whose tangent plane at the
// point c + (2, 3, 6) (|(2, 3, 6)| = 7) holds a triangle, pushed out by g (2, 3, 6), so the exact
// distance is 7 g; and a cone (radius 3 at height 4 over a pointed tip) with a triangle in the
// plane of a generator pushed out along its normal (4, 0, -3) by g: distance 5 g. All points are
// representable: the centres are multiples of 1/8 below 2^15 and g a power of 2.
struct ExactCase {
  Triangle t;
  RevolvedPrimitive p;
  Vec3 from, to;
  double distance;
  Vec3 normal;  // toward the triangle
};

std::vector<ExactCase> exact_cases(std::uint64_t seed, int count) {
  std::vector<ExactCase> cases;
  std::uint64_t state = seed;
  const auto coordinate = [&] { return std::floor(next_uniform(state) * 160000) / 8 - 10000; };
  for (int i = 0; i < count; ++i) {
    const Vec3 c{coordinate(), coordinate(), coordinate()};
    const double g =
        std::ldexp(1.0, -20 - static_cast<int>(next_uniform(state) * 16)) * (i % 4 == 0 ? 0 : 1);
    // The ball: tip at c, centre c + (0, 0, 7); the triangle around the tangent point.
    const Vec3 n{2, 3, 6}, m = c + Vec3{0, 0, 7} + n + g * n;
    const Vec3 move = i % 3 == 0 ? Vec3{} : Vec3{3, -2, 0};  // parallel to the plane
    cases.push_back({{m + Vec3{3, -2, 0}, m + Vec3{-3, 0, 1}, m + Vec3{0, 2, -1}},
                     make_rounded_disc(0, 7, 7),
                     c,
                     c + move,
                     7 * g,
                     n});
    // The cone: generator from c to c + (3, 0, 4), outward normal (4, 0, -3).
    const Vec3 k{4, 0, -3}, q = c + Vec3{1.5, 0, 2} + g * k;
    cases.push_back({{q + Vec3{0, 4, 0}, q + Vec3{3, -2, 4}, q + Vec3{-3, -2, -4}},
                     make_frustum(0, 0, 4, 3),
                     c,
                     c + Vec3{0, 5, 0},
                     5 * g,
                     k});
  }
  return cases;
}

TEST(ConvexDistance, LowerBoundsHoldAtMachineCoordinates) {
  int raw_above = 0, margin_above = 0, gjk_raw_above = 0;
  double worst = 0;
  const std::vector<ExactCase> cases = exact_cases(2024, 300);
  for (const ExactCase& e : cases) {
    const DistanceBounds b = triangle_sweep_distance(e.t, e.p, e.from, e.to);
    const double margin = separation_margin(e.t, e.p, e.from, e.to);
    EXPECT_LE(b.lower, e.distance);
    EXPECT_GE(b.upper, e.distance);
    EXPECT_LE(b.upper - b.lower, kDelta);
    worst = std::max(worst, std::fabs((b.lower + b.upper) / 2 - e.distance));
    // GJK's best dual bound before its margin came out above the exact distance.
    gjk_raw_above += b.lower > 0 && b.lower + margin > e.distance;
    // Along the unit normal (rounded: a direction a hair off the exact one, whose exact dual
    // bound is then at most the distance), the dual bound as rounded at these coordinates
    // often comes out above the distance; the margin is what keeps it below.
    const double nn = norm(e.normal);
    const Vec3 unit{e.normal.x / nn, e.normal.y / nn, e.normal.z / nn};
    const double raw = separation_gap_as_rounded(e.t, e.p, e.from, e.to, unit);
    raw_above += raw > e.distance;
    EXPECT_LE(separation_lower_bound(e.t, e.p, e.from, e.to, unit), e.distance);
    margin_above += raw - margin > e.distance;
  }
  EXPECT_GT(raw_above + gjk_raw_above, 0)
      << "the margin would not be needed: this test lost its teeth";
  EXPECT_EQ(margin_above, 0);
  std::printf(
      "exact touching cases: of %zu, %d raw unit-normal and %d raw GJK dual bounds above "
      "the exact distance; largest |midpoint - exact| %.3g mm\n",
      cases.size(), raw_above, gjk_raw_above, worst);
}

// A frustum (radius 20 at z = 50 to 30 at z = 80) swept metres to kilometres along x, past a
// triangle whose edge runs g beside its widest rim (y = 30 + g, every other point further out):
// the exact distance is g, a few microns. On the longest moves GJK alone stalled on rounding with
// a lower bound of 0 (a `near` finding from a gap of microns); the halves of the sweep resolve it.
TEST(ConvexDistance, LongSweepsResolveMicronGaps) {
  const RevolvedSolid frustum{{make_frustum(50, 20, 80, 30)}};
  for (const double length : {2048.0, 16384.0, 131072.0, 262144.0}) {
    for (const double g : {0x1p-17, 0x1p-19}) {
      for (const double x0 : {length / 1024, length / 2, length - 8}) {
        const Triangle t{{x0, 30 + g, 75}, {x0 + 10, 30 + g, 85}, {x0, 30 + g + 5, 85}};
        const Vec3 from{0, 0, 0}, to{length, 0, 0};
        const DistanceBounds b = triangle_sweep_distance(t, frustum, from, to);
        EXPECT_LE(b.lower, g) << length << " " << x0;
        EXPECT_GE(b.upper, g) << length << " " << x0;
        EXPECT_LE(b.upper - b.lower, kDelta) << length << " " << x0 << ": " << b.lower;
        if (g > 2 * kDelta) {
          EXPECT_FALSE(may_touch(t, frustum, from, to, kDelta));
        }
      }
    }
  }
}

}  // namespace
}  // namespace kdop
