// kdop-tool-distance-bench: one triangle against one swept tool primitive
// (geometry/convex_distance.hpp), per call: the full distance to delta = 1e-6 mm, and the
// threshold question may_touch, on random near and far pairs at machine coordinates.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "geometry/convex_distance.hpp"
#include "geometry/shapes.hpp"

namespace kdop {
namespace {

struct Pair {
  Triangle t;
  Vec3 from, to;
};

// Triangles of about 5 mm within `reach` of a tool moving 10 mm, near (12000, -3000, 150).
std::vector<Pair> pairs(double reach, std::uint64_t seed) {
  std::uint64_t state = seed;
  const auto jitter = [&](double h) {
    return Vec3{h * (2 * next_uniform(state) - 1), h * (2 * next_uniform(state) - 1),
                h * (2 * next_uniform(state) - 1)};
  };
  const Vec3 base{12000, -3000, 150};
  std::vector<Pair> out;
  for (int i = 0; i < 1024; ++i) {
    const Vec3 c = base + jitter(reach);
    out.push_back({{c + jitter(3), c + jitter(3), c + jitter(3)}, base, base + jitter(10)});
  }
  return out;
}

RevolvedPrimitive primitive(int kind) {
  switch (kind) {
    case 0:
      return make_frustum(0, 3, 20, 3);  // flat end mill
    case 1:
      return make_rounded_disc(0, 3, 3);  // ball end
    case 2:
      return make_rounded_disc(2, 1, 1);  // bull-nose corner
    default:
      return make_frustum(0, 0, 5, 5);  // V cone
  }
}

void BM_Distance(benchmark::State& state) {
  const RevolvedPrimitive p = primitive(static_cast<int>(state.range(0)));
  const std::vector<Pair> ps = pairs(static_cast<double>(state.range(1)), 7);
  std::size_t i = 0;
  std::int64_t iterations = 0;
  for (auto _ : state) {
    const Pair& q = ps[i++ % ps.size()];
    const DistanceBounds b = triangle_sweep_distance(q.t, p, q.from, q.to);
    iterations += b.iterations;
    benchmark::DoNotOptimize(b.lower);
  }
  state.counters["gjk_iterations"] =
      static_cast<double>(iterations) / static_cast<double>(state.iterations());
}
// Primitive kind (flat, ball, bull corner, cone) x reach of the triangles (mm).
BENCHMARK(BM_Distance)->ArgsProduct({{0, 1, 2, 3}, {15, 60}});

void BM_MayTouch(benchmark::State& state) {
  ToolParameters tool;
  tool.shape = CutterShape::kBullNose, tool.diameter = 6, tool.corner_radius = 1;
  tool.cutting_length = 20;
  const RevolvedSolid cutter = make_cutter(tool);
  const std::vector<Pair> ps = pairs(static_cast<double>(state.range(0)), 9);
  std::size_t i = 0;
  for (auto _ : state) {
    const Pair& q = ps[i++ % ps.size()];
    benchmark::DoNotOptimize(may_touch(q.t, cutter, q.from, q.to, 1e-6));
  }
}
BENCHMARK(BM_MayTouch)->Arg(15)->Arg(60);

}  // namespace
}  // namespace kdop

BENCHMARK_MAIN();
