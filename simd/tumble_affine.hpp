#pragma once
// Zachmann's affine re-alignment of a k-DOP (zachmann1998-dop-trees.txt, section 4.1), all slabs
// at once: each world slab's upper offset is 3 multiply-adds of the node's own offsets,
// hi_j = ((w0 b[a0] + w1 b[a1]) + w2 b[a2]) + c_j, with the cone weights w and the node offsets'
// indices a chosen once per pose (engine/tumble.hpp), and likewise the lower one. On AVX-512 the
// three picks are one two-register permute each (the node's lo and hi lanes, at most 32 floats),
// so a node costs about twenty vector instructions against the vertex method's seven per vertex.
// The other ISAs run the scalar reference (a gather of 3 x 2 x 16 floats is no cheaper there).
// Every ISA computes the same float operations in the same order.
#include <cstdint>
#include <limits>

#include "simd/arch.hpp"

namespace kdop::simd {

// Per pose, per output lane: the node offsets picked (indices into the node's lo lanes, then its
// hi lanes), their weights (the sign of a -lo offset included), the slab's offset c_j and the
// widening that covers the rounding. Padding lanes: index 0, weight 0, c 0 and an infinite pad,
// so they come out as [-inf, inf]. Arrays are padded to 16 lanes (zero weights, index 0).
template <int Lanes>
struct AffineFrame {
  static constexpr int padded = (Lanes + 15) / 16 * 16;
  alignas(64) std::int32_t hi_at[3][padded] = {}, lo_at[3][padded] = {};
  alignas(64) float hi_w[3][padded] = {}, lo_w[3][padded] = {};
  alignas(64) float c[padded] = {}, hi_pad[padded] = {}, lo_pad[padded] = {};
};

// out: Lanes lo values then Lanes hi values of the re-aligned node `node` (its stored lo lanes,
// then hi lanes, 2 Lanes floats).
template <int Lanes>
inline void tumble_affine_scalar(const AffineFrame<Lanes>& f, const float* node, float* out) {
  for (int j = 0; j < Lanes; ++j) {
    const float hi = ((f.hi_w[0][j] * node[f.hi_at[0][j]] + f.hi_w[1][j] * node[f.hi_at[1][j]]) +
                      f.hi_w[2][j] * node[f.hi_at[2][j]]) +
                     f.c[j];
    const float lo = ((f.lo_w[0][j] * node[f.lo_at[0][j]] + f.lo_w[1][j] * node[f.lo_at[1][j]]) +
                      f.lo_w[2][j] * node[f.lo_at[2][j]]) -
                     f.c[j];
    out[Lanes + j] = hi + f.hi_pad[j];
    out[j] = -(lo + f.lo_pad[j]);
  }
}

template <class Arch, int Lanes>
[[gnu::always_inline]] inline void tumble_affine(const AffineFrame<Lanes>& f, const float* node,
                                                 float* out) {
#if XSIMD_WITH_AVX512BW
  if constexpr (std::is_same_v<Arch, xsimd::avx512bw> && Lanes <= 16) {
    using B = xsimd::batch<float, Arch>;
    // The node's 2 Lanes floats in two registers (masked: nothing past the node is read).
    constexpr int floats = 2 * Lanes;
    constexpr __mmask16 first = floats >= 16 ? 0xFFFF : (1u << floats) - 1;
    constexpr __mmask16 second = floats > 16 ? (1u << (floats - 16)) - 1 : 0;
    const __m512 b0 = _mm512_maskz_loadu_ps(first, node);
    const __m512 b1 = _mm512_maskz_loadu_ps(second, node + 16);
    const auto pick = [&](const std::int32_t* at) {
      return B(_mm512_permutex2var_ps(b0, _mm512_load_si512(at), b1));
    };
    const auto w = [](const float* v) { return B::load_aligned(v); };
    const B c = B::load_aligned(f.c);
    const B hi = ((w(f.hi_w[0]) * pick(f.hi_at[0]) + w(f.hi_w[1]) * pick(f.hi_at[1])) +
                  w(f.hi_w[2]) * pick(f.hi_at[2])) +
                 c;
    const B lo = ((w(f.lo_w[0]) * pick(f.lo_at[0]) + w(f.lo_w[1]) * pick(f.lo_at[1])) +
                  w(f.lo_w[2]) * pick(f.lo_at[2])) -
                 c;
    constexpr __mmask16 lanes = Lanes >= 16 ? 0xFFFF : (1u << Lanes) - 1;
    _mm512_mask_storeu_ps(out + Lanes, lanes, hi + B::load_aligned(f.hi_pad));
    _mm512_mask_storeu_ps(out, lanes, -(lo + B::load_aligned(f.lo_pad)));
    return;
  }
#endif
  tumble_affine_scalar<Lanes>(f, node, out);
}

}  // namespace kdop::simd
