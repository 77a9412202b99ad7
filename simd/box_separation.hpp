#pragma once
// Separating-axis test of two oriented boxes (Gottschalk, Lin and Manocha 1996, section 5 and
// Table 1) in float, all 15 candidate axes at once: lane L of one 16-float vector holds axis L
//   L = 0..2    A_i          (box A's axes)
//   L = 3..5    B_j          (box B's axes, j = L - 3)
//   L = 6..14   A_i x B_j    (i = (L - 6) / 3, j = (L - 6) % 3)
//   L = 15      padding (never separates)
// and each lane's |T . L| and reach are sums of products of entries of one "source" vector, read
// through fixed lane permutations (one vpermps each on AVX-512). The double test of
// geometry/obb_overlap.hpp branches after each axis; this one has no branch and about a fifth of
// its instructions, which is what the OBB traversal spends most of its time on. The traversal
// waits for each answer before it pops the next pair, so the kernel is written for a short chain
// of dependent operations: B's axes read d . v_j directly (not T . R_j), products are fused where
// one rounding replaces two, sums are paired, and the slack on |R| joins the margin, which does
// not wait for R.
//
// Inputs (box A at the environment node, box B the flying node placed at the pose):
//   a_centre   3 doubles: A's centre;       b_centre   3 doubles: B's centre
//   a_axes     12 doubles: A's axes u_0, u_1, u_2 (rows, 3 each), then A's half extents a
//   b_block    16 floats: B's axes v_0, v_1, v_2 (9), sum of b (lane 9), the placed centre's
//              coordinate magnitude (lane 10), 0 (lane 11), b (lanes 12-14), 0 (lane 15);
//              make_box_block writes it.
//
// Float, conservative. With u = 2^-24 and d = b_centre - a_centre (double, then rounded):
//   - R_ij = u_i . v_j, T_i = u_i . d and S_j = d . v_j in float are off by at most 6u, 6u |d|
//     and 6u |d| (rounded unit vectors, three products, two sums; Cauchy-Schwarz bounds sum
//     |u_ik v_jk| by 1), so each |R| in a reach is widened by kSlack = 2^-20 (as the double
//     test widens it by 2^-40, which also keeps parallel edges from looking separated): the
//     reach gains kSlack times the sum of its coefficients, added to the margin;
//   - |T . L| is then off by at most 37u |d| (cross axes: two products of such T and R, fused),
//     and the reach, a sum of at most four non-negative products of |R| with a and b, is at
//     least the exact reach less 6u (sum a + sum b);
//   - the margin 2^-16 (|d|_1 + sum a + sum b) covers both with room (2^-16 = 256u), plus
//     2^-40 of the placed centre's magnitude for the double rounding of placing it (as in the
//     double test).
// So "separated" here implies separated by exact arithmetic on the stored boxes. Outside
// [1e-30, 1e30] for |d|_1 + sum a + sum b (subnormal products, overflow), and for NaN, the
// answer is `undecided` and the caller runs the double test.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "simd/arch.hpp"

namespace kdop::simd {

enum class BoxSeparation : std::uint8_t { overlapping = 0, separated = 1, undecided = 2 };

inline constexpr float kBoxSlack = 0x1p-20f;
inline constexpr double kBoxMarginScale = 0x1p-16;
inline constexpr double kBoxPlacementScale = 0x1p-40;

// Lanes of b_block.
inline constexpr int kBlockSumB = 9, kBlockScale = 10, kBlockHalf = 12;

// B's 16-float block from its axes (3 x 3, rows v_j), half extents b and the placed centre's
// magnitude (double). The block's floats are rounded to nearest (the bounds above allow it);
// sum b is rounded up by a relative 2^-20.
template <class Arch>
[[gnu::always_inline]] inline void make_box_block(const double* axes, const double* half,
                                                  double scale, float* block) {
  for (int k = 0; k < 9; ++k) block[k] = static_cast<float>(axes[k]);
  block[kBlockSumB] = static_cast<float>((half[0] + half[1] + half[2]) * (1 + 0x1p-20));
  block[kBlockScale] = static_cast<float>(scale * (1 + 0x1p-20));
  block[11] = 0;
  for (int k = 0; k < 3; ++k) block[kBlockHalf + k] = static_cast<float>(half[k]);
  block[15] = 0;
}

namespace box_lanes {

// The source vector X: lanes 0-8 R_ij (3i + j), 9-11 T_i, 12 the constant 1, 13-15 S_j.
// X[m] = E[p2] V[q2] + (E[p1] V[q1] + E[p0] V[q0]) (two fused steps), with
// E = [u (9), a (3), d (3), 0] and V = [v (9), d (3), b (3), 0].
struct XTerms {
  int e[3][16];
  int v[3][16];
};
constexpr XTerms x_terms() {
  XTerms t{};
  for (int m = 0; m < 16; ++m) {
    for (int k = 0; k < 3; ++k) {
      if (m < 9) {
        t.e[k][m] = 3 * (m / 3) + k;
        t.v[k][m] = 3 * (m % 3) + k;
      } else if (m < 12) {
        t.e[k][m] = 3 * (m - 9) + k;
        t.v[k][m] = 9 + k;
      } else if (m == 12) {
        t.e[k][m] = 15;  // E[15] = 0; the lane is then set to 1
        t.v[k][m] = 0;
      } else {
        t.e[k][m] = 12 + k;
        t.v[k][m] = 3 * (m - 13) + k;
      }
    }
  }
  return t;
}

inline constexpr int kOne = 12;
// Lanes whose |T . L| has a second product (the cross axes), and the 15 axes' lanes.
inline constexpr std::uint16_t kCrossLanes = 0x7FC0, kAxisLanes = 0x7FFF;

// |T . L| = |X[l0] X[r0] - X[l1] X[r1]| (the second product on the cross lanes only, the
// difference fused): A_i: T_i * 1; B_j: S_j * 1; A_i x B_j: T_i2 R_i1j - T_i1 R_i2j.
struct LhsTerms {
  int l[2][16];
  int r[2][16];
};
constexpr LhsTerms lhs_terms() {
  LhsTerms t{};
  for (int lane = 0; lane < 16; ++lane) {
    for (int k = 0; k < 2; ++k) {
      t.l[k][lane] = kOne;
      t.r[k][lane] = kOne;
    }
    if (lane < 3) {
      t.l[0][lane] = 9 + lane;
    } else if (lane < 6) {
      t.l[0][lane] = 13 + (lane - 3);
    } else if (lane < 15) {
      const int i = (lane - 6) / 3, j = (lane - 6) % 3;
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
      t.l[0][lane] = 9 + i2;
      t.r[0][lane] = 3 * i1 + j;
      t.l[1][lane] = 9 + i1;
      t.r[1][lane] = 3 * i2 + j;
    }
  }
  return t;
}

// reach = (C[c0] A[m0] + C[c1] A[m1]) + (C[c2] A[m2] + (C[c3] A[m3] + M)), each inner sum fused,
// with A = |X| (lane 12 the constant 1), C = [.., a (lanes 9-11), b (lanes 12-14), 0] and
// M = margin + kSlack * (((C[c0] + C[c1]) + C[c2]) + C[c3]).
struct ReachTerms {
  int c[4][16];
  int m[4][16];
};
constexpr ReachTerms reach_terms() {
  ReachTerms t{};
  for (int lane = 0; lane < 16; ++lane) {
    for (int k = 0; k < 4; ++k) {
      t.c[k][lane] = 15;  // C[15] = 0
      t.m[k][lane] = kOne;
    }
    if (lane < 3) {  // A_i: a_i + b_0 |R_i0| + b_1 |R_i1| + b_2 |R_i2|
      const int i = lane;
      t.c[0][lane] = 9 + i;
      t.m[0][lane] = kOne;
      for (int j = 0; j < 3; ++j) {
        t.c[1 + j][lane] = 12 + j;
        t.m[1 + j][lane] = 3 * i + j;
      }
    } else if (lane < 6) {  // B_j: a_0 |R_0j| + a_1 |R_1j| + a_2 |R_2j| + b_j
      const int j = lane - 3;
      for (int i = 0; i < 3; ++i) {
        t.c[i][lane] = 9 + i;
        t.m[i][lane] = 3 * i + j;
      }
      t.c[3][lane] = 12 + j;
      t.m[3][lane] = kOne;
    } else if (lane < 15) {
      // A_i x B_j: a_i1 |R_i2j| + a_i2 |R_i1j| + b_j1 |R_ij2| + b_j2 |R_ij1|
      const int i = (lane - 6) / 3, j = (lane - 6) % 3;
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      t.c[0][lane] = 9 + i1;
      t.m[0][lane] = 3 * i2 + j;
      t.c[1][lane] = 9 + i2;
      t.m[1][lane] = 3 * i1 + j;
      t.c[2][lane] = 12 + j1;
      t.m[2][lane] = 3 * i + j2;
      t.c[3][lane] = 12 + j2;
      t.m[3][lane] = 3 * i + j1;
    }
  }
  return t;
}

}  // namespace box_lanes

// The 15 axes of the lane tables above in plain float arithmetic (std::fma where the vector
// version fuses), in the same order as the vector version: the reference it must equal bit for
// bit. `e` and `v` are E and V above.
// Templated on the ISA tag and always inlined, like every kernel here, so no per-ISA object
// shares out-of-line code with another (tests/simd/isa_hygiene_test.sh).
template <class Arch>
[[gnu::always_inline]] inline bool box_lanes_separated(const float e[16], const float v[16],
                                                       float margin) {
  using namespace box_lanes;
  constexpr XTerms kx = x_terms();
  constexpr LhsTerms kl = lhs_terms();
  constexpr ReachTerms kr = reach_terms();
  float x[16], ax[16], c[16];
  for (int m = 0; m < 16; ++m) {
    x[m] = std::fma(e[kx.e[2][m]], v[kx.v[2][m]],
                    std::fma(e[kx.e[1][m]], v[kx.v[1][m]], e[kx.e[0][m]] * v[kx.v[0][m]]));
  }
  x[kOne] = 1;
  for (int m = 0; m < 16; ++m) ax[m] = std::fabs(x[m]);
  for (int m = 0; m < 16; ++m) c[m] = m < 12 ? e[m] : v[m];
  bool separated = false;
  for (int lane = 0; lane < 15; ++lane) {
    const bool cross = (kCrossLanes >> lane) & 1;
    const float second = cross ? x[kl.l[1][lane]] * x[kl.r[1][lane]] : 0.0f;
    const float lhs = std::fabs(std::fma(x[kl.l[0][lane]], x[kl.r[0][lane]], -second));
    float q[4], m[4];
    for (int k = 0; k < 4; ++k) {
      q[k] = c[kr.c[k][lane]];
      m[k] = ax[kr.m[k][lane]];
    }
    const float slack_margin = std::fma(kBoxSlack, ((q[0] + q[1]) + q[2]) + q[3], margin);
    const float rhs = std::fma(q[0], m[0], q[1] * m[1]) +
                      std::fma(q[2], m[2], std::fma(q[3], m[3], slack_margin));
    separated |= lhs > rhs;
  }
  return separated;
}

namespace box_lanes {

// The per-pair scalars: d = b_centre - a_centre, the margin, and whether float may decide.
struct PairScalars {
  double d[3];
  float margin;
  bool in_range;
};

template <class Arch>
[[gnu::always_inline]] inline PairScalars pair_scalars(const double* a_centre, const double* a_axes,
                                                       const double* b_centre,
                                                       const float* b_block) {
  PairScalars s;
  for (int k = 0; k < 3; ++k) s.d[k] = b_centre[k] - a_centre[k];
  const double size = (std::fabs(s.d[0]) + std::fabs(s.d[1]) + std::fabs(s.d[2])) +
                      (a_axes[9] + a_axes[10] + a_axes[11]) + double{b_block[kBlockSumB]};
  s.in_range = size >= 1e-30 && size <= 1e30;  // false for NaN
  s.margin = static_cast<float>(
      (kBoxMarginScale * size + kBoxPlacementScale * double{b_block[kBlockScale]}) * (1 + 0x1p-20));
  return s;
}

#if XSIMD_WITH_AVX512BW
// A 16-lane index table as a vector constant (folded at compile time).
[[gnu::always_inline]] inline __m512i index_vector(const int (&t)[16]) {
  return _mm512_setr_epi32(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11],
                           t[12], t[13], t[14], t[15]);
}
#endif

}  // namespace box_lanes

// The test, or `undecided` where float cannot decide (see above).
template <class Arch>
[[gnu::always_inline]] inline BoxSeparation boxes_separated(const double* a_centre,
                                                            const double* a_axes,
                                                            const double* b_centre,
                                                            const float* b_block) {
  const box_lanes::PairScalars s =
      box_lanes::pair_scalars<Arch>(a_centre, a_axes, b_centre, b_block);
  if (!s.in_range) return BoxSeparation::undecided;
#if XSIMD_WITH_AVX512BW
  if constexpr (std::is_same_v<Arch, xsimd::avx512bw>) {
    using namespace box_lanes;
    using B = xsimd::batch<float, Arch>;
    constexpr XTerms kx = x_terms();
    constexpr LhsTerms kl = lhs_terms();
    constexpr ReachTerms kr = reach_terms();
    // E = [u (9), a (3), d (3), 0]: the 12 doubles and d converted.
    const __m128 d4 = _mm256_cvtpd_ps(_mm256_setr_pd(s.d[0], s.d[1], s.d[2], 0.0));
    const __m256 e_lo = _mm512_cvtpd_ps(_mm512_loadu_pd(a_axes));
    const __m128 e_hi = _mm256_cvtpd_ps(_mm256_loadu_pd(a_axes + 8));
    const B e =
        _mm512_insertf32x4(_mm512_insertf32x4(_mm512_castps256_ps512(e_lo), e_hi, 2), d4, 3);
    // V = b_block with d in lanes 9-11 ((0, d0, d1, d2) broadcast to every 4-lane block).
    const __m128 d4_up = _mm_permute_ps(d4, _MM_SHUFFLE(2, 1, 0, 3));
    const B v = _mm512_mask_broadcast_f32x4(_mm512_loadu_ps(b_block), 0x0E00, d4_up);
    const B one(1.0f);
    constexpr __mmask16 one_lane = 1u << kOne;
    const auto perm = [](const int(&idx)[16], const B& from) {
      return B(_mm512_permutexvar_ps(index_vector(idx), from));
    };
    const auto fma = [](const B& p, const B& q, const B& r) { return B(_mm512_fmadd_ps(p, q, r)); };
    B x = fma(perm(kx.e[2], e), perm(kx.v[2], v),
              fma(perm(kx.e[1], e), perm(kx.v[1], v), perm(kx.e[0], e) * perm(kx.v[0], v)));
    x = _mm512_mask_mov_ps(x, one_lane, one);
    const B ax = xsimd::abs(x);
    const B c = _mm512_mask_mov_ps(e, 0xF000, v);
    const B second = _mm512_maskz_mul_ps(kCrossLanes, perm(kl.l[1], x), perm(kl.r[1], x));
    const B lhs = xsimd::abs(B(_mm512_fmsub_ps(perm(kl.l[0], x), perm(kl.r[0], x), second)));
    const B c0 = perm(kr.c[0], c), c1 = perm(kr.c[1], c), c2 = perm(kr.c[2], c),
            c3 = perm(kr.c[3], c);
    const B slack_margin = fma(B(kBoxSlack), ((c0 + c1) + c2) + c3, B(s.margin));
    const B rhs = fma(c0, perm(kr.m[0], ax), c1 * perm(kr.m[1], ax)) +
                  fma(c2, perm(kr.m[2], ax), fma(c3, perm(kr.m[3], ax), slack_margin));
    return _mm512_mask_cmp_ps_mask(kAxisLanes, lhs, rhs, _CMP_GT_OQ) != 0
               ? BoxSeparation::separated
               : BoxSeparation::overlapping;
  }
#endif
  float e[16], v[16];
  for (int k = 0; k < 12; ++k) e[k] = static_cast<float>(a_axes[k]);
  for (int k = 0; k < 3; ++k) e[12 + k] = static_cast<float>(s.d[k]);
  e[15] = 0;
  for (int k = 0; k < 16; ++k) v[k] = b_block[k];
  for (int k = 0; k < 3; ++k) v[9 + k] = e[12 + k];
  return box_lanes_separated<Arch>(e, v, s.margin) ? BoxSeparation::separated
                                                   : BoxSeparation::overlapping;
}

}  // namespace kdop::simd
