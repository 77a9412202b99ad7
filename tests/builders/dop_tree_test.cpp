#include "builders/dop_tree.hpp"

#include <gtest/gtest.h>

#include "tests/support/containment.hpp"
#include "tests/support/scenes.hpp"

namespace kdop {
namespace {

template <int K>
void expect_every_node_contains_its_triangles(const DopTree<K>& t) {
  const TreeTopology& topo = t.topology;
  // Slots below each node: walk leaves, then check every ancestor on the way via ranges.
  std::vector<std::uint32_t> first(topo.node_count()), count(topo.node_count());
  for (std::uint32_t i = topo.node_count(); i-- > 0;) {
    if (topo.is_leaf(i)) {
      first[i] = topo.child_or_first[i];
      count[i] = topo.leaf_count[i];
    } else {
      first[i] = first[i + 1];
      count[i] = count[i + 1] + count[topo.right(i)];
    }
  }
  for (std::uint32_t n = 0; n < topo.node_count(); ++n) {
    for (std::uint32_t s = first[n]; s < first[n] + count[n]; ++s) {
      for (int c = 0; c < 3; ++c) {
        ASSERT_TRUE(test::dop_contains<K>(t.node_bounds(n), t.triangles.x(c)[s],
                                          t.triangles.y(c)[s], t.triangles.z(c)[s]))
            << "node " << n << " slot " << s;
      }
    }
  }
}

template <int K>
void check_k() {
  std::uint64_t rng = 3;
  Mesh m = make_torus({100, -50, 3}, 1, 0.3, 24, 12, 0.2);
  test::add_degenerate_and_duplicates(m, rng, 30);
  append_mesh(m, test::make_grid_plate(3, 0.5));  // flat, axis-aligned parts
  for (SplitRule rule : {SplitRule::longest_side, SplitRule::splatter}) {
    for (std::uint32_t tau : {1u, 40u}) {
      const BuildConfig c{rule, SplitPoint::mean, tau};
      expect_every_node_contains_its_triangles(build_dop_tree<K>(m, c));
      const FlyingDopTree<K> f = build_flying_dop_tree<K>(m, c);
      expect_every_node_contains_its_triangles(f.tree);
      EXPECT_EQ(f.vertex_first.size(), f.tree.topology.node_count() + 1);
      for (std::uint32_t n = 0; n < f.tree.topology.node_count(); ++n) {
        const std::uint32_t vertices = f.vertex_first[n + 1] - f.vertex_first[n];
        EXPECT_GE(vertices, 1u);
        EXPECT_LE(vertices, 48u * 4);  // k-DOPs have at most 48 vertices; flat ones merge
      }
      EXPECT_GT(f.vertex_error, 0.0);
      EXPECT_LT(f.vertex_error, 1e-4);
    }
  }
}

TEST(DopTree, NodesContainTheirTrianglesK6) {
  check_k<6>();
}
TEST(DopTree, NodesContainTheirTrianglesK14) {
  check_k<14>();
}
TEST(DopTree, NodesContainTheirTrianglesK18) {
  check_k<18>();
}
TEST(DopTree, NodesContainTheirTrianglesK26) {
  check_k<26>();
}
TEST(DopTree, NodesContainTheirTrianglesK32) {
  check_k<32>();
}
TEST(DopTree, NodesContainTheirTrianglesDop8) {
  check_k<8>();
}

TEST(DopTree, FloatBoundsRoundOutward) {
  // A triangle whose coordinates are not float-representable: the float DOP must still contain
  // it, i.e. lo was rounded down and hi up.
  Mesh m;
  m.add_vertex(0.1, 0.2, 0.3);
  m.add_vertex(1.0 / 3, 0.7, 0.9);
  m.add_vertex(0.6, 1e-9, 2.0 / 3);
  m.add_triangle(0, 1, 2);
  const DopTree<26> t = build_dop_tree<26>(m, BuildConfig{});
  for (std::uint32_t v = 0; v < 3; ++v) {
    EXPECT_TRUE(test::dop_contains<26>(t.node_bounds(0), m.x[v], m.y[v], m.z[v]));
  }
  EXPECT_LT(t.node_bounds(0)[0], 0.1f + 1e-6f);
  EXPECT_LE(static_cast<double>(t.node_bounds(0)[0]), 0.1);
  EXPECT_GE(static_cast<double>(t.node_bounds(0)[DopShape<26>::lanes]), 0.6);
}

TEST(DopTree, EnvironmentCornerFloatsAreTheCornersRoundedToNearest) {
  // Coordinates float cannot hold, halfway cases and magnitudes from 2^-30 to 2^30: each float is
  // the double rounded to nearest (even on a tie), slot by slot, corners in x, y, z order.
  Mesh m;
  const double values[] = {
      0.1,        1.0 / 3, -2.0 / 3, 1 + 0x1p-24,    1 + 0x1p-23 + 0x1p-24, -0x1p-30 * 5 / 3,
      0x1p30 / 7, 0.0,     -1e-300,  12345.678901234};
  for (int v = 0; v < 30; ++v) {
    m.add_vertex(values[v % 10], values[(v + 3) % 10], values[(v + 7) % 10]);
  }
  for (std::uint32_t t = 0; t + 2 < 30; t += 3) m.add_triangle(t, t + 1, t + 2);
  const DopTree<26> env = build_dop_tree<26>(m, BuildConfig::environment_defaults());
  ASSERT_EQ(env.corner_floats.size(), std::size_t{env.triangles.size()} * kCornerFloatsPerSlot);
  for (std::uint32_t s = 0; s < env.triangles.size(); ++s) {
    const std::uint32_t t = env.triangles.original[s];
    const std::uint32_t corner[3] = {m.a[t], m.b[t], m.c[t]};
    for (int c = 0; c < 3; ++c) {
      const float* slot = env.corner_floats.data() + std::size_t{s} * kCornerFloatsPerSlot;
      EXPECT_EQ(slot[c], static_cast<float>(m.x[corner[c]])) << "slot " << s;
      EXPECT_EQ(slot[3 + c], static_cast<float>(m.y[corner[c]])) << "slot " << s;
      EXPECT_EQ(slot[6 + c], static_cast<float>(m.z[corner[c]])) << "slot " << s;
    }
  }
  // Round to nearest, not toward zero: 1 + 3 * 2^-24 lies between 1 + 2^-23 and 1 + 2^-22, and
  // nearest-even takes 1 + 2^-22.
  EXPECT_EQ(static_cast<float>(1 + 0x1p-23 + 0x1p-24), 1 + 0x1p-22f);
  // The flying tree keeps its LeafFloats instead.
  EXPECT_TRUE(
      build_flying_dop_tree<26>(m, BuildConfig::object_defaults()).tree.corner_floats.empty());
}

}  // namespace
}  // namespace kdop
