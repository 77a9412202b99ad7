// The swept-triangle test against hand-made cases and against dense sampling of the motion:
// sampling can only miss contacts, so every sampled contact must be found, and every contact
// found must have a sample within the sampling step's reach.
#include "geometry/swept_triangle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "geometry/shapes.hpp"
#include "geometry/triangle_distance.hpp"

namespace kdop {
namespace {

Triangle moved(const Triangle& t, Vec3 d) {
  return {t.p0 + d, t.p1 + d, t.p2 + d};
}

TEST(SweptTriangle, PassingThroughAThinTriangle) {
  const Triangle wall{{5, -3, -3}, {5, 3, -3}, {5, 0, 4}};
  const Triangle f{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  // Both ends clear of the wall, the motion goes through it.
  EXPECT_FALSE(triangles_intersect(wall, f));
  EXPECT_FALSE(triangles_intersect(wall, moved(f, {10, 0, 0})));
  EXPECT_TRUE(triangle_meets_sweep(wall, f, moved(f, {10, 0, 0})));
  EXPECT_EQ(sweep_distance(wall, f, moved(f, {10, 0, 0})), 0.0);
  // Stopping short by 0.5 (the corner at x = 1 + 3.5): clear, 0.5 away.
  EXPECT_FALSE(triangle_meets_sweep(wall, f, moved(f, {3.5, 0, 0})));
  EXPECT_DOUBLE_EQ(sweep_distance(wall, f, moved(f, {3.5, 0, 0})), 0.5);
  // Exactly reaching it: touching counts.
  EXPECT_TRUE(triangle_meets_sweep(wall, f, moved(f, {4, 0, 0})));
  // Passing beside it (the wall spans y in [-3, 3] only near z = -3).
  EXPECT_FALSE(triangle_meets_sweep(wall, moved(f, {0, 10, 0}), moved(f, {10, 10, 0})));
}

TEST(SweptTriangle, SmallTriangleInsideTheSweep) {
  // e lies wholly inside the prism, touching none of its faces.
  const Triangle f{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};
  const Triangle g = moved(f, {0, 0, 4});
  const Triangle e{{1, 1, 1}, {1.5, 1, 1}, {1, 1.5, 2}};
  for (const Triangle& face : prism_faces(f, g)) ASSERT_FALSE(triangles_intersect(e, face));
  EXPECT_TRUE(triangle_meets_sweep(e, f, g));
  EXPECT_EQ(sweep_distance(e, f, g), 0.0);
  // No motion: the prism is f itself.
  EXPECT_FALSE(triangle_meets_sweep(e, f, f));
  EXPECT_DOUBLE_EQ(sweep_distance(e, f, f), 1.0);
}

TEST(SweptTriangle, CoplanarMotion) {
  // Sliding in the plane z = 0 across a coplanar triangle, and 1e-9 above its plane.
  const Triangle e{{5, -1, 0}, {6, -1, 0}, {5.5, 1, 0}};
  const Triangle f{{0, 0, 0}, {1, 0, 0}, {0, 0.5, 0}};
  EXPECT_TRUE(triangle_meets_sweep(e, f, moved(f, {10, 0, 0})));
  const Triangle lifted = moved(f, {0, 0, 1e-9});
  EXPECT_FALSE(triangle_meets_sweep(e, lifted, moved(lifted, {10, 0, 0})));
  EXPECT_NEAR(sweep_distance(e, lifted, moved(lifted, {10, 0, 0})), 1e-9, 1e-20);
}

// Random triangles and translations: sampled contact => found; found => some sample within reach
// (the prism is the union of the translates, so a point in it is within |d| / (2 n) of one).
TEST(SweptTriangle, AgreesWithDenseSampling) {
  std::uint64_t rng = 42;
  auto point = [&](double scale) {
    return Vec3{scale * (2 * next_uniform(rng) - 1), scale * (2 * next_uniform(rng) - 1),
                scale * (2 * next_uniform(rng) - 1)};
  };
  int found = 0;
  constexpr int n = 400;
  for (int trial = 0; trial < 2000; ++trial) {
    const Triangle e{point(1), point(1), point(1)};
    const Vec3 start = point(1.5);
    const Triangle f{start + point(0.5), start + point(0.5), start + point(0.5)};
    const Vec3 d = point(3);
    const Triangle g = moved(f, d);
    const bool meets = triangle_meets_sweep(e, f, g);
    double least = INFINITY;
    bool sampled = false;
    for (int i = 0; i <= n; ++i) {
      const Triangle at = moved(f, (static_cast<double>(i) / n) * d);
      if (triangles_intersect(e, at)) sampled = true;
      least = std::min(least, triangle_distance(e, at).distance);
    }
    if (sampled) {
      ASSERT_TRUE(meets) << trial;
    }
    if (meets) {
      ++found;
      ASSERT_LE(least, norm(d) / (2 * n) * 1.0001 + 1e-12) << trial;
    } else {
      // Clear: the distance to the prism is no more than any sample's and positive.
      const double dist = sweep_distance(e, f, g);
      ASSERT_GT(dist, 0) << trial;
      ASSERT_LE(dist, least * (1 + 1e-12)) << trial;
      ASSERT_GE(dist, least - norm(d) / (2 * n) * 1.0001 - 1e-12) << trial;
    }
  }
  EXPECT_GT(found, 100);
  EXPECT_LT(found, 1900);
}

}  // namespace
}  // namespace kdop
