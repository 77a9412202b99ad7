#pragma once
// Algorithm 1 of Klosowski et al. 1998 (section 4.2), iterative with an explicit stack and
// generic over the bounding-volume type: descend the environment hierarchy to a leaf first,
// then the flying one; test triangle pairs only at leaf-leaf pairs.
//
// `overlap(env_node, fly_node)` tests the two BVs (and may re-align the flying one lazily);
// `leaf_pairs(env_leaf, fly_leaf)` tests their triangles and returns true to stop early.
// The stack is the caller's: at least traversal_stack_size(env, fly) entries, never grown here
// (each step pops one pair and pushes at most two, descending one tree by one level).
#include <cstdint>

#include "builders/tree_topology.hpp"

namespace kdop {

struct NodePair {
  std::uint32_t env;
  std::uint32_t fly;
};

inline std::uint32_t traversal_stack_size(const TreeTopology& env, const TreeTopology& fly) {
  return env.depth + fly.depth + 2;
}

// Returns true if leaf_pairs asked to stop. Counts BV tests into n_v.
template <class Overlap, class LeafPairs>
bool traverse_trees(const TreeTopology& env, const TreeTopology& fly, NodePair* stack,
                    Overlap&& overlap, LeafPairs&& leaf_pairs, std::uint64_t& n_v) {
  std::uint32_t size = 0;
  stack[size++] = {0, 0};
  while (size > 0) {
    const NodePair p = stack[--size];
    ++n_v;
    if (!overlap(p.env, p.fly)) continue;
    if (env.is_leaf(p.env)) {
      if (fly.is_leaf(p.fly)) {
        if (leaf_pairs(p.env, p.fly)) return true;
      } else {
        // Right pushed first so the left child is visited first, as in the recursion.
        stack[size++] = {p.env, fly.right(p.fly)};
        stack[size++] = {p.env, fly.left(p.fly)};
      }
    } else {
      stack[size++] = {env.right(p.env), p.fly};
      stack[size++] = {env.left(p.env), p.fly};
    }
  }
  return false;
}

}  // namespace kdop
