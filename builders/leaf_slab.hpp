#pragma once
// One extra slab per flying leaf, along the leaf's own mean normal: a thin plate around a patch
// of a smooth surface, where the k fixed directions of its DOP leave a wedge of empty space above
// the patch. The leaf test (engine/dop_query.hpp) rejects an environment triangle whose corners,
// moved into the object's frame, all lie beyond this plate before it prefilters the leaf's
// triangles one by one: the plate is a separating slab, as each of the DOP's slabs is. It is what
// an OBB's thin axis gives its leaves (Gottschalk et al. 1996, section 3) at the cost of one
// direction per leaf, and it matters in parallel close proximity (nested spheres), where the
// leaf's DOP lets through most environment triangles near the patch.
//
// Derived from the leaf triangles (built and loaded hierarchies alike; files do not store it).
// Per node: nx, ny, nz (a float direction, not necessarily unit), l1 = |n|_1 (rounded up), and
// the range [lo, hi] of n . p over the leaf's corners, computed in double and rounded outward.
// Inner nodes and leaves without a usable normal get [-inf, inf] (never reject).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "builders/leaf_triangles.hpp"
#include "builders/tree_topology.hpp"

namespace kdop {

struct LeafSlabs {
  static constexpr int stride = 8;  // nx, ny, nz, l1, lo, hi and two unused: one 32-byte read
  std::vector<float> values;        // stride floats per node

  const float* node(std::uint32_t n) const { return values.data() + std::size_t{n} * stride; }
  std::size_t bytes() const { return values.size() * sizeof(float); }
};

LeafSlabs leaf_slabs(const TreeTopology& topology, const LeafTriangles& triangles);

// True if the triangle with float corners (x[k], y[k], z[k]) lies beyond the slab by more than
// l1 * margin on one side: `margin` bounds, per unit of |n|_1, each corner's distance from the
// exact one and the rounding of a float projection (the prefilter key's slab_margin,
// engine/leaf_test.hpp). The same float operations in the same order on every ISA.
inline bool triangle_misses_slab(const float* slab, const float* x, const float* y,
                                 const float* z, float margin) {
  float p[3];
  for (int k = 0; k < 3; ++k) p[k] = (slab[0] * x[k] + slab[1] * y[k]) + slab[2] * z[k];
  const float lo01 = p[0] < p[1] ? p[0] : p[1], hi01 = p[0] > p[1] ? p[0] : p[1];
  const float lo = lo01 < p[2] ? lo01 : p[2], hi = hi01 > p[2] ? hi01 : p[2];
  const float m = slab[3] * margin;
  return lo - m > slab[5] || hi + m < slab[4];
}

}  // namespace kdop
