// Unit costs of the cost model T = N_v C_v + N_p C_p + N_u C_u (Klosowski et al. 1998, section
// 5.2, "Average Costs of C_p, C_v, and C_u" and Table 1), measured on our kernels:
//   C_v  one k-DOP pair slab test, on DOP pairs a real traversal visits;
//   C_u  re-aligning one flying node (approximation method), plus the exact root by
//        hill-climbing and the per-pose frame setup;
//   C_p  one exact triangle-triangle test on pairs whose bounding boxes overlap, plus a variant
//        on grid-aligned coplanar / touching pairs where the predicates take the exact path.
// Every benchmark cycles through a pre-collected batch per iteration and reports the cost of one
// operation in the counter time_per_op (the loop overhead of one iteration is spread over the
// batch).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "builders/build_config.hpp"
#include "builders/dop_tree.hpp"
#include "engine/batch_query.hpp"
#include "engine/dop_dispatch.hpp"
#include "engine/dop_query.hpp"
#include "engine/traverse.hpp"
#include "engine/tumble.hpp"
#include "geometry/dop.hpp"
#include "geometry/mesh.hpp"
#include "geometry/pose.hpp"
#include "geometry/predicates.hpp"
#include "geometry/shapes.hpp"
#include "geometry/tri_tri.hpp"
#include "io/generated_scene.hpp"
#include "simd/kernel_table.hpp"
#include "simd/slab_overlap.hpp"

namespace kdop {
namespace {

// Each repetition runs at least this long; 5 repetitions of every benchmark stay well under a
// minute in total (the hierarchies are built once, outside the timed loops).
constexpr double kMinTime = 0.1;

// The paper's "Torus" flight: a ~20,000-triangle deformed torus among ~100,000 triangles of
// stalagmites (98,114 in the paper). Cones reach at most half way up the box, so the torus
// flying through the middle meets a mix of near misses and contacts.
constexpr Vec3 kBoxLo{-8, -8, -3}, kBoxHi{8, 8, 3};

const Mesh& environment_mesh() {
  static const Mesh m = make_stalagmites(kBoxLo, kBoxHi, 1000, 48, 2024);
  return m;
}

const Mesh& torus_mesh() {
  static const Mesh m = make_torus({0, 0, 0}, 1, 0.3, 200, 50, 0.2);
  return m;
}

// Poses of the flight: anywhere over the floor, in the middle third of the height.
std::vector<Pose> flight_poses(int count, std::uint64_t seed) {
  std::vector<Pose> poses;
  for (int i = 0; i < count; ++i) {
    poses.push_back(
        random_pose(seed, {kBoxLo.x + 1, kBoxLo.y + 1, -1}, {kBoxHi.x - 1, kBoxHi.y - 1, 1}));
  }
  return poses;
}

std::uint32_t draw_index(std::uint64_t& rng, std::size_t n) {
  return static_cast<std::uint32_t>(next_uniform(rng) * static_cast<double>(n));
}

template <class T>
void shuffle(std::vector<T>& v, std::uint64_t& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[draw_index(rng, i)]);
}

// Reports the CPU time of one operation (an inverted rate, so the console prints it as a time,
// e.g. "4.2ns"; JSON holds seconds).
void report_per_op(benchmark::State& state, std::size_t ops_per_iteration) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * ops_per_iteration));
  state.counters["time_per_op"] = benchmark::Counter(
      static_cast<double>(ops_per_iteration),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Built once per K on first use, outside the timed loops; separate so the C_u benchmarks (and a
// callgrind run of them) need not build the environment. Environment leaves of one triangle (a
// plain BuildConfig), as bench/README.md's figures were taken, not the default 3.
template <int K>
const DopTree<K>& env_tree() {
  static const DopTree<K> t = build_dop_tree<K>(environment_mesh(), BuildConfig{});
  return t;
}

template <int K>
const FlyingDopTree<K>& fly_tree() {
  static const FlyingDopTree<K> t =
      build_flying_dop_tree<K>(torus_mesh(), BuildConfig::object_defaults());
  return t;
}

// ---------------------------------------------------------------------------------------------
// C_v: DOP pairs sampled uniformly (reservoir) from every node pair Algorithm 1 visits over a
// flight of random poses, flying DOPs tumbled as the query would (exact root, approximate
// others). Copied into one contiguous array so the benchmark measures the test, not the cache
// misses of the environment's 6-25 MB of DOPs; shuffled so overlapping and disjoint pairs mix.

constexpr std::size_t kSlabPairs = 4096;

template <int K>
struct SlabPairs {
  std::vector<float> dops;  // pair i: env DOP at [2i * floats), tumbled fly DOP right after
  double overlap_fraction = 0;
  double visits_per_pose = 0;
};

template <int K>
SlabPairs<K> collect_slab_pairs() {
  constexpr int F = DopShape<K>::floats;
  const DopTree<K>& env = env_tree<K>();
  const FlyingDopTree<K>& fly = fly_tree<K>();
  const TreeTopology& fly_topo = fly.tree.topology;
  const std::vector<Pose> poses = flight_poses(32, 7);

  std::vector<float> reservoir(kSlabPairs * 2 * F);
  std::vector<float> tumbled(std::size_t{fly_topo.node_count()} * F);
  std::vector<std::uint32_t> stamp(fly_topo.node_count(), 0);
  std::vector<NodePair> stack(traversal_stack_size(env.topology, fly_topo));
  std::uint64_t rng = 99, seen = 0, n_v = 0;

  for (std::uint32_t p = 0; p < poses.size(); ++p) {
    const TumbleFrame<K> frame = make_tumble_frame(fly, poses[p]);
    auto overlap = [&](std::uint32_t e, std::uint32_t f) {
      float* fb = tumbled.data() + std::size_t{f} * F;
      if (stamp[f] != p + 1) {  // lazily, at most once per pose, as the query does
        stamp[f] = p + 1;
        if (f == 0) {
          tumble_root(fly, frame, fb);
        } else {
          tumble_node(fly, frame, f, fb);
        }
      }
      const float* eb = env.node_bounds(e);
      std::size_t slot = seen < kSlabPairs ? seen : draw_index(rng, seen + 1);
      if (slot < kSlabPairs) {
        std::memcpy(reservoir.data() + slot * 2 * F, eb, F * sizeof(float));
        std::memcpy(reservoir.data() + slot * 2 * F + F, fb, F * sizeof(float));
      }
      ++seen;
      return simd::slab_overlap<simd::ScalarArch, DopShape<K>::lanes>(eb, fb);
    };
    auto leaf_pairs = [](std::uint32_t, std::uint32_t) { return false; };  // visit everything
    auto always = [](std::uint32_t, std::uint32_t) { return true; };       // Algorithm 1
    auto ignore = [](std::uint32_t, bool) {};
    std::uint32_t size = 1;
    stack[0] = {0, 0};
    traverse_trees(env.topology, fly_topo, stack.data(), size, overlap, leaf_pairs, always, ignore,
                   n_v, ~std::uint64_t{0});
  }

  SlabPairs<K> out;
  const std::size_t n = std::min<std::size_t>(seen, kSlabPairs);
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
  shuffle(order, rng);
  out.dops.resize(n * 2 * F);
  std::size_t overlapping = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::memcpy(out.dops.data() + i * 2 * F, reservoir.data() + order[i] * 2 * F,
                2 * F * sizeof(float));
    const float* a = out.dops.data() + i * 2 * F;
    overlapping += simd::slab_overlap<simd::ScalarArch, DopShape<K>::lanes>(a, a + F);
  }
  out.overlap_fraction = static_cast<double>(overlapping) / static_cast<double>(n);
  out.visits_per_pose = static_cast<double>(n_v) / static_cast<double>(poses.size());
  return out;
}

// Every benchmark below runs once per ISA this CPU supports, through the kernel table
// (simd/kernel_table.hpp): the same code the query inlines, compiled with each ISA's flags.

template <int K>
void BM_Cv_SlabOverlap(benchmark::State& state, simd::Isa isa) {
  constexpr int F = DopShape<K>::floats;
  static const SlabPairs<K> pairs = collect_slab_pairs<K>();
  const auto table = simd::kernel_table<DopShape<K>::lanes>(isa);
  const std::size_t n = pairs.dops.size() / (2 * F);
  std::vector<std::uint8_t> out(n);
  for (auto _ : state) {
    table.slab_overlap_pairs(pairs.dops.data(), n, out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  report_per_op(state, n);
  state.counters["overlap_frac"] = pairs.overlap_fraction;
  state.counters["N_v_per_pose"] = pairs.visits_per_pose;
}

// The wide layout: one flying DOP against 8 environment DOPs across lanes (the sampled pairs
// regrouped 8 at a time, each block against its first pair's flying DOP). Time per node pair.
template <int K>
void BM_Cv_SlabOverlapWide8(benchmark::State& state, simd::Isa isa) {
  constexpr int F = DopShape<K>::floats, L = DopShape<K>::lanes, S = DopShape<K>::slabs;
  static const SlabPairs<K> pairs = collect_slab_pairs<K>();
  const auto table = simd::kernel_table<L>(isa);
  const std::size_t blocks = pairs.dops.size() / (2 * F) / 8;
  static const std::vector<float> fly = [&] {
    std::vector<float> f(blocks * F);
    for (std::size_t b = 0; b < blocks; ++b) {
      std::copy_n(pairs.dops.data() + (8 * b) * 2 * F + F, F, f.data() + b * F);
    }
    return f;
  }();
  static const std::vector<float> wide = [&] {
    std::vector<float> w(blocks * 16 * S);
    for (std::size_t b = 0; b < blocks; ++b) {
      for (int e = 0; e < 8; ++e) {
        const float* env = pairs.dops.data() + (8 * b + e) * 2 * F;
        for (int j = 0; j < S; ++j) {
          w[b * 16 * S + 16 * j + e] = env[j];
          w[b * 16 * S + 16 * j + 8 + e] = env[L + j];
        }
      }
    }
    return w;
  }();
  std::vector<std::uint32_t> out(blocks);
  for (auto _ : state) {
    table.slab_overlap_wide8(fly.data(), wide.data(), blocks, out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  report_per_op(state, blocks * 8);
}

// The leaf test's triangle-against-DOP test (simd/triangle_dop.hpp): the torus's triangles as the
// query's keys (object_frame_key at the identity pose), every other one against the root's DOP
// (it passes) and the rest against the DOP of a random node (most are rejected). Time per
// triangle-DOP pair.
template <int K>
void BM_Cp_TriangleDop(benchmark::State& state, simd::Isa isa) {
  constexpr int F = DopShape<K>::floats, L = DopShape<K>::lanes;
  const FlyingDopTree<K>& fly = fly_tree<K>();
  const LeafTriangles& slots = fly.tree.triangles;
  static const std::vector<float> dops = [&] {
    std::uint64_t rng = 23;
    std::vector<float> d(std::size_t{slots.size()} * F);
    for (std::uint32_t i = 0; i < slots.size(); ++i) {
      const std::uint32_t node = i % 2 ? 0 : draw_index(rng, fly.tree.topology.node_count());
      std::copy_n(fly.tree.node_bounds(node), F, d.data() + std::size_t{i} * F);
    }
    return d;
  }();
  static const std::vector<simd::PrefilterTriangle> triangles = [&] {
    const ObjectFrame frame = make_object_frame<simd::ScalarArch>(fly.corner_radius, Pose{});
    std::vector<simd::PrefilterTriangle> t;
    for (std::uint32_t i = 0; i < slots.size(); ++i) {
      t.push_back(object_frame_key<simd::ScalarArch>(frame, slots.triangle(i)));
    }
    return t;
  }();
  const auto table = simd::kernel_table<L>(isa);
  constexpr simd::SlabDirections<L> directions = slab_directions<K>();
  std::vector<std::uint8_t> out(triangles.size());
  for (auto _ : state) {
    table.triangle_dop_many(directions, dops.data(), triangles.data(), triangles.size(),
                            out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  report_per_op(state, triangles.size());
  std::size_t pass = 0;
  for (std::uint8_t o : out) pass += o;
  state.counters["pass_frac"] = static_cast<double>(pass) / static_cast<double>(out.size());
}

// n flying DOPs: every other one the root's (a pair against it mostly passes), the rest a random
// node's (mostly rejected).
template <int K>
std::vector<float> root_and_random_dops(const FlyingDopTree<K>& fly, std::size_t n,
                                        std::uint64_t seed) {
  constexpr int F = DopShape<K>::floats;
  std::uint64_t rng = seed;
  std::vector<float> d(n * F);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t node = i % 2 ? 0 : draw_index(rng, fly.tree.topology.node_count());
    std::copy_n(fly.tree.node_bounds(node), F, d.data() + i * F);
  }
  return d;
}

// The share of the pairs a filter let through.
void report_pass_frac(benchmark::State& state, const std::vector<std::uint8_t>& out) {
  std::size_t pass = 0;
  for (std::uint8_t o : out) pass += o;
  state.counters["pass_frac"] = static_cast<double>(pass) / static_cast<double>(out.size());
}

// The environment box against a flying DOP in the object's frame (simd/box_against_dop.hpp), as
// the query tests it where either node is a leaf, through one flight pose's frame: every other
// pair the environment root's box against the torus root's DOP (it passes), the rest random
// nodes' (most are rejected). Time per box-DOP pair.
template <int K>
void BM_Cv_BoxDop(benchmark::State& state, simd::Isa isa) {
  constexpr int L = DopShape<K>::lanes;
  const DopTree<K>& env = env_tree<K>();
  const FlyingDopTree<K>& fly = fly_tree<K>();
  constexpr std::size_t n = 4096;
  static const std::vector<float> boxes = [&] {
    std::uint64_t rng = 29;
    std::vector<float> b(6 * n);
    for (std::size_t i = 0; i < n; ++i) {
      const float* dop = env.node_bounds(i % 2 ? 0 : draw_index(rng, env.topology.node_count()));
      for (int a = 0; a < 3; ++a) {
        b[6 * i + a] = dop[a];
        b[6 * i + 3 + a] = dop[L + a];
      }
    }
    return b;
  }();
  static const std::vector<float> dops = root_and_random_dops(fly, n, 31);
  const Pose pose = flight_poses(1, 13).front();
  const simd::BoxDopFrame<L> frame = box_dop_frame<simd::ScalarArch, K>(
      env, make_object_frame<simd::ScalarArch>(fly.corner_radius, pose));
  const auto table = simd::kernel_table<L>(isa);
  std::vector<std::uint8_t> out(n);
  for (auto _ : state) {
    table.box_dop_many(frame, boxes.data(), dops.data(), n, out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  report_per_op(state, n);
  report_pass_frac(state, out);
}

// The environment triangle against a flying node's DOP through the same frame
// (simd::world_triangle_may_meet_dop), as the query tests an environment leaf's triangles against
// a flying node, at one flight pose: 4,096 environment triangles that meet the torus root's DOP
// there (their world corners rounded to float, cycled if fewer), every other one against that
// root (it passes) and the rest against a random node's DOP (most are rejected). Time per
// triangle-DOP pair; the key it spares is BM_Cp_TriangleDop's input.
template <int K>
void BM_Cp_WorldTriangleDop(benchmark::State& state, simd::Isa isa) {
  constexpr int L = DopShape<K>::lanes;
  constexpr std::size_t n = 4096;
  const DopTree<K>& env = env_tree<K>();
  const FlyingDopTree<K>& fly = fly_tree<K>();
  const Pose pose = flight_poses(1, 13).front();
  const simd::BoxDopFrame<L> frame = box_dop_frame<simd::ScalarArch, K>(
      env, make_object_frame<simd::ScalarArch>(fly.corner_radius, pose));
  static const std::vector<float> corners = [&] {
    const LeafTriangles& t = env.triangles;
    std::vector<float> near;
    for (std::uint32_t s = 0; s < t.size() && near.size() < 9 * n; ++s) {
      float c[9];
      for (int k = 0; k < 3; ++k) {
        c[k] = static_cast<float>(t.x(k)[s]);
        c[3 + k] = static_cast<float>(t.y(k)[s]);
        c[6 + k] = static_cast<float>(t.z(k)[s]);
      }
      if (simd::world_triangle_may_meet_dop_scalar<L>(frame, c, c + 3, c + 6,
                                                      fly.tree.node_bounds(0))) {
        for (int k = 0; k < 3; ++k) near.insert(near.end(), {c[k], c[3 + k], c[6 + k]});
      }
    }
    std::vector<float> out(9 * n);
    for (std::size_t i = 0; i < out.size() && !near.empty(); ++i) out[i] = near[i % near.size()];
    return out;
  }();
  static const std::vector<float> dops = root_and_random_dops(fly, n, 37);
  const auto table = simd::kernel_table<L>(isa);
  std::vector<std::uint8_t> out(n);
  for (auto _ : state) {
    table.world_triangle_dop_many(frame, corners.data(), dops.data(), n, out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  report_per_op(state, n);
  report_pass_frac(state, out);
}

// C_u, vertex method: every non-root node of the torus hierarchy under 8 poses.
constexpr int kTumblePoses = 8;

template <int K>
std::vector<TumbleFrame<K>> tumble_frames(int count) {
  std::vector<TumbleFrame<K>> frames;
  for (const Pose& pose : flight_poses(count, 11)) {
    TumbleFrame<K> f = make_tumble_frame(fly_tree<K>(), pose);
    add_affine_frame(fly_tree<K>(), f);
    frames.push_back(f);
  }
  return frames;
}

template <int K>
void BM_Cu_TumbleVertices(benchmark::State& state, simd::Isa isa) {
  constexpr int L = DopShape<K>::lanes;
  const FlyingDopTree<K>& fly = fly_tree<K>();
  static const std::vector<TumbleFrame<K>> frames = tumble_frames<K>(kTumblePoses);
  const auto table = simd::kernel_table<L>(isa);
  const std::uint32_t nodes = fly.tree.topology.node_count() - 1;
  std::vector<std::uint32_t> first(nodes), count(nodes);
  for (std::uint32_t n = 1; n <= nodes; ++n) {
    first[n - 1] = fly.vertex_first[n];
    count[n - 1] = fly.vertex_first[n + 1] - fly.vertex_first[n];
  }
  std::vector<float> out(std::size_t{2} * L * nodes);
  for (auto _ : state) {
    for (const TumbleFrame<K>& frame : frames) {
      table.tumble_nodes(frame.slabs, fly.vx.data(), fly.vy.data(), fly.vz.data(), first.data(),
                         count.data(), nodes, out.data());
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
  }
  report_per_op(state, frames.size() * nodes);
  state.counters["verts_per_node"] =
      static_cast<double>(fly.vertex_first[nodes + 1] - fly.vertex_first[1]) / nodes;
}

// C_u, Zachmann's affine method: every non-root node's stored DOP re-aligned by the pose's cones
// (simd/tumble_affine.hpp; one permute per pick on AVX-512, the scalar reference elsewhere).
template <int K>
void BM_Cu_TumbleAffine(benchmark::State& state, simd::Isa isa) {
  constexpr int L = DopShape<K>::lanes;
  const FlyingDopTree<K>& fly = fly_tree<K>();
  static const std::vector<TumbleFrame<K>> frames = tumble_frames<K>(kTumblePoses);
  const auto table = simd::kernel_table<L>(isa);
  const std::uint32_t nodes = fly.tree.topology.node_count() - 1;
  std::vector<float> out(std::size_t{2} * L * nodes);
  for (auto _ : state) {
    for (const TumbleFrame<K>& frame : frames) {
      table.tumble_affine_many(frame.affine, fly.tree.node_bounds(1), nodes, out.data());
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
  }
  report_per_op(state, frames.size() * nodes);
}

// The affine method's per-pose frame: a cone per slab direction and sign, through the normal
// fan's cube map, and the widenings (engine/tumble.hpp, add_affine_frame).
template <int K>
void BM_Cu_AffineFrame(benchmark::State& state) {
  const FlyingDopTree<K>& fly = fly_tree<K>();
  static const std::vector<Pose> poses = flight_poses(256, 11);
  static const std::vector<TumbleFrame<K>> frames = [] {
    std::vector<TumbleFrame<K>> f;
    for (const Pose& pose : poses) f.push_back(make_tumble_frame(fly_tree<K>(), pose));
    return f;
  }();
  std::vector<TumbleFrame<K>> work = frames;  // each pose's own frame, refilled every pass
  for (auto _ : state) {
    for (TumbleFrame<K>& frame : work) {
      add_affine_frame(fly, frame);
      benchmark::DoNotOptimize(&frame);
      benchmark::ClobberMemory();
    }
  }
  report_per_op(state, poses.size());
}

// The exact root (hill-climbing over the root hull): cold (cube-map starts) and hot-started from
// the previous pose's extremes along a flight (consecutive poses 0.01 rad apart).
template <int K>
void BM_Cu_TumbleRoot(benchmark::State& state, bool hot) {
  const FlyingDopTree<K>& fly = fly_tree<K>();
  static const std::vector<TumbleFrame<K>> frames = [] {
    std::vector<TumbleFrame<K>> f;
    for (int i = 0; i < 256; ++i) {
      const double a = 0.01 * i;
      f.push_back(make_tumble_frame(
          fly_tree<K>(), pose_from_quaternion(1, 2, 3, std::cos(a / 2), 0.6 * std::sin(a / 2),
                                              0.8 * std::sin(a / 2), 0)));
    }
    return f;
  }();
  alignas(64) float out[DopShape<K>::floats];
  std::uint32_t hints[2 * DopShape<K>::slabs];
  seed_root_hints(fly, frames[0], hints);
  for (auto _ : state) {
    for (const TumbleFrame<K>& frame : frames) {
      tumble_root(fly, frame, out, hot ? hints : nullptr);
      benchmark::DoNotOptimize(out);
      benchmark::ClobberMemory();
    }
  }
  report_per_op(state, frames.size());
  state.counters["hull_verts"] = static_cast<double>(fly.root_hull.points.size());
}

// ---------------------------------------------------------------------------------------------
// C_p: exact triangle-triangle tests on pairs whose bounding boxes overlap (the paper's 100,000
// queries "all of which had their bounding boxes overlap").

constexpr std::size_t kTrianglePairs = 16384;

using TrianglePair = std::pair<Triangle, Triangle>;

Triangle triangle_of(const Mesh& m, std::size_t t) {
  auto v = [&](std::uint32_t i) { return Vec3{m.x[i], m.y[i], m.z[i]}; };
  return {v(m.a[t]), v(m.b[t]), v(m.c[t])};
}

bool boxes_overlap(const Triangle& s, const Triangle& t) {
  auto lo = [](double a, double b, double c) { return std::min({a, b, c}); };
  auto hi = [](double a, double b, double c) { return std::max({a, b, c}); };
  return lo(s.p0.x, s.p1.x, s.p2.x) <= hi(t.p0.x, t.p1.x, t.p2.x) &&
         lo(t.p0.x, t.p1.x, t.p2.x) <= hi(s.p0.x, s.p1.x, s.p2.x) &&
         lo(s.p0.y, s.p1.y, s.p2.y) <= hi(t.p0.y, t.p1.y, t.p2.y) &&
         lo(t.p0.y, t.p1.y, t.p2.y) <= hi(s.p0.y, s.p1.y, s.p2.y) &&
         lo(s.p0.z, s.p1.z, s.p2.z) <= hi(t.p0.z, t.p1.z, t.p2.z) &&
         lo(t.p0.z, t.p1.z, t.p2.z) <= hi(s.p0.z, s.p1.z, s.p2.z);
}

// Random pairs between two soups of random tetrahedra, kept when their boxes overlap.
std::vector<TrianglePair> random_box_overlapping_pairs() {
  const Mesh a = make_tetrahedra({0, 0, 0}, {1, 1, 1}, 2000, 0.15, 3);
  const Mesh b = make_tetrahedra({0, 0, 0}, {1, 1, 1}, 2000, 0.15, 4);
  std::vector<TrianglePair> pairs;
  std::uint64_t rng = 5;
  while (pairs.size() < kTrianglePairs) {
    const Triangle s = triangle_of(a, draw_index(rng, a.triangle_count()));
    const Triangle t = triangle_of(b, draw_index(rng, b.triangle_count()));
    if (boxes_overlap(s, t)) pairs.emplace_back(s, t);
  }
  return pairs;
}

// Grid-aligned pairs: small integer coordinates, one triangle in the plane z = 0, the other
// either in that plane too (coplanar) or with corners on it (touching at a vertex or an edge),
// axes permuted so every projection axis is used. Orientation determinants are exactly zero
// here, so the floating-point filter cannot decide and the expansion arithmetic runs.
std::vector<TrianglePair> grid_degenerate_pairs() {
  std::vector<TrianglePair> pairs;
  std::uint64_t rng = 6;
  auto grid = [&](int n) { return static_cast<double>(draw_index(rng, n)); };
  auto corner = [&](bool on_plane) { return Vec3{grid(4), grid(4), on_plane ? 0.0 : 1 + grid(2)}; };
  auto permute = [](Vec3 p, int axes) {
    if (axes == 1) return Vec3{p.z, p.x, p.y};
    if (axes == 2) return Vec3{p.y, p.z, p.x};
    return p;
  };
  auto degenerate = [](const Triangle& t) {  // exact: small integers
    const Vec3 n = cross(t.p1 - t.p0, t.p2 - t.p0);
    return n.x == 0 && n.y == 0 && n.z == 0;
  };
  while (pairs.size() < kTrianglePairs) {
    const bool coplanar = draw_index(rng, 2) == 0;
    Triangle s{corner(true), corner(true), corner(true)};
    Triangle t{corner(true), corner(coplanar), corner(coplanar || draw_index(rng, 2) == 0)};
    if (degenerate(s) || degenerate(t)) continue;  // segments and points take other paths
    const int axes = static_cast<int>(draw_index(rng, 3));
    s = {permute(s.p0, axes), permute(s.p1, axes), permute(s.p2, axes)};
    t = {permute(t.p0, axes), permute(t.p1, axes), permute(t.p2, axes)};
    if (boxes_overlap(s, t)) pairs.emplace_back(s, t);
  }
  return pairs;
}

// Box-overlapping pairs whose triangles both cross the other's plane: what survives the leaf
// prefilter, so what the exact test sees in a query.
std::vector<TrianglePair> crossing_pairs() {
  std::vector<TrianglePair> pairs;
  auto crosses = [](const Triangle& s, const Triangle& t) {
    const int a = orient3d(t.p0, t.p1, t.p2, s.p0), b = orient3d(t.p0, t.p1, t.p2, s.p1),
              c = orient3d(t.p0, t.p1, t.p2, s.p2);
    return std::min({a, b, c}) < 0 && std::max({a, b, c}) > 0;
  };
  for (const TrianglePair& p : random_box_overlapping_pairs()) {
    if (crosses(p.first, p.second) && crosses(p.second, p.first)) pairs.push_back(p);
  }
  return pairs;
}

using TriangleTest = bool (*)(const Triangle&, const Triangle&);

void run_triangle_pairs(benchmark::State& state, const std::vector<TrianglePair>& pairs,
                        TriangleTest test = triangles_intersect) {
  for (auto _ : state) {
    for (const TrianglePair& p : pairs) {
      bool hit = test(p.first, p.second);
      benchmark::DoNotOptimize(hit);
    }
  }
  std::size_t hits = 0;
  for (const TrianglePair& p : pairs) hits += test(p.first, p.second);
  report_per_op(state, pairs.size());
  state.counters["intersect_frac"] = static_cast<double>(hits) / static_cast<double>(pairs.size());
}

void BM_Cp_TriTri_BoxOverlap(benchmark::State& state) {
  static const std::vector<TrianglePair> pairs = random_box_overlapping_pairs();
  run_triangle_pairs(state, pairs);
}

// Crossing pairs by Guigue-Devillers (the library's path) and by the edge tests alone.
void BM_Cp_TriTri_Crossing(benchmark::State& state, TriangleTest test) {
  static const std::vector<TrianglePair> pairs = crossing_pairs();
  run_triangle_pairs(state, pairs, test);
}

void BM_Cp_TriTri_GridCoplanarTouching(benchmark::State& state) {
  static const std::vector<TrianglePair> pairs = grid_degenerate_pairs();
  run_triangle_pairs(state, pairs);
}

// The leaf prefilter per ISA, on the leaf pairs of the torus flight (K = 18): one environment
// triangle, moved into the object's frame, against a whole flying leaf. Time per triangle pair.
struct LeafPairs {
  std::vector<simd::PrefilterTriangle> keys;
  std::vector<std::uint32_t> first, count;
  std::size_t pairs = 0, survivors = 0;
};

const LeafPairs& leaf_pairs_of_flight() {
  static const LeafPairs lp = [] {
    LeafPairs out;
    const DopTree<18>& env = env_tree<18>();
    const FlyingDopTree<18>& fly = fly_tree<18>();
    DopQueryScratch<18> scratch;
    for (const Pose& pose : flight_poses(32, 7)) {
      const ObjectFrame frame = make_object_frame<simd::ScalarArch>(fly.corner_radius, pose);
      QueryResult r;
      // The leaf pairs a query visits: re-run its traversal with a recording leaf test.
      scratch.prepare(env, fly);
      TumbleFrame<18> tf = make_tumble_frame(fly, pose);
      std::vector<float> tumbled(std::size_t{fly.tree.topology.node_count()} *
                                 DopShape<18>::floats);
      std::vector<char> done(fly.tree.topology.node_count(), 0);
      auto overlap = [&](std::uint32_t e, std::uint32_t f) {
        float* fb = tumbled.data() + std::size_t{f} * DopShape<18>::floats;
        if (!done[f]) {
          done[f] = 1;
          if (f == 0)
            tumble_root(fly, tf, fb);
          else
            tumble_node(fly, tf, f, fb);
        }
        return simd::slab_overlap_scalar<DopShape<18>::lanes>(env.node_bounds(e), fb);
      };
      auto leaf = [&](std::uint32_t e, std::uint32_t f) {
        const std::uint32_t es = env.topology.child_or_first[e];
        out.keys.push_back(object_frame_key<simd::ScalarArch>(frame, env.triangles.triangle(es)));
        out.first.push_back(fly.tree.topology.child_or_first[f]);
        out.count.push_back(fly.tree.topology.leaf_count[f]);
        out.pairs += fly.tree.topology.leaf_count[f];
        return false;
      };
      auto always = [](std::uint32_t, std::uint32_t) { return true; };
      auto ignore = [](std::uint32_t, bool) {};
      std::uint32_t size = 1;
      scratch.stack[0] = {0, 0};
      std::uint64_t n_v = 0;
      traverse_trees(env.topology, fly.tree.topology, scratch.stack.data(), size, overlap, leaf,
                     always, ignore, n_v, ~std::uint64_t{0});
    }
    std::vector<std::uint64_t> bits(out.keys.size());
    simd::kernel_table<4>(simd::Isa::scalar)
        .prefilter_many(out.keys.data(), fly_tree<18>().floats.slots(), out.first.data(),
                        out.count.data(), out.keys.size(), bits.data());
    for (std::uint64_t b : bits) out.survivors += static_cast<std::size_t>(std::popcount(b));
    return out;
  }();
  return lp;
}

void BM_Cp_Prefilter(benchmark::State& state, simd::Isa isa) {
  const LeafPairs& lp = leaf_pairs_of_flight();
  const auto table = simd::kernel_table<4>(isa);
  const simd::PrefilterSlots slots = fly_tree<18>().floats.slots();
  std::vector<std::uint64_t> bits(lp.keys.size());
  for (auto _ : state) {
    table.prefilter_many(lp.keys.data(), slots, lp.first.data(), lp.count.data(), lp.keys.size(),
                         bits.data());
    benchmark::DoNotOptimize(bits.data());
    benchmark::ClobberMemory();
  }
  report_per_op(state, lp.pairs);
  state.counters["leaf_pairs"] = static_cast<double>(lp.keys.size());
  state.counters["survivor_frac"] =
      static_cast<double>(lp.survivors) / static_cast<double>(lp.pairs);
}

// The edge-pair axes' test (simd/triangle_edge_axes.hpp) on the pairs the prefilter passes in
// the same leaf pairs: what each survivor pays before the exact test, and the share it parts.
void BM_Cp_EdgeAxes(benchmark::State& state, simd::Isa isa) {
  static const auto survivors = [] {
    const LeafPairs& lp = leaf_pairs_of_flight();
    std::vector<std::uint64_t> bits(lp.keys.size());
    simd::kernel_table<4>(simd::Isa::scalar)
        .prefilter_many(lp.keys.data(), fly_tree<18>().floats.slots(), lp.first.data(),
                        lp.count.data(), lp.keys.size(), bits.data());
    std::pair<std::vector<simd::PrefilterTriangle>, std::vector<std::uint32_t>> out;
    for (std::size_t i = 0; i < bits.size(); ++i) {
      for (std::uint64_t b = bits[i]; b != 0; b &= b - 1) {
        out.first.push_back(lp.keys[i]);
        out.second.push_back(lp.first[i] + static_cast<std::uint32_t>(std::countr_zero(b)));
      }
    }
    return out;
  }();
  const simd::EdgeAxesMany edge_axes = simd::edge_axes_table(isa);
  const simd::PrefilterSlots slots = fly_tree<18>().floats.slots();
  const std::size_t n = survivors.first.size();
  std::vector<std::uint8_t> apart(n);
  for (auto _ : state) {
    edge_axes(survivors.first.data(), slots, survivors.second.data(), n, apart.data());
    benchmark::DoNotOptimize(apart.data());
    benchmark::ClobberMemory();
  }
  report_per_op(state, n);
  std::size_t parted = 0;
  for (std::uint8_t a : apart) parted += a;
  state.counters["survivors"] = static_cast<double>(n);
  state.counters["parted_frac"] = static_cast<double>(parted) / static_cast<double>(n);
}

// The environment triangles' prefilter keys (engine/leaf_test.hpp) through each ISA's per-pose
// cache (engine/dop_dispatch.hpp, cached_key_for): whole keys of 4,096 consecutive slots of the
// flight's environment, a new pose (epoch) per pass, as a deep proximity query asks for them. The
// scalar ISA computes them one at a time; the vector ISAs a group of 2, 4 or 8 slots at once.
void BM_Cp_EnvironmentKeys(benchmark::State& state, simd::Isa isa) {
  const LeafTriangles& tris = env_tree<18>().triangles;
  const std::uint32_t n = std::min<std::uint32_t>(4096, tris.size());
  const std::vector<Pose> poses = flight_poses(16, 5);
  const CachedKeyFn key_of = cached_key_for(isa);
  PrefilterKeyCache cache;
  cache.size_once(PrefilterKeyCache::query_entries);
  std::uint32_t epoch = 0;
  for (auto _ : state) {
    const ObjectFrame frame = make_object_frame<simd::ScalarArch>(1.3, poses[epoch % poses.size()]);
    ++epoch;
    float sum = 0;
    for (std::uint32_t es = 0; es < n; ++es)
      sum += key_of(cache, epoch, frame, tris, es, true).upper;
    benchmark::DoNotOptimize(sum);
  }
  report_per_op(state, n);
}

// Batch throughput against threads: the torus flight's 2,000 poses (io/generated_scene.hpp),
// first contact, K = 26. Reports poses per second.
void BM_BatchThroughput(benchmark::State& state) {
  static const std::vector<GeneratedScene> scenes = generate_scenes("torus", {1, 1.0});
  const GeneratedScene& scene = scenes[0];
  BatchConfig c;
  c.bv = BvType::kdop26;
  c.threads = static_cast<unsigned>(state.range(0));
  BatchQuery batch(scene.environment, {&scene.object}, c);
  std::vector<PoseTask> tasks;
  for (const Pose& p : scene.poses) tasks.push_back({0, p});
  BatchOutput out;
  batch.run(tasks, out);
  for (auto _ : state) {
    batch.run(tasks, out);
    benchmark::DoNotOptimize(out.results.data());
  }
  state.counters["poses_per_s"] = benchmark::Counter(static_cast<double>(tasks.size()),
                                                     benchmark::Counter::kIsIterationInvariantRate);
}

template <int K>
void register_k(simd::Isa isa) {
  const std::string suffix = std::string("<") + std::to_string(K) + ">/" + simd::to_string(isa);
  benchmark::RegisterBenchmark(("BM_Cv_SlabOverlap" + suffix).c_str(), BM_Cv_SlabOverlap<K>, isa)
      ->MinTime(kMinTime);
  // The wide layout's kernel tables hold 13 slabs in 16 lanes (simd/kernel_loops.hpp): the
  // 26-DOP's, measured in that layout and not adopted; the 32-DOP runs in the node-pair layout.
  if constexpr (K != 32) {
    benchmark::RegisterBenchmark(("BM_Cv_SlabOverlapWide8" + suffix).c_str(),
                                 BM_Cv_SlabOverlapWide8<K>, isa)
        ->MinTime(kMinTime);
  }
  benchmark::RegisterBenchmark(("BM_Cu_TumbleVertices" + suffix).c_str(), BM_Cu_TumbleVertices<K>,
                               isa)
      ->MinTime(kMinTime);
  benchmark::RegisterBenchmark(("BM_Cu_TumbleAffine" + suffix).c_str(), BM_Cu_TumbleAffine<K>, isa)
      ->MinTime(kMinTime);
  benchmark::RegisterBenchmark(("BM_Cp_TriangleDop" + suffix).c_str(), BM_Cp_TriangleDop<K>, isa)
      ->MinTime(kMinTime);
  benchmark::RegisterBenchmark(("BM_Cv_BoxDop" + suffix).c_str(), BM_Cv_BoxDop<K>, isa)
      ->MinTime(kMinTime);
  benchmark::RegisterBenchmark(("BM_Cp_WorldTriangleDop" + suffix).c_str(),
                               BM_Cp_WorldTriangleDop<K>, isa)
      ->MinTime(kMinTime);
}

template <int K>
void register_scalar_k() {
  const std::string k = std::string("<") + std::to_string(K) + ">";
  benchmark::RegisterBenchmark(("BM_Cu_AffineFrame" + k).c_str(), BM_Cu_AffineFrame<K>)
      ->MinTime(kMinTime);
  benchmark::RegisterBenchmark(("BM_Cu_TumbleRoot" + k + "/cold").c_str(), BM_Cu_TumbleRoot<K>,
                               false)
      ->MinTime(kMinTime);
  benchmark::RegisterBenchmark(("BM_Cu_TumbleRoot" + k + "/hot").c_str(), BM_Cu_TumbleRoot<K>, true)
      ->MinTime(kMinTime);
}

}  // namespace
}  // namespace kdop

int main(int argc, char** argv) {
  using namespace kdop;
  for (simd::Isa isa : simd::supported_isas()) {
    register_k<6>(isa);
    register_k<14>(isa);
    register_k<18>(isa);
    register_k<26>(isa);
    register_k<32>(isa);
    benchmark::RegisterBenchmark((std::string("BM_Cp_Prefilter/") + simd::to_string(isa)).c_str(),
                                 BM_Cp_Prefilter, isa)
        ->MinTime(kMinTime);
    benchmark::RegisterBenchmark((std::string("BM_Cp_EdgeAxes/") + simd::to_string(isa)).c_str(),
                                 BM_Cp_EdgeAxes, isa)
        ->MinTime(kMinTime);
    benchmark::RegisterBenchmark(
        (std::string("BM_Cp_EnvironmentKeys/") + simd::to_string(isa)).c_str(),
        BM_Cp_EnvironmentKeys, isa)
        ->MinTime(kMinTime);
  }
  register_scalar_k<6>();
  register_scalar_k<14>();
  register_scalar_k<18>();
  register_scalar_k<26>();
  register_scalar_k<32>();
  benchmark::RegisterBenchmark("BM_Cp_TriTri_BoxOverlap", BM_Cp_TriTri_BoxOverlap)
      ->MinTime(kMinTime);
  benchmark::RegisterBenchmark("BM_Cp_TriTri_Crossing/guigue_devillers", BM_Cp_TriTri_Crossing,
                               triangles_intersect)
      ->MinTime(kMinTime);
  benchmark::RegisterBenchmark("BM_Cp_TriTri_Crossing/edges", BM_Cp_TriTri_Crossing,
                               triangles_intersect_by_edges)
      ->MinTime(kMinTime);
  benchmark::RegisterBenchmark("BM_Cp_TriTri_GridCoplanarTouching",
                               BM_Cp_TriTri_GridCoplanarTouching)
      ->MinTime(kMinTime);
  benchmark::RegisterBenchmark("BM_BatchThroughput", BM_BatchThroughput)
      ->Arg(1)
      ->Arg(2)
      ->Unit(benchmark::kMillisecond)
      ->MinTime(0.5);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
