// The batch engine: the same answers as single queries and the brute-force oracle, identical
// results for any thread count, no allocation after warm-up in first and count modes, and
// cancellation and progress.
#include "engine/batch_query.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "engine/brute_force.hpp"
#include "engine/collision_pair.hpp"
#include "tests/support/allocation_probe.hpp"
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
  for (QueryMode mode :
       {QueryMode::first_contact, QueryMode::all_contacts, QueryMode::count_contacts}) {
    BatchConfig config;
    config.mode = mode;
    config.object.leaf_size = 8;
    config.block_size = 16;
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
        pc.object.leaf_size = 8;
        CollisionPair pairs[2] = {CollisionPair(f.env, f.torus, pc),
                                  CollisionPair(f.env, f.tetras, pc)};
        std::size_t colliding = 0;
        for (std::size_t i = 0; i < f.poses.size(); ++i) {
          const PoseTask& t = f.poses[i];
          const QueryResult single = pairs[t.object].query(t.pose, mode);
          const std::vector<ContactPair> oracle =
              brute_force_contacts(f.env, f.object(t.object), t.pose);
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
            ASSERT_EQ(
                std::vector<ContactPair>(first, first + static_cast<std::ptrdiff_t>(r.pairs_count)),
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

TEST(BatchQuery, NoAllocationAfterWarmUp) {
  const Fixture f;
  for (QueryMode mode :
       {QueryMode::first_contact, QueryMode::count_contacts, QueryMode::all_contacts}) {
    BatchConfig config;
    config.mode = mode;
    config.threads = 2;
    BatchQuery batch(f.env, {&f.torus, &f.tetras}, config);
    BatchOutput out;
    ASSERT_TRUE(batch.run(f.poses, out));  // warm-up: every worker sizes its scratch
    ASSERT_TRUE(batch.run(f.poses, out));
    test::reset_allocation_probe();
    ASSERT_TRUE(batch.run(f.poses, out));
    // all_contacts: the buffers already hold this many pairs, so they do not grow either.
    EXPECT_EQ(test::allocation_count(), 0u) << "mode " << static_cast<int>(mode);
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
