#pragma once
// One collision query between a k-DOP environment hierarchy (at identity) and a flying k-DOP
// hierarchy at a pose: Algorithm 1 with lazy tumbling (each flying node re-aligned at most once
// per pose) and exact triangle tests on the pose-transformed double coordinates.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "builders/dop_tree.hpp"
#include "engine/query.hpp"
#include "engine/traverse.hpp"
#include "engine/tumble.hpp"
#include "geometry/pose.hpp"
#include "geometry/tri_tri.hpp"
#include "simd/slab_overlap.hpp"

namespace kdop {

// Per-thread state of queries against one flying hierarchy; allocated once, reused per pose.
// Stamps mark which flying nodes were tumbled and which leaves transformed in the current pose.
template <int K>
struct DopQueryScratch {
  std::vector<NodePair> stack;
  std::vector<float> tumbled;  // DopShape<K>::floats per flying node
  std::vector<std::uint32_t> tumble_stamp;
  std::array<std::vector<double>, 3> x, y, z;  // transformed corners per flying slot
  std::vector<std::uint32_t> leaf_stamp;
  std::uint32_t epoch = 0;

  void prepare(const FlyingDopTree<K>& fly) {
    const std::size_t nodes = fly.tree.topology.node_count();
    const std::size_t slots = fly.tree.triangles.size();
    if (tumble_stamp.size() != nodes || x[0].size() != slots) {
      tumbled.assign(nodes * DopShape<K>::floats, 0.0f);
      tumble_stamp.assign(nodes, 0);
      leaf_stamp.assign(nodes, 0);
      for (int c = 0; c < 3; ++c) {
        x[c].assign(slots, 0.0);
        y[c].assign(slots, 0.0);
        z[c].assign(slots, 0.0);
      }
      epoch = 0;
    }
    if (++epoch == 0) {  // wrapped: forget every stamp
      std::fill(tumble_stamp.begin(), tumble_stamp.end(), 0);
      std::fill(leaf_stamp.begin(), leaf_stamp.end(), 0);
      epoch = 1;
    }
  }
};

template <int K>
QueryResult query_dop(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose,
                      QueryMode mode, DopQueryScratch<K>& s) {
  using Shape = DopShape<K>;
  s.prepare(fly);
  QueryResult result;
  const TumbleFrame<K> frame = make_tumble_frame(fly, pose);
  const LeafTriangles& fly_tris = fly.tree.triangles;
  const LeafTriangles& env_tris = env.triangles;
  const TreeTopology& fly_topo = fly.tree.topology;

  auto fly_bounds = [&](std::uint32_t f) -> const float* {
    float* out = s.tumbled.data() + std::size_t{f} * Shape::floats;
    if (s.tumble_stamp[f] != s.epoch) {
      s.tumble_stamp[f] = s.epoch;
      ++result.stats.n_u;
      if (f == 0) {
        tumble_root(fly, frame, out);
      } else {
        tumble_node(fly, frame, f, out);
      }
    }
    return out;
  };

  auto overlap = [&](std::uint32_t e, std::uint32_t f) {
    return simd::slab_overlap<Shape::lanes>(env.node_bounds(e), fly_bounds(f));
  };

  auto leaf_pairs = [&](std::uint32_t e, std::uint32_t f) {
    const std::uint32_t f_first = fly_topo.child_or_first[f], f_count = fly_topo.leaf_count[f];
    if (s.leaf_stamp[f] != s.epoch) {
      s.leaf_stamp[f] = s.epoch;
      for (int c = 0; c < 3; ++c) {
        apply_pose(pose, fly_tris.x[c].data() + f_first, fly_tris.y[c].data() + f_first,
                   fly_tris.z[c].data() + f_first, f_count, s.x[c].data() + f_first,
                   s.y[c].data() + f_first, s.z[c].data() + f_first);
      }
    }
    const std::uint32_t e_first = env.topology.child_or_first[e];
    const std::uint32_t e_end = e_first + env.topology.leaf_count[e];
    for (std::uint32_t es = e_first; es < e_end; ++es) {
      const Triangle te = env_tris.triangle(es);
      for (std::uint32_t fs = f_first; fs < f_first + f_count; ++fs) {
        ++result.stats.n_p;
        const Triangle tf{{s.x[0][fs], s.y[0][fs], s.z[0][fs]},
                          {s.x[1][fs], s.y[1][fs], s.z[1][fs]},
                          {s.x[2][fs], s.y[2][fs], s.z[2][fs]}};
        if (!triangles_intersect(te, tf)) continue;
        result.collides = true;
        result.pairs.push_back({env_tris.original[es], fly_tris.original[fs]});
        if (mode == QueryMode::first_contact) return true;
      }
    }
    return false;
  };

  traverse_trees(env.topology, fly_topo, s.stack, overlap, leaf_pairs, result.stats.n_v);
  if (mode == QueryMode::all_contacts) {
    std::sort(result.pairs.begin(), result.pairs.end());
    result.pairs.erase(std::unique(result.pairs.begin(), result.pairs.end()), result.pairs.end());
  }
  return result;
}

}  // namespace kdop
