// Generated solids for NC checks: closed and consistently oriented (every directed edge once, its
// reverse once), facing outward, with the volume an independent sum gives.
#include "geometry/shapes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

namespace kdop {
namespace {

// Each directed edge must occur exactly once and its reverse exactly once: closed, two triangles
// per edge, consistently oriented. Returns the number of edges that break that.
int bad_edges(const Mesh& m) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  for (std::uint32_t t = 0; t < m.triangle_count(); ++t) {
    const std::uint32_t v[3] = {m.a[t], m.b[t], m.c[t]};
    for (int e = 0; e < 3; ++e) ++directed[{v[e], v[(e + 1) % 3]}];
  }
  int bad = 0;
  for (const auto& [edge, count] : directed) {
    const auto reverse = directed.find({edge.second, edge.first});
    if (count != 1 || reverse == directed.end() || reverse->second != 1) ++bad;
  }
  return bad;
}

// The divergence theorem: the sum of signed tetrahedra from the origin (positive when outward).
double signed_volume(const Mesh& m) {
  double v = 0;
  for (std::uint32_t t = 0; t < m.triangle_count(); ++t) {
    const Vec3 p{m.x[m.a[t]], m.y[m.a[t]], m.z[m.a[t]]};
    const Vec3 q{m.x[m.b[t]], m.y[m.b[t]], m.z[m.b[t]]};
    const Vec3 r{m.x[m.c[t]], m.y[m.c[t]], m.z[m.c[t]]};
    v += dot(p, cross(q, r)) / 6;
  }
  return v;
}

TEST(Shapes, BoxIsAnOutwardSolid) {
  const Mesh box = make_box({-1, 2, 3}, {4, 5, 10});
  EXPECT_EQ(box.triangle_count(), 12u);
  EXPECT_EQ(bad_edges(box), 0);
  EXPECT_DOUBLE_EQ(signed_volume(box), 5.0 * 3.0 * 7.0);
}

TEST(Shapes, HeightFieldBlockIsAnOutwardSolid) {
  // A terrain over an uneven grid, base below it.
  std::vector<double> xs{0, 0.5, 2, 3, 7}, ys{-1, 0, 4, 4.5};
  std::vector<double> heights;
  for (const double y : ys) {
    for (const double x : xs) heights.push_back(3 + std::sin(x) * std::cos(y));
  }
  const Mesh m = make_heightfield_block(xs, ys, -2, heights);
  const std::size_t nx = xs.size(), ny = ys.size();
  EXPECT_EQ(m.triangle_count(), 4 * (nx - 1) * (ny - 1) + 4 * (nx - 1) + 4 * (ny - 1));
  EXPECT_EQ(bad_edges(m), 0);
  // Independently: each top cell's two triangles are prisms over the base, of volume projected
  // area times mean height above the base.
  double expected = 0;
  for (std::size_t j = 0; j + 1 < ny; ++j) {
    for (std::size_t i = 0; i + 1 < nx; ++i) {
      const double area = (xs[i + 1] - xs[i]) * (ys[j + 1] - ys[j]) / 2;
      const double h00 = heights[j * nx + i] + 2, h10 = heights[j * nx + i + 1] + 2;
      const double h11 = heights[(j + 1) * nx + i + 1] + 2, h01 = heights[(j + 1) * nx + i] + 2;
      expected += area * (h00 + h10 + h11) / 3 + area * (h00 + h11 + h01) / 3;
    }
  }
  EXPECT_NEAR(signed_volume(m), expected, 1e-12 * expected);
}

TEST(Shapes, HeightFieldBlockRejectsBadGrids) {
  EXPECT_THROW(make_heightfield_block({0}, {0, 1}, 0, {1, 1}), std::invalid_argument);
  EXPECT_THROW(make_heightfield_block({0, 1}, {0, 1}, 0, {1, 1, 1}), std::invalid_argument);
  EXPECT_THROW(make_heightfield_block({1, 0}, {0, 1}, 0, {1, 1, 1, 1}), std::invalid_argument);
  EXPECT_THROW(make_heightfield_block({0, 1}, {0, 0}, 0, {1, 1, 1, 1}), std::invalid_argument);
  EXPECT_THROW(make_heightfield_block({0, 1}, {0, 1}, 0, {1, 0, 1, 1}), std::invalid_argument);
  EXPECT_THROW(make_heightfield_block({0, 1}, {0, 1}, 0, {1, NAN, 1, 1}), std::invalid_argument);
}

}  // namespace
}  // namespace kdop
