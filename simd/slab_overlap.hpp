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

template <class Arch, int Lanes, int From = 0>
[[gnu::always_inline]] inline bool slab_overlap(const float* a, const float* b) {
  if constexpr (is_scalar<Arch>) {
    return slab_overlap_scalar<Lanes>(a, b);
  } else if constexpr (From == Lanes) {
    return true;
  } else {
    using Block = xsimd::batch<float, FitArch<Arch, Lanes - From>>;
    const auto ok = (Block::load_unaligned(a + From) <= Block::load_unaligned(b + Lanes + From)) &
                    (Block::load_unaligned(b + From) <= Block::load_unaligned(a + Lanes + From));
    // Bitwise on ints: both blocks are tested, with no branch between them.
    const int rest = slab_overlap<Arch, Lanes, From + static_cast<int>(Block::size)>(a, b);
    return (int{xsimd::all(ok)} & rest) != 0;
  }
}

}  // namespace kdop::simd
