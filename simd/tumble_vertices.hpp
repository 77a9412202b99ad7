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

template <int Lanes>
struct SlabFrame {
  alignas(64) float mx[Lanes], my[Lanes], mz[Lanes], c[Lanes];
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

template <class Arch, int Lanes, int From = 0>
[[gnu::always_inline]] inline void tumble_vertices(const SlabFrame<Lanes>& f, const float* vx,
                                                   const float* vy, const float* vz,
                                                   std::uint32_t count, float* out) {
  if constexpr (is_scalar<Arch>) {
    tumble_vertices_scalar<Lanes>(f, vx, vy, vz, count, out);
  } else if constexpr (From < Lanes) {
    using Block = xsimd::batch<float, FitArch<Arch, Lanes - From>>;
    const Block mx = Block::load_unaligned(f.mx + From), my = Block::load_unaligned(f.my + From);
    const Block mz = Block::load_unaligned(f.mz + From), c = Block::load_unaligned(f.c + From);
    Block lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
    for (std::uint32_t i = 0; i < count; ++i) {
      const Block s = (mx * Block(vx[i]) + my * Block(vy[i])) + mz * Block(vz[i]);
      // min(s, lo) is minps(s, lo), which returns "s < lo ? s : lo" exactly as the scalar
      // reference does (also for -0 and +0); max likewise.
      lo = xsimd::min(s, lo);
      hi = xsimd::max(s, hi);
    }
    (lo + c).store_unaligned(out + From);
    (hi + c).store_unaligned(out + Lanes + From);
    tumble_vertices<Arch, Lanes, From + static_cast<int>(Block::size)>(f, vx, vy, vz, count, out);
  }
}

}  // namespace kdop::simd
