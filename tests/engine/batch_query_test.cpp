// The batch engine: the same answers as single queries and the brute-force oracle, identical
// results for any thread count, no allocation after warm-up in first and count modes, and
// cancellation and progress.
#include "engine/batch_query.hpp"
#include "engine/parallel.hpp"

#include <gtest/gtest.h>

#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "engine/brute_force.hpp"
#include "engine/collision_pair.hpp"
#include "engine/dop_dispatch.hpp"
#include "geometry/triangle_distance.hpp"
#include "tests/support/allocation_probe.hpp"
#include "tests/support/clearance_cases.hpp"
#include "tests/support/scenes.hpp"

namespace kdop {
namespace {

struct Fixture {
  Mesh env = make_sphere({0, 0, 0}, 1.0, 20, 12);
  Mesh torus = make_torus({0, 0, 0}, 0.5, 0.15, 16, 8, 0.1);
  Mesh tetras = make_tetrahedra({-0.4, -0.4, -0.4}, {0.4, 0.4, 0.4}, 20, 0.3, 5);
  std::vector<PoseTask> poses;

  Fixture() {
    std::uint64_t rng = 77;
    for (int i = 0; i < 700; ++i) {
      poses.push_back({static_cast<std::uint32_t>(i % 2),
                       test::random_pose(rng, {-1.2, -1.2, -1.2}, {1.2, 1.2, 1.2})});
    }
  }
  const Mesh& object(std::uint32_t i) const { return i == 0 ? torus : tetras; }
};

// Everything but the timing.
void expect_same(const BatchOutput& a, const BatchOutput& b) {
  ASSERT_EQ(a.results.size(), b.results.size());
  for (std::size_t i = 0; i < a.results.size(); ++i) {
    const PoseResult &x = a.results[i], &y = b.results[i];
    ASSERT_EQ(x.collides, y.collides) << i;
    ASSERT_EQ(x.contacts, y.contacts) << i;
    ASSERT_EQ(x.stats.n_v, y.stats.n_v) << i;
    ASSERT_EQ(x.stats.n_p, y.stats.n_p) << i;
    ASSERT_EQ(x.stats.n_u, y.stats.n_u) << i;
    ASSERT_EQ(x.stats.n_exact, y.stats.n_exact) << i;
    ASSERT_EQ(x.has_witness, y.has_witness) << i;
    ASSERT_EQ(x.witness, y.witness) << i;
    ASSERT_EQ(x.pairs_begin, y.pairs_begin) << i;
    ASSERT_EQ(x.pairs_count, y.pairs_count) << i;
  }
  ASSERT_EQ(a.pairs, b.pairs);
}

TEST(BatchQuery, MatchesSingleQueriesAndTheOracleForAnyThreadCount) {
  const Fixture f;
  // The oracle once per pose, not per BV type and mode (most of this test's time under TSan).
  std::vector<std::vector<ContactPair>> oracles;
  for (const PoseTask& t : f.poses)
    oracles.push_back(brute_force_contacts(f.env, f.object(t.object), t.pose));
  for (BvType bv : {BvType::kdop18, BvType::obb, BvType::rss}) {
    for (QueryMode mode :
         {QueryMode::first_contact, QueryMode::all_contacts, QueryMode::count_contacts}) {
      SCOPED_TRACE(to_string(bv));
      BatchConfig config;
      config.bv = bv;
      config.environment.rule = config.object.rule = default_split_rule(bv);
      config.mode = mode;
      config.object.leaf_size = 8;
      config.block_size = 16;
      config.hot_start = false;  // so the counters equal single (cold) queries'; see HotStart
      BatchOutput reference;
      for (unsigned threads : {1u, 2u, 3u, 8u}) {
        config.threads = threads;
        BatchQuery batch(f.env, {&f.torus, &f.tetras}, config);
        ASSERT_EQ(batch.threads(), threads);
        BatchOutput out;
        ASSERT_TRUE(batch.run(f.poses, out));
        if (threads == 1) {
          reference = out;
          // Against single queries and the brute-force oracle.
          PairConfig pc;
          pc.bv = bv;
          pc.environment.rule = pc.object.rule = default_split_rule(bv);
          pc.object.leaf_size = 8;
          CollisionPair pairs[2] = {CollisionPair(f.env, f.torus, pc),
                                    CollisionPair(f.env, f.tetras, pc)};
          std::size_t colliding = 0;
          for (std::size_t i = 0; i < f.poses.size(); ++i) {
            const PoseTask& t = f.poses[i];
            const QueryResult single = pairs[t.object].query(t.pose, mode);
            const std::vector<ContactPair>& oracle = oracles[i];
            const PoseResult& r = out.results[i];
            ASSERT_EQ(r.collides, !oracle.empty()) << i;
            ASSERT_EQ(r.stats.n_v, single.stats.n_v) << i;
            colliding += r.collides;
            if (mode == QueryMode::first_contact) {
              ASSERT_EQ(r.has_witness, r.collides);
              if (r.collides) {
                ASSERT_EQ(r.witness, single.pairs[0]) << i;
                ASSERT_TRUE(std::binary_search(oracle.begin(), oracle.end(), r.witness)) << i;
              }
            } else {
              ASSERT_EQ(r.contacts, oracle.size()) << i;
            }
            if (mode == QueryMode::all_contacts) {
              const auto first = out.pairs.begin() + static_cast<std::ptrdiff_t>(r.pairs_begin);
              ASSERT_EQ(std::vector<ContactPair>(
                            first, first + static_cast<std::ptrdiff_t>(r.pairs_count)),
                        oracle)
                  << i;
            }
          }
          EXPECT_GT(colliding, f.poses.size() / 5);
          EXPECT_LT(colliding, f.poses.size() - f.poses.size() / 10);
        } else {
          expect_same(out, reference);
        }
      }
    }
  }
}

// Clearance queries against brute force over all triangle pairs: the least distance per pose, the
// pairs within the clearance (all mode), the count (count mode) and the nearest pair as witness.
TEST(BatchQuery, ClearanceMatchesBruteForceDistances) {
  Fixture f;
  f.poses.resize(120);
  const double clearance = 0.05;
  BatchConfig config;
  config.bv = BvType::kdop14;
  config.clearance = clearance;
  config.threads = 2;
  BatchOutput all, count, first;
  config.mode = QueryMode::all_contacts;
  BatchQuery(f.env, {&f.torus, &f.tetras}, config).run(f.poses, all);
  config.mode = QueryMode::count_contacts;
  BatchQuery(f.env, {&f.torus, &f.tetras}, config).run(f.poses, count);
  config.mode = QueryMode::first_contact;
  BatchQuery(f.env, {&f.torus, &f.tetras}, config).run(f.poses, first);
  int within = 0;
  for (std::size_t i = 0; i < f.poses.size(); ++i) {
    const Mesh& object = f.object(f.poses[i].object);
    const Pose& pose = f.poses[i].pose;
    double least = INFINITY;
    std::vector<ContactPair> expected;
    std::vector<double> d(f.env.triangle_count() * object.triangle_count());
    for (std::uint32_t e = 0; e < f.env.triangle_count(); ++e) {
      auto env_corner = [&](std::uint32_t v) { return Vec3{f.env.x[v], f.env.y[v], f.env.z[v]}; };
      const Triangle te{env_corner(f.env.a[e]), env_corner(f.env.b[e]), env_corner(f.env.c[e])};
      for (std::uint32_t o = 0; o < object.triangle_count(); ++o) {
        auto corner = [&](std::uint32_t v) {
          return apply_pose(pose, Vec3{object.x[v], object.y[v], object.z[v]});
        };
        const Triangle to{corner(object.a[o]), corner(object.b[o]), corner(object.c[o])};
        const double dist = triangles_intersect(te, to) ? 0.0 : triangle_distance(te, to).distance;
        d[e * object.triangle_count() + o] = dist;
        least = std::min(least, dist);
        if (dist <= clearance) expected.push_back({e, o});
      }
    }
    const PoseResult& a = all.results[i];
    ASSERT_EQ(a.min_distance, least) << i;
    ASSERT_EQ(a.collides, !expected.empty()) << i;
    ASSERT_EQ(a.contacts, expected.size()) << i;
    const std::vector<ContactPair> got(all.pairs.begin() + a.pairs_begin,
                                       all.pairs.begin() + a.pairs_begin + a.pairs_count);
    ASSERT_EQ(got, expected) << i;
    ASSERT_EQ(count.results[i].contacts, expected.size()) << i;
    ASSERT_EQ(count.results[i].min_distance, least) << i;
    ASSERT_EQ(first.results[i].has_witness, !expected.empty()) << i;
    if (first.results[i].has_witness) {
      const ContactPair w = first.results[i].witness;
      EXPECT_EQ(d[w.env_triangle * object.triangle_count() + w.object_triangle], least) << i;
    }
    within += !expected.empty();
  }
  EXPECT_GT(within, 10);
  EXPECT_LT(within, 110);
  // Not for OBB and RSS trees.
  config.bv = BvType::obb;
  EXPECT_THROW(BatchQuery(f.env, {&f.torus}, config), std::invalid_argument);
}

// A clearance within rounding of a pair's distance is decided by the exact distance in every
// mode (what kdop check and batch --clearance run), on pairs the double distance alone puts on
// the wrong side (tests/support/clearance_cases.hpp). The least distance agrees with the answer.
TEST(BatchQuery, ClearanceIsDecidedExactlyAtItsBoundary) {
  const auto one_triangle = [](const Triangle& t) {
    Mesh m;
    for (const Vec3& p : {t.p0, t.p1, t.p2}) m.add_vertex(p.x, p.y, p.z);
    m.add_triangle(0, 1, 2);
    return m;
  };
  const std::vector<test::ClearanceCase> cases = test::wrong_side_clearances(3, 1000, 5);
  ASSERT_EQ(cases.size(), 6u);
  for (const test::ClearanceCase& c : cases) {
    SCOPED_TRACE("clearance " + std::to_string(c.clearance) + (c.within ? " within" : " beyond"));
    const Mesh env = one_triangle(c.a), object = one_triangle(c.b);
    for (QueryMode mode :
         {QueryMode::first_contact, QueryMode::count_contacts, QueryMode::all_contacts}) {
      BatchConfig config;
      config.bv = BvType::kdop14;
      config.clearance = c.clearance;
      config.mode = mode;
      BatchOutput out;
      const std::vector<PoseTask> pose = {{0, Pose{}}};
      BatchQuery(env, {&object}, config).run(pose, out);
      const PoseResult& r = out.results.at(0);
      EXPECT_EQ(r.collides, c.within);
      EXPECT_EQ(r.contacts, c.within ? 1u : 0u);
      EXPECT_EQ(r.min_distance <= c.clearance, c.within);
      if (mode == QueryMode::first_contact) {
        EXPECT_EQ(r.has_witness, c.within);
      } else if (mode == QueryMode::all_contacts) {
        EXPECT_EQ(r.pairs_count, c.within ? 1u : 0u);
      }
    }
  }
}

TEST(BatchQuery, NoAllocationAfterWarmUp) {
  if (parallel_backend_spawns_threads()) {
    GTEST_SKIP() << "the std::thread backend (ThreadSanitizer builds) creates threads per run";
  }
  const Fixture f;
  for (BvType bv : {BvType::kdop18, BvType::obb}) {
    for (QueryMode mode :
         {QueryMode::first_contact, QueryMode::count_contacts, QueryMode::all_contacts}) {
      BatchConfig config;
      config.bv = bv;
      config.mode = mode;
      config.threads = 2;
      BatchQuery batch(f.env, {&f.torus, &f.tetras}, config);
      BatchOutput out;
      ASSERT_TRUE(batch.run(f.poses, out));  // warm-up: output and pair buffers reach their size
      test::reset_allocation_probe();
      ASSERT_TRUE(batch.run(f.poses, out));
      if (mode == QueryMode::all_contacts) {
        // Only the per-thread pair buffers may grow (which worker gets which blocks varies from
        // run to run): a few doublings at most.
        EXPECT_LE(test::allocation_count(), 16u);
      } else {
        EXPECT_EQ(test::allocation_count(), 0u)
            << to_string(bv) << " mode " << static_cast<int>(mode);
      }
    }
  }
}

TEST(BatchQuery, CancelAndProgress) {
  const Fixture f;
  BatchConfig config;
  config.threads = 2;
  config.block_size = 10;
  BatchQuery batch(f.env, {&f.torus, &f.tetras}, config);
  BatchOutput out;
  std::vector<std::uint64_t> seen;
  RunControl control;
  control.progress = [&](std::uint64_t done) { seen.push_back(done); };
  ASSERT_TRUE(batch.run(f.poses, out, control));
  ASSERT_EQ(seen.size(), (f.poses.size() + 9) / 10);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(seen.back(), f.poses.size());

  std::atomic<bool> cancel{false};
  control.cancel = &cancel;
  std::uint64_t last = 0;
  control.progress = [&](std::uint64_t done) {
    last = done;
    cancel = true;  // stop after the first block
  };
  EXPECT_FALSE(batch.run(f.poses, out, control));
  EXPECT_LT(last, f.poses.size());
}

// A pose's time runs from the previous clock reading of its block to the reading after its
// result: the times are finite, not negative, and add up to no more than the run's wall time
// (poses timed from their block's start instead would add up to many times it).
TEST(BatchQuery, PoseTimesFitInTheRun) {
  const Fixture f;
  for (unsigned threads : {1u, 2u}) {
    BatchConfig config;
    config.threads = threads;
    config.mode = QueryMode::all_contacts;
    BatchQuery batch(f.env, {&f.torus, &f.tetras}, config);
    BatchOutput out;
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(batch.run(f.poses, out));
    const double wall_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    double sum = 0;
    for (const PoseResult& r : out.results) {
      ASSERT_TRUE(std::isfinite(r.time_us));
      ASSERT_GE(r.time_us, 0.0);
      sum += r.time_us;
    }
    EXPECT_GT(sum, 0.0);
    // Two threads may run two blocks at once: their times add up to at most twice the wall.
    // 1% covers the pose clock's rate, measured against the steady_clock timing the wall.
    EXPECT_LE(sum, threads * wall_us * 1.01) << threads << " threads";
  }
}

TEST(BatchQuery, BadObjectIndexIsAnError) {
  const Fixture f;
  BatchQuery batch(f.env, {&f.torus}, BatchConfig{});
  BatchOutput out;
  const std::vector<PoseTask> poses = {{1, Pose{}}};
  EXPECT_THROW(batch.run(poses, out), std::out_of_range);
  EXPECT_THROW(BatchQuery(f.env, {}, BatchConfig{}), std::invalid_argument);
}

}  // namespace
}  // namespace kdop

namespace kdop {
namespace {

// A path: small steps, so consecutive poses are coherent (the case hot start is for).
std::vector<Pose> path_poses(int count, std::uint64_t seed) {
  std::vector<Pose> poses;
  std::uint64_t rng = seed;
  double x = -1.5, y = -0.3, z = 0.1, angle = 0;
  for (int i = 0; i < count; ++i) {
    x += 0.01 + 0.004 * next_uniform(rng);
    y += 0.004 * (next_uniform(rng) - 0.5);
    angle += 0.01;
    poses.push_back(pose_from_quaternion(x, y, z, std::cos(angle / 2), 0.3 * std::sin(angle / 2),
                                         std::sin(angle / 2), 0));
  }
  return poses;
}

TEST(DopQuery, AnEnvironmentWithoutCornerFloatsIsRefused) {
  // A flying tree's DopTree has no corner floats (LeafFloats serve it): as an environment it is
  // refused with a message, never read past its end.
  const Mesh sphere = make_sphere({0, 0, 0}, 1.0, 12, 8);
  const FlyingDopTree<18> fly = build_flying_dop_tree<18>(sphere, BuildConfig::object_defaults());
  DopQueryScratch<18> scratch;
  QueryResult r;
  const QueryOptions options{};
  for (simd::Isa isa : simd::supported_isas()) {
    const DopQueryFn<18> query = dop_query_for<18>(isa);
    EXPECT_THROW(query(fly.tree, fly, Pose{}, options, scratch, r), std::invalid_argument);
    // Built as an environment, the same mesh is queried (the sphere against itself collides).
    const DopTree<18> env = build_dop_tree<18>(sphere, BuildConfig::environment_defaults());
    query(env, fly, Pose{}, options, scratch, r);
    EXPECT_TRUE(r.collides);
  }
}

// Along a path the hot start gives the cold answers: the same pairs in all_contacts mode, with
// fewer node pairs; in first_contact mode the same boolean, and a witness that intersects (the
// previous pose's pair where it still does, answered without a descent: n_v 0).
TEST(HotStart, ExactAlongAPathWithFewerTestsAndThePreviousWitness) {
  const Mesh env = make_sphere({0, 0, 0}, 1.0, 24, 14);
  const Mesh obj = make_torus({0, 0, 0}, 0.5, 0.15, 20, 10, 0.1);
  const std::vector<Pose> poses = path_poses(300, 4);
  for (DescentRule descent : {DescentRule::environment_first, DescentRule::larger_first}) {
    for (QueryMode mode : {QueryMode::first_contact, QueryMode::all_contacts}) {
      PairConfig cold_config;
      cold_config.descent = descent;
      CollisionPair cold(env, obj, cold_config);
      const FlyingDopTree<18> fly = build_flying_dop_tree<18>(obj, BuildConfig::object_defaults());
      const DopTree<18> tree = build_dop_tree<18>(env, BuildConfig::environment_defaults());
      DopQueryScratch<18> scratch;
      const DopQueryFn<18> query = dop_query_for<18>(simd::select_isa());
      QueryOptions hot{mode, TumbleMethod::vertices, descent, true, 0, false};
      std::uint64_t cold_tests = 0, hot_tests = 0, colliding = 0, kept = 0;
      std::vector<ContactPair> previous;
      for (std::size_t i = 0; i < poses.size(); ++i) {
        QueryResult h;
        query(tree, fly, poses[i], hot, scratch, h);
        if (mode == QueryMode::all_contacts) sort_contacts(h.pairs);
        const QueryResult c = cold.query(poses[i], mode);
        ASSERT_EQ(h.collides, c.collides) << i;
        if (mode == QueryMode::all_contacts) {
          ASSERT_EQ(h.pairs, c.pairs)
              << i << " descent " << static_cast<int>(descent) << " cut " << scratch.frontier_size
              << " hot n_v " << h.stats.n_v << " cold n_v " << c.stats.n_v;
          ASSERT_EQ(h.pairs, brute_force_contacts(env, obj, poses[i])) << i;
        } else if (h.collides) {
          ASSERT_EQ(h.pairs.size(), 1u) << i;
          const std::vector<ContactPair> oracle = brute_force_contacts(env, obj, poses[i]);
          ASSERT_TRUE(std::binary_search(oracle.begin(), oracle.end(), h.pairs[0])) << i;
          if (h.stats.n_v == 0) {  // answered by the previous pose's witness
            ASSERT_EQ(h.pairs, previous) << i;
            ++kept;
          } else {
            ASSERT_EQ(h.pairs, c.pairs) << i;  // a descent: the cold query's witness
          }
        } else {
          ASSERT_TRUE(h.pairs.empty()) << i;
        }
        previous = h.pairs;
        cold_tests += c.stats.n_v;
        hot_tests += h.stats.n_v;
        colliding += c.collides;
      }
      EXPECT_GT(colliding, 10u);
      EXPECT_LT(colliding, poses.size() - 10);
      EXPECT_LT(hot_tests, cold_tests);
      // The torus slides along the sphere in steps of about 0.01: most contacts persist.
      if (mode == QueryMode::first_contact) {
        EXPECT_GT(kept, colliding / 2);
      }
    }
  }
}

// A batch along a path, hot start on (the default), first_contact: for every hierarchy type the
// same results for any thread count (blocks of 9 poses here are the chains), the oracle's
// boolean, witnesses that intersect, and poses answered by the previous witness of the same
// object in the block. Two objects alternate (each has its own chain), and a split threshold of
// 16 node pairs makes k-DOP queries split into tasks (which record no witness).
TEST(HotStart, BatchAlongAPathKeepsWitnessesTheSameForAnyThreadCount) {
  const Mesh env = make_sphere({0, 0, 0}, 1.0, 24, 14);
  const Mesh obj = make_torus({0, 0, 0}, 0.5, 0.15, 20, 10, 0.1);
  const Mesh other = make_torus({0, 0, 0}, 0.45, 0.12, 16, 8, 0.2);
  const Mesh* objects[2] = {&obj, &other};
  std::vector<PoseTask> tasks;
  for (const Pose& p : path_poses(150, 9)) {
    tasks.push_back({0, p});
    tasks.push_back({1, p});
  }
  const std::size_t block = std::max<std::size_t>(8, tasks.size() / 32);  // 9 (batch_query.cpp)
  std::vector<std::vector<ContactPair>> oracles;  // once, not per BV type and split
  for (const PoseTask& t : tasks)
    oracles.push_back(brute_force_contacts(env, *objects[t.object], t.pose));
  for (BvType bv : {BvType::kdop18, BvType::obb, BvType::rss}) {
    for (std::uint64_t split : {std::uint64_t{5000}, std::uint64_t{16}}) {
      SCOPED_TRACE(std::string(to_string(bv)) + " split " + std::to_string(split));
      BatchConfig config;
      config.bv = bv;
      config.environment.rule = config.object.rule = default_split_rule(bv);
      config.mode = QueryMode::first_contact;
      config.split_threshold = split;
      BatchOutput reference;
      for (unsigned threads : {1u, 2u, 3u, 8u}) {
        config.threads = threads;
        BatchQuery batch(env, {&obj, &other}, config);
        BatchOutput out;
        ASSERT_TRUE(batch.run(tasks, out));
        if (threads > 1) {
          expect_same(out, reference);
          continue;
        }
        reference = out;
        std::size_t colliding = 0, kept = 0;
        for (std::size_t i = 0; i < tasks.size(); ++i) {
          const PoseResult& r = out.results[i];
          const std::vector<ContactPair>& oracle = oracles[i];
          ASSERT_EQ(r.collides, !oracle.empty()) << i;
          ASSERT_EQ(r.has_witness, r.collides) << i;
          if (!r.collides) continue;
          ++colliding;
          ASSERT_TRUE(std::binary_search(oracle.begin(), oracle.end(), r.witness)) << i;
          if (r.stats.n_v == 0) {  // the same object's previous pose, in the same block
            ASSERT_GE(i % block, 2u) << i;
            const PoseResult& before = out.results[i - 2];
            ASSERT_TRUE(before.has_witness) << i;
            ASSERT_EQ(r.witness, before.witness) << i;
            ++kept;
          }
        }
        EXPECT_GT(colliding, 40u);
        // Without splits, most contacts of the sliding path are kept (3 of 4 poses of a block
        // have a predecessor of their object).
        if (split == 5000) {
          EXPECT_GT(kept, colliding / 3);
        }
      }
    }
  }
}

// One scratch used for other hierarchies: the previous trees' cut and root hints name other
// nodes and hull vertices, so the query must start cold (exact answers, no out-of-range hint).
TEST(HotStart, ScratchReusedForOtherHierarchiesStartsCold) {
  const Mesh sphere = make_sphere({0, 0, 0}, 1.0, 24, 14);
  const Mesh shifted = make_sphere({0.3, 0, 0}, 0.9, 20, 12);  // same kind, other nodes
  const Mesh torus = make_torus({0, 0, 0}, 0.5, 0.15, 20, 10, 0.1);
  const Mesh small = make_sphere({0, 0, 0}, 0.2, 6, 4);  // a root hull of few vertices
  const DopTree<18> env_a = build_dop_tree<18>(sphere, BuildConfig::environment_defaults());
  const DopTree<18> env_b = build_dop_tree<18>(shifted, BuildConfig::environment_defaults());
  const FlyingDopTree<18> fly_torus =
      build_flying_dop_tree<18>(torus, BuildConfig::object_defaults());
  const FlyingDopTree<18> fly_small =
      build_flying_dop_tree<18>(small, BuildConfig::object_defaults());
  const DopQueryFn<18> query = dop_query_for<18>(simd::select_isa());
  const QueryOptions hot{
      QueryMode::all_contacts, TumbleMethod::vertices, DescentRule::larger_first, true, 0, false};
  const std::vector<Pose> poses = path_poses(60, 4);
  struct Case {
    const DopTree<18>* env;
    const Mesh* env_mesh;
    const FlyingDopTree<18>* fly;
    const Mesh* fly_mesh;
  };
  const Case cases[] = {{&env_a, &sphere, &fly_torus, &torus},
                        {&env_b, &shifted, &fly_torus, &torus},
                        {&env_b, &shifted, &fly_small, &small},
                        {&env_a, &sphere, &fly_torus, &torus}};
  DopQueryScratch<18> scratch;
  std::size_t checked_with_contacts = 0;
  for (const Pose& pose : poses) {
    for (const Case& c : cases) {  // every query follows one with other trees
      QueryResult r;
      query(*c.env, *c.fly, pose, hot, scratch, r);
      sort_contacts(r.pairs);
      ASSERT_EQ(r.pairs, brute_force_contacts(*c.env_mesh, *c.fly_mesh, pose));
      checked_with_contacts += !r.pairs.empty();
    }
  }
  EXPECT_GT(checked_with_contacts, 20u);
}

// One environment tree object rebuilt in place from the same mesh (same address, same root DOP)
// every third pose of a chain, by configs a and b in turn: every answer must be the brute-force
// one, so the previous tree's cut must not be used on the other (it names nodes of the old tree:
// reads past the end, or missed pairs). `unhashed`: the trees carry no shape hash, as a topology
// made by hand (not by encode_topology or a file load) has none.
void expect_exact_across_rebuilds(const BuildConfig& a, const BuildConfig& b,
                                  bool unhashed = false) {
  const Mesh sphere = make_sphere({0, 0, 0}, 1.0, 24, 14);
  const Mesh torus = make_torus({0, 0, 0}, 0.5, 0.15, 20, 10, 0.1);
  const FlyingDopTree<18> fly = build_flying_dop_tree<18>(torus, BuildConfig::object_defaults());
  const DopQueryFn<18> query = dop_query_for<18>(simd::select_isa());
  const QueryOptions hot{
      QueryMode::all_contacts, TumbleMethod::vertices, DescentRule::larger_first, true, 0, false};
  DopTree<18> env = build_dop_tree<18>(sphere, a);
  DopQueryScratch<18> scratch;
  std::size_t checked_with_contacts = 0;
  int step = 0;
  for (const Pose& pose : path_poses(60, 4)) {
    if (step++ % 3 == 0) {
      env = build_dop_tree<18>(sphere, step % 2 == 0 ? a : b);
      if (unhashed) env.topology.shape_hash = 0;
    }
    QueryResult r;
    query(env, fly, pose, hot, scratch, r);
    sort_contacts(r.pairs);
    ASSERT_EQ(r.pairs, brute_force_contacts(sphere, torus, pose)) << "step " << step;
    checked_with_contacts += !r.pairs.empty();
  }
  EXPECT_GT(checked_with_contacts, 10u);
}

// Another leaf size: other node counts.
TEST(HotStart, EnvironmentRebuiltInPlaceStartsCold) {
  const Mesh sphere = make_sphere({0, 0, 0}, 1.0, 24, 14);
  BuildConfig fine = BuildConfig::environment_defaults(), coarse = fine;
  fine.leaf_size = 1;
  coarse.leaf_size = 7;
  EXPECT_NE(build_dop_tree<18>(sphere, coarse).topology.node_count(),
            build_dop_tree<18>(sphere, fine).topology.node_count());
  expect_exact_across_rebuilds(fine, coarse);
}

// Leaves of one and two split rules: every rebuild has 2n - 1 nodes, n slots and the mesh's root
// DOP, so only the shape tells the trees apart (TreeTopology::shape_hash); without the shape
// check the old cut misses pairs.
TEST(HotStart, EnvironmentRebuiltInPlaceWithEqualCountsStartsCold) {
  const Mesh sphere = make_sphere({0, 0, 0}, 1.0, 24, 14);
  const BuildConfig by_spread{SplitRule::splatter, SplitPoint::mean, 1};
  const BuildConfig by_median{SplitRule::longest_side, SplitPoint::median, 1};
  const DopTree<18> a = build_dop_tree<18>(sphere, by_spread);
  const DopTree<18> b = build_dop_tree<18>(sphere, by_median);
  EXPECT_EQ(a.topology.node_count(), b.topology.node_count());
  EXPECT_NE(a.topology.shape_hash, b.topology.shape_hash);
  expect_exact_across_rebuilds(by_spread, by_median);
}

// The same rebuilds with no shape hash on either tree (0, a topology made by hand): nothing then
// tells the trees apart, so such a tree must start every pose cold.
TEST(HotStart, EnvironmentWithoutShapeHashStartsCold) {
  const BuildConfig by_spread{SplitRule::splatter, SplitPoint::mean, 1};
  const BuildConfig by_median{SplitRule::longest_side, SplitPoint::median, 1};
  expect_exact_across_rebuilds(by_spread, by_median, true);
}

// The flying side: one flying tree object rebuilt in place from two meshes of one tessellation
// (same node and slot counts) and the same 6-DOP root: a sphere, and the sphere with every other
// vertex pulled in (but the ones on its box), whose root hull has half the vertices. The hot
// start's hill-climbing hints (always used with K = 6) name vertices of the previous root hull,
// past the end of the smaller one's, so the scratch must start cold (without the hull's size in
// the check, the ASan build reports a heap-buffer-overflow in tumble_root here).
TEST(HotStart, FlyingTreeRebuiltInPlaceStartsCold) {
  const Mesh env_mesh = make_torus({0, 0, 0}, 0.6, 0.2, 24, 12, 0.1);
  const Mesh round = make_sphere({0, 0, 0}, 0.3, 24, 14);
  Mesh dented = round;
  for (std::size_t v = 1; v < dented.x.size(); v += 2) {
    const double m =
        std::max({std::fabs(dented.x[v]), std::fabs(dented.y[v]), std::fabs(dented.z[v])});
    if (m >= 0.3 * (1 - 1e-9)) continue;
    dented.x[v] *= 0.9;
    dented.y[v] *= 0.9;
    dented.z[v] *= 0.9;
  }
  const DopTree<6> env = build_dop_tree<6>(env_mesh, BuildConfig::environment_defaults());
  const FlyingDopTree<6> a = build_flying_dop_tree<6>(round, BuildConfig::object_defaults());
  const FlyingDopTree<6> b = build_flying_dop_tree<6>(dented, BuildConfig::object_defaults());
  ASSERT_EQ(a.tree.topology.node_count(), b.tree.topology.node_count());
  ASSERT_EQ(0, std::memcmp(a.tree.node_bounds(0), b.tree.node_bounds(0),
                           DopShape<6>::floats * sizeof(float)));
  ASSERT_GT(a.root_hull.points.size(), b.root_hull.points.size() + 50);
  const DopQueryFn<6> query = dop_query_for<6>(simd::select_isa());
  const QueryOptions hot{
      QueryMode::all_contacts, TumbleMethod::vertices, DescentRule::larger_first, true, 0, false};
  FlyingDopTree<6> fly = a;
  DopQueryScratch<6> scratch;
  std::size_t checked_with_contacts = 0;
  int step = 0;
  for (const Pose& pose : path_poses(60, 4)) {
    const bool use_round = (step++ / 2) % 2 == 0;
    fly = FlyingDopTree<6>(use_round ? a : b);  // moved in: arrays of the new tree's own size
    QueryResult r;
    query(env, fly, pose, hot, scratch, r);
    sort_contacts(r.pairs);
    ASSERT_EQ(r.pairs, brute_force_contacts(env_mesh, use_round ? round : dented, pose))
        << "step " << step;
    checked_with_contacts += !r.pairs.empty();
  }
  EXPECT_GT(checked_with_contacts, 10u);
}

// Heavy queries split at 300 node pairs; small flying leaves make them heavier.
BatchConfig split_batch_config(QueryMode mode, unsigned threads) {
  BatchConfig c;
  c.mode = mode;
  c.split_threshold = 300;
  c.threads = threads;
  c.object.leaf_size = 4;
  return c;
}

TEST(SplitQuery, SameAnswersWhetherSplitOrNotAndSameCountersOnAnyThreads) {
  // Nested spheres in close proximity: thousands of node pairs per query.
  const Mesh outer = make_sphere({0, 0, 0}, 1.0, 40, 20);
  Mesh inner = outer;  // a 2% gap: parallel close proximity, thousands of node pairs
  for (std::vector<double>* c : {&inner.x, &inner.y, &inner.z}) {
    for (double& v : *c) v *= 0.98;
  }
  Mesh touching = outer;  // a copy that touches the environment everywhere
  // The inner sphere with a dozen thin spikes through the outer one: in first_contact mode the
  // query splits before its first contact, and several tasks find one.
  Mesh spiked = inner;
  for (int k = 0; k < 12; ++k) {
    const double a = 0.5 * k, b = 0.7 * (k % 3 - 1);
    const Vec3 d{std::cos(a) * std::cos(b), std::sin(a) * std::cos(b), std::sin(b)};
    const std::uint32_t p = spiked.add_vertex(0.9 * d.x, 0.9 * d.y, 0.9 * d.z);
    const std::uint32_t q = spiked.add_vertex(1.1 * d.x + 0.01, 1.1 * d.y, 1.1 * d.z);
    const std::uint32_t r = spiked.add_vertex(1.1 * d.x, 1.1 * d.y + 0.01, 1.1 * d.z + 0.01);
    spiked.add_triangle(p, q, r);
  }
  std::uint64_t rng = 8;
  std::vector<Pose> poses;
  for (int i = 0; i < 12; ++i) poses.push_back(test::random_pose(rng, {0, 0, 0}, {0, 0, 0}));
  const FlyingDopTree<18> fly_inner =
      build_flying_dop_tree<18>(inner, BuildConfig{SplitRule::splatter, SplitPoint::mean, 4});
  const FlyingDopTree<18> fly_touch =
      build_flying_dop_tree<18>(touching, BuildConfig{SplitRule::splatter, SplitPoint::mean, 4});
  const FlyingDopTree<18> fly_spiked =
      build_flying_dop_tree<18>(spiked, BuildConfig{SplitRule::splatter, SplitPoint::mean, 4});
  const DopTree<18> tree = build_dop_tree<18>(outer, BuildConfig::environment_defaults());
  const DopQueryFn<18> query = dop_query_for<18>(simd::select_isa());
  std::size_t heavy = 0;
  // One scratch through every pose, mode and object, its epochs wrapping early on: its caches
  // (tumbled nodes, the tasks' key caches) must never answer for another pose. Each object
  // takes the poses in another order, so no epoch meets the same pose twice.
  DopQueryScratch<18> reused;
  reused.prepare(tree, fly_inner);  // sized (which starts the epochs at 0), then moved near the end
  reused.epoch = DopQueryScratch<18>::busy - 5;
  for (const FlyingDopTree<18>* fly : {&fly_inner, &fly_touch, &fly_spiked}) {
    std::rotate(poses.begin(), poses.begin() + 5, poses.end());
    for (QueryMode mode :
         {QueryMode::first_contact, QueryMode::all_contacts, QueryMode::count_contacts}) {
      for (const Pose& pose : poses) {
        DopQueryScratch<18> s1, s2, s3;
        QueryResult whole, split, split_parallel, split_reused;
        query(
            tree, *fly, pose,
            QueryOptions{mode, TumbleMethod::vertices, DescentRule::larger_first, false, 0, false},
            s1, whole);
        query(tree, *fly, pose,
              QueryOptions{mode, TumbleMethod::vertices, DescentRule::larger_first, false, 300,
                           false},
              s2, split);
        query(
            tree, *fly, pose,
            QueryOptions{mode, TumbleMethod::vertices, DescentRule::larger_first, false, 300, true},
            s3, split_parallel);
        query(
            tree, *fly, pose,
            QueryOptions{mode, TumbleMethod::vertices, DescentRule::larger_first, false, 300, true},
            reused, split_reused);
        for (QueryResult* r : {&whole, &split, &split_parallel, &split_reused}) {
          if (mode == QueryMode::all_contacts) sort_contacts(r->pairs);
        }
        heavy += whole.stats.n_v > 300;  // it did split
        ASSERT_EQ(split.collides, whole.collides);
        ASSERT_EQ(split.pairs, whole.pairs);  // the first_contact witness too
        ASSERT_EQ(split_parallel.pairs, split.pairs);
        ASSERT_EQ(split_reused.pairs, split.pairs);
        ASSERT_EQ(split_reused.stats.n_p, split.stats.n_p);
        ASSERT_EQ(split_parallel.stats.n_v, split.stats.n_v);
        ASSERT_EQ(split_parallel.stats.n_u, split.stats.n_u);
        ASSERT_EQ(split_parallel.stats.n_p, split.stats.n_p);
        ASSERT_EQ(split.contacts, whole.contacts);  // first_contact: 0 or 1
        ASSERT_EQ(split_parallel.contacts, whole.contacts);
        // (The counters of a split query are not those of the query whole: its tasks test an
        // environment leaf's triangles against flying inner nodes tumbled already, which the
        // single traversal leaves to the children. They are the same on any thread count.)
      }
    }
  }
  EXPECT_GT(heavy, 12u);  // the touching copies at least
  // A split query (all contacts) through `scratch`, on the calling thread or inside `runner`,
  // answers as one through a fresh scratch.
  auto expect_as_fresh = [&](const FlyingDopTree<18>& fly, const Pose& pose,
                             DopQueryScratch<18>& scratch, ParallelRunner* runner) {
    auto options = [](bool parallel) {
      return QueryOptions{QueryMode::all_contacts,
                          TumbleMethod::vertices,
                          DescentRule::larger_first,
                          false,
                          300,
                          parallel};
    };
    DopQueryScratch<18> fresh;
    QueryResult expected, actual;
    query(tree, fly, pose, options(false), fresh, expected);
    auto body = [&](std::size_t) {
      query(tree, fly, pose, options(runner != nullptr), scratch, actual);
    };
    if (runner != nullptr) {
      runner->for_each_index(1, body);
    } else {
      body(0);
    }
    sort_contacts(expected.pairs);
    sort_contacts(actual.pairs);
    ASSERT_EQ(actual.pairs, expected.pairs);
    ASSERT_EQ(actual.stats.n_p, expected.stats.n_p);
  };
  // On more threads than there are task key caches, tasks that land on the slots past them (if
  // oneTBB puts any there) compute their keys uncached: the same answers. The uncached keys
  // themselves are checked in leaf_key_test.cpp.
  ParallelRunner wide(2 * DopQueryScratch<18>::task_key_caches);
  for (const Pose& pose : poses) {
    DopQueryScratch<18> s_wide;
    expect_as_fresh(fly_touch, pose, s_wide, &wide);
  }
  // Objects of different sizes in turn through one scratch: each switch starts the epochs again,
  // so every query reuses the previous one's epoch, and nothing cached for it may answer.
  DopQueryScratch<18> alternating;
  for (const Pose& pose : poses) {
    for (const FlyingDopTree<18>* fly : {&fly_spiked, &fly_touch}) {
      expect_as_fresh(*fly, pose, alternating, nullptr);
    }
  }
  // And through the batch engine, 1 and 2 threads, identical.
  for (unsigned threads : {1u, 2u}) {
    BatchQuery batch(outer, {&touching}, split_batch_config(QueryMode::all_contacts, threads));
    std::vector<PoseTask> tasks;
    for (const Pose& p : poses) tasks.push_back({0, p});
    BatchOutput out;
    ASSERT_TRUE(batch.run(tasks, out));
    static BatchOutput first_run;
    if (threads == 1) {
      first_run = out;
      for (std::size_t i = 0; i < poses.size(); ++i) {
        ASSERT_EQ(out.results[i].contacts, brute_force_contacts(outer, touching, poses[i]).size());
      }
    } else {
      expect_same(out, first_run);
    }
  }
}

// More workers than blocks can keep busy, and heavy queries that split: a thread waiting for
// its split tasks must not pick up another block, which would reuse its scratch mid-query. The
// worker limit is raised past this machine's cores so the steal can happen.
TEST(SplitQuery, ABlockWaitingForItsTasksRunsNoOtherBlock) {
  tbb::global_control workers(tbb::global_control::max_allowed_parallelism, 8);
  const Mesh outer = make_sphere({0, 0, 0}, 1.0, 40, 20);
  const Mesh touching = outer;
  std::uint64_t rng = 9;
  std::vector<PoseTask> tasks;
  for (int i = 0; i < 1024; ++i) {
    tasks.push_back({0, test::random_pose(rng, {-0.01, -0.01, -0.01}, {0.01, 0.01, 0.01})});
  }
  BatchOutput reference;
  for (unsigned threads : {1u, 8u}) {
    BatchQuery batch(outer, {&touching}, split_batch_config(QueryMode::count_contacts, threads));
    for (int rep = 0; rep < (threads == 1 ? 1 : 2); ++rep) {
      BatchOutput out;
      ASSERT_TRUE(batch.run(tasks, out));
      if (threads == 1) {
        reference = out;
      } else {
        expect_same(out, reference);
      }
    }
  }
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(reference.results[i].contacts,
              brute_force_contacts(outer, touching, tasks[i].pose).size());
  }
}

}  // namespace
}  // namespace kdop
