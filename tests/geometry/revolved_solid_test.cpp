// Revolved tool solids against independent descriptions: each tool shape's radius as a function
// of height (its profile, written here from the tool's definition, not from the primitives) is
// sampled densely around the axis, and the largest n . x over the samples must never exceed the
// support function (beyond rounding) and must come within the sampling's resolution of it.
// Swept supports against sampled positions along the move; bounding boxes and radii hold every
// sample; bad parameters throw.
#include "geometry/revolved_solid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>
#include <vector>

#include "geometry/shapes.hpp"
#include "tests/support/meridian.hpp"

namespace kdop {
namespace {

constexpr double kPi = std::numbers::pi;

// Points on the surface of revolution of `radius(z)` at the heights `zs` (sorted), plus the
// bottom and top faces (rings down to the axis).
std::vector<Vec3> sample_profile(const std::function<double(double)>& radius,
                                 const std::vector<double>& zs, int angles) {
  std::vector<Vec3> pts;
  const auto ring = [&](double r, double z) {
    for (int k = 0; k < angles; ++k) {
      const double phi = 2 * kPi * k / angles;
      pts.push_back({r * std::cos(phi), r * std::sin(phi), z});
    }
  };
  for (const double z : zs) ring(radius(z), z);
  for (int i = 0; i < 8; ++i) {
    ring(radius(zs.front()) * i / 8, zs.front());
    ring(radius(zs.back()) * i / 8, zs.back());
  }
  return pts;
}

// Heights: `count` + 1 evenly over [lo, hi], the profile's kinks, and 500 along a quarter
// circle of radius `corner` rising from z = 0 (a ball or bull-nose corner, sampled evenly in
// arc length: z = corner (1 - cos theta)).
std::vector<double> heights(double lo, double hi, int count, std::vector<double> kinks = {},
                            double corner = 0) {
  std::vector<double> zs = std::move(kinks);
  for (int i = 0; i <= count; ++i) zs.push_back(lo + (hi - lo) * i / count);
  for (int i = 0; corner > 0 && i <= 500; ++i) {
    zs.push_back(corner * (1 - std::cos(kPi / 2 * i / 500)));
  }
  std::sort(zs.begin(), zs.end());
  return zs;
}

std::vector<Vec3> directions(std::uint64_t seed, int count) {
  std::vector<Vec3> out = {{1, 0, 0}, {0, 0, 1},  {0, 0, -1},    {0.3, -0.4, 0},
                           {1, 1, 1}, {2, 0, -1}, {-1, 0.5, -3}, {0, 1e-9, -1}};
  std::uint64_t state = seed;
  while (static_cast<int>(out.size()) < count) {
    const Vec3 n{2 * next_uniform(state) - 1, 2 * next_uniform(state) - 1,
                 2 * next_uniform(state) - 1};
    if (norm(n) > 0.1) out.push_back((1 + 3 * next_uniform(state)) * n);
  }
  return out;
}

// The sampled points never pass the support plane, and some come within `resolution` |n| of it.
void expect_support_matches(const RevolvedSolid& s, const std::vector<Vec3>& pts, double resolution,
                            const char* what) {
  for (const Vec3& n : directions(7, 40)) {
    double best = -std::numeric_limits<double>::infinity();
    for (const Vec3& p : pts) best = std::max(best, dot(n, p));
    const double h = support_value(s, n);
    EXPECT_LE(best, h + 1e-12 * norm(n)) << what << " n " << n.x << " " << n.y << " " << n.z;
    EXPECT_GE(best, h - resolution * norm(n)) << what << " n " << n.x << " " << n.y << " " << n.z;
  }
}

// Sampling 720 angles costs up to R (1 - cos(pi / 720)) < 1e-5 R of the support; straight
// stretches of the profile peak at their ends (sampled: the kinks), corners are sampled every
// 0.2 degrees, under 1e-5 of their radius.
constexpr int kHeights = 200, kAngles = 720;

TEST(RevolvedSolid, FlatEndMillMatchesItsProfile) {
  ToolParameters p;
  p.diameter = 6, p.cutting_length = 20;
  const RevolvedSolid s = make_cutter(p);
  const auto pts = sample_profile([](double) { return 3.0; }, heights(0, 20, kHeights), kAngles);
  expect_support_matches(s, pts, 1e-4, "flat");
  EXPECT_DOUBLE_EQ(support_value(s, {0, 0, -1}), 0);
  EXPECT_DOUBLE_EQ(support_value(s, {0, 0, 1}), 20);
  EXPECT_DOUBLE_EQ(support_value(s, {0, -1, 0}), 3);
}

TEST(RevolvedSolid, BallEndMillMatchesItsProfile) {
  ToolParameters p;
  p.shape = CutterShape::kBall, p.diameter = 10, p.cutting_length = 25;
  const RevolvedSolid s = make_cutter(p);
  const auto radius = [](double z) { return z < 5 ? std::sqrt(25 - (5 - z) * (5 - z)) : 5.0; };
  expect_support_matches(s, sample_profile(radius, heights(0, 25, kHeights, {5}, 5), kAngles), 1e-4,
                         "ball");
  EXPECT_DOUBLE_EQ(support_value(s, {0, 0, -1}), 0);
  // The ball's 45-degree support: the centre (0, 0, 5) plus 5 along n.
  EXPECT_NEAR(support_value(s, {1, 0, -1}), 5 * std::sqrt(2.0) - 5, 1e-14);
}

TEST(RevolvedSolid, BullNoseMatchesItsProfile) {
  ToolParameters p;
  p.shape = CutterShape::kBullNose, p.diameter = 12, p.corner_radius = 2, p.cutting_length = 30;
  const RevolvedSolid s = make_cutter(p);
  // The corner: a quarter circle of radius 2 about (4, 2) in the (radius, z) plane.
  const auto radius = [](double z) { return z < 2 ? 4 + std::sqrt(4 - (2 - z) * (2 - z)) : 6.0; };
  expect_support_matches(s, sample_profile(radius, heights(0, 30, kHeights, {2}, 2), kAngles), 1e-4,
                         "bull");
  EXPECT_DOUBLE_EQ(support_value(s, {0, 0, -1}), 0);
  EXPECT_DOUBLE_EQ(support_value(s, {1, 0, 0}), 6);
}

TEST(RevolvedSolid, ConeMatchesItsProfile) {
  for (const double tip : {0.0, 1.0}) {
    ToolParameters p;
    p.shape = CutterShape::kCone, p.diameter = 10, p.included_angle = 60, p.tip_diameter = tip;
    p.cutting_length = 15;
    const RevolvedSolid s = make_cutter(p);
    const double slope = std::tan(kPi / 6);
    const auto radius = [&](double z) { return std::min(5.0, tip / 2 + z * slope); };
    const double kink = (5 - tip / 2) / slope;
    expect_support_matches(s, sample_profile(radius, heights(0, 15, kHeights, {kink}), kAngles),
                           1e-4, "cone");
    // Cut off below the full diameter when the cutting length is short.
    p.cutting_length = 2;
    const RevolvedSolid short_cone = make_cutter(p);
    expect_support_matches(short_cone, sample_profile(radius, heights(0, 2, kHeights), kAngles),
                           1e-4, "short cone");
  }
}

TEST(RevolvedSolid, ToolAssemblyShankAndHolder) {
  ToolParameters p;
  p.diameter = 6, p.cutting_length = 20, p.shank_diameter = 6, p.length = 50;
  p.holder = {{20, 30, 40}, {10, 40, 40}};
  const ToolSolids t = make_tool(p);
  ASSERT_EQ(t.shank.parts.size(), 1u);
  ASSERT_EQ(t.holder.parts.size(), 2u);
  expect_support_matches(
      t.shank, sample_profile([](double) { return 3.0; }, heights(20, 50, kHeights), kAngles), 1e-4,
      "shank");
  const auto holder = [](double z) { return z < 70 ? 15 + (z - 50) / 4 : 20.0; };
  expect_support_matches(t.holder, sample_profile(holder, heights(50, 80, kHeights, {70}), kAngles),
                         1e-3, "holder");
  // No shank when its diameter is 0; no holder without segments.
  p.shank_diameter = 0, p.holder.clear();
  const ToolSolids bare = make_tool(p);
  EXPECT_TRUE(bare.shank.parts.empty());
  EXPECT_TRUE(bare.holder.parts.empty());
  EXPECT_EQ(support_value(bare.holder, {1, 0, 0}), -std::numeric_limits<double>::infinity());
}

TEST(RevolvedSolid, ProfileSolid) {
  const std::vector<ProfilePoint> profile = {{0, 0}, {1, 2}, {4, 2}, {6, 3}};
  const RevolvedSolid s = make_profile_solid(profile);
  ASSERT_EQ(s.parts.size(), 3u);
  const auto radius = [](double z) { return z < 1 ? 2 * z : (z < 4 ? 2.0 : 2 + (z - 4) / 2); };
  expect_support_matches(s, sample_profile(radius, heights(0, 6, kHeights, {1, 4}), kAngles), 1e-4,
                         "profile");
  const std::vector<ProfilePoint> falling = {{0, 1}, {-1, 1}};
  EXPECT_THROW(make_profile_solid(falling), std::invalid_argument);
}

TEST(RevolvedSolid, SweptSupportMatchesSampledPositions) {
  ToolParameters p;
  p.shape = CutterShape::kBullNose, p.diameter = 8, p.corner_radius = 1, p.cutting_length = 12;
  const RevolvedSolid s = make_cutter(p);
  const Vec3 from{10000.5, -3000.25, 40}, to{10030, -2990, 12};
  for (const Vec3& n : directions(11, 40)) {
    double best = -std::numeric_limits<double>::infinity();
    for (int i = 0; i <= 1000; ++i) {
      const double t = i / 1000.0;
      best = std::max(best, support_value(s, n) + dot(n, from + t * (to - from)));
    }
    const double h = support_value(s, from, to, n);
    // Linear in t, so the ends hold the maximum: the sampled value equals it up to rounding.
    EXPECT_NEAR(best, h, 1e-11 * norm(n) * 1e4);
    // And per primitive.
    for (const RevolvedPrimitive& q : s.parts) {
      EXPECT_NEAR(support_value(q, from, to, n),
                  support_value(q, n) + std::max(dot(n, from), dot(n, to)), 1e-9);
    }
  }
}

TEST(RevolvedSolid, SupportPointsAttainTheSupport) {
  const std::vector<RevolvedPrimitive> prims = {
      make_frustum(0, 2, 5, 3), make_frustum(1, 0, 4, 0), make_rounded_disc(3, 1, 1),
      make_rounded_disc(0, 2, 2), make_frustum(2, 0, 2, 0)};
  for (const RevolvedPrimitive& q : prims) {
    for (const Vec3& n : directions(5, 60)) {
      const Vec3 x = support_point(q, n);
      EXPECT_NEAR(dot(n, x), support_value(q, n), 1e-13 * 10 * norm(n));
      const Vec3 from{1, 2, 3}, to{-4, 5, 6};
      EXPECT_NEAR(dot(n, support_point(q, from, to, n)), support_value(q, from, to, n),
                  1e-12 * 10 * norm(n));
    }
  }
}

TEST(RevolvedSolid, BoundingBoxAndRadiusHoldTheSamples) {
  ToolParameters p;
  p.shape = CutterShape::kBall, p.diameter = 10, p.cutting_length = 25, p.shank_diameter = 8;
  p.length = 40, p.holder = {{15, 20, 30}};
  const ToolSolids t = make_tool(p);
  RevolvedSolid all = t.cutter;
  for (const RevolvedSolid* part : {&t.shank, &t.holder}) {
    all.parts.insert(all.parts.end(), part->parts.begin(), part->parts.end());
  }
  const auto radius = [](double z) {
    return z < 5 ? std::sqrt(std::max(0.0, 25 - (5 - z) * (5 - z)))
                 : (z < 25 ? 5.0 : (z < 40 ? 4.0 : 10 + (z - 40) / 3));
  };
  const auto pts = sample_profile(radius, heights(0, 55, kHeights, {5, 25, 40}, 5), 360);
  const AxisBox box = bounding_box(all);
  const double r = bounding_radius(all);
  const Vec3 from{9999.75, 5000.5, -100}, to{-10000, 5100, 300};
  const AxisBox swept = bounding_box(all, from, to);
  const BoundingBall ball = swept_bounding_ball(all, from, to);
  double farthest = 0;
  for (const Vec3& x : pts) {
    EXPECT_TRUE(x.x >= box.lo.x && x.x <= box.hi.x && x.y >= box.lo.y && x.y <= box.hi.y &&
                x.z >= box.lo.z && x.z <= box.hi.z);
    farthest = std::max(farthest, norm(x));
    for (const double s : {0.0, 0.3, 1.0}) {
      const Vec3 y = x + from + s * (to - from);
      EXPECT_TRUE(y.x >= swept.lo.x && y.x <= swept.hi.x && y.y >= swept.lo.y &&
                  y.y <= swept.hi.y && y.z >= swept.lo.z && y.z <= swept.hi.z);
      EXPECT_LE(norm(y - ball.centre), ball.radius);
    }
  }
  EXPECT_LE(farthest, r);
  // Tight: the box is the holder's radius wide and the tool's height tall.
  EXPECT_NEAR(box.hi.x, 15, 1e-12);
  EXPECT_NEAR(box.lo.z, 0, 1e-12);
  EXPECT_NEAR(box.hi.z, 55, 1e-12);
  EXPECT_NEAR(r, std::hypot(15, 55), 1e-9);
  EXPECT_NEAR(farthest, r, 1e-9);
}

// Signed distance to a primitive: in its meridian plane, to the frustum's section mirrored about
// the axis (a convex quadrilateral), less the rounding.
double signed_distance(const RevolvedPrimitive& p, Vec3 x) {
  const std::vector<test::MeridianPoint> section{
      {p.r0, p.z0}, {p.r1, p.z1}, {-p.r1, p.z1}, {-p.r0, p.z0}};
  return test::signed_distance(section, {std::hypot(x.x, x.y), x.z}) - p.rounding;
}

// The eroded primitive holds exactly the points at least s inside the primitive.
TEST(RevolvedSolid, ErosionKeepsThePointsDeepInside) {
  std::uint64_t rng = 21;
  int deep = 0, shallow = 0;
  for (int trial = 0; trial < 300; ++trial) {
    RevolvedPrimitive p;
    p.z0 = 4 * next_uniform(rng) - 2;
    p.z1 = p.z0 + (trial % 6 == 0 ? 0 : 6 * next_uniform(rng));
    p.r0 = trial % 5 == 0 ? 0 : 4 * next_uniform(rng);
    p.r1 = trial % 3 == 0 ? p.r0 : 4 * next_uniform(rng);
    p.rounding = trial % 4 == 0 ? 0 : 2 * next_uniform(rng);
    const double s = 2.5 * next_uniform(rng);
    const auto e = eroded(p, s);
    for (int k = 0; k < 200; ++k) {
      const Vec3 x{8 * next_uniform(rng) - 4, 0.5 * next_uniform(rng),
                   p.z0 - 3 + (p.z1 - p.z0 + 6) * next_uniform(rng)};
      const double depth = -signed_distance(p, x);
      const bool in_eroded = e && signed_distance(*e, x) <= 1e-9;
      if (depth >= s + 1e-7) {
        ++deep;
        ASSERT_TRUE(in_eroded) << trial << ": a point " << depth
                               << " deep is not in the erosion by " << s;
      } else if (depth <= s - 1e-7) {
        ++shallow;
        ASSERT_FALSE(in_eroded) << trial << ": a point " << depth << " deep is in the erosion by "
                                << s;
      }
    }
  }
  EXPECT_GT(deep, 1000);
  EXPECT_GT(shallow, 1000);
}

TEST(RevolvedSolid, RejectsBadParameters) {
  ToolParameters good;
  good.diameter = 6, good.cutting_length = 20, good.length = 40, good.shank_diameter = 6;
  EXPECT_NO_THROW(make_tool(good));
  const auto rejects = [&](const std::function<void(ToolParameters&)>& change) {
    ToolParameters p = good;
    change(p);
    EXPECT_THROW(make_tool(p), std::invalid_argument);
  };
  rejects([](ToolParameters& p) { p.diameter = 0; });
  rejects([](ToolParameters& p) { p.diameter = -1; });
  rejects([](ToolParameters& p) { p.diameter = std::nan(""); });
  rejects([](ToolParameters& p) { p.cutting_length = 0; });
  rejects([](ToolParameters& p) { p.shape = CutterShape::kBall, p.cutting_length = 2; });
  rejects([](ToolParameters& p) { p.shape = CutterShape::kBullNose, p.corner_radius = 0; });
  rejects([](ToolParameters& p) { p.shape = CutterShape::kBullNose, p.corner_radius = 3.5; });
  rejects([](ToolParameters& p) { p.shape = CutterShape::kCone, p.included_angle = 180; });
  rejects([](ToolParameters& p) { p.shape = CutterShape::kCone, p.included_angle = 0; });
  rejects([](ToolParameters& p) {
    p.shape = CutterShape::kCone, p.included_angle = 90, p.tip_diameter = 6;
  });
  rejects([](ToolParameters& p) { p.shank_diameter = -2; });
  rejects([](ToolParameters& p) { p.holder = {{-1, 30, 30}}; });
  rejects([](ToolParameters& p) { p.holder = {{10, std::nan(""), 30}}; });
}

}  // namespace
}  // namespace kdop
