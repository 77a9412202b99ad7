#include "geometry/dop.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "geometry/shapes.hpp"

namespace kdop {
namespace {

// Doubles to round: the edges (zeros, subnormals, values beyond the float range, exact floats)
// and `count` random ones of every magnitude and sign, each with its neighbours just beside the
// nearest float, where rounding to nearest decides.
std::vector<double> rounding_cases(std::uint64_t seed, int count) {
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                -1.0,
                                0.1,
                                -0.1,
                                1e-45,
                                -1e-45,
                                1e-39,
                                -1e-39,
                                1e39,
                                -1e39,
                                3.4028234663852886e38,
                                -3.4028234663852886e38,
                                1e300,
                                -1e300,
                                std::numeric_limits<float>::denorm_min(),
                                1.0 / 3};
  for (int i = 0; i < count; ++i) {
    const double m = 2 * next_uniform(seed) - 1;
    values.push_back(std::ldexp(m, static_cast<int>(next_uniform(seed) * 300) - 150));
    const auto f = static_cast<float>(values.back());
    values.push_back(std::nextafter(static_cast<double>(f), 0.0));
    values.push_back(std::nextafter(static_cast<double>(f), 1e300));
  }
  return values;
}

// norm is a table of constants: it must equal the square root of every direction's length.
template <int K>
void expect_norms_are_square_roots() {
  for (const Direction& n : DopShape<K>::directions()) {
    EXPECT_EQ(norm(n), std::sqrt(static_cast<double>(n.x * n.x + n.y * n.y + n.z * n.z)))
        << K << ": " << n.x << " " << n.y << " " << n.z;
  }
}

TEST(Dop, DirectionNormsAreTheSquareRoots) {
  expect_norms_are_square_roots<6>();
  expect_norms_are_square_roots<8>();
  expect_norms_are_square_roots<14>();
  expect_norms_are_square_roots<18>();
  expect_norms_are_square_roots<26>();
  expect_norms_are_square_roots<32>();
  static_assert(norm(Direction{1, 1, 0}) * norm(Direction{1, 1, 0}) > 1.9999999);
}

// Outward rounding against std::nextafter on random doubles of every magnitude and sign, and on
// the edges: zero, subnormals, values beyond the float range, exact floats.
TEST(Dop, OutwardRoundingIsTheNeighbouringFloat) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> values = rounding_cases(3, 100000);
  for (double d : values) {
    const float below = float_below(d), above = float_above(d);
    ASSERT_LE(static_cast<double>(below), d) << d;
    ASSERT_GE(static_cast<double>(above), d) << d;
    // Tight: the next float outward would be on the other side.
    if (std::isfinite(below)) {
      ASSERT_GT(static_cast<double>(std::nextafter(below, static_cast<float>(inf))), d) << d;
    }
    if (std::isfinite(above)) {
      ASSERT_LT(static_cast<double>(std::nextafter(above, -static_cast<float>(inf))), d) << d;
    }
  }
  EXPECT_EQ(float_below(1e300), std::numeric_limits<float>::max());
  EXPECT_EQ(float_above(1e300), std::numeric_limits<float>::infinity());
  EXPECT_EQ(float_below(-1e300), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(float_above(-1e300), -std::numeric_limits<float>::max());
}

// The branch-free versions stay outside d, and within 2^-22 of |d| plus the floor of it.
TEST(Dop, FastOutwardRoundingIsOutwardAndClose) {
  const std::vector<double> values = rounding_cases(5, 200000);
  for (double d : values) {
    const float below = float_below_fast(d), above = float_above_fast(d);
    ASSERT_LE(static_cast<double>(below), d) << d;
    ASSERT_GE(static_cast<double>(above), d) << d;
    const double slack = 0x1p-21 * std::fabs(d) + 2 * kFloatUnderflowFloor;
    if (std::fabs(d) < 0x1p127) {  // nearer the top of the range, infinity is the next float
      ASSERT_GE(static_cast<double>(below), d - slack) << d;
      ASSERT_LE(static_cast<double>(above), d + slack) << d;
    }
  }
  EXPECT_EQ(float_below_fast(1e300), std::numeric_limits<float>::max());
  EXPECT_EQ(float_above_fast(-1e300), -std::numeric_limits<float>::max());
  EXPECT_EQ(float_below_fast(-1e300), -std::numeric_limits<float>::infinity());
  // As std::fmin / std::fmax with the clamp would: infinities pass or clamp, NaN gives the clamp.
  const double inf = std::numeric_limits<double>::infinity();
  const float most = std::numeric_limits<float>::max();
  EXPECT_EQ(float_below_fast(inf), most);
  EXPECT_EQ(float_below_fast(-inf), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(float_above_fast(inf), std::numeric_limits<float>::infinity());
  EXPECT_EQ(float_above_fast(-inf), -most);
  EXPECT_EQ(float_below_fast(std::nan("")), most);
  EXPECT_EQ(float_above_fast(std::nan("")), -most);
}

}  // namespace
}  // namespace kdop
