#include "geometry/convex_hull.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

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

// Points on the unit sphere: every one is a hull vertex.
std::vector<Vec3> sphere_cloud(int n, std::uint64_t& rng) {
  std::vector<Vec3> pts;
  while (static_cast<int>(pts.size()) < n) {
    const Vec3 p{2 * next_uniform(rng) - 1, 2 * next_uniform(rng) - 1, 2 * next_uniform(rng) - 1};
    const double len = std::sqrt(dot(p, p));
    if (len > 0.1 && len < 1) pts.push_back({p.x / len, p.y / len, p.z / len});
  }
  return pts;
}

TEST(ConvexHull, ClimbStartsGrowWithTheHullAndHoldEachCellsExtreme) {
  std::uint64_t rng = 10;
  for (const auto& [points, grid] : {std::pair{100, 8}, {1000, 16}, {5000, 32}, {40000, 32}}) {
    SCOPED_TRACE(points);
    const HullGraph h = convex_hull_graph(sphere_cloud(points, rng));
    const ClimbStarts s = climb_starts(h);
    EXPECT_EQ(s.grid, grid);
    ASSERT_EQ(s.vertex.size(), 6u * grid * grid);
    EXPECT_EQ(climb_grid_of(s.vertex.size()), grid);
    // Each entry is the extreme vertex of its cell's centre direction (face x, cell 1 on the
    // first axis after x, cell 2 on the second).
    for (int face = 0; face < 6; ++face) {
      for (int iu = 0; iu < grid; iu += 3) {
        for (int iv = 0; iv < grid; iv += 5) {
          double c[3];
          const int a = face / 2;
          c[a] = face % 2 ? -1.0 : 1.0;
          c[(a + 1) % 3] = (iu + 0.5) / grid * 2 - 1;
          c[(a + 2) % 3] = (iv + 0.5) / grid * 2 - 1;
          const Vec3 d{c[0], c[1], c[2]};
          const std::uint32_t v = s.vertex[(face * grid + iu) * grid + iv];
          EXPECT_EQ(dot(d, h.points[v]), brute_max(h.points, d));
          EXPECT_EQ(climb_start(s, d), v);
        }
      }
    }
    // A walk from the start of any direction ends at the extreme.
    for (int trial = 0; trial < 200; ++trial) {
      const Vec3 d{next_uniform(rng) - 0.5, next_uniform(rng) - 0.5, next_uniform(rng) - 0.5};
      EXPECT_EQ(dot(d, h.points[hill_climb(h, d, climb_start(s, d))]), brute_max(h.points, d));
    }
  }
  // A flat cloud's hull is searched exhaustively, so its map stays the smallest.
  std::vector<Vec3> flat;
  for (int i = 0; i < 5000; ++i) flat.push_back({next_uniform(rng), next_uniform(rng), 1.0});
  const HullGraph flat_hull = convex_hull_graph(flat);
  ASSERT_TRUE(flat_hull.exhaustive);
  EXPECT_EQ(climb_starts(flat_hull).grid, ClimbStarts::min_grid);
  EXPECT_EQ(climb_grid_of(385), 0);
  EXPECT_EQ(climb_grid_of(6 * 64 * 64), 0);
}

// Inner points: hull vertices, each once, at most 6 per_face^2 of them; a box gives exactly its 8
// corners (each is the extreme of the cube-map cells in its octant); on a sphere their extent
// along any direction is within the coarse grid's angular gap of the exact one.
TEST(ConvexHull, InnerPointsAreDistinctHullVerticesSpreadOverEveryDirection) {
  std::vector<Vec3> box;
  for (int i = 0; i < 8; ++i)
    box.push_back({i & 1 ? 2.0 : -1.0, i & 2 ? 3.0 : 0.5, i & 4 ? 1.0 : -4.0});
  box.push_back({0.5, 1.0, -1.0});  // inside
  const HullGraph box_hull = convex_hull_graph(box);
  const InnerPoints corners = inner_points(box_hull, climb_starts(box_hull), 4);
  ASSERT_EQ(corners.x.size(), 8u);
  std::vector<int> seen;
  for (std::size_t i = 0; i < 8; ++i) {
    seen.push_back((corners.x[i] == 2.0f) + 2 * (corners.y[i] == 3.0f) +
                   4 * (corners.z[i] == 1.0f));
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));

  std::uint64_t rng = 12;
  const HullGraph h = convex_hull_graph(sphere_cloud(2000, rng));
  const ClimbStarts starts = climb_starts(h);
  for (int per_face : {2, 4, 8}) {
    SCOPED_TRACE(per_face);
    const InnerPoints p = inner_points(h, starts, per_face);
    ASSERT_LE(p.x.size(), 6u * per_face * per_face);
    ASSERT_GE(p.x.size(), 6u);
    std::vector<Vec3> points;
    for (std::size_t i = 0; i < p.x.size(); ++i) {
      const Vec3 v{p.x[i], p.y[i], p.z[i]};
      bool on_hull = false;
      for (const Vec3& q : h.points) {
        on_hull =
            on_hull || (static_cast<float>(q.x) == p.x[i] && static_cast<float>(q.y) == p.y[i] &&
                        static_cast<float>(q.z) == p.z[i]);
      }
      EXPECT_TRUE(on_hull) << i;
      for (const Vec3& w : points) EXPECT_FALSE(w.x == v.x && w.y == v.y && w.z == v.z) << i;
      points.push_back(v);
    }
    // A coarse cell's point is the extreme of a map cell half a map cell (1 / grid on the face)
    // from the coarse cell's centre, so within atan(sqrt 2 (1 / per_face + 1 / grid)) of any
    // direction in the coarse cell (the face-centre cells at worst): the extent of a unit
    // sphere there is at least cos of that.
    const double gap = std::atan(std::sqrt(2.0) * (1.0 / per_face + 1.0 / starts.grid));
    for (int trial = 0; trial < 300; ++trial) {
      Vec3 d{next_uniform(rng) - 0.5, next_uniform(rng) - 0.5, next_uniform(rng) - 0.5};
      const double len = std::sqrt(dot(d, d));
      d = {d.x / len, d.y / len, d.z / len};
      const double inner = brute_max(points, d), exact = brute_max(h.points, d);
      EXPECT_LE(inner, exact + 1e-6);
      EXPECT_GE(inner, std::cos(gap) * exact - 0.1);  // 0.1: the cloud's own spacing
    }
  }
}

}  // namespace
}  // namespace kdop
