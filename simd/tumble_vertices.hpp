#pragma once
// Vertex transform + min/max reduction for tumbling a k-DOP (Klosowski et al. 1998, section
// 4.1, method II): for every stored vertex v and slab j, s_j(v) = m_j . v + c_j, where
// m_j = R^T n_j and c_j = n_j . t; the node's new intervals are the min and max over its
// vertices. Lanes run over slabs. Multiplies and adds stay separate (no FMA), in one fixed
// order, so every ISA gives the scalar reference's result bit for bit.
#include <cstdint>
#include <limits>

#include "simd/arch.hpp"

namespace kdop::simd {

// Each array is padded with zeros to a multiple of 16 floats, so one AVX-512 block can load
// 12 lanes (K = 18).
template <int Lanes>
struct SlabFrame {
  static constexpr int padded = (Lanes + 15) / 16 * 16;
  alignas(64) float mx[padded] = {}, my[padded] = {}, mz[padded] = {}, c[padded] = {};
};

// out: Lanes lo values then Lanes hi values. Requires count >= 1. The offset c_j is added once,
// after the reduction: rounding is non-decreasing, so min_i fl(p_i + c) = fl(min_i p_i + c), the
// same floats as adding it to every vertex.
template <int Lanes>
inline void tumble_vertices_scalar(const SlabFrame<Lanes>& f, const float* vx, const float* vy,
                                   const float* vz, std::uint32_t count, float* out) {
  for (int j = 0; j < Lanes; ++j) {
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (std::uint32_t i = 0; i < count; ++i) {
      const float s = (f.mx[j] * vx[i] + f.my[j] * vy[i]) + f.mz[j] * vz[i];
      lo = s < lo ? s : lo;
      hi = s > hi ? s : hi;
    }
    out[j] = lo + f.c[j];
    out[Lanes + j] = hi + f.c[j];
  }
}

// Blocks of the widest type that fits in Lanes, all updated in one pass over the vertices (their
// min/max chains are independent); where Lanes is not a multiple of the width the last block ends
// at Lanes and overlaps the one before it (K = 18's 12 lanes on AVX2: [0, 8) and [4, 12)), whose
// shared lanes compute and store the same floats twice. Where one register of the ISA holds all
// Lanes (K = 18 on AVX-512) a single block runs over the frame's zero padding instead.
// xsimd::min(s, lo) is minps(s, lo), which returns "s < lo ? s : lo" exactly as the scalar
// reference does (also for -0 and +0); max likewise. So both branches match it bit for bit.
template <class Arch, int Lanes>
[[gnu::always_inline]] inline void tumble_vertices(const SlabFrame<Lanes>& f, const float* vx,
                                                   const float* vy, const float* vz,
                                                   std::uint32_t count, float* out) {
  using Native = xsimd::batch<float, Arch>;
  if constexpr (is_scalar<Arch>) {
    tumble_vertices_scalar<Lanes>(f, vx, vy, vz, count, out);
  } else if constexpr (Lanes % width<FitArch<Arch, Lanes>> != 0 &&
                       static_cast<int>(Native::size) >= Lanes) {
    constexpr int n = static_cast<int>(Native::size);
    const Native mx = Native::load_aligned(f.mx), my = Native::load_aligned(f.my);
    const Native mz = Native::load_aligned(f.mz);
    Native lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
    for (std::uint32_t i = 0; i < count; ++i) {
      const Native s = (mx * Native(vx[i]) + my * Native(vy[i])) + mz * Native(vz[i]);
      lo = xsimd::min(s, lo);
      hi = xsimd::max(s, hi);
    }
    const Native c = Native::load_aligned(f.c);
    alignas(64) float lo_hi[2 * n];
    (lo + c).store_aligned(lo_hi);
    (hi + c).store_aligned(lo_hi + n);
    for (int j = 0; j < Lanes; ++j) {
      out[j] = lo_hi[j];
      out[Lanes + j] = lo_hi[n + j];
    }
  } else {
    using Block = xsimd::batch<float, FitArch<Arch, Lanes>>;
    constexpr int width = static_cast<int>(Block::size);
    constexpr int blocks = (Lanes + width - 1) / width;
    int at[blocks];
    Block mx[blocks], my[blocks], mz[blocks], lo[blocks], hi[blocks];
    for (int b = 0; b < blocks; ++b) {
      at[b] = block_start(b, width, Lanes);
      mx[b] = Block::load_unaligned(f.mx + at[b]);
      my[b] = Block::load_unaligned(f.my + at[b]);
      mz[b] = Block::load_unaligned(f.mz + at[b]);
      lo[b] = Block(std::numeric_limits<float>::infinity());
      hi[b] = Block(-std::numeric_limits<float>::infinity());
    }
    for (std::uint32_t i = 0; i < count; ++i) {
      const Block x(vx[i]), y(vy[i]), z(vz[i]);
      for (int b = 0; b < blocks; ++b) {
        const Block s = (mx[b] * x + my[b] * y) + mz[b] * z;
        lo[b] = xsimd::min(s, lo[b]);
        hi[b] = xsimd::max(s, hi[b]);
      }
    }
    for (int b = 0; b < blocks; ++b) {
      const Block c = Block::load_unaligned(f.c + at[b]);
      (lo[b] + c).store_unaligned(out + at[b]);
      (hi[b] + c).store_unaligned(out + Lanes + at[b]);
    }
  }
}

}  // namespace kdop::simd
