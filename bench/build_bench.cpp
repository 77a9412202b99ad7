// Build costs: the vertices of flying nodes' k-DOPs by plane-triple enumeration (what the builder
// uses) against the paper's method, the halfspace intersection through the dual convex hull
// (qhull 'H'), on the real nodes of the demo torus (leaf size 40); and whole hierarchy builds of
// the demo scene. Medians of repetitions; see README.md.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "builders/dop_tree.hpp"
#include "builders/dop_volume.hpp"
#include "geometry/convex_hull.hpp"
#include "geometry/dop_vertices.hpp"
#include "geometry/halfspace_intersection.hpp"
#include "geometry/shapes.hpp"
#include "io/hierarchy_file.hpp"
#include "io/mesh_writer.hpp"

namespace kdop {
namespace {

constexpr double kMinTime = 0.2;

const Mesh& torus_mesh() {
  static const Mesh m = make_torus({0, 0, 0}, 3.0, 1.0, 200, 50, 0.15);
  return m;
}

const Mesh& stalagmites_mesh() {
  static const Mesh m = make_stalagmites({0, 0, 0}, {100, 100, 30}, 1250, 40, 1);
  return m;
}

// The intervals of every full-dimensional node of the torus' flying tree, with the centroid of
// its corners as the interior point qhull needs (nodes where that is not strictly inside, i.e.
// flat ones, are left out: only enumeration handles them).
template <int K>
struct NodeDops {
  std::vector<double> lo, hi;
  std::vector<Vec3> interior;
};

template <int K>
const NodeDops<K>& node_dops() {
  static const NodeDops<K> nodes = [] {
    using Shape = DopShape<K>;
    constexpr auto dirs = Shape::directions();
    const FlyingDopTree<K> fly =
        build_flying_dop_tree<K>(torus_mesh(), BuildConfig::object_defaults());
    const TreeTopology& topo = fly.tree.topology;
    std::vector<std::uint32_t> first(topo.node_count()), count(topo.node_count());
    for (std::uint32_t i = topo.node_count(); i-- > 0;) {
      first[i] = topo.is_leaf(i) ? topo.child_or_first[i] : first[i + 1];
      count[i] = topo.is_leaf(i) ? topo.leaf_count[i] : count[i + 1] + count[topo.right(i)];
    }
    NodeDops<K> out;
    for (std::uint32_t n = 0; n < topo.node_count(); ++n) {
      Vec3 c{0, 0, 0};
      for (std::uint32_t s = first[n]; s < first[n] + count[n]; ++s) {
        const Triangle t = fly.tree.triangles.triangle(s);
        c = c + (1.0 / (3.0 * count[n])) * (t.p0 + t.p1 + t.p2);
      }
      const float* b = fly.tree.node_bounds(n);
      bool strictly_inside = true;
      for (int j = 0; j < Shape::slabs; ++j) {
        const double v = project(dirs[j], c.x, c.y, c.z);
        strictly_inside = strictly_inside && b[j] < v - 1e-9 && v + 1e-9 < b[Shape::lanes + j];
      }
      if (!strictly_inside) continue;
      for (int j = 0; j < Shape::slabs; ++j) {
        out.lo.push_back(b[j]);
        out.hi.push_back(b[Shape::lanes + j]);
      }
      out.interior.push_back(c);
    }
    return out;
  }();
  return nodes;
}

// Runs `vertices_of(node)` (returning the vertex count) over every node per iteration.
template <int K, class VerticesOf>
void run_over_nodes(benchmark::State& state, VerticesOf&& vertices_of) {
  const std::size_t n = node_dops<K>().interior.size();
  std::size_t vertices = 0;
  for (auto _ : state) {
    vertices = 0;
    for (std::size_t i = 0; i < n; ++i) vertices += vertices_of(i);
  }
  state.counters["time_per_node"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
  state.counters["nodes"] = static_cast<double>(n);
  state.counters["verts_per_node"] = static_cast<double>(vertices) / static_cast<double>(n);
}

template <int K>
void BM_DopVertices_Enumeration(benchmark::State& state) {
  constexpr int S = DopShape<K>::slabs;
  const NodeDops<K>& nodes = node_dops<K>();
  run_over_nodes<K>(state, [&](std::size_t i) {
    DopVertices v = dop_vertices<K>(nodes.lo.data() + i * S, nodes.hi.data() + i * S);
    benchmark::DoNotOptimize(v);
    return v.points.size();
  });
}

template <int K>
void BM_DopVertices_QhullDual(benchmark::State& state) {
  constexpr int S = DopShape<K>::slabs;
  const NodeDops<K>& nodes = node_dops<K>();
  run_over_nodes<K>(state, [&](std::size_t i) {
    auto v = dop_vertices_by_duality<K>(nodes.lo.data() + i * S, nodes.hi.data() + i * S,
                                        nodes.interior[i]);
    benchmark::DoNotOptimize(v);
    return v ? v->points.size() : 0;
  });
}

// The volume of a k-DOP (what min-sum and min-max compare): ours, the dual hull in fixed arrays
// (builders/dop_volume.hpp), against qhull's halfspace intersection followed by qhull's hull
// volume of the vertices.
template <int K>
void BM_DopVolume_Duality(benchmark::State& state) {
  constexpr int S = DopShape<K>::slabs;
  const NodeDops<K>& nodes = node_dops<K>();
  run_over_nodes<K>(state, [&](std::size_t i) {
    const double v =
        dop_volume<K>(nodes.lo.data() + i * S, nodes.hi.data() + i * S, nodes.interior[i]);
    benchmark::DoNotOptimize(v);
    return std::size_t{0};
  });
}

template <int K>
void BM_DopVolume_Qhull(benchmark::State& state) {
  constexpr int S = DopShape<K>::slabs;
  const NodeDops<K>& nodes = node_dops<K>();
  run_over_nodes<K>(state, [&](std::size_t i) {
    auto v = dop_vertices_by_duality<K>(nodes.lo.data() + i * S, nodes.hi.data() + i * S,
                                        nodes.interior[i]);
    auto m = convex_hull_measure(v->points);
    benchmark::DoNotOptimize(m);
    return std::size_t{0};
  });
}

// Whole builds of the demo scene: the environment (100,000 triangles, leaf size 1: a plain
// BuildConfig, as bench/README.md's figures were taken, not the default 3) and the flying torus
// (20,000 triangles, leaf size 40, with DOP vertices and the root hull).
template <int K>
void BM_Build_Environment(benchmark::State& state) {
  for (auto _ : state) {
    DopTree<K> t = build_dop_tree<K>(stalagmites_mesh(), BuildConfig{});
    benchmark::DoNotOptimize(t);
  }
  state.counters["triangles"] = static_cast<double>(stalagmites_mesh().triangle_count());
}

template <int K>
void BM_Build_Flying(benchmark::State& state) {
  for (auto _ : state) {
    FlyingDopTree<K> t = build_flying_dop_tree<K>(torus_mesh(), BuildConfig::object_defaults());
    benchmark::DoNotOptimize(t);
  }
  state.counters["triangles"] = static_cast<double>(torus_mesh().triangle_count());
}

// Loading a hierarchy file against building the same hierarchy (issue 4: loading at least 20x
// faster): an environment (leaf size 1, K = 18) of a 1,000,000-triangle torus. The file is
// written once to the temporary directory, so loads read it from the page cache.
const Mesh& million_torus() {
  static const Mesh m = make_torus({0, 0, 0}, 3.0, 1.0, 1000, 500, 0.15);
  return m;
}

class MillionTorusFile {
 public:
  MillionTorusFile()
      : path_((std::filesystem::temp_directory_path() /
               ("kdop_bench_torus_" + std::to_string(::getpid()) + ".kdop"))
                  .string()) {
    const BuildConfig config{};  // leaf size 1, as above
    write_file_atomic(
        path_, format_hierarchy_file(
                   EnvironmentHierarchy{build_dop_tree<18>(million_torus(), config)}, config));
  }
  ~MillionTorusFile() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

const std::string& million_torus_file() {
  static const MillionTorusFile file;
  return file.path();
}

void BM_Build_Environment1M(benchmark::State& state) {
  for (auto _ : state) {
    DopTree<18> t = build_dop_tree<18>(million_torus(), BuildConfig{});
    benchmark::DoNotOptimize(t);
  }
  state.counters["triangles"] = static_cast<double>(million_torus().triangle_count());
}

void BM_Load_Environment1M(benchmark::State& state) {
  const std::string& path = million_torus_file();
  for (auto _ : state) {
    EnvironmentFile f = read_environment_file(path);
    benchmark::DoNotOptimize(f);
  }
  state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(path));
}

BENCHMARK_TEMPLATE(BM_DopVertices_Enumeration, 6)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVertices_QhullDual, 6)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVertices_Enumeration, 14)
    ->MinTime(kMinTime)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVertices_QhullDual, 14)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVertices_Enumeration, 18)
    ->MinTime(kMinTime)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVertices_QhullDual, 18)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVertices_Enumeration, 26)
    ->MinTime(kMinTime)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVertices_QhullDual, 26)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVertices_Enumeration, 32)
    ->MinTime(kMinTime)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVertices_QhullDual, 32)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVolume_Duality, 6)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVolume_Qhull, 6)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVolume_Duality, 14)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVolume_Qhull, 14)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVolume_Duality, 18)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVolume_Qhull, 18)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVolume_Duality, 26)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_DopVolume_Qhull, 26)->MinTime(kMinTime)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Build_Environment, 6)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Build_Environment, 18)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Build_Environment, 26)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Build_Environment, 32)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Build_Flying, 6)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Build_Flying, 18)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Build_Flying, 26)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Build_Flying, 32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Build_Environment1M)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Load_Environment1M)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kdop
