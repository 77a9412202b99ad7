#pragma once
// One extra slab per flying node, along the node's own area-weighted mean normal: a thin plate
// around a patch of a smooth surface, where the k fixed directions of its DOP leave a wedge of
// empty space above the patch. An environment triangle whose corners, moved into the object's frame
// (its prefilter key, engine/leaf_test.hpp), all lie beyond the plate is separated from every
// triangle under the node: the plate is a separating slab, as each of the DOP's slabs is. It is
// what an OBB's thin axis gives (Gottschalk et al. 1996, section 3), for one direction per node.
// The k-DOP query (engine/dop_query.hpp) tests it where an environment leaf meets a flying node,
// right after the triangle's test against the node's own DOP: before a flying leaf's triangles
// are prefiltered one by one, and in env_leaf_misses_node for any flying node.
//
// Derived from the leaf triangles (built and loaded hierarchies alike; files do not store it).
// Per node: nx, ny, nz (a float direction, taken as exact, not necessarily unit), l1 = |n|_1
// (rounded up), and the range [lo, hi] of n . p over the node's corners, computed in double and
// rounded outward. Nodes without a usable normal, and nodes of more than 4,096 triangles, get
// [-inf, inf] (never reject).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "builders/leaf_triangles.hpp"
#include "builders/tree_topology.hpp"

namespace kdop {

struct NodePlates {
  static constexpr int stride = 8;  // nx, ny, nz, l1, lo, hi and two unused: one 32-byte read
  std::vector<float> values;        // stride floats per node

  const float* node(std::uint32_t n) const { return values.data() + std::size_t{n} * stride; }
  std::size_t bytes() const { return values.size() * sizeof(float); }
};

NodePlates node_plates(const TreeTopology& topology, const LeafTriangles& triangles);

// True if the triangle with float corners (x[k], y[k], z[k]) lies beyond the plate by more than
// l1 * margin on one side: `margin` bounds, per unit of |n|_1, each corner's distance from the
// exact one and the rounding of a float projection (the prefilter key's slab_margin,
// engine/leaf_test.hpp). The same float operations in the same order on every ISA. Templated on
// the caller's ISA tag so each per-ISA query keeps its own copy (as LeafFloats::slots is).
template <class Arch>
[[gnu::always_inline]] inline bool triangle_misses_plate(const float* plate, const float* x,
                                                         const float* y, const float* z,
                                                         float margin) {
  float p[3];
  for (int k = 0; k < 3; ++k) p[k] = (plate[0] * x[k] + plate[1] * y[k]) + plate[2] * z[k];
  const float lo01 = p[0] < p[1] ? p[0] : p[1], hi01 = p[0] > p[1] ? p[0] : p[1];
  const float lo = lo01 < p[2] ? lo01 : p[2], hi = hi01 > p[2] ? hi01 : p[2];
  const float m = plate[3] * margin;
  return lo - m > plate[5] || hi + m < plate[4];
}

}  // namespace kdop
