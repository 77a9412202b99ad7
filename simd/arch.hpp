#pragma once
// Architecture tags the kernels are templated on: xsimd's for the vector ISAs, and ScalarArch
// for the plain C++ reference. Every kernel has one body per tag family: a scalar loop, and an
// xsimd loop that covers `Lanes` floats with blocks of the widest batch that fits, never with a
// scalar tail or a narrower block: where Lanes is not a multiple of the width, the last block
// ends at Lanes and overlaps the one before it (12 lanes: [0, 8) and [4, 12); block_start).
// Kernels are [[gnu::always_inline]]: both the per-ISA query (engine/isa/) and the per-ISA kernel
// table (simd/isa/) instantiate them, and an out-of-line copy would be one symbol in two objects
// compiled for the ISA, which tests/simd/isa_hygiene_test.sh rejects (a linker choosing one copy
// for everyone is how an older CPU meets an illegal instruction).
#include <type_traits>
#include <xsimd/xsimd.hpp>

#include "simd/isa.hpp"

namespace kdop::simd {

struct ScalarArch {};

template <class Arch>
inline constexpr bool is_scalar = std::is_same_v<Arch, ScalarArch>;

// The tag of each ISA. Kernels for avx2 / avx512 may also use the narrower batches of the ISAs
// below them (an AVX2 build can run SSE4 instructions, VEX-encoded).
template <Isa I>
struct ArchOf;
template <>
struct ArchOf<Isa::scalar> {
  using type = ScalarArch;
};
template <>
struct ArchOf<Isa::sse4> {
  using type = xsimd::sse4_2;
};
template <>
struct ArchOf<Isa::avx2> {
  using type = xsimd::avx2;
};
template <>
struct ArchOf<Isa::avx512> {
  using type = xsimd::avx512bw;
};

// The widest batch of Arch's family that holds at most N floats (N a multiple of 4): kernels
// over `Lanes` floats take blocks of FitArch<Arch, Lanes>, placed by block_start.
template <class Arch>
inline constexpr int width = static_cast<int>(xsimd::batch<float, Arch>::size);

template <class Arch, int N>
struct FitArchOf {
  using type =
      std::conditional_t<(width<Arch> <= N), Arch,
                         std::conditional_t<std::is_same_v<Arch, xsimd::avx512bw> && N >= 8,
                                            xsimd::avx2, xsimd::sse4_2>>;
};
template <class Arch, int N>
using FitArch = typename FitArchOf<Arch, N>::type;

// Where block b of `block_width` floats starts when blocks cover `lanes` floats: back to back,
// except that a last block which would run past `lanes` ends at `lanes` instead and overlaps the
// one before it (12 lanes in blocks of 8: 0 and 4). No load reaches past the data, and the
// overlapped lanes compute the same values twice.
// Always inlined, like the kernels: an out-of-line copy would be one symbol in every ISA's objects.
[[gnu::always_inline]] constexpr int block_start(int b, int block_width, int lanes) {
  return (b + 1) * block_width <= lanes ? b * block_width : lanes - block_width;
}

// A lane mask as bits (lane i -> bit i). The wider register types exist only in translation
// units compiled for those ISAs, hence xsimd's own feature macros.
template <class Arch>
inline unsigned to_bits(const xsimd::batch_bool<float, Arch>& b) {
#if XSIMD_WITH_AVX512BW
  if constexpr (std::is_same_v<Arch, xsimd::avx512bw>) {
    return static_cast<unsigned>(static_cast<__mmask16>(b));
  }
#endif
#if XSIMD_WITH_AVX2
  if constexpr (std::is_same_v<Arch, xsimd::avx2>) {
    return static_cast<unsigned>(_mm256_movemask_ps(static_cast<__m256>(b)));
  }
#endif
  if constexpr (std::is_same_v<Arch, xsimd::sse4_2>) {
    return static_cast<unsigned>(_mm_movemask_ps(static_cast<__m128>(b)));
  }
  return 0;  // unreachable: no other vector ISA is instantiated (static_assert below)
}

}  // namespace kdop::simd
