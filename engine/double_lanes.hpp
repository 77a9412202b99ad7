#pragma once
// Double-precision batches rounded to float, for code that computes in double a lane per item and
// must round as the scalar code does (static_cast<float>, float_below_fast / float_above_fast in
// geometry/dop.hpp): the environment keys a group at a time (engine/leaf_test.hpp,
// object_frame_keys) and the tumble frame a batch of slabs at a time (engine/tumble.hpp,
// frame_lanes). Every ISA's version is checked bit for bit against the scalar code by the tests of
// those two (LeafKey.EveryIsaCachesTheScalarKeys, Tumble.EveryIsaMakesTheScalarFrame).
#include <limits>
#include <type_traits>

#include "geometry/dop.hpp"
#include "simd/arch.hpp"

namespace kdop {

// float_below_fast / float_above_fast up to their final conversion to float, per lane.
template <class Arch>
[[gnu::always_inline]] inline xsimd::batch<double, Arch> below_fast_lanes(
    const xsimd::batch<double, Arch>& d) {
  using B = xsimd::batch<double, Arch>;
  const B v = (d - B(0x1p-22) * xsimd::abs(d)) - B(kFloatUnderflowFloor);
  const B most(std::numeric_limits<float>::max());
  return xsimd::select(v < most, v, most);
}
template <class Arch>
[[gnu::always_inline]] inline xsimd::batch<double, Arch> above_fast_lanes(
    const xsimd::batch<double, Arch>& d) {
  using B = xsimd::batch<double, Arch>;
  const B v = (d + B(0x1p-22) * xsimd::abs(d)) + B(kFloatUnderflowFloor);
  const B least(-static_cast<double>(std::numeric_limits<float>::max()));
  return xsimd::select(v > least, v, least);
}

// Values rounded to float and back, lane by lane (static_cast<float> kept in a vector), and
// (|a| + |b|) + |c| summed in float for values that are floats already. (Written first as a loop
// over the lanes through memory, which GCC 12 compiled, at -O2 and -O3, into code that left one of
// three such values unrounded: EveryIsaCachesTheScalarKeys caught it.) AVX-512 takes the
// zero-masked forms: GCC 12's plain ones trip -Wuninitialized on an undefined pass-through.
template <class Arch>
[[gnu::always_inline]] inline xsimd::batch<double, Arch> through_float(
    const xsimd::batch<double, Arch>& x) {
#if XSIMD_WITH_AVX512F
  if constexpr (std::is_same_v<Arch, xsimd::avx512bw>)
    return _mm512_maskz_cvtps_pd(0xFF, _mm512_maskz_cvtpd_ps(0xFF, x));
#endif
#if XSIMD_WITH_AVX
  if constexpr (std::is_same_v<Arch, xsimd::avx2>) return _mm256_cvtps_pd(_mm256_cvtpd_ps(x));
#endif
  static_assert(std::is_same_v<Arch, xsimd::sse4_2> || std::is_same_v<Arch, xsimd::avx2> ||
                std::is_same_v<Arch, xsimd::avx512bw>);
  if constexpr (std::is_same_v<Arch, xsimd::sse4_2>) return _mm_cvtps_pd(_mm_cvtpd_ps(x));
}

template <class Arch>
[[gnu::always_inline]] inline xsimd::batch<double, Arch> float_l1(
    const xsimd::batch<double, Arch>& a, const xsimd::batch<double, Arch>& b,
    const xsimd::batch<double, Arch>& c) {
#if XSIMD_WITH_AVX512F
  if constexpr (std::is_same_v<Arch, xsimd::avx512bw>) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256 fa = _mm256_andnot_ps(sign, _mm512_maskz_cvtpd_ps(0xFF, a));
    const __m256 fb = _mm256_andnot_ps(sign, _mm512_maskz_cvtpd_ps(0xFF, b));
    const __m256 fc = _mm256_andnot_ps(sign, _mm512_maskz_cvtpd_ps(0xFF, c));
    return _mm512_maskz_cvtps_pd(0xFF, _mm256_add_ps(_mm256_add_ps(fa, fb), fc));
  }
#endif
  // Four lanes of floats (two of them used with SSE4).
  const auto sum4 = [](__m128 fa, __m128 fb, __m128 fc) {
    const __m128 sign = _mm_set1_ps(-0.0f);
    return _mm_add_ps(_mm_add_ps(_mm_andnot_ps(sign, fa), _mm_andnot_ps(sign, fb)),
                      _mm_andnot_ps(sign, fc));
  };
#if XSIMD_WITH_AVX
  if constexpr (std::is_same_v<Arch, xsimd::avx2>)
    return _mm256_cvtps_pd(sum4(_mm256_cvtpd_ps(a), _mm256_cvtpd_ps(b), _mm256_cvtpd_ps(c)));
#endif
  if constexpr (std::is_same_v<Arch, xsimd::sse4_2>)
    return _mm_cvtps_pd(sum4(_mm_cvtpd_ps(a), _mm_cvtpd_ps(b), _mm_cvtpd_ps(c)));
}

// A double batch's lanes rounded to float (as static_cast<float>) and stored at `out`.
template <class Arch>
[[gnu::always_inline]] inline void store_as_floats(const xsimd::batch<double, Arch>& x,
                                                   float* out) {
#if XSIMD_WITH_AVX512F
  if constexpr (std::is_same_v<Arch, xsimd::avx512bw>) {
    _mm256_storeu_ps(out, _mm512_maskz_cvtpd_ps(0xFF, x));  // zero-masked: see through_float
    return;
  }
#endif
#if XSIMD_WITH_AVX
  if constexpr (std::is_same_v<Arch, xsimd::avx2>) {
    _mm_storeu_ps(out, _mm256_cvtpd_ps(x));
    return;
  }
#endif
  static_assert(std::is_same_v<Arch, xsimd::sse4_2> || std::is_same_v<Arch, xsimd::avx2> ||
                std::is_same_v<Arch, xsimd::avx512bw>);
  if constexpr (std::is_same_v<Arch, xsimd::sse4_2>)
    _mm_storel_pi(reinterpret_cast<__m64*>(out), _mm_cvtpd_ps(x));
}

}  // namespace kdop
