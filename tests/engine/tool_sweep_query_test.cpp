// NC tool sweeps against environment hierarchies: the traversal must report exactly the triangles
// that testing every triangle with the same GJK bounds reports (brute force: no pruning), for
// every K, and hand-computed cases must come out right.
#include "engine/tool_sweep_query.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "builders/dop_tree.hpp"
#include "geometry/shapes.hpp"

namespace kdop {
namespace {

ToolParameters ball_mill() {
  ToolParameters t;
  t.shape = CutterShape::kBall;
  t.diameter = 6;
  t.cutting_length = 12;
  t.shank_diameter = 6;
  t.length = 40;
  t.holder = {{20, 30, 40}};
  return t;
}

Triangle triangle_of(const Mesh& m, std::uint32_t i) {
  return {{m.x[m.a[i]], m.y[m.a[i]], m.z[m.a[i]]},
          {m.x[m.b[i]], m.y[m.b[i]], m.z[m.b[i]]},
          {m.x[m.c[i]], m.y[m.c[i]], m.z[m.c[i]]}};
}

// A wavy terrain block (about 20,000 triangles over 100 x 80 mm).
Mesh terrain() {
  std::vector<double> xs, ys, heights;
  for (int i = 0; i <= 70; ++i) xs.push_back(100.0 * i / 70);
  for (int j = 0; j <= 60; ++j) ys.push_back(80.0 * j / 60);
  for (const double y : ys) {
    for (const double x : xs) heights.push_back(10 + 3 * std::sin(x / 9) * std::cos(y / 7));
  }
  return make_heightfield_block(xs, ys, 0, heights);
}

template <int K>
void check_against_every_triangle(const Mesh& mesh, const RevolvedSolid& solid, double within,
                                  double z_lo, std::uint64_t seed, int moves) {
  const DopTree<K> tree = build_dop_tree<K>(mesh, BuildConfig::environment_defaults());
  ToolSweepResult result;
  int with_contacts = 0, without = 0;
  for (int m = 0; m < moves; ++m) {
    // Moves with the tool part's reach around the terrain's surface (z from 7 to 13): some cut
    // into it, some pass above.
    const Vec3 from{100 * next_uniform(seed), 80 * next_uniform(seed),
                    z_lo + 12 * next_uniform(seed)};
    const Vec3 to = m % 4 == 0 ? from
                               : Vec3{from.x + 20 * (next_uniform(seed) - 0.5),
                                      from.y + 20 * (next_uniform(seed) - 0.5),
                                      from.z + 6 * (next_uniform(seed) - 0.5)};
    ToolSweepOptions options;
    options.within = within;
    tool_sweep_query<K>(tree, solid, from, to, options, result);
    DistanceOptions gjk;
    gjk.threshold = within;
    std::vector<std::uint32_t> expected;
    for (std::uint32_t i = 0; i < mesh.triangle_count(); ++i) {
      if (triangle_sweep_distance(triangle_of(mesh, i), solid, from, to, gjk).lower <= within) {
        expected.push_back(i);
      }
    }
    std::vector<std::uint32_t> got;
    for (const ToolContact& c : result.contacts) {
      got.push_back(c.triangle);
      EXPECT_LE(c.lower, within);
      EXPECT_LE(c.lower, c.upper);
    }
    ASSERT_EQ(got, expected) << "K=" << K << " move " << m;
    (expected.empty() ? without : with_contacts) += 1;
  }
  EXPECT_GT(with_contacts, moves / 10);
  EXPECT_GT(without, moves / 10);
}

TEST(ToolSweepQuery, EqualsTestingEveryTriangle) {
  const Mesh mesh = terrain();
  const ToolSolids tool = make_tool(ball_mill());
  // The cutter reaches z up to 12 above the tip, the shank spans 12-40, the holder 40-60.
  check_against_every_triangle<6>(mesh, tool.cutter, 0.0, 4, 1, 40);
  check_against_every_triangle<14>(mesh, tool.cutter, 0.5, 4, 2, 40);
  check_against_every_triangle<18>(mesh, tool.holder, 0.0, -33, 3, 40);
  check_against_every_triangle<26>(mesh, tool.shank, 1e-6, -5, 4, 40);
  check_against_every_triangle<32>(mesh, tool.cutter, 0.5, 4, 6, 40);
  check_against_every_triangle<8>(mesh, tool.cutter, 2.0, 4, 5, 40);
}

// A flat 10 mm end mill moving along x, 0.001 above a box's top (z = 5) or touching it.
TEST(ToolSweepQuery, HandComputedClearances) {
  const Mesh box = make_box({0, 0, 0}, {50, 50, 5});
  const DopTree<18> tree = build_dop_tree<18>(box, BuildConfig::environment_defaults());
  ToolParameters flat;
  flat.diameter = 10;
  flat.cutting_length = 20;
  flat.length = 20;
  const RevolvedSolid cutter = make_cutter(flat);
  ToolSweepResult r;
  tool_sweep_query<18>(tree, cutter, {10, 25, 5.001}, {40, 25, 5.001}, {}, r);
  EXPECT_TRUE(r.contacts.empty());
  ToolSweepOptions within;
  within.within = 0.002;
  tool_sweep_query<18>(tree, cutter, {10, 25, 5.001}, {40, 25, 5.001}, within, r);
  ASSERT_FALSE(r.contacts.empty());
  for (const ToolContact& c : r.contacts) {
    EXPECT_NEAR(c.lower, 0.001, 1e-6);
    EXPECT_NEAR(c.upper, 0.001, 1e-6);
  }
  // Down onto the top: touching, proved; first_only stops at the first proved contact.
  ToolSweepOptions first;
  first.first_only = true;
  tool_sweep_query<18>(tree, cutter, {25, 25, 8}, {25, 25, 5}, first, r);
  ASSERT_FALSE(r.contacts.empty());
  EXPECT_EQ(r.contacts.back().lower, 0.0);
  ToolSweepResult all;
  tool_sweep_query<18>(tree, cutter, {25, 25, 8}, {25, 25, 5}, {}, all);
  ASSERT_EQ(all.contacts.size(), 2u);  // the top's two triangles
  for (const ToolContact& c : all.contacts) EXPECT_EQ(c.lower, 0.0);
  // Beside the box, 0.001 from its side x = 50 (the mill's radius is 5).
  tool_sweep_query<18>(tree, cutter, {55.001, 0, 1}, {55.001, 50, 1}, {}, r);
  EXPECT_TRUE(r.contacts.empty());
  tool_sweep_query<18>(tree, cutter, {54.999, 0, 1}, {54.999, 50, 1}, {}, r);
  EXPECT_FALSE(r.contacts.empty());
}

}  // namespace
}  // namespace kdop
