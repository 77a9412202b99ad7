#pragma once
// The generic top-down builder (Klosowski et al. 1998, section 3.3): recursively split a node's
// triangles in two (builders/split_rule.hpp) until a node holds at most tau triangles (the root
// is split even so, if it has two or more). It
// produces a plain binary tree of index ranges; encoders (dop_tree.hpp) then write the flat
// layouts that queries read.
//
// Parallel (oneTBB): the two subtrees of a large node are built as independent tasks into
// their own node lists, then joined in pre-order, so the tree is the same for any thread count.
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

// std::invalid_argument for a mesh without triangles (or with more than 2^32 - 2 triangles or
// vertices), a corner index out of range or a non-finite coordinate.
void validate_mesh(const Mesh& mesh);

// Throws as validate_mesh for such meshes. Deterministic: the same mesh and config give the same
// tree, whatever the number of threads. K is the k-DOP the volume rules measure (the others ignore
// it).
template <int K>
BuildTree build_topdown(const Mesh& mesh, const BuildConfig& config);

extern template BuildTree build_topdown<6>(const Mesh&, const BuildConfig&);
extern template BuildTree build_topdown<8>(const Mesh&, const BuildConfig&);
extern template BuildTree build_topdown<14>(const Mesh&, const BuildConfig&);
extern template BuildTree build_topdown<18>(const Mesh&, const BuildConfig&);
extern template BuildTree build_topdown<26>(const Mesh&, const BuildConfig&);
extern template BuildTree build_topdown<32>(const Mesh&, const BuildConfig&);

}  // namespace kdop
