// Points against closed meshes: hand cases on a box where the vertical ray meets edges and
// corners exactly (the symbolic perturbation must count each crossing once), and random points
// against a height-field block, whose inside is known in closed form, for every K.
#include "engine/point_in_solid.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "geometry/shapes.hpp"

namespace kdop {
namespace {

template <int K>
void box_cases() {
  const DopTree<K> box = build_dop_tree<K>(make_box({0, 0, 0}, {4, 4, 4}), {});
  // Inside, below the top's diagonal (the ray meets the shared edge of its two triangles) and
  // below a top corner's projection... on the boundary itself.
  EXPECT_EQ(point_in_solid<K>(box, {1, 1, 1}), SolidSide::inside);
  EXPECT_EQ(point_in_solid<K>(box, {2, 2, 2}), SolidSide::inside);  // under both diagonals
  EXPECT_EQ(point_in_solid<K>(box, {3, 1, 0.5}), SolidSide::inside);
  // Below the box, on the rays through its edges and corners: outside (two or zero crossings).
  EXPECT_EQ(point_in_solid<K>(box, {2, 2, -1}), SolidSide::outside);
  EXPECT_EQ(point_in_solid<K>(box, {0, 2, -1}), SolidSide::outside);
  EXPECT_EQ(point_in_solid<K>(box, {0, 0, -1}), SolidSide::outside);
  EXPECT_EQ(point_in_solid<K>(box, {4, 4, -1}), SolidSide::outside);
  EXPECT_EQ(point_in_solid<K>(box, {5, 2, 2}), SolidSide::outside);
  EXPECT_EQ(point_in_solid<K>(box, {2, 2, 5}), SolidSide::outside);
  // On faces, edges and corners.
  EXPECT_EQ(point_in_solid<K>(box, {2, 2, 4}), SolidSide::boundary);
  EXPECT_EQ(point_in_solid<K>(box, {0, 2, 2}), SolidSide::boundary);
  EXPECT_EQ(point_in_solid<K>(box, {4, 4, 4}), SolidSide::boundary);
  EXPECT_EQ(point_in_solid<K>(box, {0, 0, 1}), SolidSide::boundary);
  EXPECT_EQ(point_in_solid<K>(box, {4, 1, 0}), SolidSide::boundary);
}

TEST(PointInSolid, BoxEdgesAndCornersCountOnce) {
  box_cases<6>();
  box_cases<8>();
  box_cases<14>();
  box_cases<18>();
  box_cases<26>();
  box_cases<32>();
}

template <int K>
void heightfield_cases() {
  // Heights on a grid with vertices at integer coordinates, so random integer points hit
  // projected vertices and edges often.
  std::vector<double> xs, ys, heights;
  for (int i = 0; i <= 10; ++i) xs.push_back(i);
  for (int j = 0; j <= 8; ++j) ys.push_back(j);
  auto height = [](int i, int j) { return 3.0 + (i * 7 + j * 3) % 5; };
  for (int j = 0; j <= 8; ++j) {
    for (int i = 0; i <= 10; ++i) heights.push_back(height(i, j));
  }
  const Mesh mesh = make_heightfield_block(xs, ys, 0, heights);
  const DopTree<K> tree = build_dop_tree<K>(mesh, {});
  std::uint64_t seed = 7;
  int inside = 0, outside = 0;
  for (int n = 0; n < 3000; ++n) {
    // Half the points on grid lines (x or y an integer), all at heights between the levels.
    double x = -1 + 12 * next_uniform(seed), y = -1 + 10 * next_uniform(seed);
    if (n % 2 == 0) x = std::floor(x);
    if (n % 4 == 0) y = std::floor(y);
    const double z = -0.5 + 9 * next_uniform(seed);
    // Independently: inside iff within the grid's footprint, above the base and below the top
    // surface, which over a cell is the triangle's plane (cells split along their diagonal from
    // (i, j) to (i + 1, j + 1)).
    bool expected = false;
    double top = 0;
    if (x > 0 && x < 10 && y > 0 && y < 8) {
      const int i = std::min(9, static_cast<int>(x)), j = std::min(7, static_cast<int>(y));
      const double u = x - i, v = y - j;
      const double h00 = height(i, j), h10 = height(i + 1, j), h11 = height(i + 1, j + 1),
                   h01 = height(i, j + 1);
      top = u >= v ? h00 + u * (h10 - h00) + v * (h11 - h10)
                   : h00 + v * (h01 - h00) + u * (h11 - h01);
      expected = z > 0 && z < top;
    }
    // Too close to call, or on the side walls' planes (the boundary where they are).
    if (std::fabs(z - top) < 1e-9 || std::fabs(z) < 1e-9) continue;
    if (x == 0 || x == 10 || y == 0 || y == 8) continue;
    const SolidSide side = point_in_solid<K>(tree, {x, y, z});
    ASSERT_EQ(side, expected ? SolidSide::inside : SolidSide::outside)
        << "K=" << K << " (" << x << ", " << y << ", " << z << ")";
    (expected ? inside : outside) += 1;
  }
  EXPECT_GT(inside, 500);
  EXPECT_GT(outside, 500);
}

TEST(PointInSolid, HeightFieldBlockMatchesItsFormula) {
  heightfield_cases<6>();
  heightfield_cases<8>();
  heightfield_cases<18>();
  heightfield_cases<26>();
  heightfield_cases<32>();
}

}  // namespace
}  // namespace kdop
