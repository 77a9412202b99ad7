#pragma once
// An environment node's axis-aligned box against a flying node's stored k-DOP, in the flying
// object's frame: the reverse of tumbling. Tumbling re-aligns the flying DOP to the world, which
// loosens it (the re-aligned DOP of a rotated DOP); here the flying DOP keeps its tight slabs and
// the box is projected on them instead. Slab j of the flying DOP, direction n_j in the object's
// frame, is the world slab w_j . x - o_j in [lo_j, hi_j] with w_j = R^-T n_j and o_j = w_j . t;
// the box [b_lo, b_hi] spans sum over axes a of [min, max](w_ja b_lo_a, w_ja b_hi_a) along w_j.
// If that span misses [lo_j + o_j, hi_j + o_j] by more than the rounding bound, slab j separates
// the box from the flying node, and so from everything either holds (Gottschalk et al. 1996,
// section 4: any direction is a valid separating axis; the k-DOP's own are the ones at hand).
// The same frame tests an environment triangle, its three world corners in place of the box's
// span (world_triangle_may_meet_dop, below). The offsets and margins are the frame's
// (engine/dop_query.hpp derives them). Every ISA computes the same float operations in the same
// order as the scalar reference.
#include "simd/arch.hpp"
#include "simd/triangle_dop.hpp"

namespace kdop::simd {

// Per pose: the slab directions in the world (padding lanes: zero, so their span is [0, 0],
// inside the flying DOP's [-inf, inf]), and each slab's offset with its margin: the box is apart
// along j if its span's minimum exceeds hi_j + off_hi[j] or its maximum is below lo_j + off_lo[j].
template <int Lanes>
struct BoxDopFrame {
  alignas(64) float wx[Lanes], wy[Lanes], wz[Lanes], off_lo[Lanes], off_hi[Lanes];
};

// False if some slab of `dop` (Lanes lo values, then Lanes hi values; object frame) separates it
// from the box [box_lo, box_hi] (three floats each; world).
template <int Lanes>
inline bool box_may_meet_dop_scalar(const BoxDopFrame<Lanes>& f, const float* box_lo,
                                    const float* box_hi, const float* dop) {
  bool ok = true;
  for (int j = 0; j < Lanes; ++j) {
    const float w[3] = {f.wx[j], f.wy[j], f.wz[j]};
    float lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      const float p = w[a] * box_lo[a], q = w[a] * box_hi[a];
      // As minps / maxps: the first operand if it is smaller (larger), else the second.
      lo[a] = p < q ? p : q;
      hi[a] = p > q ? p : q;
    }
    const float span_lo = (lo[0] + lo[1]) + lo[2], span_hi = (hi[0] + hi[1]) + hi[2];
    ok &= !(span_lo > dop[Lanes + j] + f.off_hi[j]) && !(span_hi < dop[j] + f.off_lo[j]);
  }
  return ok;
}

template <class Arch, int Lanes>
[[gnu::always_inline]] inline bool box_may_meet_dop(const BoxDopFrame<Lanes>& f,
                                                    const float* box_lo, const float* box_hi,
                                                    const float* dop) {
  if constexpr (is_scalar<Arch>) {
    return box_may_meet_dop_scalar<Lanes>(f, box_lo, box_hi, dop);
  } else {
    using Block = xsimd::batch<float, FitArch<Arch, Lanes>>;
    constexpr int width = static_cast<int>(Block::size);
    const Block blo[3] = {Block(box_lo[0]), Block(box_lo[1]), Block(box_lo[2])};
    const Block bhi[3] = {Block(box_hi[0]), Block(box_hi[1]), Block(box_hi[2])};
    const auto block_apart = [&](int from) {
      const Block w[3] = {Block::load_unaligned(f.wx + from), Block::load_unaligned(f.wy + from),
                          Block::load_unaligned(f.wz + from)};
      Block lo[3], hi[3];
      for (int a = 0; a < 3; ++a) {
        const Block p = w[a] * blo[a], q = w[a] * bhi[a];
        lo[a] = xsimd::min(p, q);
        hi[a] = xsimd::max(p, q);
      }
      const Block span_lo = (lo[0] + lo[1]) + lo[2], span_hi = (hi[0] + hi[1]) + hi[2];
      return (span_lo >
              Block::load_unaligned(dop + Lanes + from) + Block::load_unaligned(f.off_hi + from)) |
             (span_hi < Block::load_unaligned(dop + from) + Block::load_unaligned(f.off_lo + from));
    };
    auto apart = block_apart(0);
    for (int b = 1; b * width < Lanes; ++b)
      apart = apart | block_apart(block_start(b, width, Lanes));
    return !xsimd::any(apart);
  }
}

// False if some slab of `dop` (object frame) separates it from the world triangle with corners
// (x[k], y[k], z[k]): the corners' range along w_j (triangle_span, as triangle_may_meet_dop
// projects them), against the slab shifted as for a box. The frame's margin covers
// corners rounded to float from anywhere in the environment root's box. It spares the
// environment triangle's move into the object's frame (engine/leaf_test.hpp, a key) for the
// triangles a flying node's DOP rejects.
template <int Lanes>
inline bool world_triangle_may_meet_dop_scalar(const BoxDopFrame<Lanes>& f, const float* x,
                                               const float* y, const float* z, const float* dop) {
  bool ok = true;
  for (int j = 0; j < Lanes; ++j) {
    float lo, hi;
    triangle_span_scalar(f.wx[j], f.wy[j], f.wz[j], x, y, z, lo, hi);
    ok &= !(lo > dop[Lanes + j] + f.off_hi[j]) && !(hi < dop[j] + f.off_lo[j]);
  }
  return ok;
}

template <class Arch, int Lanes>
[[gnu::always_inline]] inline bool world_triangle_may_meet_dop(const BoxDopFrame<Lanes>& f,
                                                               const float* x, const float* y,
                                                               const float* z, const float* dop) {
  if constexpr (is_scalar<Arch>) {
    return world_triangle_may_meet_dop_scalar<Lanes>(f, x, y, z, dop);
  } else {
    using Block = xsimd::batch<float, FitArch<Arch, Lanes>>;
    constexpr int width = static_cast<int>(Block::size);
    const auto block_apart = [&](int from) {
      const Block wx = Block::load_unaligned(f.wx + from), wy = Block::load_unaligned(f.wy + from);
      const Block wz = Block::load_unaligned(f.wz + from);
      Block lo, hi;
      triangle_span(wx, wy, wz, x, y, z, lo, hi);
      return (lo >
              Block::load_unaligned(dop + Lanes + from) + Block::load_unaligned(f.off_hi + from)) |
             (hi < Block::load_unaligned(dop + from) + Block::load_unaligned(f.off_lo + from));
    };
    auto apart = block_apart(0);
    for (int b = 1; b * width < Lanes; ++b)
      apart = apart | block_apart(block_start(b, width, Lanes));
    return !xsimd::any(apart);
  }
}

}  // namespace kdop::simd
