// The float 15-axis box test (simd/box_separation.hpp): every ISA equals the lane reference bit
// for bit, "separated" is never said of boxes that an exact oracle sees overlapping, real gaps
// are found, and inputs outside float's range are handed back as undecided.
#include "simd/box_separation.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "geometry/pose.hpp"
#include "geometry/shapes.hpp"
#include "simd/kernel_table.hpp"

namespace kdop::simd {
namespace {

// A box in world coordinates: centre, axes (rows), half extents, as the OBB trees store it.
struct Box {
  std::array<double, 15> d{};  // centre (3), axes (9), half (3)
};

// Box A as an environment node, and box B as a placed flying node: its centre and its block.
struct Pair {
  Box a, b;
  std::array<float, 16> block{};
};

Box random_box(std::uint64_t& rng, Vec3 centre, double size) {
  const Pose p = random_pose(rng, {0, 0, 0}, {0, 0, 0});
  Box box;
  box.d[0] = centre.x, box.d[1] = centre.y, box.d[2] = centre.z;
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) box.d[3 + 3 * j + i] = p.r[3 * i + j];  // column j as axis j
    box.d[12 + j] = size * (0.05 + next_uniform(rng));
  }
  return box;
}

void finish(Pair& p) {
  const double* c = p.b.d.data();
  const double scale = std::fabs(c[0]) + std::fabs(c[1]) + std::fabs(c[2]);
  make_box_block<ScalarArch>(p.b.d.data() + 3, p.b.d.data() + 12, scale, p.block.data());
}

// Pairs near the boundary: B's centre at A's centre plus a random direction times a distance
// around the sum of the boxes' sizes, with coordinates offset far from the origin sometimes.
std::vector<Pair> random_pairs(std::uint64_t seed, int n) {
  std::uint64_t rng = seed;
  std::vector<Pair> pairs(static_cast<std::size_t>(n));
  for (Pair& p : pairs) {
    const double offset = next_uniform(rng) < 0.3 ? 1000 * next_uniform(rng) : 0;
    const double size = next_uniform(rng) < 0.2 ? 1e-3 : 1.0;
    const Vec3 ca{offset, -offset, 0.5 * offset};
    p.a = random_box(rng, ca, size);
    Vec3 dir{next_uniform(rng) - 0.5, next_uniform(rng) - 0.5, next_uniform(rng) - 0.5};
    dir = (1 / norm(dir)) * dir;
    const double reach = 2.2 * size * next_uniform(rng);
    p.b = random_box(rng, ca + reach * dir, size);
    finish(p);
  }
  return pairs;
}

// Pairs touching face to face along one of A's axes, up to the double rounding of B's centre
// (so about half overlap by an ulp): B's centre sits where B's support along u_i meets A's
// face, shifted along the face. Half of them have B's axes parallel to A's (every cross product
// vanishes). Without the margin and the slack on |R| the float test separates some of these.
std::vector<Pair> touching_pairs(std::uint64_t seed, int n) {
  std::uint64_t rng = seed;
  std::vector<Pair> pairs(static_cast<std::size_t>(n));
  for (Pair& p : pairs) {
    const double offset = next_uniform(rng) < 0.5 ? 100 * next_uniform(rng) : 0;
    p.a = random_box(rng, {offset, offset, -offset}, 1.0);
    p.b = random_box(rng, {0, 0, 0}, 1.0);
    if (next_uniform(rng) < 0.5)
      std::copy(p.a.d.begin() + 3, p.a.d.begin() + 12, p.b.d.begin() + 3);
    const int i = static_cast<int>(next_uniform(rng) * 3);
    const Vec3 u{p.a.d[3 + 3 * i], p.a.d[4 + 3 * i], p.a.d[5 + 3 * i]};
    double reach = p.a.d[12 + i];
    for (int j = 0; j < 3; ++j) {
      const Vec3 v{p.b.d[3 + 3 * j], p.b.d[4 + 3 * j], p.b.d[5 + 3 * j]};
      reach += p.b.d[12 + j] * std::fabs(dot(u, v));
    }
    const int t = (i + 1) % 3;
    const Vec3 along{p.a.d[3 + 3 * t], p.a.d[4 + 3 * t], p.a.d[5 + 3 * t]};
    const Vec3 c = Vec3{p.a.d[0], p.a.d[1], p.a.d[2]} +
                   (next_uniform(rng) < 0.5 ? reach : -reach) * u +
                   (0.5 * (next_uniform(rng) - 0.5) * p.a.d[12 + t]) * along;
    p.b.d[0] = c.x, p.b.d[1] = c.y, p.b.d[2] = c.z;
    finish(p);
  }
  return pairs;
}

// The oracle, independent of Table 1's algebra and of float: both boxes' corners, projected in
// long double onto each of the 15 axes formed explicitly; the largest gap (0 or less: overlap).
long double largest_gap(const Box& a, const Box& b) {
  using V = std::array<long double, 3>;
  const auto axis = [](const Box& x, int j) {
    return V{x.d[3 + 3 * j], x.d[4 + 3 * j], x.d[5 + 3 * j]};
  };
  const auto corners = [&](const Box& x) {
    std::vector<V> out;
    for (int c = 0; c < 8; ++c) {
      V p{x.d[0], x.d[1], x.d[2]};
      for (int j = 0; j < 3; ++j) {
        const long double s = (c >> j & 1 ? 1.0L : -1.0L) * x.d[12 + j];
        const V u = axis(x, j);
        for (int k = 0; k < 3; ++k) p[k] += s * u[k];
      }
      out.push_back(p);
    }
    return out;
  };
  std::vector<V> axes;
  for (int j = 0; j < 3; ++j) axes.push_back(axis(a, j)), axes.push_back(axis(b, j));
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const V u = axis(a, i), v = axis(b, j);
      const V w{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
      const long double len = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
      if (len > 1e-9L) axes.push_back({w[0] / len, w[1] / len, w[2] / len});
    }
  }
  const std::vector<V> ca = corners(a), cb = corners(b);
  long double best = -INFINITY;
  for (const V& n : axes) {
    long double alo = INFINITY, ahi = -INFINITY, blo = INFINITY, bhi = -INFINITY;
    for (const V& p : ca) {
      const long double d = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
      alo = std::min(alo, d), ahi = std::max(ahi, d);
    }
    for (const V& p : cb) {
      const long double d = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
      blo = std::min(blo, d), bhi = std::max(bhi, d);
    }
    best = std::max(best, std::max(blo - ahi, alo - bhi));
  }
  return best;
}

std::vector<std::uint8_t> run(Isa isa, const std::vector<Pair>& pairs) {
  std::vector<double> boxes, centres;
  std::vector<float> blocks;
  for (const Pair& p : pairs) {
    boxes.insert(boxes.end(), p.a.d.begin(), p.a.d.end());
    centres.insert(centres.end(), p.b.d.begin(), p.b.d.begin() + 3);
    blocks.insert(blocks.end(), p.block.begin(), p.block.end());
  }
  std::vector<std::uint8_t> out(pairs.size());
  box_separation_table(isa)(boxes.data(), centres.data(), blocks.data(), pairs.size(), out.data());
  return out;
}

constexpr auto kSeparated = static_cast<std::uint8_t>(BoxSeparation::separated);
constexpr auto kUndecided = static_cast<std::uint8_t>(BoxSeparation::undecided);

TEST(BoxSeparation, EveryIsaEqualsTheLaneReference) {
  std::vector<Pair> pairs = random_pairs(3, 20000);
  const std::vector<Pair> touching = touching_pairs(4, 5000);
  pairs.insert(pairs.end(), touching.begin(), touching.end());
  const std::vector<std::uint8_t> ref = run(Isa::scalar, pairs);
  for (Isa isa : supported_isas()) {
    SCOPED_TRACE(to_string(isa));
    EXPECT_EQ(run(isa, pairs), ref);
  }
}

// At the boundary: B's centre moved along a random direction to where the reference's answer
// flips (bisection), then stepped by a few float ulps of d around that point, where the answer
// hangs on the last bit of each lane's |T . L| and reach. An ISA that rounds in another order
// (a product not fused, sums paired differently) disagrees on some of these.
TEST(BoxSeparation, EveryIsaEqualsTheLaneReferenceAtTheBoundary) {
  std::uint64_t rng = 11;
  std::vector<Pair> pairs;
  const auto place = [](Pair p, const Vec3& ca, const Vec3& dir, double t) {
    p.b.d[0] = ca.x + t * dir.x, p.b.d[1] = ca.y + t * dir.y, p.b.d[2] = ca.z + t * dir.z;
    finish(p);
    return p;
  };
  for (int n = 0; n < 400; ++n) {
    const double size = next_uniform(rng) < 0.5 ? 1.0 : 3e-3;
    const Vec3 ca{100 * next_uniform(rng), 0, -50 * next_uniform(rng)};
    Pair p{random_box(rng, ca, size), random_box(rng, {0, 0, 0}, size), {}};
    if (n % 4 == 0) std::copy(p.a.d.begin() + 3, p.a.d.begin() + 12, p.b.d.begin() + 3);
    Vec3 dir{next_uniform(rng) - 0.5, next_uniform(rng) - 0.5, next_uniform(rng) - 0.5};
    dir = (1 / norm(dir)) * dir;
    double lo = 0, hi = 10 * size;  // overlapping at lo, separated at hi
    ASSERT_EQ(run(Isa::scalar, {place(p, ca, dir, hi)})[0], kSeparated);
    for (int step = 0; step < 80; ++step) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      (run(Isa::scalar, {place(p, ca, dir, mid)})[0] == kSeparated ? hi : lo) = mid;
    }
    for (int k = -6; k <= 6; ++k) pairs.push_back(place(p, ca, dir, hi * (1 + k * 0x1p-24)));
  }
  const std::vector<std::uint8_t> ref = run(Isa::scalar, pairs);
  int separated = 0;
  for (std::uint8_t r : ref) separated += r == kSeparated;
  EXPECT_GT(separated, static_cast<int>(pairs.size()) / 4);
  EXPECT_LT(separated, static_cast<int>(pairs.size()) * 3 / 4);
  for (Isa isa : supported_isas()) {
    SCOPED_TRACE(to_string(isa));
    EXPECT_EQ(run(isa, pairs), ref);
  }
}

// Never separated when the boxes overlap; every gap wider than 1e-4 of the boxes' size found.
TEST(BoxSeparation, AgreesWithTheExactAxes) {
  std::vector<Pair> pairs = random_pairs(5, 20000);
  const std::vector<Pair> touching = touching_pairs(6, 5000);
  pairs.insert(pairs.end(), touching.begin(), touching.end());
  int separated = 0, overlapping = 0;
  for (Isa isa : supported_isas()) {
    const std::vector<std::uint8_t> got = run(isa, pairs);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const long double gap = largest_gap(pairs[i].a, pairs[i].b);
      const double size = pairs[i].a.d[12] + pairs[i].b.d[12];
      ASSERT_NE(got[i], kUndecided) << "pair " << i;
      if (got[i] == kSeparated) {
        ++separated;
        ASSERT_GT(gap, 0) << "pair " << i << " (" << to_string(isa) << "): overlapping boxes "
                          << "called separated";
      } else {
        ++overlapping;
        ASSERT_LE(gap, 1e-4 * size) << "pair " << i << " (" << to_string(isa) << "): a gap missed";
      }
    }
  }
  EXPECT_GT(separated, 5000);
  EXPECT_GT(overlapping, 5000);
}

// Touching faces and parallel edges: rounding must not separate them; 1e-3 apart they are (the
// float test's margin is 2^-16 of the boxes' sizes and distance, here 9e-5).
TEST(BoxSeparation, TouchingAndParallelBoxes) {
  const auto axis_box = [](Vec3 c, double h) {
    Box b;
    b.d = {c.x, c.y, c.z, 1, 0, 0, 0, 1, 0, 0, 0, 1, h, h, h};
    return b;
  };
  for (double offset : {0.0, 1e3, 1e6}) {
    Pair touching{axis_box({offset, 0, 0}, 1), axis_box({offset + 1.5, 0.2, -0.3}, 0.5), {}};
    finish(touching);
    Pair apart{axis_box({offset, 0, 0}, 1), axis_box({offset + 1.5 + 1e-3, 0.2, -0.3}, 0.5), {}};
    finish(apart);
    for (Isa isa : supported_isas()) {
      const auto got = run(isa, {touching, apart});
      EXPECT_EQ(got[0], static_cast<std::uint8_t>(BoxSeparation::overlapping)) << offset;
      EXPECT_EQ(got[1], kSeparated) << offset;
    }
  }
}

TEST(BoxSeparation, OutsideFloatsRangeIsUndecided) {
  std::uint64_t rng = 9;
  std::vector<Pair> pairs;
  for (double size : {1e31, 1e-31}) {
    Pair p{random_box(rng, {0, 0, 0}, size), random_box(rng, {3 * size, 0, 0}, size), {}};
    finish(p);
    pairs.push_back(p);
  }
  Pair nan{random_box(rng, {0, 0, 0}, 1), random_box(rng, {3, 0, 0}, 1), {}};
  nan.b.d[0] = std::numeric_limits<double>::quiet_NaN();
  finish(nan);
  pairs.push_back(nan);
  for (Isa isa : supported_isas()) {
    for (std::uint8_t got : run(isa, pairs)) EXPECT_EQ(got, kUndecided) << to_string(isa);
  }
}

}  // namespace
}  // namespace kdop::simd
