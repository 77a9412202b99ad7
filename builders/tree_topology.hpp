#pragma once
// The shape of a flat binary hierarchy, shared by every bounding-volume type: two uint32 fields
// per node, one allocation each. Nodes are in pre-order (the root is 0):
//
//   node i        leaf_count[i]    child_or_first[i]
//   inner         0                index of the right child (the left child is i + 1)
//   leaf          triangles (>= 1) first slot of its contiguous range of leaf triangles
#include <cstdint>
#include <vector>

#include "geometry/mappable_array.hpp"

namespace kdop {

struct TreeTopology {
  MappableArray<std::uint32_t> child_or_first;
  MappableArray<std::uint32_t> leaf_count;
  std::uint32_t depth = 0;  // edges on the longest root-to-leaf path
  // The shape's fingerprint (topology_hash), set wherever the arrays are made (encode_topology,
  // io/hierarchy_file.cpp): a query's hot start reuses the previous pose's cut of an environment
  // tree only if the tree has the same shape (engine/dop_query.cpp), as a cut of one shape is no
  // cut of another. 0: none (a topology made by hand), which the hot start never trusts.
  std::uint64_t shape_hash = 0;

  std::uint32_t node_count() const { return static_cast<std::uint32_t>(leaf_count.size()); }
  bool is_leaf(std::uint32_t i) const { return leaf_count[i] != 0; }
  std::uint32_t left(std::uint32_t i) const { return i + 1; }
  std::uint32_t right(std::uint32_t i) const { return child_or_first[i]; }
};

struct BuildTree;

// The flat topology of a built tree (builders/topdown_builder.hpp), with its depth and hash.
TreeTopology encode_topology(const BuildTree& b);

// FNV-1a (64-bit) over both arrays, one node (both fields) per step: about 0.1 ms per 100,000
// nodes, a small part of a build or a load. Never 0, which means no hash.
std::uint64_t topology_hash(const TreeTopology& t);

// The contiguous slots under a node.
struct SlotRange {
  std::uint32_t first, count;
};

// Every node's slots, from the leaves up (pre-order: children after parents).
std::vector<SlotRange> slot_ranges(const TreeTopology& topo);

}  // namespace kdop
