#pragma once
// What a collision query asks and answers, for every bounding-volume type.
#include <cstdint>
#include <vector>

namespace kdop {

enum class QueryMode {
  first_contact,  // stop at the first intersecting triangle pair
  all_contacts,   // every intersecting triangle pair
};

// The cost-model counters of Klosowski et al. 1998, equation 2: T = N_v C_v + N_p C_p + N_u C_u.
struct QueryStats {
  std::uint64_t n_v = 0;  // node pairs whose BVs were tested
  std::uint64_t n_p = 0;  // triangle pairs reaching the leaf test
  std::uint64_t n_u = 0;  // flying nodes re-aligned to the environment (root included)
};

// Triangle indices of the input meshes (0-based, file order).
struct ContactPair {
  std::uint32_t env_triangle;
  std::uint32_t object_triangle;
  friend bool operator==(const ContactPair&, const ContactPair&) = default;
  friend auto operator<=>(const ContactPair&, const ContactPair&) = default;
};

struct QueryResult {
  bool collides = false;
  // first_contact: the first pair found in traversal order (one witness); all_contacts: every
  // intersecting pair, sorted and unique.
  std::vector<ContactPair> pairs;
  QueryStats stats;
};

}  // namespace kdop
