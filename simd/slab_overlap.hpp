#pragma once
// Slab test of two k-DOPs (Klosowski et al. 1998, section 4.4): they may overlap iff every one
// of the k/2 interval pairs overlaps. Closed intervals, so touching DOPs overlap. Each DOP is
// `Lanes` lo values followed by `Lanes` hi values (geometry/dop.hpp); Lanes is a multiple of 4,
// so the test is Lanes/4 pairs of 4-wide compares and one mask test, on any x86-64 (SSE2) or
// ARM (NEON) build. Wider ISAs are a later, run-time-dispatched step.
#include <xsimd/xsimd.hpp>

namespace kdop::simd {

// Scalar reference; the vector version must agree with it bit for bit.
template <int Lanes>
inline bool slab_overlap_scalar(const float* a, const float* b) {
  for (int j = 0; j < Lanes; ++j) {
    if (!(a[j] <= b[Lanes + j] && b[j] <= a[Lanes + j])) return false;
  }
  return true;
}

template <int Lanes, class Arch = xsimd::default_arch>
inline bool slab_overlap(const float* a, const float* b) {
  using Batch = xsimd::batch<float, Arch>;
  constexpr int width = static_cast<int>(Batch::size);
  if constexpr (Lanes % width != 0) {
    return slab_overlap_scalar<Lanes>(a, b);
  } else {
    auto ok = (Batch::load_unaligned(a) <= Batch::load_unaligned(b + Lanes)) &
              (Batch::load_unaligned(b) <= Batch::load_unaligned(a + Lanes));
    for (int j = width; j < Lanes; j += width) {
      ok = ok & (Batch::load_unaligned(a + j) <= Batch::load_unaligned(b + Lanes + j)) &
           (Batch::load_unaligned(b + j) <= Batch::load_unaligned(a + Lanes + j));
    }
    return xsimd::all(ok);
  }
}

}  // namespace kdop::simd
