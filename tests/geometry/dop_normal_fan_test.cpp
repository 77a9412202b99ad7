#include "geometry/dop_normal_fan.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "geometry/shapes.hpp"

namespace kdop {
namespace {

template <int K>
Vec3 direction_of(int g) {
  constexpr int S = DopShape<K>::slabs;
  const Direction d = DopShape<K>::directions()[g % S];
  const double s = g < S ? 1.0 : -1.0;
  return {s * d.x, s * d.y, s * d.z};
}

// Every direction lies in a cone of the fan with non-negative coefficients that reproduce it,
// and the sublinearity bound holds for the DOP of random point sets.
template <int K>
void check_k() {
  const NormalFan& fan = normal_fan<K>();
  ASSERT_FALSE(fan.cones.empty());
  std::uint64_t rng = 40 + K;
  std::vector<Vec3> points;
  for (int i = 0; i < 30; ++i)
    points.push_back({next_uniform(rng), 3 * next_uniform(rng), next_uniform(rng) - 2});
  constexpr int S = DopShape<K>::slabs;
  double offset[2 * S];
  for (int g = 0; g < 2 * S; ++g) {
    offset[g] = -INFINITY;
    for (const Vec3& p : points) offset[g] = std::fmax(offset[g], dot(direction_of<K>(g), p));
  }
  std::vector<Vec3> directions;
  for (int i = 0; i < 20000; ++i) {
    directions.push_back(
        {2 * next_uniform(rng) - 1, 2 * next_uniform(rng) - 1, 2 * next_uniform(rng) - 1});
  }
  for (int g = 0; g < 2 * S; ++g) directions.push_back(direction_of<K>(g));  // on cone edges
  for (const Vec3& u : directions) {
    double l[3];
    const FanCone& cone = containing_cone(fan, u, l);
    Vec3 sum{0, 0, 0};
    double bound = 0;
    for (int k = 0; k < 3; ++k) {
      ASSERT_GE(l[k], -1e-12);
      sum = sum + l[k] * direction_of<K>(cone.g[k]);
      bound += l[k] * offset[cone.g[k]];
    }
    ASSERT_NEAR(sum.x, u.x, 1e-12);
    ASSERT_NEAR(sum.y, u.y, 1e-12);
    ASSERT_NEAR(sum.z, u.z, 1e-12);
    double support = -INFINITY;
    for (const Vec3& p : points) support = std::fmax(support, dot(u, p));
    ASSERT_LE(support, bound + 1e-9);
  }
}

// find_cone (the cube map, then the search) returns a cone whose coefficients are >= 0 (up to
// rounding) and reproduce the direction: at random directions of every scale, at every cell's
// corners and centre (where a cell's cones meet), and along the signed slab directions.
template <int K>
void check_find_cone() {
  const NormalFan& fan = normal_fan<K>();
  constexpr int n = NormalFan::cube_map_side;
  ASSERT_EQ(fan.cell_cones.size(), static_cast<std::size_t>(6 * n * n));
  std::uint64_t rng = 90 + K;
  std::vector<Vec3> directions;
  for (int i = 0; i < 20000; ++i) {
    const double scale = std::ldexp(1.0, static_cast<int>(next_uniform(rng) * 80) - 40);
    directions.push_back({scale * (2 * next_uniform(rng) - 1), scale * (2 * next_uniform(rng) - 1),
                          scale * (2 * next_uniform(rng) - 1)});
  }
  for (int face = 0; face < 6; ++face) {
    for (int p = 0; p <= 2 * n; ++p) {
      for (int q = 0; q <= 2 * n; ++q) {
        double c[3];
        c[face / 2] = face % 2 == 0 ? 1 : -1;
        c[(face / 2 + 1) % 3] = -1 + p / double(n);
        c[(face / 2 + 2) % 3] = -1 + q / double(n);
        directions.push_back({c[0], c[1], c[2]});
      }
    }
  }
  for (int g = 0; g < 2 * DopShape<K>::slabs; ++g) directions.push_back(direction_of<K>(g));
  for (const Vec3& u : directions) {
    double l[3];
    const FanCone& cone = find_cone(fan, u, l);
    Vec3 sum{0, 0, 0};
    const double size = std::fabs(u.x) + std::fabs(u.y) + std::fabs(u.z);
    for (int k = 0; k < 3; ++k) {
      ASSERT_GE(l[k], -1e-12 * size);
      sum = sum + l[k] * direction_of<K>(cone.g[k]);
    }
    ASSERT_NEAR(sum.x, u.x, 1e-12 * size);
    ASSERT_NEAR(sum.y, u.y, 1e-12 * size);
    ASSERT_NEAR(sum.z, u.z, 1e-12 * size);
  }
}

TEST(NormalFan, FindConeReproducesEveryDirection) {
  check_find_cone<6>();
  check_find_cone<8>();
  check_find_cone<14>();
  check_find_cone<18>();
  check_find_cone<26>();
  check_find_cone<32>();
}

TEST(NormalFan, ConesCoverEveryDirectionK6) {
  check_k<6>();
}
TEST(NormalFan, ConesCoverEveryDirectionK14) {
  check_k<14>();
}
TEST(NormalFan, ConesCoverEveryDirectionK18) {
  check_k<18>();
}
TEST(NormalFan, ConesCoverEveryDirectionK26) {
  check_k<26>();
}
TEST(NormalFan, ConesCoverEveryDirectionK32) {
  check_k<32>();
}
TEST(NormalFan, ConesCoverEveryDirectionDop8) {
  check_k<8>();
}

TEST(NormalFan, BoxFanIsTheOctants) {
  const NormalFan& fan = normal_fan<6>();
  EXPECT_EQ(fan.vertices.size(), 8u);
  EXPECT_EQ(fan.cones.size(), 8u);
}

}  // namespace
}  // namespace kdop
