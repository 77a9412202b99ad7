#pragma once
// Cross-checking backends' answers pose by pose. Where two answers differ, the exact test on the
// triangle pairs in question (the brute-force oracle's predicate, on the input meshes and
// apply_pose, independent of either engine) decides who is wrong.
#include <cstdint>
#include <string>
#include <vector>

#include "bench/backend_run.hpp"

namespace kdop::bench {

struct CheckTally {
  std::uint64_t poses = 0;
  std::uint64_t disagreeing_poses = 0;
  std::uint64_t false_positives = 0;  // pairs (or poses) reported that do not intersect
  std::uint64_t false_negatives = 0;  // intersecting pairs (or colliding poses) missed
};

// Checks `answers` against the exact oracle wherever they differ from `reference` (kdop's).
// Returns the tally of `answers`' errors and adds the reference's own errors (which must stay
// zero for kdop) to `reference_errors`.
CheckTally check_answers(const GeneratedScene& scene, QueryMode mode,
                         const std::vector<PoseAnswer>& reference,
                         const std::vector<PoseAnswer>& answers, std::uint64_t& reference_errors,
                         std::vector<std::string>& reports);

}  // namespace kdop::bench
