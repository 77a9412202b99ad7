#pragma once
// Vertex transform + min/max reduction for tumbling a k-DOP (Klosowski et al. 1998, section
// 4.1, method II): for every stored vertex v and slab j, s_j(v) = m_j . v + c_j, where
// m_j = R^T n_j and c_j = n_j . t; the node's new intervals are the min and max over its
// vertices. Lanes run over slabs, so one vector instruction serves 4 directions at a time.
// Multiplies and adds stay separate (no FMA), in a fixed order, on every ISA.
#include <cstdint>
#include <limits>
#include <xsimd/xsimd.hpp>

namespace kdop::simd {

template <int Lanes>
struct SlabFrame {
  alignas(64) float mx[Lanes], my[Lanes], mz[Lanes], c[Lanes];
};

// Scalar reference. out: Lanes lo values then Lanes hi values. Requires count >= 1.
template <int Lanes>
inline void tumble_vertices_scalar(const SlabFrame<Lanes>& f, const float* vx, const float* vy,
                                   const float* vz, std::uint32_t count, float* out) {
  for (int j = 0; j < Lanes; ++j) {
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (std::uint32_t i = 0; i < count; ++i) {
      const float s = ((f.mx[j] * vx[i] + f.my[j] * vy[i]) + f.mz[j] * vz[i]) + f.c[j];
      lo = s < lo ? s : lo;
      hi = s > hi ? s : hi;
    }
    out[j] = lo;
    out[Lanes + j] = hi;
  }
}

template <int Lanes, class Arch = xsimd::default_arch>
inline void tumble_vertices(const SlabFrame<Lanes>& f, const float* vx, const float* vy,
                            const float* vz, std::uint32_t count, float* out) {
  using Batch = xsimd::batch<float, Arch>;
  constexpr int width = static_cast<int>(Batch::size);
  if constexpr (Lanes % width != 0) {
    tumble_vertices_scalar<Lanes>(f, vx, vy, vz, count, out);
  } else {
    for (int j = 0; j < Lanes; j += width) {
      const Batch mx = Batch::load_aligned(f.mx + j), my = Batch::load_aligned(f.my + j);
      const Batch mz = Batch::load_aligned(f.mz + j), c = Batch::load_aligned(f.c + j);
      Batch lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
      for (std::uint32_t i = 0; i < count; ++i) {
        const Batch s = ((mx * Batch(vx[i]) + my * Batch(vy[i])) + mz * Batch(vz[i])) + c;
        lo = xsimd::min(lo, s);
        hi = xsimd::max(hi, s);
      }
      lo.store_unaligned(out + j);
      hi.store_unaligned(out + Lanes + j);
    }
  }
}

}  // namespace kdop::simd
