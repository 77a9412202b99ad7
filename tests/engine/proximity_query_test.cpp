// Distance queries against the brute-force oracle: the least distance over all triangle pairs,
// and the exact set of pairs within a clearance, for every K, on random and touching scenes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "builders/dop_tree.hpp"
#include "engine/proximity_query.hpp"
#include "geometry/exact_distance.hpp"
#include "geometry/swept_triangle.hpp"
#include "geometry/triangle_distance.hpp"
#include "tests/support/scenes.hpp"

namespace kdop {
namespace {

Triangle mesh_triangle(const Mesh& m, std::uint32_t t, const Pose* pose) {
  auto corner = [&](std::uint32_t v) {
    const Vec3 p{m.x[v], m.y[v], m.z[v]};
    return pose ? apply_pose(*pose, p) : p;
  };
  return {corner(m.a[t]), corner(m.b[t]), corner(m.c[t])};
}

// Every pair's distance, by brute force (index: env * object_count + object).
std::vector<double> all_distances(const Mesh& env, const Mesh& object, const Pose& pose) {
  std::vector<double> d(env.triangle_count() * object.triangle_count());
  for (std::uint32_t e = 0; e < env.triangle_count(); ++e) {
    const Triangle te = mesh_triangle(env, e, nullptr);
    for (std::uint32_t f = 0; f < object.triangle_count(); ++f) {
      const Triangle tf = mesh_triangle(object, f, &pose);
      d[e * object.triangle_count() + f] =
          triangles_intersect(te, tf) ? 0.0 : triangle_distance(te, tf).distance;
    }
  }
  return d;
}

template <int K>
void check_scene(const test::Scene& scene, double clearance) {
  SCOPED_TRACE(scene.name + " K=" + std::to_string(K));
  BuildConfig fly_config = BuildConfig::object_defaults();
  fly_config.leaf_size = 8;
  const DopTree<K> env = build_dop_tree<K>(scene.env, BuildConfig::environment_defaults());
  const FlyingDopTree<K> fly = build_flying_dop_tree<K>(scene.object, fly_config);
  ProximityScratch<K> scratch;
  ProximityResult near, within;
  const std::uint32_t nf = static_cast<std::uint32_t>(scene.object.triangle_count());
  std::uint64_t pruned = 0, total = 0;
  for (std::size_t p = 0; p < scene.poses.size(); ++p) {
    SCOPED_TRACE("pose " + std::to_string(p));
    const Pose& pose = scene.poses[p];
    const std::vector<double> d = all_distances(scene.env, scene.object, pose);
    const double least = *std::min_element(d.begin(), d.end());
    nearest_pair<K>(env, fly, pose, std::numeric_limits<double>::infinity(), scratch, near);
    ASSERT_EQ(near.distance, least);
    EXPECT_EQ(d[near.nearest.env_triangle * nf + near.nearest.object_triangle], least);
    EXPECT_EQ(near.intersecting, least == 0);
    total += d.size();
    pruned += d.size() - near.stats.n_p;
    // With a cap below the least distance nothing is found; at it, the least is.
    if (least > 0) {
      nearest_pair<K>(env, fly, pose, least * 0.999, scratch, near);
      EXPECT_EQ(near.distance, std::numeric_limits<double>::infinity());
    }
    pairs_within<K>(env, fly, pose, clearance, scratch, within);
    std::vector<ContactPair> expected;
    for (std::uint32_t e = 0; e < scene.env.triangle_count(); ++e) {
      for (std::uint32_t f = 0; f < nf; ++f) {
        if (d[e * nf + f] <= clearance) expected.push_back({e, f});
      }
    }
    ASSERT_EQ(within.pairs, expected);
    for (std::size_t i = 0; i < within.pairs.size(); ++i) {
      EXPECT_EQ(within.pair_distances[i],
                d[within.pairs[i].env_triangle * nf + within.pairs[i].object_triangle]);
    }
  }
  // The bounds must prune: most triangle pairs are never measured.
  EXPECT_LT(pruned, total);
  EXPECT_GT(pruned, total / 2);
}

std::vector<test::Scene> scenes() {
  std::vector<test::Scene> out;
  std::uint64_t rng = 99;
  test::Scene a{"sphere_torus",
                make_sphere({0, 0, 0}, 1.0, 14, 9),
                make_torus({0, 0, 0}, 0.5, 0.15, 12, 7, 0.1),
                {}};
  for (int i = 0; i < 60; ++i) a.poses.push_back(random_pose(rng, {-2, -2, -2}, {2, 2, 2}));
  out.push_back(std::move(a));
  test::Scene b{"tetra_soups",
                make_tetrahedra({0, 0, 0}, {2, 2, 2}, 40, 0.5, 7),
                make_tetrahedra({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}, 15, 0.4, 8),
                {}};
  for (int i = 0; i < 60; ++i) b.poses.push_back(random_pose(rng, {0, 0, 0}, {2, 2, 2}));
  out.push_back(std::move(b));
  // A plate and a cube resting on it, lifted by exact amounts: touching, 1e-9 and 0.25 apart.
  test::Scene c{"resting", test::make_grid_plate(4, 0.0), make_sphere({0, 0, 0}, 0.5, 8, 6), {}};
  for (double lift : {0.5, 0.5 + 1e-9, 0.75, 2.0}) {
    c.poses.push_back(test::translation(2.0, 2.0, lift));
    c.poses.push_back(test::quarter_turn_z(1, 1.5, 2.5, lift));
  }
  out.push_back(std::move(c));
  return out;
}

TEST(ProximityQuery, MatchesBruteForceForEveryK) {
  for (const test::Scene& s : scenes()) {
    check_scene<6>(s, 0.1);
    check_scene<8>(s, 0.1);
    check_scene<14>(s, 0.05);
    check_scene<18>(s, 0.1);
    check_scene<26>(s, 0.2);
    check_scene<32>(s, 0.15);
  }
}

// A clearance equal to a pair's double distance, and its float neighbours: pairs whose double
// distance is within triangle_distance_error of the clearance are decided by their exact
// distance (exact_distance_side, itself tested against an exact face-pair oracle), the others by
// the double distance. The double distance alone puts some on the wrong side.
template <int K>
int check_clearance_boundary(const test::Scene& scene) {
  SCOPED_TRACE(scene.name + " K=" + std::to_string(K));
  const DopTree<K> env = build_dop_tree<K>(scene.env, BuildConfig::environment_defaults());
  const FlyingDopTree<K> fly =
      build_flying_dop_tree<K>(scene.object, BuildConfig::object_defaults());
  ProximityScratch<K> scratch;
  ProximityResult within;
  const std::uint32_t nf = static_cast<std::uint32_t>(scene.object.triangle_count());
  int double_wrong = 0;
  for (std::size_t p = 0; p < scene.poses.size(); p += 3) {
    const Pose& pose = scene.poses[p];
    const std::vector<double> d = all_distances(scene.env, scene.object, pose);
    std::vector<double> sorted = d;
    std::sort(sorted.begin(), sorted.end());
    const double anchor = sorted[std::min<std::size_t>(sorted.size() - 1, 5 + p)];
    if (anchor == 0) continue;
    double magnitude = 0;
    for (std::uint32_t e = 0; e < scene.env.triangle_count(); ++e) {
      for (std::uint32_t f = 0; f < nf; ++f) {
        for (const Triangle& t :
             {mesh_triangle(scene.env, e, nullptr), mesh_triangle(scene.object, f, &pose)}) {
          for (const Vec3& c : {t.p0, t.p1, t.p2}) {
            magnitude = std::max({magnitude, std::fabs(c.x), std::fabs(c.y), std::fabs(c.z)});
          }
        }
      }
    }
    const double band = triangle_distance_error(magnitude);
    for (const double clearance :
         {std::nextafter(anchor, 0.0), anchor, std::nextafter(anchor, 1.0)}) {
      SCOPED_TRACE("pose " + std::to_string(p) + " clearance " + std::to_string(clearance));
      std::vector<ContactPair> expected;
      for (std::uint32_t e = 0; e < scene.env.triangle_count(); ++e) {
        for (std::uint32_t f = 0; f < nf; ++f) {
          const double de = d[e * nf + f];
          bool in = de <= clearance;
          if (de > 0 && std::fabs(de - clearance) <= band) {
            in = exact_distance_side(mesh_triangle(scene.env, e, nullptr),
                                     mesh_triangle(scene.object, f, &pose), clearance)
                     .side <= 0;
            double_wrong += in != (de <= clearance);
          }
          if (in) expected.push_back({e, f});
        }
      }
      pairs_within<K>(env, fly, pose, clearance, scratch, within);
      EXPECT_EQ(within.pairs, expected);
    }
  }
  return double_wrong;
}

TEST(ProximityQuery, ClearanceIsDecidedExactlyAtItsBoundary) {
  int double_wrong = 0;
  for (const test::Scene& s : scenes()) {
    if (s.name == "resting") continue;
    double_wrong += check_clearance_boundary<6>(s);
    double_wrong += check_clearance_boundary<18>(s);
  }
  EXPECT_GT(double_wrong, 0);
}

// Sweeps against brute force over every triangle pair with the pair-level swept test
// (geometry/swept_triangle.hpp, itself tested against dense sampling).
template <int K>
void check_sweeps(const test::Scene& scene, double clearance) {
  SCOPED_TRACE(scene.name + " K=" + std::to_string(K) + " clearance " + std::to_string(clearance));
  BuildConfig fly_config = BuildConfig::object_defaults();
  fly_config.leaf_size = 8;
  const DopTree<K> env = build_dop_tree<K>(scene.env, BuildConfig::environment_defaults());
  const FlyingDopTree<K> fly = build_flying_dop_tree<K>(scene.object, fly_config);
  ProximityScratch<K> scratch;
  ProximityResult r;
  std::uint64_t rng = 3;
  int hits = 0;
  for (std::size_t p = 0; p < scene.poses.size(); p += 3) {
    SCOPED_TRACE("pose " + std::to_string(p));
    const Pose& from = scene.poses[p];
    Pose to = from;
    for (int i = 0; i < 3; ++i) to.t[i] += 0.4 * (2 * next_uniform(rng) - 1);
    bool expected = false;
    for (std::uint32_t e = 0; e < scene.env.triangle_count() && !expected; ++e) {
      const Triangle te = mesh_triangle(scene.env, e, nullptr);
      for (std::uint32_t f = 0; f < scene.object.triangle_count() && !expected; ++f) {
        const Triangle a = mesh_triangle(scene.object, f, &from);
        const Triangle b = mesh_triangle(scene.object, f, &to);
        expected =
            clearance > 0 ? sweep_distance(te, a, b) <= clearance : triangle_meets_sweep(te, a, b);
      }
    }
    double least = std::numeric_limits<double>::infinity();
    for (std::uint32_t e = 0; e < scene.env.triangle_count(); ++e) {
      const Triangle te = mesh_triangle(scene.env, e, nullptr);
      for (std::uint32_t f = 0; f < scene.object.triangle_count(); ++f) {
        least = std::min(least, sweep_distance(te, mesh_triangle(scene.object, f, &from),
                                               mesh_triangle(scene.object, f, &to)));
      }
    }
    sweep_nearest<K>(env, fly, from, to, std::numeric_limits<double>::infinity(), scratch, r);
    ASSERT_EQ(r.distance, least);
    ASSERT_EQ(r.intersecting, clearance == 0 ? expected : least == 0);
    const bool got = sweep_within<K>(env, fly, from, to, clearance, scratch, r);
    ASSERT_EQ(got, expected);
    if (got) {
      ++hits;
      const Triangle te = mesh_triangle(scene.env, r.nearest.env_triangle, nullptr);
      const Triangle a = mesh_triangle(scene.object, r.nearest.object_triangle, &from);
      const Triangle b = mesh_triangle(scene.object, r.nearest.object_triangle, &to);
      EXPECT_TRUE(clearance > 0 ? sweep_distance(te, a, b) <= clearance
                                : triangle_meets_sweep(te, a, b));
    }
  }
  EXPECT_GT(hits, 0);
  // The soup of tetrahedra touches at nearly every pose; the torus flies clear of the sphere at
  // most.
  if (scene.name == "sphere_torus") {
    EXPECT_LT(hits, static_cast<int>(scene.poses.size() / 3));
  }
}

TEST(ProximityQuery, SweepsMatchBruteForce) {
  for (const test::Scene& s : scenes()) {
    if (s.name == "resting") continue;  // its poses all touch or nearly
    check_sweeps<6>(s, 0);
    check_sweeps<8>(s, 0.05);
    check_sweeps<14>(s, 0);
    check_sweeps<18>(s, 0.1);
    check_sweeps<26>(s, 0);
    check_sweeps<32>(s, 0.05);
  }
}

TEST(ProximityQuery, DopBoundIsTheLargestSlabGap) {
  // Two axis-aligned 6-DOPs 3 apart along x and 1 apart along y: the bound is 3.
  constexpr int L = DopShape<6>::lanes;
  std::vector<float> a(2 * L, 0), b(2 * L, 0);
  for (int j = 0; j < L; ++j) {
    a[j] = j < 3 ? 0.0f : -INFINITY;
    a[L + j] = j < 3 ? 1.0f : INFINITY;
    b[j] = j < 3 ? 0.0f : -INFINITY;
    b[L + j] = j < 3 ? 1.0f : INFINITY;
  }
  b[0] = 4;
  b[L + 0] = 5;
  b[1] = 2;
  b[L + 1] = 3;
  const double bound = dop_distance_bound<6>(a.data(), b.data());
  EXPECT_LE(bound, 3.0);
  EXPECT_GT(bound, 3.0 - 1e-12);
  // Overlapping: 0.
  EXPECT_EQ(dop_distance_bound<6>(a.data(), a.data()), 0.0);
}

}  // namespace
}  // namespace kdop
