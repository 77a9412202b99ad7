#pragma once
// What a collision query asks and answers, for every bounding-volume type.
#include <cstdint>
#include <vector>

namespace kdop {

enum class QueryMode {
  first_contact,   // stop at the first intersecting triangle pair (one witness)
  all_contacts,    // every intersecting triangle pair
  count_contacts,  // every intersecting pair counted, none stored (no allocation)
};

// The cost-model counters of Klosowski et al. 1998, equation 2: T = N_v C_v + N_p C_p + N_u C_u.
struct QueryStats {
  std::uint64_t n_v = 0;      // node pairs whose BVs were tested
  std::uint64_t n_p = 0;      // triangle pairs reaching the leaf test
  std::uint64_t n_u = 0;      // flying nodes re-aligned to the environment (root included)
  std::uint64_t n_exact = 0;  // of those n_p, pairs the float prefilter passed to the exact test
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
  std::uint64_t contacts = 0;  // intersecting pairs found: 0 or 1 in first_contact mode
  // first_contact: the first pair found in traversal order (the witness, see dop_query.hpp);
  // all_contacts: every intersecting pair, sorted; count_contacts: empty.
  std::vector<ContactPair> pairs;
  QueryStats stats;
};

// Appends outside the per-ISA code (engine/isa/), so std::vector's growth path is compiled once,
// for the baseline ISA.
void append_contact(std::vector<ContactPair>& pairs, ContactPair pair);

// Sorts all_contacts results (the traversal finds pairs in tree order).
void sort_contacts(std::vector<ContactPair>& pairs);

}  // namespace kdop
