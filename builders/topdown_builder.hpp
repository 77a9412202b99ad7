#pragma once
// The generic top-down builder (Klosowski et al. 1998, section 3.3): recursively split a node's
// triangles in two by a plane orthogonal to x, y or z, each triangle going to the side of its
// centroid, until a node holds at most tau triangles. It produces a plain binary tree of index
// ranges; encoders (dop_tree.hpp) then write the flat layouts that queries read.
#include <cstdint>
#include <vector>

#include "builders/build_config.hpp"
#include "geometry/mesh.hpp"

namespace kdop {

// Nodes are in pre-order: the left child of inner node n is n + 1, the right child `right`.
// Every node owns the triangles order[begin, begin + count).
struct BuildNode {
  std::uint32_t begin = 0;
  std::uint32_t count = 0;
  std::uint32_t right = 0;  // 0 for a leaf (the root is nobody's right child)

  bool is_leaf() const { return right == 0; }
};

struct BuildTree {
  std::vector<BuildNode> nodes;
  std::vector<std::uint32_t> order;  // slot -> input triangle index
};

// Throws std::invalid_argument for a mesh without triangles, a corner index out of range or a
// non-finite coordinate. Deterministic: the same mesh and config give the same tree.
// When a mean split leaves one side empty (coincident centroids), the node is split at the
// median instead, so every inner node has two non-empty children.
BuildTree build_topdown(const Mesh& mesh, const BuildConfig& config);

}  // namespace kdop
