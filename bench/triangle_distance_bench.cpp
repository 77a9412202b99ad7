// The leaf test of a distance query: kdop's triangle_distance (geometry/triangle_distance.hpp)
// against FCL's TriangleDistance<double>::triDistance (PQP's algorithm) on the same 4096
// non-intersecting pairs, and the exact intersection test alone (the part of ours that FCL does
// not do exactly), and the exact clearance decision. Two pair sets: "apart" (random triangles of
// the unit cube, the second moved by up to 1.5; typical of a branch and bound's early leaves) and
// "close" (the same moved along their closest direction to a gap of 1e-9 to 1e-3: the leaves that
// decide a clearance). Every benchmark walks the whole set per iteration and reports the time per
// pair (time_per_op).
#include <benchmark/benchmark.h>
#include <fcl/narrowphase/detail/primitive_shape_algorithm/triangle_distance.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "geometry/exact_distance.hpp"
#include "geometry/shapes.hpp"
#include "geometry/tri_tri.hpp"
#include "geometry/triangle_distance.hpp"

namespace kdop {
namespace {

constexpr std::size_t kPairs = 4096;
constexpr double kMinTime = 0.2;

Vec3 uniform_point(std::uint64_t& rng, double scale) {
  return {scale * (2 * next_uniform(rng) - 1), scale * (2 * next_uniform(rng) - 1),
          scale * (2 * next_uniform(rng) - 1)};
}

struct PairSet {
  std::vector<Triangle> a, b;
  std::vector<fcl::Vector3d> fa, fb;  // the same corners for FCL, three per triangle
};

PairSet make_pairs(bool close) {
  PairSet s;
  std::uint64_t rng = close ? 7 : 3;
  while (s.a.size() < kPairs) {
    const Triangle a{uniform_point(rng, 1), uniform_point(rng, 1), uniform_point(rng, 1)};
    const Vec3 shift = uniform_point(rng, 1.5);
    Triangle b{uniform_point(rng, 1) + shift, uniform_point(rng, 1) + shift,
               uniform_point(rng, 1) + shift};
    if (triangles_intersect(a, b)) continue;
    if (close) {
      const TrianglePairDistance d = triangle_distance(a, b);
      const double gap = std::pow(10.0, -9 + 6 * next_uniform(rng));
      const Vec3 move = ((d.distance - gap) / d.distance) * (d.on_a - d.on_b);
      b = {b.p0 + move, b.p1 + move, b.p2 + move};
      if (triangles_intersect(a, b)) continue;
    }
    s.a.push_back(a);
    s.b.push_back(b);
    for (const Vec3& p : {a.p0, a.p1, a.p2}) s.fa.emplace_back(p.x, p.y, p.z);
    for (const Vec3& p : {b.p0, b.p1, b.p2}) s.fb.emplace_back(p.x, p.y, p.z);
  }
  return s;
}

const PairSet& pairs(bool close) {
  static const PairSet apart = make_pairs(false), near = make_pairs(true);
  return close ? near : apart;
}

void report_per_op(benchmark::State& state, std::size_t ops_per_iteration) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * ops_per_iteration));
  state.counters["time_per_op"] = benchmark::Counter(
      static_cast<double>(ops_per_iteration),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_TriangleDistance_Kdop(benchmark::State& state, bool close) {
  const PairSet& s = pairs(close);
  for (auto _ : state) {
    double sum = 0;
    for (std::size_t i = 0; i < kPairs; ++i) sum += triangle_distance(s.a[i], s.b[i]).distance;
    benchmark::DoNotOptimize(sum);
  }
  report_per_op(state, kPairs);
}

void BM_TriangleDistance_Fcl(benchmark::State& state, bool close) {
  const PairSet& s = pairs(close);
  fcl::Vector3d p, q;
  for (auto _ : state) {
    double sum = 0;
    for (std::size_t i = 0; i < kPairs; ++i) {
      sum += fcl::detail::TriangleDistance<double>::triDistance(&s.fa[3 * i], &s.fb[3 * i], p, q);
    }
    benchmark::DoNotOptimize(sum);
  }
  report_per_op(state, kPairs);
}

// The exact intersection test that triangle_distance runs first.
void BM_TrianglesIntersect(benchmark::State& state, bool close) {
  const PairSet& s = pairs(close);
  for (auto _ : state) {
    int hits = 0;
    for (std::size_t i = 0; i < kPairs; ++i) hits += triangles_intersect(s.a[i], s.b[i]);
    benchmark::DoNotOptimize(hits);
  }
  report_per_op(state, kPairs);
}

// The exact decision a clearance takes for a pair whose double distance is within rounding of it
// (geometry/exact_distance.hpp), at a limit of the pair's double distance.
void BM_ExactDistanceSide(benchmark::State& state, bool close) {
  const PairSet& s = pairs(close);
  std::vector<double> limit(kPairs);
  for (std::size_t i = 0; i < kPairs; ++i) limit[i] = triangle_distance(s.a[i], s.b[i]).distance;
  for (auto _ : state) {
    int sides = 0;
    for (std::size_t i = 0; i < kPairs; ++i)
      sides += exact_distance_side(s.a[i], s.b[i], limit[i]).side;
    benchmark::DoNotOptimize(sides);
  }
  report_per_op(state, kPairs);
}

BENCHMARK_CAPTURE(BM_TriangleDistance_Kdop, apart, false)->MinTime(kMinTime);
BENCHMARK_CAPTURE(BM_TriangleDistance_Fcl, apart, false)->MinTime(kMinTime);
BENCHMARK_CAPTURE(BM_TrianglesIntersect, apart, false)->MinTime(kMinTime);
BENCHMARK_CAPTURE(BM_TriangleDistance_Kdop, close, true)->MinTime(kMinTime);
BENCHMARK_CAPTURE(BM_TriangleDistance_Fcl, close, true)->MinTime(kMinTime);
BENCHMARK_CAPTURE(BM_TrianglesIntersect, close, true)->MinTime(kMinTime);
BENCHMARK_CAPTURE(BM_ExactDistanceSide, close, true)->MinTime(kMinTime);

}  // namespace
}  // namespace kdop

BENCHMARK_MAIN();
