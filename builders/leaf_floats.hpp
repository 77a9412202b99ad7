#pragma once
// Float copies of a flying hierarchy's leaf triangles, in the object's own frame, for the leaf
// prefilter (simd/triangle_prefilter.hpp): per slot, the box rounded outward, the three corners
// rounded to nearest, and the unit normal with the triangle's range along it (rounded outward),
// as structure of arrays. Built once; the query moves the
// environment triangle into the object's frame instead of moving these (engine/dop_query.hpp).
// Every array has `padding` extra floats so a vector load may run past the last slot.
#include <array>
#include <cstdint>
#include <vector>

#include "builders/leaf_triangles.hpp"
#include "simd/triangle_prefilter.hpp"

namespace kdop {

struct LeafFloats {
  static constexpr std::uint32_t padding = 16;
  std::array<std::vector<float>, 3> lo, hi;   // box per axis
  std::array<std::vector<float>, 3> x, y, z;  // corner c: (x[c], y[c], z[c])
  std::array<std::vector<float>, 3> n;        // unit normal (zero if degenerate)
  std::vector<float> d_lo, d_hi;              // range of n . corner over the corners

  simd::PrefilterSlots slots() const {
    return {{lo[0].data(), lo[1].data(), lo[2].data()},
            {hi[0].data(), hi[1].data(), hi[2].data()},
            {x[0].data(), x[1].data(), x[2].data()},
            {y[0].data(), y[1].data(), y[2].data()},
            {z[0].data(), z[1].data(), z[2].data()},
            {n[0].data(), n[1].data(), n[2].data()},
            d_lo.data(),
            d_hi.data()};
  }
};

LeafFloats leaf_floats(const LeafTriangles& triangles);

}  // namespace kdop
