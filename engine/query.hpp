#pragma once
// What a collision query asks and answers, for every bounding-volume type.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace kdop {

enum class QueryMode {
  first_contact,   // stop at the first intersecting triangle pair (one witness)
  all_contacts,    // every intersecting triangle pair
  count_contacts,  // every intersecting pair counted, none stored (no allocation)
};

// How flying nodes other than the root are re-aligned to the environment's directions.
enum class TumbleMethod {
  vertices,   // Klosowski et al. 1998, section 4.1, method II: transform the stored DOP vertices
  affine,     // Zachmann 1998, section 4.1: each offset from 3 stored offsets (normal fan cones)
  automatic,  // inner nodes by the affine method, leaves by their vertices (measured:
              // docs/design-notes.md, "The affine tumble for inner nodes")
};

// How the flying root's DOP is found at each pose (engine/tumble.hpp).
enum class RootMethod {
  exact,      // method I: hill-climbing over the object's hull, the tightest DOP
  vertices,   // method II, as for every other node: the root's stored DOP vertices
  automatic,  // vertices, exact where that can pay (root_needs_exact, root_pokes_out and
              // exact_root_may_separate in engine/dop_query.hpp)
};

// Which node of an overlapping pair of inner nodes the traversal splits (engine/traverse.hpp).
enum class DescentRule {
  environment_first,  // Algorithm 1 of Klosowski et al. 1998
  larger_first,       // the larger node, as OBBTrees do
};

struct QueryOptions {
  QueryMode mode = QueryMode::first_contact;
  TumbleMethod tumble = TumbleMethod::automatic;
  DescentRule descent = DescentRule::larger_first;
  // Start from the previous pose's cut of the environment hierarchy (same scratch, consecutive
  // poses of a path), and in first_contact mode test the previous pose's witness first; exact
  // whatever the poses, cheaper when they are close.
  bool hot_start = false;
  // A query that has tested this many node pairs splits its remaining stack into tasks (0:
  // never). The split depends only on the query, so results do not depend on the threads.
  std::uint64_t split_threshold = 0;
  bool parallel_tasks = true;  // run split tasks on oneTBB (false: one after the other)
  // k-DOP objects: test environment leaves against flying nodes' plates too
  // (builders/node_plate.hpp).
  bool plates = true;
  // k-DOP objects: test environment nodes' boxes against flying nodes' own DOPs in the object's
  // frame where either is a leaf (simd/box_against_dop.hpp).
  bool boxes = true;
  RootMethod root = RootMethod::automatic;  // measured: docs/design-notes.md
};

const char* to_string(TumbleMethod method);
const char* to_string(DescentRule rule);
const char* to_string(RootMethod method);
// "exact", "vertices" or "auto"; nullopt for anything else.
std::optional<RootMethod> parse_root_method(std::string_view name);

// The cost-model counters of Klosowski et al. 1998, equation 2: T = N_v C_v + N_p C_p + N_u C_u.
struct QueryStats {
  std::uint64_t n_v = 0;      // node pairs whose BVs were tested
  std::uint64_t n_p = 0;      // triangle pairs reaching the leaf test
  std::uint64_t n_u = 0;      // flying nodes re-aligned to the environment (root included)
  std::uint64_t n_exact = 0;  // of those n_p, pairs the float filters passed to the exact test
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
  // first_contact: the first pair found in traversal order (the witness, see dop_query.hpp), or
  // with the hot start the witness of the scratch's previous pose (the same object's) where it
  // still intersects;
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
