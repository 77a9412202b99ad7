#pragma once
// k-DOP direction sets and the padded slab layout (Klosowski et al. 1998, section 3.3.3).
//
// A k-DOP is k/2 closed intervals [lo_j, hi_j] of n_j . p over its points, one per direction
// n_j below. Directions have small integer components, so n_j . p needs no rounded multiply
// (a factor 2 is exact) and |n_j|_1 <= 3 for every direction.
//
//   j   direction      6  14  18  26  32
//   0   ( 1,  0,  0)   x   x   x   x   x   axes
//   1   ( 0,  1,  0)   x   x   x   x   x
//   2   ( 0,  0,  1)   x   x   x   x   x
//   3   ( 1,  1,  1)       x       x   x   corner diagonals (cut off the 8 corners of a box)
//   4   ( 1, -1,  1)       x       x   x
//   5   ( 1,  1, -1)       x       x   x
//   6   ( 1, -1, -1)       x       x   x
//   7   ( 1,  1,  0)           x   x   x   edge diagonals (cut off the 12 edges of a box)
//   8   ( 1,  0,  1)           x   x   x
//   9   ( 0,  1,  1)           x   x   x
//  10   ( 1, -1,  0)           x   x   x
//  11   ( 1,  0, -1)           x   x   x
//  12   ( 0,  1, -1)           x   x   x
//  13   ( 2,  1,  0)                   x   three of the twelve (2, 1, 0) directions, one cycle of
//  14   ( 0,  2,  1)                   x   the axes (a turn about (1, 1, 1) maps each to the next)
//  15   ( 1,  0,  2)                   x
//
// K = 8 is Zachmann's octahedron (zachmann1998-dop-trees.txt, section 3): the four corner
// diagonals alone, j = 0..3 in the order of rows 3-6 above, and no axes.
//
// K = 32 is the future work of Klosowski et al. (section 3.3.3: larger k, "normal vectors having
// integer coordinates in the set {0, +-1, +-2}"), sized by the layout: the 26-DOP stores 13 slabs
// in 16 lanes, and its three padding lanes cost the same vector operations as real ones. Filled
// with directions between the 26-DOP's, they tighten every node for nearly free slab tests
// (docs/design-notes.md, "The 32-DOP").
//
// In memory a DOP is two runs of `lanes` floats: lo[0..lanes) then hi[0..lanes), where lanes is
// k/2 rounded up to a multiple of 4 so one vector compare covers all slabs. Padding lanes hold
// the always-overlapping interval [-inf, +inf], so they never reject.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "geometry/vec3.hpp"

namespace kdop {

struct Direction {
  int x, y, z;
};

template <int K>
struct DopShape {
  static_assert(K == 6 || K == 8 || K == 14 || K == 18 || K == 26 || K == 32,
                "k-DOPs of the papers: 6, 8 (Zachmann's octahedron), 14, 18, 26; and 32");
  static constexpr int k = K;
  static constexpr int slabs = K / 2;
  static constexpr int lanes = (slabs + 3) / 4 * 4;
  static constexpr int floats = 2 * lanes;  // floats per stored DOP

  static constexpr std::array<Direction, slabs> directions() {
    constexpr Direction axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    constexpr Direction corners[4] = {{1, 1, 1}, {1, -1, 1}, {1, 1, -1}, {1, -1, -1}};
    constexpr Direction edges[6] = {{1, 1, 0},  {1, 0, 1},  {0, 1, 1},
                                    {1, -1, 0}, {1, 0, -1}, {0, 1, -1}};
    constexpr Direction between[3] = {{2, 1, 0}, {0, 2, 1}, {1, 0, 2}};
    std::array<Direction, slabs> d{};
    int n = 0;
    if constexpr (K == 8) {
      for (const Direction& c : corners) d[n++] = c;
      return d;
    }
    for (const Direction& a : axes) d[n++] = a;
    if constexpr (K == 14 || K == 26 || K == 32) {
      for (const Direction& c : corners) d[n++] = c;
    }
    if constexpr (K == 18 || K == 26 || K == 32) {
      for (const Direction& e : edges) d[n++] = e;
    }
    if constexpr (K == 32) {
      for (const Direction& b : between) d[n++] = b;
    }
    return d;
  }
};

// Calls f(std::integral_constant<int, j>{}) for every slab j = 0 .. k/2 - 1, unrolled: with j a
// constant, project(directions()[j], ...) compiles to the one or two additions the direction
// needs instead of a loop over three branchy components.
template <int K, class F>
inline void for_each_slab(F&& f) {
  [&]<int... J>(std::integer_sequence<int, J...>) {
    (f(std::integral_constant<int, J>{}), ...);
  }
  (std::make_integer_sequence<int, DopShape<K>::slabs>{});
}

// A direction as a double vector, and its length (1, sqrt 2, sqrt 3 or sqrt 5).
inline Vec3 to_vec3(const Direction& n) {
  return {double(n.x), double(n.y), double(n.z)};
}
// Every DopShape direction has a squared length of 1, 2, 3 or 5: its length is one of four
// constants, std::sqrt's own values (it is correctly rounded), so the query's sphere test folds
// them at compile time instead of taking k/2 square roots per pose. Any other direction takes
// std::sqrt.
constexpr double norm(const Direction& n) {
  const int squared = n.x * n.x + n.y * n.y + n.z * n.z;
  if (squared == 1) return 1.0;
  if (squared == 2) return 0x1.6a09e667f3bcdp+0;
  if (squared == 3) return 0x1.bb67ae8584caap+0;
  if (squared == 5) return 0x1.1e3779b97f4a8p+1;
  return std::sqrt(static_cast<double>(squared));
}

// |n|_1, the scale of every float bound on a projection onto n (at most 3 for every DopShape
// direction). Constexpr, unlike std::abs in C++20.
constexpr int l1_norm(const Direction& n) {
  return (n.x < 0 ? -n.x : n.x) + (n.y < 0 ? -n.y : n.y) + (n.z < 0 ? -n.z : n.z);
}

// n . p in double for an integer direction with components in {-2, ..., 2}: the products are
// exact (a sign, or a doubling), so only the additions round.
inline double project(const Direction& n, double x, double y, double z) {
  double s = 0;
  if (n.x) s += n.x * x;
  if (n.y) s += n.y * y;
  if (n.z) s += n.z * z;
  return s;
}

// The neighbouring floats of a finite float (or of +inf / -inf towards the finite range), by
// stepping its bit pattern: cheap enough for the query's hot path, unlike std::nextafter.
inline float next_float_down(float f) {
  if (f == 0) return -std::numeric_limits<float>::denorm_min();
  const auto bits = std::bit_cast<std::uint32_t>(f);
  return std::bit_cast<float>(f > 0 ? bits - 1 : bits + 1);
}
inline float next_float_up(float f) {
  if (f == 0) return std::numeric_limits<float>::denorm_min();
  const auto bits = std::bit_cast<std::uint32_t>(f);
  return std::bit_cast<float>(f > 0 ? bits + 1 : bits - 1);
}

// Float error bounds in kdop are relative to the magnitudes involved, which holds for normal
// floats; below FLT_MIN (2^-126) every float operation may err by up to 2^-150 absolutely. Each
// bound also adds this floor, enough for 2^30 such roundings, so objects of subnormal size
// (coordinates near 1e-38) stay conservative too.
constexpr double kFloatUnderflowFloor = 0x1p-120;

// Outward rounding from double to float: the largest float <= d, the smallest float >= d.
inline float float_below(double d) {
  const float f = static_cast<float>(d);
  return static_cast<double>(f) > d ? next_float_down(f) : f;
}
inline float float_above(double d) {
  const float f = static_cast<float>(d);
  return static_cast<double>(f) < d ? next_float_up(f) : f;
}

// Outward rounding without branches, for the query's per-pair hot path and its per-pose frames
// (a data-dependent branch there mispredicts half the time; a 32-DOP pose's frames and root clip
// round 80 values, whose branches took a sixth of a light pose's time): at most 2^-22 of |d| plus
// the underflow floor looser than float_below / float_above. d is first moved out by 2^-22 |d| +
// floor, in double (off by at most 2^-51 of it); rounding that to the nearest float moves it back
// by at most 2^-24 of it (or 2^-150 below FLT_MIN), which is less, so the float stays on the outer
// side of d. Beyond float's range the result is the largest finite float (below) or the least
// (above) towards d, or the infinity away from it. The clamps are comparisons, not std::fmin /
// std::fmax, which GCC leaves as libm calls (ten per prefilter key).
inline float float_below_fast(double d) {
  const double v = (d - 0x1p-22 * std::fabs(d)) - kFloatUnderflowFloor;
  const double most = std::numeric_limits<float>::max();
  return static_cast<float>(v < most ? v : most);  // std::fmin(v, most), NaN included, inline
}
inline float float_above_fast(double d) {
  const double v = (d + 0x1p-22 * std::fabs(d)) + kFloatUnderflowFloor;
  const double least = -static_cast<double>(std::numeric_limits<float>::max());
  return static_cast<float>(v > least ? v : least);  // std::fmax(v, least), NaN included, inline
}

// Bound on the rounding error of project() for a point whose |x|+|y|+|z| is at most l1: two
// additions of values <= l1 (components in {-1, 0, 1}), or one of a value <= 2 l1 (a
// component 2, K = 32), each off by at most half an ulp of it; doubled for safety.
inline double projection_error_bound(double l1) {
  return 0x1p-51 * l1;
}

}  // namespace kdop
