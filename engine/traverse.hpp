#pragma once
// The simultaneous descent of two hierarchies, iterative with an explicit stack and generic over
// the bounding-volume type. Which node of an overlapping pair to split comes from
// `descend_env(env_node, fly_node)` (asked only when both are inner nodes):
//   - always true: Algorithm 1 of Klosowski et al. 1998 (section 4.2), the environment down to
//     a leaf first, then the flying hierarchy;
//   - the larger node: the rule of OBBTrees (Gottschalk et al. 1996, section 5), which splits
//     big volumes before small ones and finds contacts in close proximity sooner.
// Triangle pairs are tested only at leaf-leaf pairs.
//
// `overlap(env_node, fly_node)` tests the two BVs (and may re-align the flying one lazily);
// `leaf_pairs(env_leaf, fly_leaf)` tests their triangles and returns true to stop early;
// `settled(env_node, rejected)` hears of every environment node paired with the flying root that
// the traversal does not split further: rejected, an environment leaf, or the pair where the
// root itself is split. Those nodes form a cut of the environment hierarchy, which the next pose of
// a path may start from ("hot start", Klosowski et al. section 6).
#include <cstdint>

#include "builders/tree_topology.hpp"

namespace kdop {

struct NodePair {
  std::uint32_t env;
  std::uint32_t fly;
};

// Stack entries a traversal from one pair can need: each step pops one pair and pushes at most
// two, one level deeper in one hierarchy.
inline std::uint32_t traversal_stack_size(const TreeTopology& env, const TreeTopology& fly) {
  return env.depth + fly.depth + 2;
}

enum class TraversalEnd {
  finished,  // the stack is empty
  stopped,   // leaf_pairs asked to stop
  paused,    // n_v reached the budget; the stack holds the rest, in order
};

// Runs from stack[0, size) (top last) and leaves `size` at what remains. The caller's stack has
// room for size + traversal_stack_size entries. Counts BV tests into n_v.
template <class Overlap, class LeafPairs, class DescendEnv, class Settled>
TraversalEnd traverse_trees(const TreeTopology& env, const TreeTopology& fly, NodePair* stack,
                            std::uint32_t& size, Overlap&& overlap, LeafPairs&& leaf_pairs,
                            DescendEnv&& descend_env, Settled&& settled, std::uint64_t& n_v,
                            std::uint64_t budget) {
  // Locals, written back on return: through the references, the counters would round-trip
  // through memory around every call the callbacks make.
  std::uint32_t top = size;
  std::uint64_t visited = n_v;
  const auto end = [&](TraversalEnd how) {
    size = top;
    n_v = visited;
    return how;
  };
  while (top > 0) {
    if (visited >= budget) return end(TraversalEnd::paused);
    const NodePair p = stack[--top];
    ++visited;
    if (!overlap(p.env, p.fly)) {
      if (p.fly == 0) settled(p.env, true);
      continue;
    }
    const bool env_leaf = env.is_leaf(p.env), fly_leaf = fly.is_leaf(p.fly);
    if (env_leaf && fly_leaf) {
      if (p.fly == 0) settled(p.env, false);
      if (leaf_pairs(p.env, p.fly)) return end(TraversalEnd::stopped);
    } else if (!env_leaf && (fly_leaf || descend_env(p.env, p.fly))) {
      // Right pushed first so the left child is visited first, as in the recursion.
      stack[top++] = {env.right(p.env), p.fly};
      stack[top++] = {env.left(p.env), p.fly};
    } else {
      if (p.fly == 0) settled(p.env, false);
      stack[top++] = {p.env, fly.right(p.fly)};
      stack[top++] = {p.env, fly.left(p.fly)};
    }
  }
  return end(TraversalEnd::finished);
}

}  // namespace kdop
