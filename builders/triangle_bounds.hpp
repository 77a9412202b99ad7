#pragma once
// What the leaf prefilter (simd/triangle_prefilter.hpp) needs of each environment triangle,
// computed once at build, per slot of the reordered triangles (12 floats, one cache line per
// 5.3 triangles):
//
//   [0, 3)  box lo x, y, z      rounded down
//   [3, 6)  box hi x, y, z      rounded up
//   [6, 9)  unit normal n       float (zero for a degenerate triangle)
//   9, 10   d_lo, d_hi          range of n . p over the three corners, rounded outward
//   11      padding
#include <cstdint>
#include <vector>

#include "builders/leaf_triangles.hpp"

namespace kdop {

struct TriangleBounds {
  static constexpr int stride = 12;
  std::vector<float> data;

  const float* slot(std::uint32_t s) const { return data.data() + std::size_t{s} * stride; }
};

TriangleBounds triangle_bounds(const LeafTriangles& triangles);

}  // namespace kdop
