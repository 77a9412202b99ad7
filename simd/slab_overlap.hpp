#pragma once
// Slab test of two k-DOPs (Klosowski et al. 1998, section 4.4): they may overlap iff every one
// of the k/2 interval pairs overlaps. Closed intervals, so touching DOPs overlap. Each DOP is
// `Lanes` lo values followed by `Lanes` hi values (geometry/dop.hpp); padding lanes hold
// [-inf, inf] and never reject. All Lanes are tested in the fewest vector compares of the ISA
// (K = 26: 16 lanes = one AVX-512 compare, two AVX2 or four SSE ones) and one mask test.
#include "simd/arch.hpp"

namespace kdop::simd {

template <int Lanes>
inline bool slab_overlap_scalar(const float* a, const float* b) {
  bool ok = true;
  for (int j = 0; j < Lanes; ++j) ok &= a[j] <= b[Lanes + j] && b[j] <= a[Lanes + j];
  return ok;
}

// Blocks of the widest type that fits in Lanes; where Lanes is not a multiple of its width, the
// last block ends at Lanes and overlaps the one before it (K = 18's 12 lanes on AVX2 or AVX-512:
// [0, 8) and [4, 12)). Repeating a few compares is cheaper than a narrower extra block, and no
// load reaches past the DOP. The blocks' outcomes are combined in the vector, tested once.
template <class Arch, int Lanes>
[[gnu::always_inline]] inline bool slab_overlap(const float* a, const float* b) {
  if constexpr (is_scalar<Arch>) {
    return slab_overlap_scalar<Lanes>(a, b);
  } else {
    using Block = xsimd::batch<float, FitArch<Arch, Lanes>>;
    constexpr int width = static_cast<int>(Block::size);
    const auto block_overlaps = [&](int from) {
      return (Block::load_unaligned(a + from) <= Block::load_unaligned(b + Lanes + from)) &
             (Block::load_unaligned(b + from) <= Block::load_unaligned(a + Lanes + from));
    };
    auto ok = block_overlaps(0);
    for (int b = 1; b * width < Lanes; ++b) ok = ok & block_overlaps(block_start(b, width, Lanes));
    return xsimd::all(ok);
  }
}

}  // namespace kdop::simd
