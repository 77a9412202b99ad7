#include "geometry/convex_hull.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "geometry/shapes.hpp"

namespace kdop {
namespace {

double brute_max(const std::vector<Vec3>& pts, const Vec3& d) {
  double best = -INFINITY;
  for (const Vec3& p : pts) best = std::fmax(best, dot(d, p));
  return best;
}

void check_cloud(const std::vector<Vec3>& pts, std::uint64_t& rng, bool expect_exhaustive) {
  const HullGraph h = convex_hull_graph(pts);
  EXPECT_EQ(h.exhaustive, expect_exhaustive);
  for (int trial = 0; trial < 300; ++trial) {
    const Vec3 d{next_uniform(rng) - 0.5, next_uniform(rng) - 0.5, next_uniform(rng) - 0.5};
    const auto start = static_cast<std::uint32_t>(next_uniform(rng) * h.points.size());
    const double climbed = dot(d, h.points[hill_climb(h, d, start)]);
    EXPECT_EQ(climbed, brute_max(h.points, d));
    EXPECT_GE(climbed + 1e-12, brute_max(pts, d));
  }
}

TEST(ConvexHull, HillClimbingFindsTheExtremeVertex) {
  std::uint64_t rng = 8;
  std::vector<Vec3> cloud;
  for (int i = 0; i < 2000; ++i)
    cloud.push_back({next_uniform(rng), next_uniform(rng), next_uniform(rng)});
  check_cloud(cloud, rng, false);
  const Mesh torus = make_torus({0, 0, 0}, 1, 0.3, 40, 16, 0.2);
  std::vector<Vec3> tp;
  for (std::size_t i = 0; i < torus.vertex_count(); ++i)
    tp.push_back({torus.x[i], torus.y[i], torus.z[i]});
  check_cloud(tp, rng, false);
}

TEST(ConvexHull, FlatAndTinySetsAreSearchedExhaustively) {
  std::uint64_t rng = 9;
  std::vector<Vec3> flat;
  for (int i = 0; i < 50; ++i) flat.push_back({next_uniform(rng), next_uniform(rng), 2.0});
  check_cloud(flat, rng, true);
  check_cloud({{0, 0, 0}, {1, 1, 1}}, rng, true);
  check_cloud({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4}}, rng, true);
}

}  // namespace
}  // namespace kdop
