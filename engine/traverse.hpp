#pragma once
// Algorithm 1 of Klosowski et al. 1998 (section 4.2), iterative with an explicit stack and
// generic over the bounding-volume type: descend the environment hierarchy to a leaf first,
// then the flying one; test triangle pairs only at leaf-leaf pairs.
//
// `overlap(env_node, fly_node)` tests the two BVs (and may re-align the flying one lazily);
// `leaf_pairs(env_leaf, fly_leaf)` tests their triangles and returns true to stop early.
#include <cstdint>
#include <vector>

#include "builders/tree_topology.hpp"

namespace kdop {

struct NodePair {
  std::uint32_t env;
  std::uint32_t fly;
};

// Returns true if leaf_pairs asked to stop. Counts BV tests into n_v.
template <class Overlap, class LeafPairs>
bool traverse_trees(const TreeTopology& env, const TreeTopology& fly, std::vector<NodePair>& stack,
                    Overlap&& overlap, LeafPairs&& leaf_pairs, std::uint64_t& n_v) {
  stack.clear();
  stack.push_back({0, 0});
  while (!stack.empty()) {
    const NodePair p = stack.back();
    stack.pop_back();
    ++n_v;
    if (!overlap(p.env, p.fly)) continue;
    if (env.is_leaf(p.env)) {
      if (fly.is_leaf(p.fly)) {
        if (leaf_pairs(p.env, p.fly)) return true;
      } else {
        // Right pushed first so the left child is visited first, as in the recursion.
        stack.push_back({p.env, fly.right(p.fly)});
        stack.push_back({p.env, fly.left(p.fly)});
      }
    } else {
      stack.push_back({env.right(p.env), p.fly});
      stack.push_back({env.left(p.env), p.fly});
    }
  }
  return false;
}

}  // namespace kdop
