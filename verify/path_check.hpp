#pragma once
// Checking motions (kdop path): every object of a scene (io/scene_file.hpp) moves along its
// waypoints (io/trajectory_file.hpp, verify/motion.hpp) and is checked against the environment
// meshes and the other objects, except the pairs the scene allows.
//
// A pair "collides" when its triangles come closer than its clearance: the --clearance plus both
// items' padding (touching, exactly, when that is 0). Distances come from the distance query
// (engine/proximity_query.hpp) in the frame of the item checked against (rigid poses keep
// distances).
//
// - Discrete: each waypoint, and every `step` in time after a segment's start, is one sample:
//   its least distance to everything checked, and whether something collides. A segment collides
//   in discrete mode when one of its samples (both ends included) does.
// - Continuous, pure translations (the object and the item it is checked against each keep one
//   rotation over a piece of the segment): exact sweeps (engine/proximity_query.hpp): the least
//   distance over the piece at once, and if something touches, bisection with sweeps over
//   [lo, mid] to the first contact, so [t0, lo) is proved free and [lo, hi] holds a contact,
//   hi - lo within the time tolerance; t_hit = lo. The bisection runs to the tolerance (or
//   double's resolution) outside max_steps' budget: it halves, so it ends.
// - Continuous, with rotation: conservative advancement (Mirtich's, with the motion bound of
//   verify/motion.hpp). At time s with distance d to an item X and clearance c, nothing can come
//   within c before s + (d - c - e) / (v + v_X), v and v_X the two items' speed bounds and e the
//   distance's rounding bound; the check advances by the least such step over the items, so
//   every instant of the segment is covered by a proof. It stops at the first sample that
//   collides: then t_hit is the first contact time (the time before it is proved free). When a
//   step would be shorter than the time tolerance, one more sample at s + tolerance either
//   collides (then t_hit = s: the first contact lies in (s, s + tolerance], so t_hit is within
//   the tolerance of it and never later). If the distance is then within its rounding bound e
//   (2^-38 of the pair's radii plus their offset, plus what the pair moves in two ulps of the
//   time), advancement cannot step at all: samples at s + 2, 4, 8, ... tolerances follow the
//   items within e at every one of them to the contact (a slow approach), and t_hit = s, never
//   later than the contact, the time between spent within e. A contact with any other item, or a
//   sample farther than e from all the followed ones (a graze), makes the segment "undecided",
//   as does reaching max_steps.
//   A segment is never "free" without a proof.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>

#include "builders/build_config.hpp"
#include "engine/bv_type.hpp"
#include "io/path_report.hpp"
#include "io/scene_file.hpp"
#include "io/trajectory_file.hpp"

namespace kdop {

struct PathCheckOptions {
  BvType bv = BvType::kdop18;  // a k-DOP type
  // Environment leaves of one triangle: the collision queries' default of 3 was measured on
  // collision queries only, not on the distance and sweep queries of a path check.
  BuildConfig environment = BuildConfig{};
  BuildConfig object = BuildConfig::object_defaults();
  bool continuous = false;
  double step = 0;               // discrete samples every `step` in time too (0: waypoints only)
  double clearance = 0;          // >= 0, added to every pair's padding
  double time_tolerance = 1e-9;  // > 0
  std::uint64_t max_steps = 100000;  // per segment (continuous), > 0
  unsigned threads = 0;              // 0: every hardware thread
  // Called now and then from a worker thread with (tasks done, tasks).
  std::function<void(std::uint64_t, std::uint64_t)> progress;
  const std::atomic<bool>* cancel = nullptr;  // set: stop soon, check_path returns nullopt
  BeforeBuild before_build;  // set: asked before each scene mesh's hierarchy is built
};

// Loads the scene's meshes (or hierarchy files), builds their hierarchies and checks the
// trajectory. Every trajectory object must be in the scene and every scene object in the
// trajectory. Throws IoError for unreadable inputs and std::invalid_argument for inconsistent
// ones (naming the object) or bad options. Returns nullopt when cancelled.
std::optional<PathReport> check_path(const Scene& scene, const Trajectory& trajectory,
                                     const PathCheckOptions& options);

}  // namespace kdop
