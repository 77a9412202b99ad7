#include "builders/obb_fit.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "geometry/convex_hull.hpp"
#include "geometry/pose.hpp"
#include "geometry/rectangle_distance.hpp"
#include "geometry/shapes.hpp"
#include "tests/support/scenes.hpp"

namespace kdop {
namespace {

// The oracle for the closed form: the edge-midpoint rule, exact for quadratic integrands on a
// triangle (integral of f = A / 3 (f(m_01) + f(m_12) + f(m_20))).
std::array<double, 9> second_moments_by_midpoints(const std::vector<std::array<Vec3, 3>>& tris,
                                                  double& area, Vec3& first) {
  std::array<double, 9> s{};
  area = 0;
  first = {0, 0, 0};
  for (const auto& t : tris) {
    const double a = 0.5 * norm(cross(t[1] - t[0], t[2] - t[0]));
    area += a;
    const Vec3 mids[3] = {0.5 * (t[0] + t[1]), 0.5 * (t[1] + t[2]), 0.5 * (t[2] + t[0])};
    for (const Vec3& m : mids) {
      first = first + (a / 3) * m;
      for (int j = 0; j < 3; ++j) {
        for (int k = 0; k < 3; ++k) s[3 * j + k] += a / 3 * coord(m, j) * coord(m, k);
      }
    }
  }
  return s;
}

TEST(ObbFit, SurfaceMomentsMatchTheMidpointRule) {
  std::uint64_t rng = 5;
  for (int set = 0; set < 50; ++set) {
    std::vector<Vec3> pts;
    for (int i = 0; i < 30; ++i) {
      pts.push_back({3 * next_uniform(rng) - 1, next_uniform(rng) + 2, 0.5 * next_uniform(rng)});
    }
    const auto hull = convex_hull_triangles(pts);
    ASSERT_FALSE(hull.empty());
    const SurfaceMoments got = surface_moments(hull);
    double area = 0;
    Vec3 first;
    const std::array<double, 9> s = second_moments_by_midpoints(hull, area, first);
    EXPECT_NEAR(got.area, area, 1e-12 * area);
    const Vec3 mean = (1.0 / area) * first;
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(coord(got.mean, j), coord(mean, j), 1e-12);
      for (int k = 0; k < 3; ++k) {
        const double want = s[3 * j + k] / area - coord(mean, j) * coord(mean, k);
        EXPECT_NEAR(got.covariance[3 * j + k], want, 1e-11) << j << k;
      }
    }
  }
}

// A box's corners, turned and moved: the fit finds the box itself (Gottschalk's OBB of a box is
// the box), unlike the axis-aligned box around it.
TEST(ObbFit, RotatedBoxFitsItself) {
  std::uint64_t rng = 9;
  for (int set = 0; set < 20; ++set) {
    const Pose pose = test::random_pose(rng, {-5, -5, -5}, {5, 5, 5});
    std::vector<Vec3> corners;
    for (int c = 0; c < 8; ++c) {
      corners.push_back(
          apply_pose(pose, Vec3{c & 1 ? 0.5 : -0.5, c & 2 ? 1.0 : -1.0, c & 4 ? 1.5 : -1.5}));
    }
    const Obb box = fit_obb(corners);
    EXPECT_NEAR(box.half[0], 1.5, 1e-9);  // the largest variance first
    EXPECT_NEAR(box.half[1], 1.0, 1e-9);
    EXPECT_NEAR(box.half[2], 0.5, 1e-9);
    const Vec3 center = apply_pose(pose, Vec3{0, 0, 0});
    EXPECT_NEAR(norm(box.center - center), 0, 1e-9);
  }
}

// Every point inside, axes orthonormal and right-handed, also for sets with no 3D hull.
TEST(ObbFit, ContainsEveryPointWhateverTheShape) {
  std::uint64_t rng = 21;
  for (int set = 0; set < 60; ++set) {
    const int kind = set % 4;
    std::vector<Vec3> pts;
    const int n = kind == 3 ? 1 : 2 + static_cast<int>(40 * next_uniform(rng));
    for (int i = 0; i < n; ++i) {
      Vec3 p{next_uniform(rng), next_uniform(rng), next_uniform(rng)};
      if (kind == 1) p.z = 0.3 * p.x - 0.2 * p.y;   // a plane
      if (kind == 2) p = Vec3{p.x, 2 * p.x, -p.x};  // a line
      pts.push_back(p + Vec3{10, -20, 5});
    }
    const Obb box = fit_obb(pts);
    for (int a = 0; a < 3; ++a) {
      EXPECT_NEAR(norm(box.axis[a]), 1, 1e-12);
      EXPECT_NEAR(dot(box.axis[a], box.axis[(a + 1) % 3]), 0, 1e-12);
      EXPECT_GE(box.half[a], 0);
    }
    EXPECT_NEAR(dot(cross(box.axis[0], box.axis[1]), box.axis[2]), 1, 1e-12);
    for (const Vec3& p : pts) {
      for (int a = 0; a < 3; ++a) {
        EXPECT_LE(std::fabs(dot(box.axis[a], p - box.center)), box.half[a] + 1e-12 * 30)
            << "set " << set << " axis " << a;
      }
    }
    if (kind == 1) {
      EXPECT_NEAR(box.half[2], 0, 1e-12);  // flat points: a flat box
    }
  }
}

// The fit reads the hull's surface, not the sample density: piling extra points inside the
// hull or on one face does not turn the box.
TEST(ObbFit, IgnoresPointsInsideTheHull) {
  const Mesh torus = make_torus({0, 0, 0}, 3.0, 1.0, 40, 20, 0.0);
  std::vector<Vec3> pts;
  for (std::size_t v = 0; v < torus.vertex_count(); ++v) {
    pts.push_back({torus.x[v], torus.y[v], torus.z[v]});
  }
  const Obb sparse = fit_obb(pts);
  std::uint64_t rng = 3;
  for (int i = 0; i < 5000; ++i) {  // a dense cluster near the centre, inside the hull
    pts.push_back({0.5 * next_uniform(rng), 0.2 * next_uniform(rng), 0.1});
  }
  const Obb dense = fit_obb(pts);
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(sparse.half[a], dense.half[a], 1e-12);
    EXPECT_NEAR(std::fabs(dot(sparse.axis[a], dense.axis[a])), 1, 1e-9);
  }
}

// The rounded box holds every point within its radius of the rectangle (measured by the
// rectangle distance to a point, a rectangle of size 0); a thin plate's radius is about its
// half thickness.
TEST(RssFit, PointsWithinTheRadiusOfTheRectangle) {
  std::uint64_t rng = 44;
  for (int set = 0; set < 40; ++set) {
    const Pose pose = random_pose(rng, {-3, -3, -3}, {3, 3, 3});
    const double thickness = set % 2 == 0 ? 0.05 : 0.8;
    std::vector<Vec3> pts;
    for (int i = 0; i < 50; ++i) {
      pts.push_back(apply_pose(pose, Vec3{2 * next_uniform(rng) - 1, 1.5 * next_uniform(rng),
                                          thickness * (next_uniform(rng) - 0.5)}));
    }
    const Rss rss = fit_rss(pts);
    EXPECT_NEAR(dot(cross(rss.axis[0], rss.axis[1]), rss.axis[2]), 1, 1e-12);
    if (set % 2 == 0) {
      // The thin axis is found; the PCA frame tilts a little off the plate's normal (Gottschalk's
      // fit is not the smallest box), which the measured radii show: 0.0252-0.0278 for 0.025.
      EXPECT_LE(rss.radius, 1.2 * 0.5 * thickness);
    }
    const double a[2] = {rss.half[0], rss.half[1]}, none[2] = {0, 0};
    const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (const Vec3& p : pts) {
      const Vec3 d = p - rss.center;
      const double local[3] = {dot(rss.axis[0], d), dot(rss.axis[1], d), dot(rss.axis[2], d)};
      EXPECT_LE(rectangle_distance(a, none, identity, local), rss.radius + 1e-12);
    }
  }
}

}  // namespace
}  // namespace kdop
