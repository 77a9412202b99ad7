#include "builders/topdown_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "geometry/shapes.hpp"
#include "tests/support/scenes.hpp"

namespace kdop {
namespace {

// Every inner node's children partition its range; leaves hold 1..tau triangles; the order is
// a permutation.
void expect_valid_tree(const BuildTree& t, std::size_t triangles, std::uint32_t tau) {
  ASSERT_FALSE(t.nodes.empty());
  std::vector<std::uint32_t> sorted = t.order;
  std::sort(sorted.begin(), sorted.end());
  for (std::uint32_t i = 0; i < triangles; ++i) ASSERT_EQ(sorted[i], i);
  EXPECT_EQ(t.nodes[0].begin, 0u);
  EXPECT_EQ(t.nodes[0].count, triangles);
  std::size_t leaf_triangles = 0;
  for (std::size_t n = 0; n < t.nodes.size(); ++n) {
    const BuildNode& b = t.nodes[n];
    if (b.is_leaf()) {
      EXPECT_GE(b.count, 1u);
      EXPECT_LE(b.count, tau);
      leaf_triangles += b.count;
      continue;
    }
    ASSERT_GT(b.right, n + 1);
    ASSERT_LT(b.right, t.nodes.size());
    const BuildNode& l = t.nodes[n + 1];
    const BuildNode& r = t.nodes[b.right];
    EXPECT_GT(b.count, tau);
    EXPECT_EQ(l.begin, b.begin);
    EXPECT_EQ(r.begin, b.begin + l.count);
    EXPECT_EQ(l.count + r.count, b.count);
    EXPECT_GE(l.count, 1u);
    EXPECT_GE(r.count, 1u);
  }
  EXPECT_EQ(leaf_triangles, triangles);
}

TEST(TopdownBuilder, EveryRuleAndLeafSizeGivesAValidTree) {
  Mesh m = make_torus({0, 0, 0}, 1, 0.3, 20, 10, 0.2);
  std::uint64_t rng = 5;
  test::add_degenerate_and_duplicates(m, rng, 40);
  for (SplitRule rule : {SplitRule::longest_side, SplitRule::splatter}) {
    for (SplitPoint point : {SplitPoint::mean, SplitPoint::median}) {
      for (std::uint32_t tau : {1u, 2u, 7u, 40u, 100000u}) {
        BuildConfig c{rule, point, tau};
        expect_valid_tree(build_topdown(m, c), m.triangle_count(), tau);
      }
    }
  }
}

TEST(TopdownBuilder, CoincidentCentroidsStillSplit) {
  // 64 copies of one triangle: every mean split is empty on one side; the median fallback
  // must keep the tree valid and balanced.
  Mesh m;
  m.add_vertex(0, 0, 0);
  m.add_vertex(1, 0, 0);
  m.add_vertex(0, 1, 0);
  for (int i = 0; i < 64; ++i) m.add_triangle(0, 1, 2);
  const BuildTree t = build_topdown(m, BuildConfig{});
  expect_valid_tree(t, 64, 1);
  EXPECT_EQ(t.nodes.size(), 127u);
}

TEST(TopdownBuilder, MedianSplitsAreBalanced) {
  const Mesh m = make_sphere({0, 0, 0}, 1, 32, 16);
  const BuildTree t = build_topdown(m, BuildConfig{SplitRule::splatter, SplitPoint::median, 1});
  for (std::size_t n = 0; n < t.nodes.size(); ++n) {
    if (t.nodes[n].is_leaf()) continue;
    EXPECT_EQ(t.nodes[n + 1].count, t.nodes[n].count / 2);
  }
}

TEST(TopdownBuilder, SplatterPicksTheAxisOfLargestSpread) {
  // Triangles spread along y only: the root split must separate low y from high y.
  Mesh m;
  for (int i = 0; i < 8; ++i) {
    const std::uint32_t a = m.add_vertex(0, 10.0 * i, 0);
    m.add_vertex(0.1, 10.0 * i, 0);
    m.add_vertex(0, 10.0 * i, 0.1);
    m.add_triangle(a, a + 1, a + 2);
  }
  const BuildTree t = build_topdown(m, BuildConfig{});
  const BuildNode& left = t.nodes[1];
  for (std::uint32_t s = left.begin; s < left.begin + left.count; ++s) EXPECT_LT(t.order[s], 4u);
}

TEST(TopdownBuilder, EmptyMeshIsAnError) {
  EXPECT_THROW(build_topdown(Mesh{}, BuildConfig{}), std::invalid_argument);
}

}  // namespace
}  // namespace kdop
