#pragma once
// One backend (kdop at one K, or one of FCL's BV types) run over one scene's poses: answers,
// counters and timings, single-threaded per pose and as a batch over all threads.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/fcl_peer.hpp"
#include "engine/batch_query.hpp"
#include "io/generated_scene.hpp"

namespace kdop::bench {

struct PoseAnswer {
  bool collides = false;
  std::uint64_t contacts = 0;
  std::vector<ContactPair> pairs;  // all_contacts: sorted; first_contact: the witness, if any
};

struct RunTiming {
  double mean_us = 0, median_us = 0, max_us = 0;  // per pose, one thread
  double poses_per_s = 0;                         // wall clock over the poses
};

struct RunCounters {
  double n_v = 0, n_p = 0, n_u = 0;  // means per pose (FCL: BV tests, leaf tests, -)
};

// A backend built once for a scene, then run as often as asked.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual double build_ms() const = 0;
  virtual std::size_t model_bytes() const = 0;
  // Runs `count` poses (the first ones) in `mode` on `threads` threads (1: per-pose timing);
  // fills answers (if not null) and counters.
  virtual RunTiming run(const GeneratedScene& scene, std::size_t count, QueryMode mode,
                        unsigned threads, std::vector<PoseAnswer>* answers,
                        RunCounters* counters) = 0;
};

// `suffix` is appended to the backend's name (kdop-bench's "kdop26@exact" entries).
std::unique_ptr<Backend> make_kdop_backend(const GeneratedScene& scene, BvType bv,
                                           const BatchConfig& base, unsigned max_threads,
                                           std::string suffix = "");
std::unique_ptr<Backend> make_fcl_backend(const GeneratedScene& scene, FclBv bv,
                                          unsigned max_threads);

}  // namespace kdop::bench
