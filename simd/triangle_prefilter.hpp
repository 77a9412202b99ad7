#pragma once
// A conservative float prefilter for the leaf test (Klosowski et al. 1998, section 4.4: the
// triangle pairs of a leaf pair): one environment triangle E against many flying triangles F at
// once, one lane per flying triangle. A pair survives unless
//   - their float boxes (both rounded outward) are disjoint, or
//   - all three corners of F lie strictly on one side of E's plane slab: n_E . f_k (float) is
//     above `upper` (or below `lower`) for k = 0, 1, 2, where [lower, upper] is E's own range
//     along n_E widened by a bound on every rounding (engine/dop_query.hpp), or
//   - all three corners of E lie strictly on one side of F's plane slab: n_F . e_k is above
//     hi_F + margin (or below lo_F - margin), [lo_F, hi_F] being F's own range along n_F
//     (rounded outward at build) and `margin` the bound on this side's roundings.
// The two plane tests are the first rejections of Moeller's triangle test; each is a separating
// plane, so a rejected pair never intersects. Survivors go to the exact test.
// Both rejections are proofs of disjointness, so a rejected pair never intersects; survivors go
// to the exact test. Every ISA computes the same float operations in the same order as the
// scalar reference, so the masks agree bit for bit.
#include <cstdint>

#include "simd/arch.hpp"

namespace kdop::simd {

// One environment triangle, broadcast across lanes.
struct PrefilterTriangle {
  float lo[3], hi[3];      // box, rounded outward
  float n[3];              // unit normal (float); zero for a degenerate triangle
  float lower, upper;      // thresholds of the test against E's plane
  float x[3], y[3], z[3];  // corners, rounded to nearest
  float margin;            // widening of F's plane ranges for the test against F's plane
  // Bound on |x[k] - the exact corner| and on a float projection's rounding, per unit of |n|_1,
  // for testing the corners against slabs (simd/triangle_dop.hpp).
  float slab_margin;
  // Bound on a projection's error on an edge-pair axis a, both triangles' corners, per unit of
  // |a|_1 (simd/triangle_edge_axes.hpp).
  float edge_margin;
};

// Flying triangles as structure of arrays over slots: box lo/hi per axis, corner k's
// coordinates x[k], y[k], z[k] rounded to nearest, and the unit normal n with the triangle's
// range [d_lo, d_hi] along it (rounded outward). Arrays must be readable `width` floats past the
// last slot (lanes past `count` are masked off).
struct PrefilterSlots {
  const float* lo[3];
  const float* hi[3];
  const float* x[3];
  const float* y[3];
  const float* z[3];
  const float* n[3];
  const float* d_lo;
  const float* d_hi;
};

// Bit i set iff slot first + i survives. Requires count <= 64.
inline std::uint64_t prefilter_scalar(const PrefilterTriangle& e, const PrefilterSlots& f,
                                      std::uint32_t first, std::uint32_t count) {
  std::uint64_t bits = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t s = first + i;
    bool box = true;
    for (int a = 0; a < 3; ++a) box &= f.lo[a][s] <= e.hi[a] && f.hi[a][s] >= e.lo[a];
    bool above = true, below = true;
    for (int k = 0; k < 3; ++k) {
      const float d = (e.n[0] * f.x[k][s] + e.n[1] * f.y[k][s]) + e.n[2] * f.z[k][s];
      above &= d > e.upper;
      below &= d < e.lower;
    }
    const float f_upper = f.d_hi[s] + e.margin, f_lower = f.d_lo[s] - e.margin;
    bool e_above = true, e_below = true;
    for (int k = 0; k < 3; ++k) {
      const float d = (f.n[0][s] * e.x[k] + f.n[1][s] * e.y[k]) + f.n[2][s] * e.z[k];
      e_above &= d > f_upper;
      e_below &= d < f_lower;
    }
    if (box && !above && !below && !e_above && !e_below) bits |= std::uint64_t{1} << i;
  }
  return bits;
}

template <class Arch>
[[gnu::always_inline]] inline std::uint64_t prefilter(const PrefilterTriangle& e,
                                                      const PrefilterSlots& f, std::uint32_t first,
                                                      std::uint32_t count) {
  if constexpr (is_scalar<Arch>) {
    return prefilter_scalar(e, f, first, count);
  } else {
    using B = xsimd::batch<float, Arch>;
    constexpr std::uint32_t W = B::size;
    const B lo[3] = {B(e.lo[0]), B(e.lo[1]), B(e.lo[2])};
    const B hi[3] = {B(e.hi[0]), B(e.hi[1]), B(e.hi[2])};
    const B n0(e.n[0]), n1(e.n[1]), n2(e.n[2]), upper(e.upper), lower(e.lower);
    const B ex[3] = {B(e.x[0]), B(e.x[1]), B(e.x[2])}, ey[3] = {B(e.y[0]), B(e.y[1]), B(e.y[2])},
            ez[3] = {B(e.z[0]), B(e.z[1]), B(e.z[2])};
    const B margin(e.margin);
    std::uint64_t bits = 0;
    for (std::uint32_t i = 0; i < count; i += W) {
      const std::uint32_t s = first + i;
      auto box =
          (B::load_unaligned(f.lo[0] + s) <= hi[0]) & (B::load_unaligned(f.hi[0] + s) >= lo[0]);
      box = box & (B::load_unaligned(f.lo[1] + s) <= hi[1]) &
            (B::load_unaligned(f.hi[1] + s) >= lo[1]);
      box = box & (B::load_unaligned(f.lo[2] + s) <= hi[2]) &
            (B::load_unaligned(f.hi[2] + s) >= lo[2]);
      auto above = box, below = box;  // only their conjunction with box matters
      for (int k = 0; k < 3; ++k) {
        const B d = (n0 * B::load_unaligned(f.x[k] + s) + n1 * B::load_unaligned(f.y[k] + s)) +
                    n2 * B::load_unaligned(f.z[k] + s);
        above = above & (d > upper);
        below = below & (d < lower);
      }
      const B fn0 = B::load_unaligned(f.n[0] + s), fn1 = B::load_unaligned(f.n[1] + s),
              fn2 = B::load_unaligned(f.n[2] + s);
      const B f_upper = B::load_unaligned(f.d_hi + s) + margin;
      const B f_lower = B::load_unaligned(f.d_lo + s) - margin;
      auto e_above = box, e_below = box;
      for (int k = 0; k < 3; ++k) {
        const B d = (fn0 * ex[k] + fn1 * ey[k]) + fn2 * ez[k];
        e_above = e_above & (d > f_upper);
        e_below = e_below & (d < f_lower);
      }
      const unsigned survivors = to_bits<Arch>(box) & ~to_bits<Arch>(above) &
                                 ~to_bits<Arch>(below) & ~to_bits<Arch>(e_above) &
                                 ~to_bits<Arch>(e_below);
      bits |= std::uint64_t{survivors} << i;
    }
    return count >= 64 ? bits : bits & ((std::uint64_t{1} << count) - 1);
  }
}

}  // namespace kdop::simd
