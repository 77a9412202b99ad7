#pragma once
// A triangle against a k-DOP in the DOP's own frame: the triangle's three corners projected on the
// k/2 directions (lanes), their range widened by a margin per lane, against the DOP's intervals.
// The 8-DOP's environment triangles are tested this way against flying nodes, moved into the
// object's frame (their prefilter keys); the other k-DOPs project the world corners on the
// node's slabs mapped to the world instead (simd/box_against_dop.hpp), through triangle_span
// below, with which this test shares its projection. Either way the node's stored DOP, tight
// around its triangles, rejects many pairs its tumbled (world) DOP lets through, and spares the
// tumble (engine/dop_query.hpp, env_leaf_misses_node). A
// rejection is a separating slab, so nothing that meets is rejected once every rounding is inside
// the margin (engine/leaf_test.hpp derives it). Every ISA computes the same float operations in the
// same order as the scalar reference.
#include "simd/arch.hpp"

namespace kdop::simd {

// The k/2 directions across lanes, and each one's |n|_1 (padding lanes: zero direction; their
// DOP intervals are [-inf, inf], so they never reject).
template <int Lanes>
struct SlabDirections {
  alignas(64) float nx[Lanes], ny[Lanes], nz[Lanes], l1[Lanes];
};

// The range [lo, hi] of the triangle's corners (x[k], y[k], z[k]) projected on direction
// (nx, ny, nz): (nx x + ny y) + nz z per corner, then as minps / maxps (the first operand if it is
// smaller, or larger, else the second). One lane of triangle_span.
[[gnu::always_inline]] inline void triangle_span_scalar(float nx, float ny, float nz,
                                                        const float* x, const float* y,
                                                        const float* z, float& lo, float& hi) {
  float p[3];
  for (int k = 0; k < 3; ++k) p[k] = (nx * x[k] + ny * y[k]) + nz * z[k];
  const float lo01 = p[0] < p[1] ? p[0] : p[1], hi01 = p[0] > p[1] ? p[0] : p[1];
  lo = lo01 < p[2] ? lo01 : p[2];
  hi = hi01 > p[2] ? hi01 : p[2];
}

// The same on one direction per lane, in the same operations.
template <class Block>
[[gnu::always_inline]] inline void triangle_span(const Block& nx, const Block& ny, const Block& nz,
                                                 const float* x, const float* y, const float* z,
                                                 Block& lo, Block& hi) {
  Block p[3];
  for (int k = 0; k < 3; ++k) p[k] = (nx * Block(x[k]) + ny * Block(y[k])) + nz * Block(z[k]);
  lo = xsimd::min(xsimd::min(p[0], p[1]), p[2]);
  hi = xsimd::max(xsimd::max(p[0], p[1]), p[2]);
}

// False if some slab j separates the triangle (corners x[k], y[k], z[k]) from the DOP (Lanes lo
// values, then Lanes hi values) by more than l1[j] * margin.
template <int Lanes>
inline bool triangle_may_meet_dop_scalar(const SlabDirections<Lanes>& d, const float* dop,
                                         const float* x, const float* y, const float* z,
                                         float margin) {
  bool ok = true;
  for (int j = 0; j < Lanes; ++j) {
    float lo, hi;
    triangle_span_scalar(d.nx[j], d.ny[j], d.nz[j], x, y, z, lo, hi);
    const float m = d.l1[j] * margin;
    ok &= !(lo - m > dop[Lanes + j]) && !(hi + m < dop[j]);
  }
  return ok;
}

// Blocks of the widest type that fits in Lanes, the last one overlapping the one before it where
// Lanes is not a multiple of its width (simd/arch.hpp, block_start); the blocks' verdicts are
// ORed in the vector and tested once.
template <class Arch, int Lanes>
[[gnu::always_inline]] inline bool triangle_may_meet_dop(const SlabDirections<Lanes>& d,
                                                         const float* dop, const float* x,
                                                         const float* y, const float* z,
                                                         float margin) {
  if constexpr (is_scalar<Arch>) {
    return triangle_may_meet_dop_scalar<Lanes>(d, dop, x, y, z, margin);
  } else {
    using Block = xsimd::batch<float, FitArch<Arch, Lanes>>;
    constexpr int width = static_cast<int>(Block::size);
    const auto block_apart = [&](int from) {
      const Block nx = Block::load_unaligned(d.nx + from), ny = Block::load_unaligned(d.ny + from);
      const Block nz = Block::load_unaligned(d.nz + from);
      Block lo, hi;
      triangle_span(nx, ny, nz, x, y, z, lo, hi);
      const Block m = Block::load_unaligned(d.l1 + from) * Block(margin);
      return ((lo - m) > Block::load_unaligned(dop + Lanes + from)) |
             ((hi + m) < Block::load_unaligned(dop + from));
    };
    auto apart = block_apart(0);
    for (int b = 1; b * width < Lanes; ++b)
      apart = apart | block_apart(block_start(b, width, Lanes));
    return !xsimd::any(apart);
  }
}

}  // namespace kdop::simd
