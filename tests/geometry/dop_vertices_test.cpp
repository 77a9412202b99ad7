#include "geometry/dop_vertices.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "geometry/halfspace_intersection.hpp"
#include "geometry/shapes.hpp"
#include "tests/support/dop_of_points.hpp"

namespace kdop {
namespace {

// The k/2 intervals of a point set (double projections, no widening: these tests compare with
// tolerances).
// The k-DOP of the points; every returned vertex must satisfy all k constraints (up to the
// error bound), and for any direction u the vertices must reach as far as the points do: the
// property tumbling relies on (conv(vertices) contains the points).
template <int K>
void check_points(const std::vector<Vec3>& pts, std::uint64_t& rng) {
  using Shape = DopShape<K>;
  constexpr auto dirs = Shape::directions();
  double lo[Shape::slabs], hi[Shape::slabs];
  test::dop_of_points<K>(pts, lo, hi);
  const DopVertices v = dop_vertices<K>(lo, hi);
  ASSERT_FALSE(v.points.empty());
  const double tol = 1e-9;
  for (const Vec3& q : v.points) {
    for (int j = 0; j < Shape::slabs; ++j) {
      const double d = project(dirs[j], q.x, q.y, q.z);
      EXPECT_GE(d, lo[j] - tol);
      EXPECT_LE(d, hi[j] + tol);
    }
  }
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 u{next_uniform(rng) - 0.5, next_uniform(rng) - 0.5, next_uniform(rng) - 0.5};
    double best_vertex = -INFINITY, best_point = -INFINITY;
    for (const Vec3& q : v.points) best_vertex = std::fmax(best_vertex, dot(u, q));
    for (const Vec3& p : pts) best_point = std::fmax(best_point, dot(u, p));
    EXPECT_GE(best_vertex + v.error_bound * 3 + 1e-12, best_point);
  }
}

template <int K>
void check_k() {
  std::uint64_t rng = 42;
  for (int set = 0; set < 40; ++set) {
    std::vector<Vec3> pts;
    const int n = 3 + set % 10;
    for (int i = 0; i < n; ++i) {
      Vec3 p{next_uniform(rng), next_uniform(rng), next_uniform(rng)};
      if (set % 5 == 1) p.z = 0.25;               // flat: all on a plane
      if (set % 5 == 2) p = Vec3{p.x, p.x, p.x};  // on a diagonal line
      if (set % 5 == 3) p = Vec3{1, 2, 3};        // a single point
      pts.push_back(p);
    }
    check_points<K>(pts, rng);
  }
}

TEST(DopVertices, ContainPointsAndSatisfyConstraintsK6) {
  check_k<6>();
}
TEST(DopVertices, ContainPointsAndSatisfyConstraintsK14) {
  check_k<14>();
}
TEST(DopVertices, ContainPointsAndSatisfyConstraintsK18) {
  check_k<18>();
}
TEST(DopVertices, ContainPointsAndSatisfyConstraintsK26) {
  check_k<26>();
}
TEST(DopVertices, ContainPointsAndSatisfyConstraintsK32) {
  check_k<32>();
}
TEST(DopVertices, ContainPointsAndSatisfyConstraintsDop8) {
  check_k<8>();
}

TEST(DopVertices, BoxHasEightCorners) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 3};
  const DopVertices v = dop_vertices<6>(lo, hi);
  EXPECT_EQ(v.points.size(), 8u);
}

TEST(DopVertices, OctahedronLikeCutsOfTheCube) {
  // The 14-DOP of the unit cube's corners is the cube (diagonal planes touch only corners).
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i)
    corners.push_back({double(i & 1), double((i >> 1) & 1), double(i >> 2)});
  double lo[7], hi[7];
  test::dop_of_points<14>(corners, lo, hi);
  EXPECT_EQ(dop_vertices<14>(lo, hi).points.size(), 8u);
}

// Enumeration against the paper's method by an independent implementation: qhull's halfspace
// intersection through the dual convex hull. On full-dimensional DOPs both must give the same
// vertex set (each vertex of one within a tight tolerance of a vertex of the other).
template <int K>
void check_against_duality() {
  using Shape = DopShape<K>;
  std::uint64_t rng = 1000 + K;
  int compared = 0, vertices = 0;
  for (int set = 0; set < 300; ++set) {
    std::vector<Vec3> pts;
    const int n = 4 + set % 30;
    const double scale = std::ldexp(1.0, set % 7 - 3);
    const Vec3 offset{100 * (next_uniform(rng) - 0.5), next_uniform(rng), -3};
    Vec3 centroid{0, 0, 0};
    for (int i = 0; i < n; ++i) {
      const Vec3 p = offset + scale * Vec3{next_uniform(rng), next_uniform(rng), next_uniform(rng)};
      pts.push_back(p);
      centroid = centroid + (1.0 / n) * p;
    }
    double lo[Shape::slabs], hi[Shape::slabs];
    test::dop_of_points<K>(pts, lo, hi);
    const std::optional<DopVertices> dual = dop_vertices_by_duality<K>(lo, hi, centroid);
    ASSERT_TRUE(dual.has_value()) << "set " << set;
    const DopVertices mine = dop_vertices<K>(lo, hi);
    const double tol = 1e-9 * (scale + 100);
    auto near_any = [&](const Vec3& p, const std::vector<Vec3>& among) {
      for (const Vec3& q : among) {
        if (std::fabs(p.x - q.x) <= tol && std::fabs(p.y - q.y) <= tol &&
            std::fabs(p.z - q.z) <= tol)
          return true;
      }
      return false;
    };
    for (const Vec3& p : dual->points) EXPECT_TRUE(near_any(p, mine.points)) << "set " << set;
    for (const Vec3& p : mine.points) EXPECT_TRUE(near_any(p, dual->points)) << "set " << set;
    ++compared;
    vertices += static_cast<int>(mine.points.size());
  }
  EXPECT_EQ(compared, 300);
  EXPECT_GT(vertices, 300 * 6);  // mostly full polytopes, not trivial boxes
}

TEST(DopVertices, EnumerationEqualsDualHullK6) {
  check_against_duality<6>();
}
TEST(DopVertices, EnumerationEqualsDualHullK14) {
  check_against_duality<14>();
}
TEST(DopVertices, EnumerationEqualsDualHullK18) {
  check_against_duality<18>();
}
TEST(DopVertices, EnumerationEqualsDualHullK26) {
  check_against_duality<26>();
}
TEST(DopVertices, EnumerationEqualsDualHullK32) {
  check_against_duality<32>();
}
TEST(DopVertices, EnumerationEqualsDualHullDop8) {
  check_against_duality<8>();
}

}  // namespace
}  // namespace kdop
