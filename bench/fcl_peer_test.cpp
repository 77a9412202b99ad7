// FCL as the benchmark peer, against kdop's exact brute-force oracle. FCL's triangle test is
// floating point (separating axes), so it may disagree on pairs that merely touch: a disagreement
// is "marginal" when the exact answer for that pair flips under a 1e-9 shift of the object along
// some axis, "coplanar" when the two triangles lie exactly in one plane (FCL's axes then
// cannot separate them), and a real error otherwise. Where the answer is clear (surfaces
// crossing with a margin, or apart with a margin) the booleans must agree for every BV type and
// both modes.
#include "bench/fcl_peer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/brute_force.hpp"
#include "geometry/predicates.hpp"
#include "geometry/shapes.hpp"
#include "geometry/tri_tri.hpp"
#include "tests/support/scenes.hpp"

namespace kdop::bench {
namespace {

TEST(FclBvNames, RoundTripAndRejectUnknown) {
  for (FclBv bv : kAllFclBvs) EXPECT_EQ(parse_fcl_bv(to_string(bv)), bv) << to_string(bv);
  EXPECT_STREQ(to_string(FclBv::kdop18), "fcl-kdop18");
  EXPECT_EQ(parse_fcl_bv("fcl-aabb"), std::nullopt);
  EXPECT_EQ(parse_fcl_bv("obb"), std::nullopt);
  EXPECT_EQ(parse_fcl_bv(""), std::nullopt);
}

TEST(FclBvNames, RebuildingTypesAreRssAndKdop18) {
  EXPECT_FALSE(fcl_rebuilds_per_query(FclBv::obb));
  EXPECT_FALSE(fcl_rebuilds_per_query(FclBv::obbrss));
  EXPECT_FALSE(fcl_rebuilds_per_query(FclBv::kios));
  EXPECT_TRUE(fcl_rebuilds_per_query(FclBv::rss));
  EXPECT_TRUE(fcl_rebuilds_per_query(FclBv::kdop18));
}

TEST(FclPeer, RejectsMeshesFclCannotHold) {
  const Mesh sphere = make_sphere({0, 0, 0}, 1, 8, 6);
  Mesh points_only;
  points_only.add_vertex(0, 0, 0);
  EXPECT_THROW(FclPeer(points_only, sphere, FclBv::obb), std::invalid_argument);
  EXPECT_THROW(FclPeer(sphere, Mesh{}, FclBv::obb), std::invalid_argument);
  Mesh bad_index = sphere;
  bad_index.add_triangle(0, 1, static_cast<std::uint32_t>(sphere.vertex_count()));
  EXPECT_THROW(FclPeer(sphere, bad_index, FclBv::rss), std::invalid_argument);
}

TEST(FclPeer, MovedPeerKeepsItsModels) {
  const Mesh env = make_sphere({0, 0, 0}, 1, 12, 8);
  const Mesh obj = make_sphere({0, 0, 0}, 0.5, 10, 6);
  Pose crossing;
  crossing.t = {1, 0, 0};
  FclPeer a(env, obj, FclBv::kdop18);
  const FclQueryResult before = a.query(crossing, QueryMode::all_contacts);
  FclPeer b(std::move(a));
  FclPeer c(env, obj, FclBv::obb);
  c = std::move(b);
  EXPECT_EQ(c.bv(), FclBv::kdop18);
  const FclQueryResult after = c.query(crossing, QueryMode::all_contacts);
  EXPECT_TRUE(after.collides);
  EXPECT_EQ(after.pairs, before.pairs);
  EXPECT_EQ(after.bv_tests, before.bv_tests);
}

// A uniformly random rotation with the translation rescaled to `distance` (random direction).
Pose pose_at_distance(std::uint64_t& rng, double distance) {
  Pose pose = random_pose(rng, {-1, -1, -1}, {1, 1, 1});
  const double len =
      std::sqrt(pose.t[0] * pose.t[0] + pose.t[1] * pose.t[1] + pose.t[2] * pose.t[2]);
  if (len == 0) pose.t = {1, 0, 0};
  for (double& v : pose.t) v *= distance / (len == 0 ? 1 : len);
  return pose;
}

class FclPeerPerBv : public ::testing::TestWithParam<FclBv> {};

// Environment: unit sphere (inscribed polytope, every point at radius in [0.97, 1]). Object:
// sphere of radius 0.6 (points at [0.58, 0.6]) whose center is placed at distance d:
//   d in [0.6, 1.3]: the object has points inside and outside the environment: surfaces cross;
//   d in [0, 0.2]:   nested, the object stays within radius 0.8: no contact;
//   d in [1.8, 3]:   apart by at least 0.2: no contact;
//   d in [4, 6]:     even the root BVs (at most 1.74 and 1.04 across from the centers) are apart.
TEST_P(FclPeerPerBv, BooleanMatchesOracleOnClearPoses) {
  const Mesh env = make_sphere({0, 0, 0}, 1.0, 16, 10);
  const Mesh obj = make_sphere({0, 0, 0}, 0.6, 12, 8);
  FclPeer peer(env, obj, GetParam());
  std::uint64_t rng = 77;
  struct Band {
    double lo, hi;
    bool collides;
  };
  for (const Band band :
       {Band{0.6, 1.3, true}, Band{0, 0.2, false}, Band{1.8, 3, false}, Band{4, 6, false}}) {
    for (int i = 0; i < 25; ++i) {
      const Pose pose = pose_at_distance(rng, band.lo + (band.hi - band.lo) * next_uniform(rng));
      ASSERT_EQ(!brute_force_contacts(env, obj, pose).empty(), band.collides);
      const FclQueryResult first = peer.query(pose, QueryMode::first_contact);
      const FclQueryResult all = peer.query(pose, QueryMode::all_contacts);
      EXPECT_EQ(first.collides, band.collides) << "band " << band.lo << " pose " << i;
      EXPECT_EQ(all.collides, band.collides) << "band " << band.lo << " pose " << i;
      EXPECT_GE(first.bv_tests, 1u);
      if (band.collides) {
        ASSERT_EQ(first.pairs.size(), 1u);
        EXPECT_TRUE(std::binary_search(all.pairs.begin(), all.pairs.end(), first.pairs[0]));
        EXPECT_GT(all.bv_tests, 1u);
        EXPECT_GE(all.leaf_tests, all.pairs.size());
        EXPECT_LE(first.leaf_tests, all.leaf_tests);
        EXPECT_LE(first.bv_tests, all.bv_tests);
      } else {
        EXPECT_TRUE(first.pairs.empty());
        EXPECT_TRUE(all.pairs.empty());
      }
      if (band.lo >= 4) {
        EXPECT_EQ(all.bv_tests, 1u);  // the root pair only
        EXPECT_EQ(all.leaf_tests, 0u);
      }
    }
  }
}

// The exact oracle for the pair (env_triangle, object_triangle) with the object at `pose`.
bool exact_pair(const Mesh& env, const Mesh& obj, const Pose& pose, ContactPair p) {
  auto env_at = [&](std::uint32_t v) { return Vec3{env.x[v], env.y[v], env.z[v]}; };
  auto obj_at = [&](std::uint32_t v) {
    return apply_pose(pose, Vec3{obj.x[v], obj.y[v], obj.z[v]});
  };
  const std::uint32_t e = p.env_triangle, o = p.object_triangle;
  return triangles_intersect({env_at(env.a[e]), env_at(env.b[e]), env_at(env.c[e])},
                             {obj_at(obj.a[o]), obj_at(obj.b[o]), obj_at(obj.c[o])});
}

// True if the exact answer for the pair changes when the object moves by 1e-9 along an axis.
bool is_marginal(const Mesh& env, const Mesh& obj, const Pose& pose, ContactPair p) {
  constexpr double kShift = 1e-9;
  const bool at_pose = exact_pair(env, obj, pose, p);
  for (std::size_t axis = 0; axis < 3; ++axis) {
    for (double s : {-kShift, kShift}) {
      Pose shifted = pose;
      shifted.t[axis] += s;
      if (exact_pair(env, obj, shifted, p) != at_pose) return true;
    }
  }
  return false;
}

// True if the object triangle's corners all lie in the environment triangle's plane (exactly).
bool is_coplanar(const Mesh& env, const Mesh& obj, const Pose& pose, ContactPair p) {
  auto env_at = [&](std::uint32_t v) { return Vec3{env.x[v], env.y[v], env.z[v]}; };
  const std::uint32_t e = p.env_triangle, o = p.object_triangle;
  const Vec3 a = env_at(env.a[e]), b = env_at(env.b[e]), c = env_at(env.c[e]);
  for (std::uint32_t v : {obj.a[o], obj.b[o], obj.c[o]}) {
    if (orient3d(a, b, c, apply_pose(pose, Vec3{obj.x[v], obj.y[v], obj.z[v]})) != 0) return false;
  }
  return true;
}

// A scene with the oracle's answers computed once for all BV types.
struct OracleScene {
  Mesh env, obj;
  std::vector<Pose> poses;
  std::vector<std::vector<ContactPair>> oracle;

  OracleScene(Mesh e, Mesh o, std::vector<Pose> p)
      : env(std::move(e)), obj(std::move(o)), poses(std::move(p)) {
    for (const Pose& pose : poses) oracle.push_back(brute_force_contacts(env, obj, pose));
  }
};

// FCL's pairs against the oracle's, disagreements sorted by kind.
struct Disagreements {
  std::size_t colliding = 0, oracle_pairs = 0, fcl_pairs = 0;
  std::size_t missed_marginal = 0, extra_marginal = 0;  // the answer flips under a 1e-9 shift
  std::size_t missed_coplanar = 0, extra_coplanar = 0;  // exactly coplanar, not marginal
  std::size_t missed_clear = 0, extra_clear = 0;        // neither: FCL is plainly wrong
  std::size_t boolean = 0;                              // first_contact's answer differs
};

Disagreements compare_with_oracle(const OracleScene& s, FclBv bv) {
  FclPeer peer(s.env, s.obj, bv);
  Disagreements d;
  for (std::size_t i = 0; i < s.poses.size(); ++i) {
    const Pose& pose = s.poses[i];
    const std::vector<ContactPair>& exact = s.oracle[i];
    const FclQueryResult all = peer.query(pose, QueryMode::all_contacts);
    const FclQueryResult first = peer.query(pose, QueryMode::first_contact);
    const FclQueryResult counted = peer.query(pose, QueryMode::count_contacts);
    EXPECT_TRUE(std::is_sorted(all.pairs.begin(), all.pairs.end()));
    EXPECT_EQ(all.contacts, all.pairs.size()) << "pose " << i;
    EXPECT_EQ(counted.contacts, all.contacts) << "pose " << i;
    EXPECT_TRUE(counted.pairs.empty());
    EXPECT_EQ(counted.bv_tests, all.bv_tests) << "pose " << i;
    EXPECT_EQ(first.contacts, first.pairs.size()) << "pose " << i;
    EXPECT_EQ(first.collides, all.collides) << "pose " << i;
    EXPECT_EQ(all.collides, !all.pairs.empty()) << "pose " << i;
    d.colliding += !exact.empty();
    d.oracle_pairs += exact.size();
    d.fcl_pairs += all.pairs.size();
    d.boolean += first.collides != !exact.empty();

    std::vector<ContactPair> missed, extra;
    std::set_difference(exact.begin(), exact.end(), all.pairs.begin(), all.pairs.end(),
                        std::back_inserter(missed));
    std::set_difference(all.pairs.begin(), all.pairs.end(), exact.begin(), exact.end(),
                        std::back_inserter(extra));
    const auto classify = [&](ContactPair p, std::size_t& marginal, std::size_t& coplanar,
                              std::size_t& clear) {
      if (is_marginal(s.env, s.obj, pose, p)) {
        ++marginal;
      } else if (is_coplanar(s.env, s.obj, pose, p)) {
        ++coplanar;
      } else {
        ++clear;
        ADD_FAILURE() << to_string(bv) << " disagrees on the clear pair (" << p.env_triangle << ", "
                      << p.object_triangle << ") at pose " << i;
      }
    };
    for (ContactPair p : missed) classify(p, d.missed_marginal, d.missed_coplanar, d.missed_clear);
    for (ContactPair p : extra) classify(p, d.extra_marginal, d.extra_coplanar, d.extra_clear);
  }
  // Informational: the measured counts.
  std::printf(
      "[ %-10s ] %zu poses, %zu colliding; pairs: oracle %zu, fcl %zu; FCL missed / extra: "
      "marginal %zu / %zu, coplanar %zu / %zu, clear %zu / %zu; boolean disagreements %zu\n",
      to_string(bv), s.poses.size(), d.colliding, d.oracle_pairs, d.fcl_pairs, d.missed_marginal,
      d.extra_marginal, d.missed_coplanar, d.extra_coplanar, d.missed_clear, d.extra_clear,
      d.boolean);
  return d;
}

// The query oracle test's sphere / deformed torus scene under 200 generic random poses: exact
// touching has probability zero, so FCL should agree everywhere.
const OracleScene& generic_scene() {
  static const OracleScene scene = [] {
    std::uint64_t rng = 2024;
    std::vector<Pose> poses;
    for (int i = 0; i < 200; ++i)
      poses.push_back(random_pose(rng, {-1.3, -1.3, -1.3}, {1.3, 1.3, 1.3}));
    return OracleScene(make_sphere({0, 0, 0}, 1.0, 16, 10),
                       make_torus({0, 0, 0}, 0.5, 0.15, 14, 8, 0.1), std::move(poses));
  }();
  return scene;
}

TEST_P(FclPeerPerBv, PairsMatchOracleOnGenericPoses) {
  const Disagreements d = compare_with_oracle(generic_scene(), GetParam());
  EXPECT_GT(d.colliding, 20u);  // the scene does exercise contacts
  EXPECT_EQ(d.missed_coplanar + d.extra_coplanar, 0u);
  EXPECT_EQ(d.boolean, 0u);
}

// Exact touching, where FCL's floating-point test may go either way: a 1 x 2 x 1 box resting on
// a unit-grid plate at z = 0 (turned about z, which keeps every z exact: face-on-face coplanar
// contact), and a tetrahedron standing on one vertex on the plate. Only marginal and coplanar
// disagreements are allowed; their counts are printed.
const OracleScene& touching_scene() {
  static const OracleScene scene = [] {
    Mesh obj = test::make_box(1, 2, 1);
    Mesh tetra = test::make_tetra_on_corner();
    for (double& x : tetra.x) x += 10;  // away from the box: each pose touches with one of them
    append_mesh(obj, tetra);
    std::uint64_t rng = 99;
    std::vector<Pose> poses;
    for (int i = 0; i < 200; ++i) {
      const double angle = 2 * std::numbers::pi * next_uniform(rng);
      const double x = 2 + 2 * next_uniform(rng), y = 2 + 2 * next_uniform(rng);
      if (i % 2 == 0) {
        poses.push_back(
            pose_from_quaternion(x, y, 0, std::cos(angle / 2), 0, 0, std::sin(angle / 2)));
      } else {  // the tetrahedron's corner, moved to (x, y, 0) by a translation alone
        poses.push_back(pose_from_quaternion(x - 10, y, 0, 1, 0, 0, 0));
      }
    }
    return OracleScene(test::make_grid_plate(6, 0.0), std::move(obj), std::move(poses));
  }();
  return scene;
}

TEST_P(FclPeerPerBv, TouchingDisagreementsAreMarginalOrCoplanar) {
  const Disagreements d = compare_with_oracle(touching_scene(), GetParam());
  EXPECT_EQ(d.colliding, 200u);  // every pose touches, by construction
}

TEST_P(FclPeerPerBv, ModelBytesAndBuildTimePlausible) {
  const Mesh env = make_sphere({0, 0, 0}, 1.0, 16, 10);
  const Mesh obj = make_torus({0, 0, 0}, 0.5, 0.15, 14, 8, 0.1);
  const FclPeer peer(env, obj, GetParam());
  const std::size_t vertices = env.vertex_count() + obj.vertex_count();
  const std::size_t triangles = env.triangle_count() + obj.triangle_count();
  EXPECT_GE(peer.model_bytes(), vertices * 24 + triangles * 12);
  // 2 n - 1 nodes per model; no FCL BV here is larger than 1 KiB per node.
  EXPECT_LE(peer.model_bytes(), vertices * 24 + triangles * (24 + 8 + 2 * 1024));
  EXPECT_GE(peer.build_ms(), 0.0);
  EXPECT_EQ(peer.bv(), GetParam());
}

std::string bv_name(const ::testing::TestParamInfo<FclBv>& info) {
  std::string name = to_string(info.param);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllTypes, FclPeerPerBv, ::testing::ValuesIn(kAllFclBvs), bv_name);

}  // namespace
}  // namespace kdop::bench
