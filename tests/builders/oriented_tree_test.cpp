// OBB and RSS trees: every node's volume contains every corner of its triangles (checked in long
// double against the stored numbers), and the fit finds a box's own axes (a hand-computed case).
#include "builders/oriented_tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "builders/obb_fit.hpp"
#include "geometry/pose.hpp"
#include "geometry/shapes.hpp"
#include "tests/support/scenes.hpp"

namespace kdop {
namespace {

// Corner p in node n's frame, in long double (64-bit mantissa: its rounding is far below the
// builder's allowance).
std::array<long double, 3> local(const double* box, double x, double y, double z) {
  const long double d[3] = {static_cast<long double>(x) - box[kCenterAt],
                            static_cast<long double>(y) - box[kCenterAt + 1],
                            static_cast<long double>(z) - box[kCenterAt + 2]};
  std::array<long double, 3> l{};
  for (int a = 0; a < 3; ++a) {
    const double* u = box + kAxesAt + 3 * a;
    l[a] = u[0] * d[0] + u[1] * d[1] + u[2] * d[2];
  }
  return l;
}

template <class Bv>
void expect_every_node_contains_its_triangles(const OrientedTree<Bv>& t) {
  const std::vector<SlotRange> ranges = slot_ranges(t.topology);
  for (std::uint32_t n = 0; n < t.topology.node_count(); ++n) {
    const double* box = t.node_box(n);
    for (std::uint32_t s = ranges[n].first; s < ranges[n].first + ranges[n].count; ++s) {
      for (int c = 0; c < 3; ++c) {
        const auto l = local(box, t.triangles.x(c)[s], t.triangles.y(c)[s], t.triangles.z(c)[s]);
        if constexpr (std::is_same_v<Bv, ObbBv>) {
          for (int a = 0; a < 3; ++a) {
            ASSERT_LE(std::fabs(l[a]), box[kHalfAt + a]) << "node " << n << " slot " << s;
          }
        } else {
          const long double dx = std::max(std::fabs(l[0]) - box[kHalfAt], 0.0L);
          const long double dy = std::max(std::fabs(l[1]) - box[kHalfAt + 1], 0.0L);
          ASSERT_LE(std::sqrt(dx * dx + dy * dy + l[2] * l[2]), box[kRadiusAt])
              << "node " << n << " slot " << s;
        }
      }
    }
  }
}

template <class Bv>
void check_containment() {
  std::uint64_t rng = 3;
  Mesh m = make_torus({100, -50, 3}, 1, 0.3, 24, 12, 0.2);
  test::add_degenerate_and_duplicates(m, rng, 30);
  append_mesh(m, test::make_grid_plate(3, 0.5));  // flat, axis-aligned parts
  // Nodes of more than kHullFitMaxCorners corners, fitted by their triangles.
  append_mesh(m, make_sphere({97, -52, 1}, 2, 80, 60));
  for (SplitRule rule : {SplitRule::obb_axis, SplitRule::splatter}) {
    for (std::uint32_t tau : {1u, 40u}) {
      const BuildConfig c{rule, SplitPoint::mean, tau};
      expect_every_node_contains_its_triangles(build_oriented_tree<Bv>(m, c));
      const FlyingOrientedTree<Bv> f = build_flying_oriented_tree<Bv>(m, c);
      expect_every_node_contains_its_triangles(f.tree);
      EXPECT_GT(f.corner_radius, 100.0);
    }
  }
}

TEST(OrientedTree, ObbNodesContainTheirTriangles) {
  check_containment<ObbBv>();
}

TEST(OrientedTree, RssNodesContainTheirTriangles) {
  check_containment<RssBv>();
}

// A node of more than kHullFitMaxCorners corners takes the axes of its own triangles, not of its
// hull: a dense 210 x 70 plate with one tall spike at a corner, whose hull (a pyramid over the
// plate) has axes well apart from the plate's.
TEST(OrientedTree, LargeNodesAreFittedByTheirTriangles) {
  Mesh m = test::make_grid_plate(70, 0);
  for (double& x : m.x) x *= 3;
  const std::uint32_t tip = m.add_vertex(0, 0, 40);
  m.add_triangle(0, 1, tip);
  std::vector<Vec3> corners;
  std::vector<std::array<Vec3, 3>> surface;
  for (std::size_t v = 0; v < m.vertex_count(); ++v) corners.push_back({m.x[v], m.y[v], m.z[v]});
  for (std::size_t t = 0; t < m.triangle_count(); ++t) {
    surface.push_back({corners[m.a[t]], corners[m.b[t]], corners[m.c[t]]});
  }
  ASSERT_GT(corners.size(), kHullFitMaxCorners);
  const Obb by_triangles = fit_obb(corners, surface);
  const Obb by_hull = fit_obb(corners);
  auto same_axis = [](const Vec3& u, const Vec3& v, double tolerance) {
    return std::fabs(std::fabs(dot(u, v)) - 1) < tolerance;
  };
  ASSERT_FALSE(
      same_axis(by_triangles.axis[0], by_hull.axis[0], 1e-3));  // the case tells them apart
  const OrientedTree<ObbBv> tree =
      build_oriented_tree<ObbBv>(m, BuildConfig{SplitRule::obb_axis, SplitPoint::mean, 1});
  const double* root = tree.node_box(0);
  for (int a = 0; a < 3; ++a) {
    const Vec3 axis{root[kAxesAt + 3 * a], root[kAxesAt + 3 * a + 1], root[kAxesAt + 3 * a + 2]};
    EXPECT_TRUE(same_axis(axis, by_triangles.axis[a], 1e-9)) << "axis " << a;
  }
  expect_every_node_contains_its_triangles(tree);
}

// A 3 x 2 x 1 box turned by a random rotation: its hull is itself, whose surface covariance has
// the box's edges as eigenvectors, so the root OBB is the box (half extents 1.5, 1, 0.5) and the
// root RSS is its 3 x 2 face swept by 0.5.
TEST(OrientedTree, RootOfATurnedBoxIsTheBox) {
  std::uint64_t rng = 17;
  const Pose turn = random_pose(rng, {5, -2, 1}, {5, -2, 1});
  Mesh m = test::make_box(3, 2, 1);
  for (std::size_t v = 0; v < m.vertex_count(); ++v) {
    const Vec3 p = apply_pose(turn, {m.x[v], m.y[v], m.z[v]});
    m.x[v] = p.x;
    m.y[v] = p.y;
    m.z[v] = p.z;
  }
  const BuildConfig c{SplitRule::obb_axis, SplitPoint::mean, 1};
  const OrientedTree<ObbBv> obb = build_oriented_tree<ObbBv>(m, c);
  EXPECT_NEAR(obb.node_box(0)[kHalfAt], 1.5, 1e-9);
  EXPECT_NEAR(obb.node_box(0)[kHalfAt + 1], 1.0, 1e-9);
  EXPECT_NEAR(obb.node_box(0)[kHalfAt + 2], 0.5, 1e-9);
  const Vec3 center = apply_pose(turn, {1.5, 1, 0.5});
  EXPECT_NEAR(obb.node_box(0)[kCenterAt], center.x, 1e-9);
  EXPECT_NEAR(obb.node_box(0)[kCenterAt + 1], center.y, 1e-9);
  EXPECT_NEAR(obb.node_box(0)[kCenterAt + 2], center.z, 1e-9);
  const OrientedTree<RssBv> rss = build_oriented_tree<RssBv>(m, c);
  const double* r = rss.node_box(0);
  // The shrunk rectangle (1.0 x 0.5) with radius sqrt(0.5^2 * 3) would be larger than the
  // face (1.5 x 1.0) with radius 0.5, so the face wins.
  EXPECT_NEAR(std::max(r[kHalfAt], r[kHalfAt + 1]), 1.5, 1e-9);
  EXPECT_NEAR(std::min(r[kHalfAt], r[kHalfAt + 1]), 1.0, 1e-9);
  EXPECT_NEAR(r[kRadiusAt], 0.5, 1e-9);
  // Every node of both is also the smallest a node can be: a leaf holds one triangle, which is
  // flat, so its box or rounded box has a zero extent up to rounding.
  for (std::uint32_t n = 0; n < obb.topology.node_count(); ++n) {
    if (!obb.topology.is_leaf(n)) continue;
    const double* b = obb.node_box(n);
    EXPECT_LT(std::min({b[kHalfAt], b[kHalfAt + 1], b[kHalfAt + 2]}), 1e-12) << "leaf " << n;
    EXPECT_LT(rss.node_box(n)[kRadiusAt], 1e-12) << "leaf " << n;
  }
}

}  // namespace
}  // namespace kdop
