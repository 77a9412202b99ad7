#pragma once
// One collision query between a k-DOP environment hierarchy (at identity) and a flying k-DOP
// hierarchy at a pose: Algorithm 1 (engine/traverse.hpp) with lazy tumbling (each flying node
// re-aligned at most once per pose), and leaf tests that run one environment triangle against
// all triangles of a flying leaf through the SIMD prefilter (simd/triangle_prefilter.hpp),
// deciding survivors exactly on the pose-transformed double coordinates.
//
// Templated on the ISA tag and instantiated once per ISA (engine/isa/). In first_contact mode
// the witness is the first intersecting pair in Algorithm 1's order (environment leaves in
// depth-first order, flying leaves in depth-first order within, then triangles by slot), so it
// is the same for every ISA.
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "builders/dop_tree.hpp"
#include "builders/triangle_bounds.hpp"
#include "engine/query.hpp"
#include "engine/traverse.hpp"
#include "engine/tumble.hpp"
#include "geometry/pose.hpp"
#include "geometry/tri_tri.hpp"
#include "simd/slab_overlap.hpp"
#include "simd/triangle_prefilter.hpp"

namespace kdop {

// An environment hierarchy with its triangles' prefilter data.
template <int K>
struct EnvironmentTree {
  DopTree<K> tree;
  TriangleBounds bounds;
};

// Per-thread state of queries against one flying hierarchy; sized once, reused for every pose.
// Stamps mark which flying nodes were tumbled and which leaves transformed in the current pose.
template <int K>
struct DopQueryScratch {
  std::vector<NodePair> stack;  // traversal_stack_size entries; never grows
  std::vector<float> tumbled;   // DopShape<K>::floats per flying node
  std::vector<std::uint32_t> tumble_stamp, leaf_stamp;
  // Flying slots at the current pose: corner c in double (the exact test), the same rounded to
  // nearest float and each slot's box rounded outward (the prefilter). Float arrays are padded
  // by 16 so the prefilter may read a full vector past a leaf's last slot.
  std::array<std::vector<double>, 3> x, y, z;
  std::array<std::vector<float>, 3> fx, fy, fz, box_lo, box_hi;
  std::uint32_t epoch = 0;

  // Sizes the buffers for this pair of hierarchies (only when they changed) and starts a new
  // pose. Defined in dop_query.cpp, compiled once.
  void prepare(const EnvironmentTree<K>& env, const FlyingDopTree<K>& fly);
};

extern template struct DopQueryScratch<6>;
extern template struct DopQueryScratch<14>;
extern template struct DopQueryScratch<18>;
extern template struct DopQueryScratch<26>;

// Bound on the rounding error of a flying corner's projection n . q in the prefilter, for a
// unit normal n: |q|_inf <= corner_radius + |t|_inf, and the float evaluation (rounding q to
// float, three products, two sums) is off by at most 7 units of 2^-24 of |n|_1 |q|_inf.
template <class Arch, int K>
double prefilter_error(const FlyingDopTree<K>& fly, const Pose& pose) {
  const double t_max =
      std::fmax(std::fabs(pose.t[0]), std::fmax(std::fabs(pose.t[1]), std::fabs(pose.t[2])));
  return 8 * 0x1p-24 * 1.7321 * (fly.corner_radius + t_max);
}

// Transforms leaf slots [first, first + count) to the pose, in double, and fills their float
// copies.
template <class Arch, int K>
void transform_leaf(const LeafTriangles& t, const Pose& pose, std::uint32_t first,
                    std::uint32_t count, DopQueryScratch<K>& s) {
  for (std::uint32_t slot = first; slot < first + count; ++slot) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int c = 0; c < 3; ++c) {
      const Vec3 q = apply_pose(pose, Vec3{t.x[c][slot], t.y[c][slot], t.z[c][slot]});
      s.x[c][slot] = q.x;
      s.y[c][slot] = q.y;
      s.z[c][slot] = q.z;
      s.fx[c][slot] = static_cast<float>(q.x);
      s.fy[c][slot] = static_cast<float>(q.y);
      s.fz[c][slot] = static_cast<float>(q.z);
      const double v[3] = {q.x, q.y, q.z};
      for (int a = 0; a < 3; ++a) {
        lo[a] = v[a] < lo[a] ? v[a] : lo[a];
        hi[a] = v[a] > hi[a] ? v[a] : hi[a];
      }
    }
    for (int a = 0; a < 3; ++a) {
      s.box_lo[a][slot] = float_below(lo[a]);
      s.box_hi[a][slot] = float_above(hi[a]);
    }
  }
}

template <class Arch, int K>
void query_dop(const EnvironmentTree<K>& environment, const FlyingDopTree<K>& fly, const Pose& pose,
               QueryMode mode, DopQueryScratch<K>& s, QueryResult& result) {
  using Shape = DopShape<K>;
  s.prepare(environment, fly);
  result.collides = false;
  result.contacts = 0;
  result.pairs.clear();
  result.stats = {};
  const DopTree<K>& env = environment.tree;
  const TumbleFrame<K> frame = make_tumble_frame<Arch>(fly, pose);
  const double prefilter_err = prefilter_error<Arch>(fly, pose);
  const LeafTriangles& fly_tris = fly.tree.triangles;
  const LeafTriangles& env_tris = env.triangles;
  const TreeTopology& fly_topo = fly.tree.topology;
  const simd::PrefilterSlots slots{{s.box_lo[0].data(), s.box_lo[1].data(), s.box_lo[2].data()},
                                   {s.box_hi[0].data(), s.box_hi[1].data(), s.box_hi[2].data()},
                                   {s.fx[0].data(), s.fx[1].data(), s.fx[2].data()},
                                   {s.fy[0].data(), s.fy[1].data(), s.fy[2].data()},
                                   {s.fz[0].data(), s.fz[1].data(), s.fz[2].data()}};

  auto fly_bounds = [&](std::uint32_t f) -> const float* {
    float* out = s.tumbled.data() + std::size_t{f} * Shape::floats;
    if (s.tumble_stamp[f] != s.epoch) {
      s.tumble_stamp[f] = s.epoch;
      ++result.stats.n_u;
      if (f == 0) {
        tumble_root<Arch>(fly, frame, out);
      } else {
        tumble_node<Arch>(fly, frame, f, out);
      }
    }
    return out;
  };

  auto overlap = [&](std::uint32_t e, std::uint32_t f) {
    return simd::slab_overlap<Arch, Shape::lanes>(env.node_bounds(e), fly_bounds(f));
  };

  auto leaf_pairs = [&](std::uint32_t e, std::uint32_t f) {
    const std::uint32_t f_first = fly_topo.child_or_first[f], f_count = fly_topo.leaf_count[f];
    if (s.leaf_stamp[f] != s.epoch) {
      s.leaf_stamp[f] = s.epoch;
      transform_leaf<Arch>(fly_tris, pose, f_first, f_count, s);
    }
    const std::uint32_t e_first = env.topology.child_or_first[e];
    const std::uint32_t e_end = e_first + env.topology.leaf_count[e];
    for (std::uint32_t es = e_first; es < e_end; ++es) {
      const float* b = environment.bounds.slot(es);
      const simd::PrefilterTriangle key{{b[0], b[1], b[2]},
                                        {b[3], b[4], b[5]},
                                        {b[6], b[7], b[8]},
                                        float_below(double{b[9]} - prefilter_err),
                                        float_above(double{b[10]} + prefilter_err)};
      result.stats.n_p += f_count;
      const Triangle te = env_tris.triangle(es);
      for (std::uint32_t done = 0; done < f_count; done += 64) {
        const std::uint32_t chunk = f_count - done < 64 ? f_count - done : 64;
        std::uint64_t bits = simd::prefilter<Arch>(key, slots, f_first + done, chunk);
        result.stats.n_exact += static_cast<std::uint64_t>(std::popcount(bits));
        for (; bits != 0; bits &= bits - 1) {
          const std::uint32_t fs =
              f_first + done + static_cast<std::uint32_t>(std::countr_zero(bits));
          const Triangle tf{{s.x[0][fs], s.y[0][fs], s.z[0][fs]},
                            {s.x[1][fs], s.y[1][fs], s.z[1][fs]},
                            {s.x[2][fs], s.y[2][fs], s.z[2][fs]}};
          if (!triangles_intersect(te, tf)) continue;
          result.collides = true;
          ++result.contacts;
          if (mode == QueryMode::count_contacts) continue;
          append_contact(result.pairs, {env_tris.original[es], fly_tris.original[fs]});
          if (mode == QueryMode::first_contact) return true;
        }
      }
    }
    return false;
  };

  traverse_trees(env.topology, fly_topo, s.stack.data(), overlap, leaf_pairs, result.stats.n_v);
}

}  // namespace kdop
