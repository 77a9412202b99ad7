#pragma once
// A triangle against a k-DOP in the DOP's own frame: the triangle's three corners projected on the
// k/2 directions (lanes), their range widened by a margin per lane, against the DOP's intervals.
// The leaf test moves each environment triangle into the flying object's frame anyway (its
// prefilter key); testing it there against a flying node's stored DOP, which is tight around the
// node's triangles in that frame, rejects many pairs that the node's tumbled (world) DOP lets
// through: before a flying leaf's per-slot prefilter, and for an environment leaf against an inner
// flying node (engine/dop_query.hpp, env_leaf_misses_node), where it also spares the tumble. A
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

// False if some slab j separates the triangle (corners x[k], y[k], z[k]) from the DOP (Lanes lo
// values, then Lanes hi values) by more than l1[j] * margin.
template <int Lanes>
inline bool triangle_may_meet_dop_scalar(const SlabDirections<Lanes>& d, const float* dop,
                                         const float* x, const float* y, const float* z,
                                         float margin) {
  bool ok = true;
  for (int j = 0; j < Lanes; ++j) {
    float p[3];
    for (int k = 0; k < 3; ++k) p[k] = (d.nx[j] * x[k] + d.ny[j] * y[k]) + d.nz[j] * z[k];
    // As minps / maxps: the first operand if it is smaller (larger), else the second.
    const float lo01 = p[0] < p[1] ? p[0] : p[1], hi01 = p[0] > p[1] ? p[0] : p[1];
    const float lo = lo01 < p[2] ? lo01 : p[2], hi = hi01 > p[2] ? hi01 : p[2];
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
      Block p[3];
      for (int k = 0; k < 3; ++k) p[k] = (nx * Block(x[k]) + ny * Block(y[k])) + nz * Block(z[k]);
      const Block lo = xsimd::min(xsimd::min(p[0], p[1]), p[2]);
      const Block hi = xsimd::max(xsimd::max(p[0], p[1]), p[2]);
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
