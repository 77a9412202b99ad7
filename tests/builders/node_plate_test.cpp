#include "builders/node_plate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "builders/dop_tree.hpp"
#include "simd/arch.hpp"
#include "tests/support/scenes.hpp"

namespace kdop {
namespace {

// Every corner under a node lies on its plate: its projection, in long double (far finer than the
// 2^-50 the builder allows for), within [lo, hi].
void expect_plates_hold_their_corners(const FlyingDopTree<18>& f, int& thin, int& leaves) {
  const TreeTopology& topo = f.tree.topology;
  const LeafTriangles& t = f.tree.triangles;
  const std::vector<SlotRange> ranges = slot_ranges(topo);
  for (std::uint32_t n = 0; n < topo.node_count(); ++n) {
    const float* s = f.plates.node(n);
    EXPECT_GE(double{s[3]}, std::fabs(double{s[0]}) + std::fabs(double{s[1]}) +
                                std::fabs(double{s[2]}));  // exact in double
    for (std::uint32_t i = ranges[n].first; i < ranges[n].first + ranges[n].count; ++i) {
      for (int c = 0; c < 3; ++c) {
        const long double d = static_cast<long double>(s[0]) * t.x(c)[i] +
                              static_cast<long double>(s[1]) * t.y(c)[i] +
                              static_cast<long double>(s[2]) * t.z(c)[i];
        ASSERT_GE(d, static_cast<long double>(s[4])) << "node " << n << " slot " << i;
        ASSERT_LE(d, static_cast<long double>(s[5])) << "node " << n << " slot " << i;
      }
    }
    if (!topo.is_leaf(n)) continue;
    // On a smooth surface a leaf's plate is much thinner than its DOP is wide.
    ++leaves;
    const float* b = f.tree.node_bounds(n);
    float narrowest = std::numeric_limits<float>::infinity();
    for (int j = 0; j < 3; ++j) narrowest = std::fmin(narrowest, b[DopShape<18>::lanes + j] - b[j]);
    if (s[5] - s[4] < 0.25f * narrowest) ++thin;
  }
}

TEST(NodePlate, PlatesHoldEveryCornerUnderTheirNode) {
  std::uint64_t rng = 5;
  Mesh m = make_torus({100, -50, 3}, 1, 0.3, 48, 24, 0.0);
  test::add_degenerate_and_duplicates(m, rng, 30);
  append_mesh(m, test::make_grid_plate(3, 0.5));  // flat parts: plates of zero thickness
  int thin = 0, leaves = 0;
  for (std::uint32_t tau : {1u, 8u, 40u}) {
    const FlyingDopTree<18> f =
        build_flying_dop_tree<18>(m, BuildConfig{SplitRule::splatter, SplitPoint::mean, tau});
    expect_plates_hold_their_corners(f, thin, leaves);
  }
  EXPECT_GT(thin, leaves / 2);
}

TEST(NodePlate, TriangleBeyondThePlateIsRejectedAndOneOnItIsNot) {
  // A plate z in [1, 2] along (0, 0, 1).
  const float slab[NodePlates::stride] = {0, 0, 1, 1, 1, 2, 0, 0};
  const float x[3] = {-5, 5, 0}, y[3] = {0, 1, 7};
  const float above[3] = {2.5f, 3, 2.25f}, touching[3] = {2, 3, 4}, across[3] = {0, 3, 1};
  EXPECT_TRUE(triangle_misses_plate<simd::ScalarArch>(slab, x, y, above, 0.0f));
  EXPECT_TRUE(triangle_misses_plate<simd::ScalarArch>(slab, x, y, above, 0.2f));
  EXPECT_FALSE(
      triangle_misses_plate<simd::ScalarArch>(slab, x, y, above, 0.3f));  // within the margin
  EXPECT_FALSE(triangle_misses_plate<simd::ScalarArch>(slab, x, y, touching, 0.0f));
  EXPECT_FALSE(triangle_misses_plate<simd::ScalarArch>(slab, x, y, across, 0.0f));
  const float below[3] = {0.5f, -3, 0.75f};
  EXPECT_TRUE(triangle_misses_plate<simd::ScalarArch>(slab, x, y, below, 0.0f));
  // Beyond float's range the key's margin is infinite: never rejects, whatever the plate.
  constexpr float inf = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(triangle_misses_plate<simd::ScalarArch>(slab, x, y, above, inf));
  EXPECT_FALSE(triangle_misses_plate<simd::ScalarArch>(slab, x, y, below, inf));
  // A node without a plate never rejects.
  const float none[NodePlates::stride] = {
      0, 0, 0, 0, -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
      0, 0};
  EXPECT_FALSE(triangle_misses_plate<simd::ScalarArch>(none, x, y, above, 0.0f));
  EXPECT_FALSE(triangle_misses_plate<simd::ScalarArch>(none, x, y, above, inf));  // 0 * inf
}

}  // namespace
}  // namespace kdop
