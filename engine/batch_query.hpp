#pragma once
// Many poses through the engine: an environment hierarchy and one or more flying objects, built
// once, then chunks of poses queried on every core. Each chunk is cut into fixed blocks of at most
// `block_size` poses (engine/batch_query.cpp says how many); a block is one task on oneTBB's
// work-stealing scheduler and runs its poses in order on one thread, as one hot-start chain.
// Blocks never depend on the thread count, so apart from timings the results are identical for
// any number of threads (and the same as single queries, except for the counters and, in
// first_contact mode, which witness is reported: the hot start's).
//
// Per-thread scratch (traversal stack, tumble cache, moved slots, result buffers) is sized on
// first use and reused: after warm-up, first_contact and count_contacts runs allocate nothing;
// all_contacts runs only grow the per-thread pair buffers and the output's pair list.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "builders/build_config.hpp"
#include "engine/bv_type.hpp"
#include "engine/hierarchy.hpp"
#include "engine/query.hpp"
#include "engine/tumble.hpp"
#include "geometry/mesh.hpp"
#include "geometry/pose.hpp"
#include "simd/isa.hpp"

namespace kdop {

struct BatchConfig {
  BvType bv = BvType::kdop18;
  // The k-DOP types' leaf sizes (environment 3, object 40). For obb and rss set
  // default_env_leaf(bv) and default_object_leaf(bv) (engine/bv_type.hpp: 1 and 8), as the CLI
  // does.
  BuildConfig environment = BuildConfig::environment_defaults();
  BuildConfig object = BuildConfig::object_defaults();
  QueryMode mode = QueryMode::first_contact;
  TumbleMethod tumble = TumbleMethod::automatic;
  DescentRule descent = DescentRule::larger_first;  // measured: docs/design-notes.md
  RootMethod root = RootMethod::automatic;          // k-DOP objects (engine/query.hpp)
  bool hot_start = true;  // within a block: the previous pose's cut and witness first
  std::uint64_t split_threshold = 5000;  // node pairs before a query splits into tasks
  bool plates = true;             // k-DOP objects: the node plate tests (QueryOptions::plates)
  bool boxes = true;              // k-DOP objects: the box tests (QueryOptions::boxes)
  std::optional<simd::Isa> isa;   // default: simd::select_isa() (the best, or KDOP_ISA)
  unsigned threads = 0;           // 0: every hardware thread
  std::uint32_t block_size = 64;  // most poses per task (fewer for >= 32 tasks, but not under 8)
  // Clearance queries instead of collision queries (k-DOP types only): a pose "collides" when a
  // triangle pair is at most this far apart (touching, exactly, at 0); the pairs are those pairs,
  // first_contact's witness the nearest pair, and every pose gets its least distance
  // (engine/proximity_query.hpp). Applied at query time: the hierarchies are the same.
  std::optional<double> clearance;
};

struct PoseTask {
  std::uint32_t object = 0;  // index into the batch's objects
  Pose pose;
};

struct PoseResult {
  bool collides = false;
  std::uint64_t contacts = 0;  // first_contact: 0 or 1
  QueryStats stats;
  double time_us = 0;        // from the previous pose's end in its block (or the block's
                             // start) to this pose's result written (engine/pose_clock.hpp)
  bool has_witness = false;  // first_contact: the pair reported (engine/dop_query.hpp)
  ContactPair witness{};
  std::uint64_t pairs_begin = 0;  // all_contacts: this pose's sorted pairs are
  std::uint64_t pairs_count = 0;  // BatchOutput::pairs[pairs_begin, pairs_begin + pairs_count)
  double min_distance = 0;        // with a clearance: the least triangle-pair distance (else NaN)
};

struct BatchOutput {
  std::vector<PoseResult> results;  // one per pose, in pose order
  std::vector<ContactPair> pairs;   // all_contacts only
};

struct RunControl {
  const std::atomic<bool>* cancel = nullptr;  // when set, remaining blocks are skipped
  // Called after each block with the number of poses done so far in this run; one call at a
  // time, from whichever worker finished the block.
  std::function<void(std::uint64_t)> progress;
};

class BatchQuery {
 public:
  // Builds every hierarchy. Throws std::invalid_argument for an empty or invalid mesh, no
  // objects, a zero block size, an ISA this CPU cannot run, or a clearance on OBB or RSS trees.
  BatchQuery(const Mesh& environment, const std::vector<const Mesh*>& objects,
             const BatchConfig& config);
  // Takes prebuilt hierarchies (e.g. loaded from hierarchy files): the BV type is theirs (config()
  // reports it), and config's bv and build configs are not used. Throws std::invalid_argument if
  // an object's BV type differs from the environment's, and as above.
  BatchQuery(EnvironmentHierarchy environment, std::vector<ObjectHierarchy> objects,
             const BatchConfig& config);
  ~BatchQuery();
  BatchQuery(BatchQuery&&) noexcept;
  BatchQuery& operator=(BatchQuery&&) noexcept;

  // Queries every pose; returns false (with `out` incomplete) if cancelled. Throws
  // std::out_of_range for a pose whose object index is not an object of this batch.
  bool run(std::span<const PoseTask> poses, BatchOutput& out, const RunControl& control = {});

  simd::Isa isa() const;
  unsigned threads() const;
  std::size_t object_count() const;
  const BatchConfig& config() const;
  // Bytes of the environment's and the objects' hierarchies (builders/dop_tree.hpp).
  std::size_t environment_bytes() const;
  std::size_t object_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kdop
