// The engine against the brute-force all-pairs oracle: for every BV type (each K, OBB, RSS),
// split rules and split points, on random and exactly-touching scenes, the collision answer and
// the exact set of intersecting triangle pairs must match.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "builders/dop_tree.hpp"
#include "engine/brute_force.hpp"
#include "engine/collision_pair.hpp"
#include "engine/dop_query.hpp"
#include "engine/leaf_test.hpp"
#include "geometry/dop.hpp"
#include "simd/box_against_dop.hpp"
#include "simd/slab_overlap.hpp"
#include "tests/support/scenes.hpp"

namespace kdop {
namespace {

using test::Scene;

std::vector<Scene> make_scenes() {
  std::vector<Scene> scenes;
  std::uint64_t rng = 12345;
  {
    Scene s{"sphere_torus",
            make_sphere({0, 0, 0}, 1.0, 16, 10),
            make_torus({0, 0, 0}, 0.5, 0.15, 14, 8, 0.1),
            {}};
    for (int i = 0; i < 600; ++i)
      s.poses.push_back(test::random_pose(rng, {-1.3, -1.3, -1.3}, {1.3, 1.3, 1.3}));
    scenes.push_back(std::move(s));
  }
  {
    // Rotation matrices orthonormal only to about 1e-6 (kdop check --matrix accepts them): the
    // object is distorted a little, and the oriented volumes must grow to cover that.
    Scene s{"skewed_matrices",
            make_sphere({0, 0, 0}, 1.0, 16, 10),
            make_torus({0, 0, 0}, 0.5, 0.15, 14, 8, 0.1),
            {}};
    while (s.poses.size() < 300) {
      const Pose p = test::random_pose(rng, {-1.3, -1.3, -1.3}, {1.3, 1.3, 1.3});
      std::array<double, 16> m{};
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j)
          m[4 * i + j] = p.r[3 * i + j] + 3e-7 * (2 * next_uniform(rng) - 1);
        m[4 * i + 3] = p.t[i];
      }
      m[15] = 1;
      try {
        s.poses.push_back(pose_from_matrix(m));
      } catch (const std::invalid_argument&) {
        // Skewed past the tolerance: draw again.
      }
    }
    scenes.push_back(std::move(s));
  }
  {
    Scene s{"tetra_soups",
            make_tetrahedra({0, 0, 0}, {2, 2, 2}, 60, 0.5, 7),
            make_tetrahedra({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}, 25, 0.4, 8),
            {}};
    for (int i = 0; i < 600; ++i) s.poses.push_back(test::random_pose(rng, {0, 0, 0}, {2, 2, 2}));
    scenes.push_back(std::move(s));
  }
  {
    Mesh env = make_sphere({0, 0, 0}, 1.0, 12, 8);
    Mesh obj = make_tetrahedra({-0.4, -0.4, -0.4}, {0.4, 0.4, 0.4}, 20, 0.3, 9);
    test::add_degenerate_and_duplicates(env, rng, 40);
    test::add_degenerate_and_duplicates(obj, rng, 30);
    Scene s{"degenerate_duplicate", env, obj, {}};
    for (int i = 0; i < 600; ++i)
      s.poses.push_back(test::random_pose(rng, {-1.2, -1.2, -1.2}, {1.2, 1.2, 1.2}));
    scenes.push_back(std::move(s));
  }
  {
    // Exact touching: a unit-grid plate at z = 0 and a box with integer coordinates placed by
    // exact translations and quarter turns: resting on the plate (coplanar face contact), its
    // edge or corner on a grid line or vertex, hovering by one ulp, and sunk through.
    Scene s{"exact_touching", test::make_grid_plate(6, 0.0), test::make_box(1, 2, 1), {}};
    for (int q = 0; q < 4; ++q) {
      for (double x : {1.0, 1.5, 2.0, 3.25}) {
        for (double z : {0.0, -1.0, -0.5, 0x1p-52, -0x1p-52, 1.0}) {
          s.poses.push_back(test::quarter_turn_z(q, x + 1, 2.0, z));
        }
      }
    }
    // Standing on a corner or an edge: rotations taking a box corner / edge to the plate.
    for (int i = 0; i < 120; ++i)
      s.poses.push_back(test::random_pose(rng, {1, 1, -0.3}, {5, 5, 0.3}));
    const Mesh tetra = test::make_tetra_on_corner();
    Scene v{"vertex_on_grid", test::make_grid_plate(4, 0.0), tetra, {}};
    for (double x : {1.0, 1.5, 2.0, 2.25}) {
      for (double y : {1.0, 1.5, 3.0}) {
        for (double z : {0.0, 0x1p-50, -0x1p-50}) v.poses.push_back(test::translation(x, y, z));
      }
    }
    scenes.push_back(std::move(s));
    scenes.push_back(std::move(v));
  }
  {
    // Far from the origin, where float rounding is largest relative to the geometry: the
    // prefilter's and the tumbled DOPs' error bounds must still never reject a contact.
    const Vec3 far{1.0e5, -3.3e4, 7.1e3};
    Mesh env = make_tetrahedra(far, far + Vec3{2, 2, 2}, 60, 0.5, 31);
    Mesh obj = make_tetrahedra({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}, 25, 0.4, 32);
    Scene s{"far_from_origin", env, obj, {}};
    for (int i = 0; i < 300; ++i)
      s.poses.push_back(test::random_pose(rng, far, far + Vec3{2, 2, 2}));
    // Exact copies: the object is part of the environment moved back by -far, touching itself.
    Scene c{"far_coplanar_copies", env, env, {}};
    c.poses.push_back(test::translation(0, 0, 0));
    for (int i = 0; i < 40; ++i)
      c.poses.push_back(test::translation(std::ldexp(1.0, -40 + i), 0, 0));
    scenes.push_back(std::move(s));
    scenes.push_back(std::move(c));
  }
  {
    // Coplanar contacts in a tilted plane: the object is a copy of part of the environment.
    Mesh env = make_tetrahedra({0, 0, 0}, {1, 1, 1}, 30, 0.4, 21);
    Scene s{"coplanar_copies", env, env, {}};
    s.poses.push_back(test::translation(0, 0, 0));
    for (int i = 0; i < 60; ++i) {
      const double d = (i % 2 ? 1 : -1) * std::ldexp(1.0, -(i % 50) - 3);
      s.poses.push_back(test::translation(d, 0, 0));
      s.poses.push_back(test::translation(0, 0, d));
    }
    scenes.push_back(std::move(s));
  }
  {
    // Subnormal size: coordinates near 1e-39, below the smallest normal float, where float
    // roundings are absolute (kFloatUnderflowFloor); random poses and coplanar self-copies.
    constexpr double tiny = 1e-39;
    auto scaled = [&](const Mesh& m) { return scaled_mesh(m, tiny); };
    const Mesh env = scaled(make_tetrahedra({0, 0, 0}, {2, 2, 2}, 60, 0.5, 41));
    const Mesh obj = scaled(make_tetrahedra({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}, 25, 0.4, 42));
    Scene s{"subnormal_size", env, obj, {}};
    // Every float box overlaps at this size (the floor dwarfs it), so each pose is nearly brute
    // force: 60 poses x 46 variants take 10 s.
    for (int i = 0; i < 60; ++i) {
      Pose p = test::random_pose(rng, {0, 0, 0}, {2, 2, 2});
      for (double& t : p.t) t *= tiny;
      s.poses.push_back(p);
    }
    Scene c{"subnormal_coplanar_copies", env, env, {}};
    c.poses.push_back(test::translation(0, 0, 0));
    for (int i = 0; i < 40; ++i)
      c.poses.push_back(test::translation(tiny * std::ldexp(1.0, -i), 0, 0));
    scenes.push_back(std::move(s));
    scenes.push_back(std::move(c));
  }
  return scenes;
}

struct Variant {
  BvType bv;
  SplitRule rule;
  SplitPoint point;
  simd::Isa isa;
  TumbleMethod tumble = TumbleMethod::vertices;
  bool all_directions = false;
  DescentRule descent = DescentRule::larger_first;
  RootMethod root = RootMethod::automatic;
};

// Every BV type, split rule and split point on the best ISA; every BV type on each other ISA
// this CPU supports (the kernels themselves are checked against the scalar reference in
// tests/simd).
std::vector<Variant> variants() {
  const std::vector<simd::Isa> isas = simd::supported_isas();
  std::vector<Variant> v;
  for (BvType bv : {BvType::kdop6, BvType::dop8, BvType::kdop14, BvType::kdop18, BvType::kdop26,
                    BvType::kdop32}) {
    for (SplitRule rule : {SplitRule::longest_side, SplitRule::splatter}) {
      for (SplitPoint point : {SplitPoint::mean, SplitPoint::median})
        v.push_back({bv, rule, point, isas.back()});
    }
    for (std::size_t i = 0; i + 1 < isas.size(); ++i)
      v.push_back({bv, SplitRule::splatter, SplitPoint::mean, isas[i]});
    v.push_back({bv, SplitRule::splatter, SplitPoint::mean, isas.back(), TumbleMethod::affine});
    // The default: inner nodes affine (a frame made lazily, cones hinted along the chain), leaves
    // by their vertices; on every ISA for one type (the affine kernel differs per ISA).
    for (std::size_t i = 0; i < isas.size(); ++i) {
      if (i + 1 == isas.size() || bv == BvType::kdop32)
        v.push_back({bv, SplitRule::splatter, SplitPoint::mean, isas[i], TumbleMethod::automatic});
    }
    for (RootMethod root : {RootMethod::exact, RootMethod::vertices}) {
      v.push_back({bv, SplitRule::splatter, SplitPoint::mean, isas.back(), TumbleMethod::vertices,
                   false, DescentRule::larger_first, root});
    }
    // Zachmann's rule makes other tree shapes: its children overlap.
    v.push_back({bv, SplitRule::zachmann, SplitPoint::mean, isas.back()});
  }
  // The volume rules (slow builders: one BV type each).
  v.push_back({BvType::kdop14, SplitRule::min_sum, SplitPoint::binned, isas.back(),
               TumbleMethod::vertices, true});
  v.push_back({BvType::kdop26, SplitRule::min_max, SplitPoint::mean, isas.back()});
  v.push_back({BvType::kdop18, SplitRule::surface_area, SplitPoint::median, isas.back()});
  v.push_back({BvType::dop8, SplitRule::min_sum, SplitPoint::mean, isas.back()});
  // Oriented volumes: Gottschalk's rule at both split points, two k-DOP paper rules, every ISA
  // (the leaf prefilter), and Algorithm 1's descent.
  for (BvType bv : {BvType::obb, BvType::rss}) {
    for (SplitPoint point : {SplitPoint::mean, SplitPoint::median})
      v.push_back({bv, SplitRule::obb_axis, point, isas.back()});
    v.push_back({bv, SplitRule::splatter, SplitPoint::mean, isas.back()});
    v.push_back({bv, SplitRule::zachmann, SplitPoint::mean, isas.back()});
    for (std::size_t i = 0; i + 1 < isas.size(); ++i)
      v.push_back({bv, SplitRule::obb_axis, SplitPoint::mean, isas[i]});
    v.push_back({bv, SplitRule::obb_axis, SplitPoint::mean, isas.back(), TumbleMethod::vertices,
                 false, DescentRule::environment_first});
  }
  return v;
}

// Under a sanitizer, about half the poses of each scene. These tests are half of the sanitizer
// runs' time (10 to 20 times slower there, the subnormal scenes' rational fallback most); the
// release run checks every pose's answer, and what the sanitizers look for (memory and undefined
// behaviour) shows on the same code paths, which half the poses still take. The half is the
// golden-ratio sequence's (i * phi mod 1 < 1/2), which has no period: the scenes' poses come from
// nested loops, and every second pose would drop whole kinds (the one-ulp hovers, the x shifts).
#ifdef KDOP_TEST_SANITIZED
constexpr bool kThinned = true;
#else
constexpr bool kThinned = false;
#endif

// The indices of the poses a scene runs (all of them outside a sanitizer).
std::vector<std::size_t> poses_run(const Scene& scene) {
  std::vector<std::size_t> run;
  for (std::uint64_t i = 0; i < scene.poses.size(); ++i) {
    if (!kThinned || (i * 0x9E3779B97F4A7C15u) >> 63 == 0) run.push_back(i);
  }
  return run;
}

// The scenes must exercise both answers, or the oracle tests prove little: over the poses run.
TEST(QueryOracle, ScenesHoldBothAnswersAndManyPairs) {
  std::size_t poses = 0, colliding = 0, pairs_total = 0;
  for (const Scene& scene : make_scenes()) {
    for (const std::size_t i : poses_run(scene)) {
      const std::vector<ContactPair> pairs =
          brute_force_contacts(scene.env, scene.object, scene.poses[i]);
      colliding += !pairs.empty();
      pairs_total += pairs.size();
      ++poses;
    }
  }
  EXPECT_GE(poses, kThinned ? 1400u : 2000u);
  EXPECT_GT(colliding, poses / 5);
  EXPECT_LT(colliding, poses - poses / 10);
  EXPECT_GT(pairs_total, 10 * colliding / 2);
}

// One test per scene, so that ctest runs the scenes side by side.
class EveryVariant : public testing::TestWithParam<std::string> {};

TEST_P(EveryVariant, MatchesBruteForce) {
  std::vector<Scene> scenes = make_scenes();
  const auto found = std::find_if(scenes.begin(), scenes.end(),
                                  [&](const Scene& s) { return s.name == GetParam(); });
  ASSERT_NE(found, scenes.end());
  const Scene& scene = *found;
  const std::vector<std::size_t> run = poses_run(scene);
  std::vector<std::vector<ContactPair>> expected(scene.poses.size());
  for (const std::size_t i : run)
    expected[i] = brute_force_contacts(scene.env, scene.object, scene.poses[i]);
  for (const Variant& v : variants()) {
    PairConfig config;
    config.bv = v.bv;
    config.environment.rule = config.object.rule = v.rule;
    config.environment.split_point = config.object.split_point = v.point;
    config.environment.all_directions = config.object.all_directions = v.all_directions;
    config.isa = v.isa;
    config.tumble = v.tumble;
    config.descent = v.descent;
    config.root = v.root;
    // Small leaves for the flying tree too, so both hierarchies are deep on small scenes.
    config.object.leaf_size = 4;
    CollisionPair pair(scene.env, scene.object, config);
    for (const std::size_t i : run) {
      SCOPED_TRACE(scene.name + " " + to_string(v.bv) + " " + to_string(v.rule) + " " +
                   to_string(v.point) + " " + simd::to_string(v.isa) + " " + to_string(v.tumble) +
                   " " + to_string(v.descent) + " root " + to_string(v.root) + " pose " +
                   std::to_string(i));
      const QueryResult all = pair.query(scene.poses[i], QueryMode::all_contacts);
      ASSERT_EQ(all.pairs, expected[i]);
      ASSERT_EQ(all.collides, !expected[i].empty());
      ASSERT_EQ(all.contacts, expected[i].size());
      const QueryResult counted = pair.query(scene.poses[i], QueryMode::count_contacts);
      ASSERT_EQ(counted.contacts, expected[i].size());
      ASSERT_TRUE(counted.pairs.empty());
      const QueryResult first = pair.query(scene.poses[i], QueryMode::first_contact);
      ASSERT_EQ(first.collides, !expected[i].empty());
      if (first.collides) {
        ASSERT_EQ(first.pairs.size(), 1u);
        ASSERT_TRUE(std::binary_search(expected[i].begin(), expected[i].end(), first.pairs[0]));
      }
      // The root is tumbled unless the object's bounding sphere already misses the
      // environment (then the one BV test is that sphere's).
      ASSERT_GE(all.stats.n_v, 1u);
      ASSERT_GE(all.stats.n_v, all.stats.n_u);
      if (all.stats.n_u == 0) {
        ASSERT_EQ(all.stats.n_v, 1u);
      }
    }
  }
}

std::vector<std::string> scene_names() {
  std::vector<std::string> names;
  for (const Scene& s : make_scenes()) names.push_back(s.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(QueryOracle, EveryVariant, testing::ValuesIn(scene_names()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

// RootMethod::automatic takes method II's root in flights and nested objects, and the exact root
// where it pays (engine/dop_query.hpp, root_needs_exact and root_pokes_out). The counters tell
// which root a query used: each case also checks that the two methods differ on it, so the test
// would catch the rule taking the other one. The answers are the same whatever the root.
TEST(QueryOracle, AutomaticRootTakesTheExactRootWhereItPays) {
  enum class Expect { exact, vertices };
  struct Case {
    const char* name;
    Mesh env, object;
    BvType bv;
    Vec3 lo, hi;  // the poses' translations
    Expect expect;
  };
  const Mesh obstacles = make_tetrahedra({-3, -3, -3}, {3, 3, 3}, 2000, 0.3, 5);
  const Mesh torus = make_torus({0, 0, 0}, 0.7, 0.3, 40, 20, 0);
  const std::vector<Case> cases = {
      {"a torus among obstacles, K = 14",
       obstacles,
       torus,
       BvType::kdop14,
       {-1, -1, -1},
       {1, 1, 1},
       Expect::vertices},
      {"a torus among obstacles, K = 6",
       obstacles,
       torus,
       BvType::kdop6,
       {-1, -1, -1},
       {1, 1, 1},
       Expect::exact},
      {"tori side by side, K = 14",
       torus,
       torus,
       BvType::kdop14,
       {2, 0, 0},
       {2, 0, 0},
       Expect::exact},
  };
  std::uint64_t rng = 29;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    QueryStats totals[3];
    // Poses where the counters show the choice: automatic's equal one method's and not the other's.
    int took_exact = 0, took_vertices = 0;
    std::vector<CollisionPair> pairs;
    for (RootMethod root : {RootMethod::automatic, RootMethod::exact, RootMethod::vertices}) {
      PairConfig config;
      config.bv = c.bv;
      config.root = root;
      pairs.emplace_back(c.env, c.object, config);
    }
    for (int i = 0; i < 40; ++i) {
      const Pose pose = test::random_pose(rng, c.lo, c.hi);
      QueryResult r[3];
      for (int m = 0; m < 3; ++m) {
        r[m] = pairs[m].query(pose, QueryMode::all_contacts);
        totals[m].n_v += r[m].stats.n_v;
        totals[m].n_u += r[m].stats.n_u;
      }
      ASSERT_EQ(r[0].pairs, r[1].pairs);
      ASSERT_EQ(r[0].pairs, r[2].pairs);
      ASSERT_EQ(r[0].pairs, brute_force_contacts(c.env, c.object, pose));
      if (r[1].stats.n_v != r[2].stats.n_v) {
        took_exact += r[0].stats.n_v == r[1].stats.n_v;
        took_vertices += r[0].stats.n_v == r[2].stats.n_v;
      }
    }
    const QueryStats& expected = c.expect == Expect::exact ? totals[1] : totals[2];
    EXPECT_EQ(totals[0].n_v, expected.n_v);
    EXPECT_EQ(totals[0].n_u, expected.n_u);
    EXPECT_GT(c.expect == Expect::exact ? took_exact : took_vertices, 0);
  }
}

// Where the root pokes out of the environment's, the exact root is climbed only if the hull's
// points leave room for it to separate the environment's root or halves: tori that touch (at
// distance 2: it separates them on about half of the poses) but not tori that intersect (at 0.6:
// it cannot on most poses). The counters cannot show this choice (both roots lead to the same node
// pairs when the tori intersect), so the test asks the rule itself, against a brute-force version
// of it.
TEST(QueryOracle, ExactRootOnlyWhereItMaySeparate) {
  const Mesh torus = make_torus({0, 0, 0}, 0.7, 0.3, 40, 20, 0);
  const DopTree<14> env = build_dop_tree<14>(torus, BuildConfig{});
  const FlyingDopTree<14> fly = build_flying_dop_tree<14>(torus, BuildConfig::object_defaults());
  std::uint64_t rng = 31;
  for (double distance : {0.6, 2.0}) {
    SCOPED_TRACE(distance);
    int pokes_out = 0, may_separate = 0, separates = 0;
    for (int i = 0; i < 60; ++i) {
      const Pose pose = test::random_pose(rng, {distance, 0, 0}, {distance, 0, 0});
      const TumbleFrame<14> frame = make_tumble_frame(fly, pose);
      float tumbled[DopShape<14>::floats], exact[DopShape<14>::floats];
      tumble_node<simd::ScalarArch>(fly, frame, 0, tumbled);
      tumble_root<simd::ScalarArch>(fly, frame, exact);
      if (!root_pokes_out<simd::ScalarArch, 14>(env.node_bounds(0), tumbled)) continue;
      ++pokes_out;
      const bool may = exact_root_may_separate<simd::ScalarArch>(env, fly, frame, tumbled);
      may_separate += may;
      // Does the exact root separate the environment's root or a child where method II's does
      // not? Then the rule must have said it may.
      bool gains = false;
      for (std::uint32_t e : {0u, env.topology.left(0), env.topology.right(0)}) {
        gains =
            gains || (!simd::slab_overlap_scalar<DopShape<14>::lanes>(env.node_bounds(e), exact) &&
                      simd::slab_overlap_scalar<DopShape<14>::lanes>(env.node_bounds(e), tumbled));
      }
      separates += gains;
      if (gains) {
        EXPECT_TRUE(may) << "pose " << i;
      }
    }
    EXPECT_EQ(pokes_out, 60);
    // Not eager: it rarely calls for a climb that then separates nothing (measured: never).
    EXPECT_LE(may_separate, separates + pokes_out / 10);
    if (distance < 1) {
      EXPECT_LT(may_separate, pokes_out / 4);  // measured: 3 of 60
    } else {
      EXPECT_GT(separates, pokes_out / 4);  // measured: 28 of 60
    }
  }
}

TEST(QueryOracle, DefaultLeafSizesMatchBruteForce) {
  std::uint64_t rng = 99;
  const Mesh env = make_sphere({0, 0, 0}, 1.0, 24, 16);
  const Mesh obj = make_torus({0, 0, 0}, 0.6, 0.2, 30, 12, 0.15);
  for (BvType bv : {BvType::kdop6, BvType::dop8, BvType::kdop14, BvType::kdop18, BvType::kdop26,
                    BvType::kdop32, BvType::obb, BvType::rss}) {
    PairConfig config;
    config.bv = bv;
    config.environment.rule = config.object.rule = default_split_rule(bv);
    CollisionPair pair(env, obj, config);
    std::uint64_t r = rng;
    for (int i = 0; i < 40; ++i) {
      const Pose pose = test::random_pose(r, {-1, -1, -1}, {1, 1, 1});
      ASSERT_EQ(pair.query(pose, QueryMode::all_contacts).pairs,
                brute_force_contacts(env, obj, pose))
          << to_string(bv) << " pose " << i;
    }
  }
}

}  // namespace
}  // namespace kdop

namespace kdop {
namespace {

Vec3 corner(const Mesh& m, std::size_t i) {
  return {m.x[i], m.y[i], m.z[i]};
}

// `count` triangles of random double corners in [-0.5, 0.5]^3 (a flying root and two leaves for
// 2 <= count <= 40).
Mesh random_triangles(std::uint64_t& rng, int count) {
  Mesh m;
  for (int t = 0; t < count; ++t) {
    std::uint32_t v[3];
    for (std::uint32_t& i : v) {
      i = m.add_vertex(next_uniform(rng) - 0.5, next_uniform(rng) - 0.5, next_uniform(rng) - 0.5);
    }
    m.add_triangle(v[0], v[1], v[2]);
  }
  return m;
}

// Contact exactly at a corner of the flying object that is extreme along a diagonal direction of
// the DOP: the environment triangle leaves that corner (placed by apply_pose) along directions
// with a positive component on the diagonal, so in the object's frame it lies beyond the object's
// support there except at the corner. Coordinates are random doubles (not floats), so the
// corners' float rounding and the float projections on the diagonals land on either side of the
// DOP's bound: the leaf's DOP test (simd/triangle_dop.hpp) must allow for them, or it rejects
// real contacts. (Without its margin, this test fails.)
TEST(QueryOracle, ContactAtAnExtremeCornerOnEveryDiagonal) {
  std::uint64_t rng = 77;
  int checked = 0;
  for (BvType bv : {BvType::kdop14, BvType::kdop18, BvType::kdop26, BvType::kdop32}) {
    for (int trial = 0; trial < 60; ++trial) {
      const Mesh object = random_triangles(rng, 12);
      const Pose pose = test::random_pose(rng, {-3, -3, -3}, {3, 3, 3});
      for (int d = 0; d < DopShape<32>::slabs; ++d) {  // every direction of every type
        const Vec3 n = to_vec3(DopShape<32>::directions()[d]);
        std::size_t best = 0;
        for (std::size_t i = 1; i < object.vertex_count(); ++i) {
          if (dot(n, corner(object, i)) > dot(n, corner(object, best))) best = i;
        }
        // Two directions with positive n components, turned by the pose.
        const Vec3 w1 = n + Vec3{0.3, -0.2, 0.1}, w2 = n + Vec3{-0.1, 0.25, -0.3};
        const Vec3 p0 = apply_pose(pose, corner(object, best));
        const auto turned = [&](Vec3 w) {
          return Vec3{pose.r[0] * w.x + pose.r[1] * w.y + pose.r[2] * w.z,
                      pose.r[3] * w.x + pose.r[4] * w.y + pose.r[5] * w.z,
                      pose.r[6] * w.x + pose.r[7] * w.y + pose.r[8] * w.z};
        };
        Mesh env;
        const Vec3 p1 = p0 + turned(w1), p2 = p0 + turned(w2);
        env.add_triangle(env.add_vertex(p0.x, p0.y, p0.z), env.add_vertex(p1.x, p1.y, p1.z),
                         env.add_vertex(p2.x, p2.y, p2.z));
        const auto expected = brute_force_contacts(env, object, pose);
        if (expected.empty()) continue;  // apply_pose's rounding put p0 just outside
        PairConfig config;
        config.bv = bv;
        CollisionPair pair(env, object, config);
        const QueryResult r = pair.query(pose, QueryMode::all_contacts);
        ASSERT_EQ(r.pairs, expected) << to_string(bv) << " trial " << trial << " direction " << d;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

// The same at a flying node's plate (builders/node_plate.hpp): a curved patch of random double
// corners, and an environment triangle leaving a node's extreme corner along the node's plate
// normal (or against it, from the lowest corner), so in the object's frame it lies beyond the plate
// except at that corner. Patches of 12 triangles are a root split once into two leaves, and the
// node is the left leaf (the plate test before the leaf's prefilter); patches of 60 use their
// inner root (the plate test after the DOPs overlap). Either must allow for the corners' float
// rounding. (Without the margin, this test fails in both places.)
TEST(QueryOracle, ContactAtAPlatesExtremeCorner) {
  std::uint64_t rng = 78;
  int checked = 0, tight[2] = {0, 0};  // [0]: the inner root, [1]: the leaf
  for (int trial = 0; trial < 400; ++trial) {
    const bool one_leaf = trial % 2 == 0;
    Mesh object;
    const auto on_cap = [&] {
      const double a = 0.6 * next_uniform(rng), b = 0.6 * next_uniform(rng);
      const double r = 1 + 0.01 * next_uniform(rng);
      return object.add_vertex(r * std::sin(a) * std::cos(b), r * std::sin(a) * std::sin(b),
                               r * std::cos(a));
    };
    for (int t = 0; t < (one_leaf ? 12 : 60); ++t) {
      const std::uint32_t v0 = on_cap(), v1 = on_cap(), v2 = on_cap();
      object.add_triangle(v0, v1, v2);
    }
    PairConfig config;
    config.bv = trial % 4 < 2 ? BvType::kdop18 : BvType::kdop26;
    const FlyingDopTree<18> plate_tree = build_flying_dop_tree<18>(object, config.object);
    const TreeTopology& topology = plate_tree.tree.topology;
    ASSERT_FALSE(topology.is_leaf(0));
    const std::uint32_t node = one_leaf ? 1 : 0;
    ASSERT_EQ(topology.is_leaf(node), one_leaf);
    // The node's corners: its triangles' (a leaf), or every corner (the root).
    std::vector<std::uint32_t> corners;
    if (one_leaf) {
      const std::uint32_t first = topology.child_or_first[node];
      for (std::uint32_t slot = first; slot < first + topology.leaf_count[node]; ++slot) {
        const std::uint32_t t = plate_tree.tree.triangles.original[slot];
        corners.insert(corners.end(), {object.a[t], object.b[t], object.c[t]});
      }
    } else {
      for (std::uint32_t i = 0; i < object.vertex_count(); ++i) corners.push_back(i);
    }
    const float* s = plate_tree.plates.node(node);
    const Pose pose = test::random_pose(rng, {-3, -3, -3}, {3, 3, 3});
    for (double side : {1.0, -1.0}) {
      const Vec3 n{side * s[0], side * s[1], side * s[2]};
      std::size_t best = corners[0];
      for (std::uint32_t i : corners) {
        if (dot(n, corner(object, i)) > dot(n, corner(object, best))) best = i;
      }
      const Vec3 w1 = n + Vec3{0.3, -0.2, 0.1}, w2 = n + Vec3{-0.1, 0.25, -0.3};
      const auto turned = [&](Vec3 w) {
        return Vec3{pose.r[0] * w.x + pose.r[1] * w.y + pose.r[2] * w.z,
                    pose.r[3] * w.x + pose.r[4] * w.y + pose.r[5] * w.z,
                    pose.r[6] * w.x + pose.r[7] * w.y + pose.r[8] * w.z};
      };
      const Vec3 p0 = apply_pose(pose, corner(object, best));
      const Vec3 p1 = p0 + turned(w1), p2 = p0 + turned(w2);
      Mesh env;
      env.add_triangle(env.add_vertex(p0.x, p0.y, p0.z), env.add_vertex(p1.x, p1.y, p1.z),
                       env.add_vertex(p2.x, p2.y, p2.z));
      const auto expected = brute_force_contacts(env, object, pose);
      if (expected.empty()) continue;  // apply_pose's rounding put p0 just outside
      CollisionPair pair(env, object, config);
      ASSERT_EQ(pair.query(pose, QueryMode::all_contacts).pairs, expected)
          << "trial " << trial << " side " << side;
      ++checked;
      // The case is tight: without its margin the plate would reject this touching triangle.
      const simd::PrefilterTriangle key = object_frame_key<simd::ScalarArch>(
          make_object_frame<simd::ScalarArch>(plate_tree.corner_radius, pose),
          Triangle{p0, p1, p2});
      tight[one_leaf] += triangle_misses_plate<simd::ScalarArch>(s, key.x, key.y, key.z, 0.0f);
    }
  }
  EXPECT_GT(checked, 300);
  EXPECT_GE(tight[0], 5);  // each place is tight somewhere
  EXPECT_GE(tight[1], 5);
}

// The same for the box test (simd/box_against_dop.hpp): an environment triangle whose box has its
// lowest corner along a flying slab's world direction w_j = R^-T n_j at the flying object's extreme
// corner on n_j (p0, placed by apply_pose), the other corners leaving it along the signs of w_j.
// The box then lies beyond the flying DOP's slab except at p0, where the triangles touch.
// Translations up to 100 (every fourth trial 10,000) against an object of size 1 (the float span
// over the box cancels), rotations orthonormal only to about 1e-6 (as --matrix allows), and in two
// trials of three, far triangles in the environment, so that its root's box (which sets the
// margin) is larger than the touching leaf's and the leaf is reached through inner nodes.
// The triangle itself through the same frame (the environment triangles' test against flying
// nodes) touches the same way. (Without the frame's margin, this test fails.)
template <int K>
void check_box_corner_contacts(std::uint64_t& rng, int& checked, int& tight, int& tight_triangles) {
  using Shape = DopShape<K>;
  for (int trial = 0; trial < 40; ++trial) {
    const Mesh object = random_triangles(rng, 12);
    const double reach = trial % 4 == 3 ? 1e4 : 100;
    Pose pose = test::random_pose(rng, {-reach, -reach, -reach}, {reach, reach, reach});
    if (trial % 2 == 1) {  // |R^T R - I| up to 6 * 1.5e-7
      for (double& r : pose.r) r += 1.5e-7 * (2 * next_uniform(rng) - 1);
    }
    const FlyingDopTree<K> fly = build_flying_dop_tree<K>(object, BuildConfig::object_defaults());
    const ObjectFrame object_frame = make_object_frame<simd::ScalarArch>(fly.corner_radius, pose);
    for (int d = 0; d < Shape::slabs; ++d) {
      const Vec3 n = to_vec3(Shape::directions()[d]);
      std::size_t best = 0;
      for (std::size_t i = 1; i < object.vertex_count(); ++i) {
        if (dot(n, corner(object, i)) > dot(n, corner(object, best))) best = i;
      }
      const double* inv = object_frame.inv;
      const Vec3 w{n.x * inv[0] + n.y * inv[3] + n.z * inv[6],
                   n.x * inv[1] + n.y * inv[4] + n.z * inv[7],
                   n.x * inv[2] + n.y * inv[5] + n.z * inv[8]};
      const auto away = [&] {  // a step whose every component has w's sign (or is zero)
        const auto along = [&](double c) {
          return c > 0 ? next_uniform(rng) : c < 0 ? -next_uniform(rng) : 0.0;
        };
        return Vec3{along(w.x), along(w.y), along(w.z)};
      };
      const Vec3 p0 = apply_pose(pose, corner(object, best));
      const Vec3 p1 = p0 + away(), p2 = p0 + away();
      Mesh env;
      env.add_triangle(env.add_vertex(p0.x, p0.y, p0.z), env.add_vertex(p1.x, p1.y, p1.z),
                       env.add_vertex(p2.x, p2.y, p2.z));
      for (int far = 0; far < (trial % 3 == 0 ? 0 : 3); ++far) {  // 20-40 away from the object
        const Vec3 c = p0 + (far == 1 ? -1.0 : 1.0) * Vec3{20 + 20 * next_uniform(rng),
                                                           20 * next_uniform(rng) - 10,
                                                           20 * next_uniform(rng) - 10};
        const Vec3 q1 = c + Vec3{1, 0, 0}, q2 = c + Vec3{0, 1, next_uniform(rng)};
        env.add_triangle(env.add_vertex(c.x, c.y, c.z), env.add_vertex(q1.x, q1.y, q1.z),
                         env.add_vertex(q2.x, q2.y, q2.z));
      }
      const auto expected = brute_force_contacts(env, object, pose);
      if (expected.empty()) continue;  // a degenerate step
      PairConfig config;
      config.bv = bv_type_for<K>();
      // Leaves of one triangle: the touching triangle's leaf box is its own, as `tight` assumes
      // (with the default 3 it would share a leaf with a far triangle and a looser box).
      config.environment.leaf_size = 1;
      CollisionPair pair(env, object, config);
      ASSERT_EQ(pair.query(pose, QueryMode::all_contacts).pairs, expected)
          << "K " << K << " trial " << trial << " direction " << d;
      ++checked;
      // The case is tight: with offsets but no margin the box test would reject this contact (the
      // touching triangle's box, rounded outward).
      const DopTree<K> env_tree = build_dop_tree<K>(env, BuildConfig::environment_defaults());
      simd::BoxDopFrame<Shape::lanes> bare =
          box_dop_frame<simd::ScalarArch, K>(env_tree, object_frame);
      for (int j = 0; j < Shape::slabs; ++j) {
        const double o = (double{bare.wx[j]} * pose.t[0] + double{bare.wy[j]} * pose.t[1]) +
                         double{bare.wz[j]} * pose.t[2];
        bare.off_lo[j] = bare.off_hi[j] = static_cast<float>(o);
      }
      const float lo[3] = {float_below(std::min({p0.x, p1.x, p2.x})),
                           float_below(std::min({p0.y, p1.y, p2.y})),
                           float_below(std::min({p0.z, p1.z, p2.z}))};
      const float hi[3] = {float_above(std::max({p0.x, p1.x, p2.x})),
                           float_above(std::max({p0.y, p1.y, p2.y})),
                           float_above(std::max({p0.z, p1.z, p2.z}))};
      tight += !simd::box_may_meet_dop<simd::ScalarArch, Shape::lanes>(bare, lo, hi,
                                                                       fly.tree.node_bounds(0));
      // The same for the triangle itself through that frame (its corners rounded to nearest, as
      // the environment triangles' test against flying nodes sees them).
      const float tx[3] = {static_cast<float>(p0.x), static_cast<float>(p1.x),
                           static_cast<float>(p2.x)};
      const float ty[3] = {static_cast<float>(p0.y), static_cast<float>(p1.y),
                           static_cast<float>(p2.y)};
      const float tz[3] = {static_cast<float>(p0.z), static_cast<float>(p1.z),
                           static_cast<float>(p2.z)};
      tight_triangles += !simd::world_triangle_may_meet_dop<simd::ScalarArch, Shape::lanes>(
          bare, tx, ty, tz, fly.tree.node_bounds(0));
    }
  }
}

TEST(QueryOracle, ContactAtABoxCornerOnEverySlab) {
  std::uint64_t rng = 79;
  int checked = 0, tight = 0, tight_triangles = 0;
  check_box_corner_contacts<6>(rng, checked, tight, tight_triangles);
  check_box_corner_contacts<14>(rng, checked, tight, tight_triangles);
  check_box_corner_contacts<18>(rng, checked, tight, tight_triangles);
  check_box_corner_contacts<26>(rng, checked, tight, tight_triangles);
  check_box_corner_contacts<32>(rng, checked, tight, tight_triangles);
  EXPECT_GT(checked, 1000);
  EXPECT_GE(tight, 20);
  EXPECT_GE(tight_triangles, 20);  // 831 here
}

// Every BV type on every ISA this CPU supports, with the default builders.
std::vector<PairConfig> every_bv_on_every_isa() {
  std::vector<PairConfig> configs;
  for (BvType bv : {BvType::kdop6, BvType::kdop14, BvType::kdop18, BvType::kdop26, BvType::kdop32,
                    BvType::dop8, BvType::obb, BvType::rss}) {
    for (simd::Isa isa : simd::supported_isas()) {
      PairConfig config;
      config.bv = bv;
      config.isa = isa;
      configs.push_back(config);
    }
  }
  return configs;
}

// Contact where an edge of the environment triangle crosses an edge of a flying triangle, each
// triangle on its own side of the plane through both edges: the edge-pair axis d x e (E's edge d,
// F's edge e) is where they touch, and no normal or box separates them, so the pair reaches the
// edge axes' test (simd/triangle_edge_axes.hpp). Coordinates are random doubles placed by
// apply_pose, translations up to 100 (every fourth trial 10,000), so the float corners land on
// either side of the touch: the test must allow for it, or it drops real contacts. Against brute
// force for every BV type on every ISA. (Without its margin, this test fails.)
TEST(QueryOracle, ContactWhereTwoEdgesCross) {
  std::uint64_t rng = 83;
  const std::vector<PairConfig> configs = every_bv_on_every_isa();
  int checked = 0, tight = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Mesh object = random_triangles(rng, 6);
    const double reach = trial % 4 == 3 ? 1e4 : 100;
    const Pose pose = test::random_pose(rng, {-reach, -reach, -reach}, {reach, reach, reach});
    const std::uint32_t t = static_cast<std::uint32_t>(next_uniform(rng) * 6);
    const Vec3 f0 = apply_pose(pose, corner(object, object.a[t]));
    const Vec3 f1 = apply_pose(pose, corner(object, object.b[t]));
    const Vec3 f2 = apply_pose(pose, corner(object, object.c[t]));
    const Vec3 e = f1 - f0;
    const Vec3 q = f0 + 0.37 * e;
    const Vec3 d{next_uniform(rng) - 0.5, next_uniform(rng) - 0.5, next_uniform(rng) - 0.5};
    Vec3 a = cross(d, e);
    if (dot(a, f2 - q) > 0) a = -1.0 * a;  // F below the plane through both edges, E above
    const Vec3 w = Vec3{next_uniform(rng) - 0.5, next_uniform(rng) - 0.5, next_uniform(rng) - 0.5} +
                   (1.0 / std::sqrt(dot(a, a))) * a;
    if (!(dot(a, w) > 0)) continue;
    const Vec3 p0 = q - 0.5 * d, p1 = q + 0.5 * d, p2 = q + w;
    Mesh env;
    env.add_triangle(env.add_vertex(p0.x, p0.y, p0.z), env.add_vertex(p1.x, p1.y, p1.z),
                     env.add_vertex(p2.x, p2.y, p2.z));
    const auto expected = brute_force_contacts(env, object, pose);
    if (expected.empty()) continue;  // rounding put the edges just apart
    for (const PairConfig& config : configs) {
      CollisionPair pair(env, object, config);
      ASSERT_EQ(pair.query(pose, QueryMode::all_contacts).pairs, expected)
          << "trial " << trial << " " << to_string(config.bv) << " "
          << simd::to_string(*config.isa);
    }
    ++checked;
    // The case is tight: without its margin the edge axes' test would part the touching pair.
    const FlyingDopTree<18> fly = build_flying_dop_tree<18>(object, BuildConfig::object_defaults());
    simd::PrefilterTriangle key = object_frame_key<simd::ScalarArch>(
        make_object_frame<simd::ScalarArch>(fly.corner_radius, pose), Triangle{p0, p1, p2});
    key.edge_margin = 0;
    float fc[9];
    const std::uint32_t ft[3] = {object.a[t], object.b[t], object.c[t]};
    for (int k = 0; k < 3; ++k) {
      fc[k] = static_cast<float>(object.x[ft[k]]);
      fc[3 + k] = static_cast<float>(object.y[ft[k]]);
      fc[6 + k] = static_cast<float>(object.z[ft[k]]);
    }
    const float* none = fc;
    const simd::PrefilterSlots slots{{none, none, none},
                                     {none, none, none},
                                     {fc + 0, fc + 1, fc + 2},
                                     {fc + 3, fc + 4, fc + 5},
                                     {fc + 6, fc + 7, fc + 8},
                                     {none, none, none},
                                     none,
                                     none};
    tight += simd::edge_axes_separate_scalar(key, slots, 0);
  }
  EXPECT_GT(checked, 100);
  EXPECT_GE(tight, 10);
}

// Found in review: environment coordinates beyond float's range (1e39; the readers accept any
// finite double) made the corners' float projections NaN, and the leaf's DOP test, whose min and
// max pass over a NaN, judged the triangle by its third corner alone and dropped a real contact.
TEST(QueryOracle, CoordinatesBeyondFloatNeverHideAContact) {
  Mesh env, object;
  env.add_triangle(env.add_vertex(1e39, 1e39, 0), env.add_vertex(-1e39, -1e39, 0),
                   env.add_vertex(1e35, -1e35, 0));
  object.add_triangle(object.add_vertex(1, -1, -1), object.add_vertex(1, -1, 1),
                      object.add_vertex(2, -1, 0));
  const Pose identity;
  const auto expected = brute_force_contacts(env, object, identity);
  ASSERT_EQ(expected.size(), 1u);  // (1, -1, 0) is in both
  for (const PairConfig& config : every_bv_on_every_isa()) {
    CollisionPair pair(env, object, config);
    EXPECT_EQ(pair.query(identity, QueryMode::all_contacts).pairs, expected)
        << to_string(config.bv) << " " << simd::to_string(*config.isa);
  }
}

// The smallest meshes the readers accept (geometry/coordinate_range.hpp: meshes that reach 1e-30):
// a sphere and a box scaled by 2^-99 (1.6e-30), at random poses of that scale and at face and
// corner touches, against brute force, for every BV type and ISA. (A probe found false negatives
// at 2^-520 with OBB, RSS, 26-DOP and 8-DOP, where products of coordinates underflow: why smaller
// meshes are refused.)
TEST(QueryOracle, TheSmallestMeshesMatchBruteForce) {
  const double s = 0x1p-99;
  const Mesh env = scaled_mesh(make_sphere({0, 0, 0}, 1, 10, 7), s);
  const Mesh object = scaled_mesh(make_box({0, 0, 0}, {1, 1, 1}), s);
  std::uint64_t state = 0x5eed0099;
  std::vector<Pose> poses;
  for (int i = 0; i < 200; ++i) {
    poses.push_back(
        random_pose(state, {-1.6 * s, -1.6 * s, -1.6 * s}, {1.6 * s, 1.6 * s, 1.6 * s}));
  }
  // Faces on the sphere's pole and a corner touch.
  for (int k = 0; k < 4; ++k) poses.push_back(test::quarter_turn_z(k, s, 0, 0));
  poses.push_back(test::translation(-2 * s, -0.5 * s, -0.5 * s));
  std::vector<std::vector<ContactPair>> expected;
  std::size_t colliding = 0;
  for (const Pose& pose : poses) {
    expected.push_back(brute_force_contacts(env, object, pose));
    colliding += !expected.back().empty();
  }
  for (PairConfig config : every_bv_on_every_isa()) {
    config.object.leaf_size = 2;
    CollisionPair pair(env, object, config);
    for (std::size_t i = 0; i < poses.size(); ++i) {
      ASSERT_EQ(pair.query(poses[i], QueryMode::all_contacts).pairs, expected[i])
          << to_string(config.bv) << " " << simd::to_string(*config.isa) << " pose " << i;
    }
  }
  EXPECT_GT(colliding, poses.size() / 5);
  EXPECT_LT(colliding, poses.size() - poses.size() / 10);
}

}  // namespace
}  // namespace kdop
