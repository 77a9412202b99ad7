#pragma once
// Float copies of a flying hierarchy's leaf triangles, in the object's own frame, for the leaf
// prefilter (simd/triangle_prefilter.hpp): per slot, the box rounded outward, the three corners
// rounded to nearest, and the unit normal with the triangle's range along it (rounded outward),
// as structure of arrays. Built once; the query moves the
// environment triangle into the object's frame instead of moving these (engine/dop_query.hpp).
// Every array has `padding` extra floats so a vector load may run past the last slot.
#include <cstdint>

#include "builders/leaf_triangles.hpp"
#include "geometry/staggered_arrays.hpp"
#include "simd/triangle_prefilter.hpp"

namespace kdop {

struct LeafFloats {
  static constexpr std::uint32_t padding = 16;
  static constexpr int array_count = 20;
  // The 20 arrays in one staggered allocation (geometry/staggered_arrays.hpp): the prefilter
  // reads all of them per slot. Box lo per axis: arrays 0-2, hi: 3-5; corner c: x 6 + c,
  // y 9 + c, z 12 + c; unit normal (zero if degenerate): 15-17; range of n . corner over the
  // corners: d_lo 18, d_hi 19.
  StaggeredArrays<float> arrays;

  // Writable arrays, for leaf_floats() that fills them.
  float* lo(int a) { return arrays.mutable_array(a); }
  float* hi(int a) { return arrays.mutable_array(3 + a); }
  float* x(int c) { return arrays.mutable_array(6 + c); }
  float* y(int c) { return arrays.mutable_array(9 + c); }
  float* z(int c) { return arrays.mutable_array(12 + c); }
  float* n(int a) { return arrays.mutable_array(15 + a); }
  float* d_lo() { return arrays.mutable_array(18); }
  float* d_hi() { return arrays.mutable_array(19); }

  // Templated on the caller's ISA tag (default: none) so that the per-ISA queries each get their
  // own copy: an inline member they compiled and did not inline would be a weak symbol the linker
  // may keep for every caller, AVX instructions and all (tests/simd/isa_hygiene_test.sh).
  template <class Arch = void>
  simd::PrefilterSlots slots() const {
    const StaggeredArrays<float>& v = arrays;
    return {{v[0], v[1], v[2]},
            {v[3], v[4], v[5]},
            {v[6], v[7], v[8]},
            {v[9], v[10], v[11]},
            {v[12], v[13], v[14]},
            {v[15], v[16], v[17]},
            v[18],
            v[19]};
  }
};

LeafFloats leaf_floats(const LeafTriangles& triangles);

}  // namespace kdop
