#pragma once
// The triangles of a hierarchy, reordered so every leaf owns a contiguous range of slots, with
// their corner coordinates stored by slot (structure of arrays), so leaf tests stream through
// memory instead of chasing vertex indices. Coordinates are the input doubles, unchanged.
//
//   corner c (0, 1, 2) of slot s:   (x(c)[s], y(c)[s], z(c)[s])
//   input triangle index of slot s: original[s]
// The nine coordinate arrays share one staggered allocation (geometry/staggered_arrays.hpp):
// reading a triangle touches nine arrays, more than the L1 cache has ways.
#include <cstdint>
#include <vector>

#include "geometry/mappable_array.hpp"

#include "builders/tree_topology.hpp"
#include "geometry/mesh.hpp"
#include "geometry/staggered_arrays.hpp"
#include "geometry/tri_tri.hpp"

namespace kdop {

struct LeafTriangles {
  static constexpr int array_count = 9;
  StaggeredArrays<double> corners;  // x of corner c: array c; y: 3 + c; z: 6 + c
  MappableArray<std::uint32_t> original;

  std::uint32_t size() const { return static_cast<std::uint32_t>(original.size()); }
  const double* x(int c) const { return corners[c]; }
  const double* y(int c) const { return corners[3 + c]; }
  const double* z(int c) const { return corners[6 + c]; }
  // Templated on the caller's ISA tag, as LeafFloats::slots is (builders/leaf_floats.hpp).
  template <class Arch = void>
  Triangle triangle(std::uint32_t s) const {
    return {{x(0)[s], y(0)[s], z(0)[s]}, {x(1)[s], y(1)[s], z(1)[s]}, {x(2)[s], y(2)[s], z(2)[s]}};
  }
  std::size_t bytes() const { return corners.bytes() + original.size() * sizeof(std::uint32_t); }
};

// The distinct corners of the triangles in slots [range.first, range.first + range.count), into
// `out` (a closed mesh shares each corner about six times).
void distinct_corners(const LeafTriangles& t, SlotRange range, std::vector<Vec3>& out);

// Gathers the corners of mesh triangles order[0..n) into slots 0..n (in parallel).
LeafTriangles gather_leaf_triangles(const Mesh& mesh, const std::vector<std::uint32_t>& order);

// An environment's corners rounded to nearest float, the nine of slot s together at
// [9 s, 9 s + 9): x of corners 0-2, then y, then z. The environment triangles' float test against
// the flying DOPs (engine/dop_query.hpp, triangle_misses_node) reads a slot's nine here, one or two
// cache lines, instead of nine double arrays converted one by one. Derived (in parallel), not
// stored in hierarchy files.
inline constexpr int kCornerFloatsPerSlot = 9;
std::vector<float> corner_floats(const LeafTriangles& t);

}  // namespace kdop
