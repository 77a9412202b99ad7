#pragma once
// The wide alternative to simd/slab_overlap.hpp, measured against it (bench/, docs/): one flying
// DOP against W environment DOPs at once, lanes across environment nodes. A block holds W DOPs
// slab by slab: for slab j, W lo values then W hi values (2 * Slabs * W floats), the layout a
// W-ary environment tree would store. Returns the W-bit mask of the environment DOPs that may
// overlap the flying one. Unused lanes of a block hold [+inf, -inf] (never overlap).
#include <cstdint>

#include "simd/arch.hpp"

namespace kdop::simd {

template <int Slabs, int W>
inline unsigned slab_overlap_wide_scalar(const float* fly, int fly_lanes, const float* block) {
  unsigned mask = (W >= 32) ? ~0u : ((1u << W) - 1);
  for (int j = 0; j < Slabs; ++j) {
    const float* lo = block + 2 * W * j;
    const float* hi = lo + W;
    for (int i = 0; i < W; ++i) {
      if (!(lo[i] <= fly[fly_lanes + j] && fly[j] <= hi[i])) mask &= ~(1u << i);
    }
  }
  return mask;
}

template <class Arch, int Slabs, int W>
[[gnu::always_inline]] inline unsigned slab_overlap_wide(const float* fly, int fly_lanes,
                                                         const float* block) {
  if constexpr (is_scalar<Arch>) {
    return slab_overlap_wide_scalar<Slabs, W>(fly, fly_lanes, block);
  } else {
    using A = FitArch<Arch, W>;
    using B = xsimd::batch<float, A>;
    constexpr int width = static_cast<int>(B::size);
    unsigned mask = 0;
    for (int base = 0; base < W; base += width) {
      auto ok = B::load_unaligned(block + base) <= B(fly[fly_lanes]);
      ok = ok & (B(fly[0]) <= B::load_unaligned(block + W + base));
      for (int j = 1; j < Slabs; ++j) {
        const float* lo = block + 2 * W * j;
        ok = ok & (B::load_unaligned(lo + base) <= B(fly[fly_lanes + j])) &
             (B(fly[j]) <= B::load_unaligned(lo + W + base));
      }
      mask |= to_bits<A>(ok) << base;
    }
    return mask;
  }
}

}  // namespace kdop::simd
