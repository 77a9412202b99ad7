#include "builders/topdown_builder.hpp"

#include <gtest/gtest.h>

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <string>

#include "geometry/shapes.hpp"
#include "tests/support/scenes.hpp"

namespace kdop {
namespace {

constexpr SplitRule kAllRules[] = {
    SplitRule::splatter,     SplitRule::longest_side, SplitRule::min_sum, SplitRule::min_max,
    SplitRule::surface_area, SplitRule::zachmann,     SplitRule::obb_axis};

// Every inner node's children partition its range; leaves hold 1..tau triangles; inner nodes hold
// more than tau (the root: two or more, it is split even when tau would keep it whole); the order
// is a permutation.
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
    EXPECT_GT(b.count, n == 0 ? 1u : tau);
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
  for (SplitRule rule : kAllRules) {
    for (SplitPoint point : {SplitPoint::mean, SplitPoint::median, SplitPoint::binned}) {
      for (std::uint32_t tau : {1u, 2u, 7u, 40u, 100000u}) {
        SCOPED_TRACE(std::string(to_string(rule)) + " " + to_string(point) + " tau " +
                     std::to_string(tau));
        BuildConfig c{rule, point, tau};
        expect_valid_tree(build_topdown<18>(m, c), m.triangle_count(), tau);
        expect_valid_tree(build_topdown<8>(m, c), m.triangle_count(), tau);
        c.all_directions = true;
        c.candidates = 3;
        expect_valid_tree(build_topdown<26>(m, c), m.triangle_count(), tau);
        expect_valid_tree(build_topdown<32>(m, c), m.triangle_count(), tau);
      }
    }
  }
}

// A mesh of at most tau triangles is still split once: two leaves under the root. One triangle
// stays one leaf.
TEST(TopdownBuilder, TheRootIsSplitEvenWithinTau) {
  const Mesh m = make_torus({0, 0, 0}, 1, 0.3, 6, 3, 0.0);  // 36 triangles
  ASSERT_EQ(m.triangle_count(), 36u);
  for (std::uint32_t tau : {36u, 40u, 100000u}) {
    const BuildTree t =
        build_topdown<14>(m, BuildConfig{SplitRule::splatter, SplitPoint::mean, tau});
    ASSERT_EQ(t.nodes.size(), 3u) << tau;
    EXPECT_FALSE(t.nodes[0].is_leaf());
    EXPECT_TRUE(t.nodes[1].is_leaf());
    EXPECT_TRUE(t.nodes[2].is_leaf());
    expect_valid_tree(t, m.triangle_count(), tau);
  }
  Mesh one;
  one.add_triangle(one.add_vertex(0, 0, 0), one.add_vertex(1, 0, 0), one.add_vertex(0, 1, 0));
  const BuildTree t =
      build_topdown<14>(one, BuildConfig{SplitRule::splatter, SplitPoint::mean, 40});
  ASSERT_EQ(t.nodes.size(), 1u);
  EXPECT_TRUE(t.nodes[0].is_leaf());
}

TEST(TopdownBuilder, CoincidentCentroidsStillSplit) {
  // 64 copies of one triangle: every mean split is empty on one side; the median fallback
  // must keep the tree valid and balanced.
  Mesh m;
  m.add_vertex(0, 0, 0);
  m.add_vertex(1, 0, 0);
  m.add_vertex(0, 1, 0);
  for (int i = 0; i < 64; ++i) m.add_triangle(0, 1, 2);
  const BuildTree t = build_topdown<18>(m, BuildConfig{});
  expect_valid_tree(t, 64, 1);
  EXPECT_EQ(t.nodes.size(), 127u);
}

TEST(TopdownBuilder, MedianSplitsAreBalanced) {
  const Mesh m = make_sphere({0, 0, 0}, 1, 32, 16);
  const BuildTree t = build_topdown<18>(m, BuildConfig{SplitRule::splatter, SplitPoint::median, 1});
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
  const BuildTree t = build_topdown<18>(m, BuildConfig{});
  const BuildNode& left = t.nodes[1];
  for (std::uint32_t s = left.begin; s < left.begin + left.count; ++s) EXPECT_LT(t.order[s], 4u);
}

TEST(TopdownBuilder, EveryRuleSeparatesTwoDistantClusters) {
  // Two clusters of 20 small triangles each, far apart along (1, 1, 1): every rule, split
  // point and direction set must put them in different children of the root.
  Mesh m;
  std::uint64_t rng = 3;
  for (int cluster = 0; cluster < 2; ++cluster) {
    for (int i = 0; i < 20; ++i) {
      const double o = 10.0 * cluster;
      const std::uint32_t a =
          m.add_vertex(o + next_uniform(rng), o + next_uniform(rng), o + next_uniform(rng));
      m.add_vertex(o + next_uniform(rng), o + next_uniform(rng), o + next_uniform(rng));
      m.add_vertex(o + next_uniform(rng), o + next_uniform(rng), o + next_uniform(rng));
      m.add_triangle(a, a + 1, a + 2);
    }
  }
  for (SplitRule rule : kAllRules) {
    for (SplitPoint point : {SplitPoint::mean, SplitPoint::median, SplitPoint::binned}) {
      for (bool all : {false, true}) {
        SCOPED_TRACE(std::string(to_string(rule)) + " " + to_string(point) + " all " +
                     std::to_string(all));
        BuildConfig c{rule, point, 1};
        c.all_directions = all;
        const BuildTree t = build_topdown<14>(m, c);
        const BuildNode& left = t.nodes[1];
        ASSERT_EQ(left.count, 20u);
        const bool first_cluster = t.order[left.begin] < 20;
        for (std::uint32_t s = left.begin; s < left.begin + left.count; ++s) {
          EXPECT_EQ(t.order[s] < 20, first_cluster);
        }
      }
    }
  }
}

// The tree does not depend on how many threads build it: one thread against eight, on a mesh
// large enough for the parallel levels (subtrees of 4,096 triangles and more).
TEST(TopdownBuilder, SameTreeForAnyThreadCount) {
  const Mesh m = make_torus({0, 0, 0}, 3, 1, 200, 60, 0.2);
  ASSERT_GT(m.triangle_count(), 20000u);
  for (SplitRule rule : {SplitRule::splatter, SplitRule::min_sum, SplitRule::zachmann}) {
    BuildConfig c{rule, SplitPoint::mean, 1};
    BuildTree one, eight;
    tbb::task_arena(1).execute([&] { one = build_topdown<18>(m, c); });
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
    tbb::task_arena(8).execute([&] { eight = build_topdown<18>(m, c); });
    ASSERT_EQ(one.order, eight.order) << to_string(rule);
    ASSERT_EQ(one.nodes.size(), eight.nodes.size());
    for (std::size_t n = 0; n < one.nodes.size(); ++n) {
      ASSERT_EQ(one.nodes[n].begin, eight.nodes[n].begin);
      ASSERT_EQ(one.nodes[n].count, eight.nodes[n].count);
      ASSERT_EQ(one.nodes[n].right, eight.nodes[n].right);
    }
    expect_valid_tree(one, m.triangle_count(), 1);
  }
}

TEST(TopdownBuilder, EmptyMeshIsAnError) {
  EXPECT_THROW(build_topdown<18>(Mesh{}, BuildConfig{}), std::invalid_argument);
}

}  // namespace
}  // namespace kdop
