#pragma once
// One collision query between a k-DOP environment hierarchy (at identity) and a flying k-DOP
// hierarchy at a pose: Algorithm 1 (engine/traverse.hpp) with lazy tumbling (each flying node
// re-aligned at most once per pose) and leaf tests that run one environment triangle against
// all triangles of a flying leaf through the SIMD prefilter (simd/triangle_prefilter.hpp), then
// decide the survivors exactly on the pose-transformed double coordinates.
//
// The prefilter works in the object's frame: the environment triangle is moved there (three
// corners), and the flying triangles' float copies never move (builders/leaf_floats.hpp). An
// affine map keeps points on the same side of a plane, so a separating plane found in the
// object's frame separates the triangles in the world, once every rounding is covered:
//   - err_d, the double-level errors (moving E by the inverse pose, and the world corners
//     apply_pose computes, mapped back), bounded by 2^-46 (|E|_inf + |t|_inf + r) with
//     r = corner_radius, far above their few ulps;
//   - the float-level errors of the flying corners (rounded to float, |v| <= r) and of the
//     float dot products n . f: at most 4.0001 * 2^-24 |n|_1 r; 5 units are used.
// The exact test always runs on apply_pose's coordinates, computed (and cached per slot) only
// for the survivors.
//
// Templated on the ISA tag and instantiated once per ISA (engine/isa/). In first_contact mode
// the witness is the first intersecting pair in Algorithm 1's order (environment leaves in
// depth-first order, flying leaves in depth-first order within, then triangles by slot), the
// same for every ISA.
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "builders/dop_tree.hpp"
#include "engine/query.hpp"
#include "engine/traverse.hpp"
#include "engine/tumble.hpp"
#include "geometry/pose.hpp"
#include "geometry/tri_tri.hpp"
#include "simd/slab_overlap.hpp"
#include "simd/triangle_prefilter.hpp"

namespace kdop {

// Per-thread state of queries against one flying hierarchy; sized once, reused for every pose.
// Stamps mark which flying nodes were tumbled and which slots were moved in the current pose.
template <int K>
struct DopQueryScratch {
  std::vector<NodePair> stack;  // traversal_stack_size entries; never grows
  std::vector<float> tumbled;   // DopShape<K>::floats per flying node
  std::vector<std::uint32_t> tumble_stamp, slot_stamp;
  std::array<std::vector<double>, 3> x, y, z;  // corner c of a slot at the pose (apply_pose)
  std::uint32_t epoch = 0;

  // Sizes the buffers for this pair of hierarchies (only when they changed) and starts a new
  // pose. Defined in dop_query.cpp, compiled once.
  void prepare(const DopTree<K>& env, const FlyingDopTree<K>& fly);
};

extern template struct DopQueryScratch<6>;
extern template struct DopQueryScratch<14>;
extern template struct DopQueryScratch<18>;
extern template struct DopQueryScratch<26>;

// The inverse of a pose, for moving environment triangles into the object's frame:
// e = R^-1 (p - t), with R^-1 = adj(R) / det(R) (not R^T: a --matrix pose may be orthonormal
// only to 1e-6).
struct ObjectFrame {
  double inv[9];
  double t[3];
  double t_max;
  double radius;  // the object's corner_radius
};

template <class Arch, int K>
ObjectFrame make_object_frame(const FlyingDopTree<K>& fly, const Pose& pose) {
  const auto& r = pose.r;
  const double c00 = r[4] * r[8] - r[5] * r[7], c01 = r[5] * r[6] - r[3] * r[8],
               c02 = r[3] * r[7] - r[4] * r[6];
  const double det = r[0] * c00 + r[1] * c01 + r[2] * c02;
  ObjectFrame f{
      {c00 / det, (r[2] * r[7] - r[1] * r[8]) / det, (r[1] * r[5] - r[2] * r[4]) / det, c01 / det,
       (r[0] * r[8] - r[2] * r[6]) / det, (r[2] * r[3] - r[0] * r[5]) / det, c02 / det,
       (r[1] * r[6] - r[0] * r[7]) / det, (r[0] * r[4] - r[1] * r[3]) / det},
      {pose.t[0], pose.t[1], pose.t[2]},
      std::fmax(std::fabs(pose.t[0]), std::fmax(std::fabs(pose.t[1]), std::fabs(pose.t[2]))),
      fly.corner_radius};
  return f;
}

// The prefilter's view of environment triangle `te`, moved into the object's frame.
template <class Arch>
simd::PrefilterTriangle object_frame_key(const ObjectFrame& f, const Triangle& te) {
  const Vec3 p[3] = {te.p0, te.p1, te.p2};
  Vec3 e[3];
  double e_max = 0;
  for (int k = 0; k < 3; ++k) {
    const double dx = p[k].x - f.t[0], dy = p[k].y - f.t[1], dz = p[k].z - f.t[2];
    e[k] = {(f.inv[0] * dx + f.inv[1] * dy) + f.inv[2] * dz,
            (f.inv[3] * dx + f.inv[4] * dy) + f.inv[5] * dz,
            (f.inv[6] * dx + f.inv[7] * dy) + f.inv[8] * dz};
    e_max = std::fmax(
        e_max, std::fmax(std::fabs(p[k].x), std::fmax(std::fabs(p[k].y), std::fabs(p[k].z))));
  }
  const double err_d = 0x1p-46 * (e_max + f.t_max + f.radius);
  simd::PrefilterTriangle key;
  const double ex[3] = {e[0].x, e[1].x, e[2].x}, ey[3] = {e[0].y, e[1].y, e[2].y},
               ez[3] = {e[0].z, e[1].z, e[2].z};
  const double* axis[3] = {ex, ey, ez};
  for (int a = 0; a < 3; ++a) {
    const double* v = axis[a];
    const double lo = v[0] < v[1] ? (v[0] < v[2] ? v[0] : v[2]) : (v[1] < v[2] ? v[1] : v[2]);
    const double hi = v[0] > v[1] ? (v[0] > v[2] ? v[0] : v[2]) : (v[1] > v[2] ? v[1] : v[2]);
    key.lo[a] = float_below(lo - 2 * err_d);
    key.hi[a] = float_above(hi + 2 * err_d);
  }
  // Any direction gives a valid separating test; E's (rounded) normal gives the thinnest slab.
  const Vec3 c = cross(e[1] - e[0], e[2] - e[0]);
  const double len = norm(c);
  const bool flat = !(len > 0) || !std::isfinite(len);
  key.n[0] = flat ? 0.0f : static_cast<float>(c.x / len);
  key.n[1] = flat ? 0.0f : static_cast<float>(c.y / len);
  key.n[2] = flat ? 0.0f : static_cast<float>(c.z / len);
  const double n1 = std::fabs(key.n[0]) + std::fabs(key.n[1]) + std::fabs(key.n[2]);
  double lo = INFINITY, hi = -INFINITY;
  for (int k = 0; k < 3; ++k) {
    const double d =
        (double{key.n[0]} * e[k].x + double{key.n[1]} * e[k].y) + double{key.n[2]} * e[k].z;
    lo = d < lo ? d : lo;
    hi = d > hi ? d : hi;
  }
  // Rounding of d (<= 4 ulps of n1 |e|), both frames' double errors, and the float side.
  const double margin =
      0x1p-50 * n1 * (e_max + f.t_max + f.radius) + 2 * n1 * err_d + 5 * 0x1p-24 * n1 * f.radius;
  key.lower = float_below(lo - margin);
  key.upper = float_above(hi + margin);
  return key;
}

template <class Arch, int K>
void query_dop(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose, QueryMode mode,
               DopQueryScratch<K>& s, QueryResult& result) {
  using Shape = DopShape<K>;
  s.prepare(env, fly);
  result.collides = false;
  result.contacts = 0;
  result.pairs.clear();
  result.stats = {};
  const TumbleFrame<K> frame = make_tumble_frame<Arch>(fly, pose);
  const ObjectFrame object_frame = make_object_frame<Arch>(fly, pose);
  const LeafTriangles& fly_tris = fly.tree.triangles;
  const LeafTriangles& env_tris = env.triangles;
  const TreeTopology& fly_topo = fly.tree.topology;
  const simd::PrefilterSlots slots = fly.floats.slots();

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

  // apply_pose's coordinates of a flying slot, computed once per pose.
  auto moved_slot = [&](std::uint32_t fs) {
    if (s.slot_stamp[fs] != s.epoch) {
      s.slot_stamp[fs] = s.epoch;
      for (int c = 0; c < 3; ++c) {
        const Vec3 q =
            apply_pose(pose, Vec3{fly_tris.x[c][fs], fly_tris.y[c][fs], fly_tris.z[c][fs]});
        s.x[c][fs] = q.x;
        s.y[c][fs] = q.y;
        s.z[c][fs] = q.z;
      }
    }
    return Triangle{{s.x[0][fs], s.y[0][fs], s.z[0][fs]},
                    {s.x[1][fs], s.y[1][fs], s.z[1][fs]},
                    {s.x[2][fs], s.y[2][fs], s.z[2][fs]}};
  };

  auto leaf_pairs = [&](std::uint32_t e, std::uint32_t f) {
    const std::uint32_t f_first = fly_topo.child_or_first[f], f_count = fly_topo.leaf_count[f];
    const std::uint32_t e_first = env.topology.child_or_first[e];
    const std::uint32_t e_end = e_first + env.topology.leaf_count[e];
    for (std::uint32_t es = e_first; es < e_end; ++es) {
      const Triangle te = env_tris.triangle(es);
      const simd::PrefilterTriangle key = object_frame_key<Arch>(object_frame, te);
      result.stats.n_p += f_count;
      for (std::uint32_t done = 0; done < f_count; done += 64) {
        const std::uint32_t chunk = f_count - done < 64 ? f_count - done : 64;
        std::uint64_t bits = simd::prefilter<Arch>(key, slots, f_first + done, chunk);
        result.stats.n_exact += static_cast<std::uint64_t>(std::popcount(bits));
        for (; bits != 0; bits &= bits - 1) {
          const std::uint32_t fs =
              f_first + done + static_cast<std::uint32_t>(std::countr_zero(bits));
          if (!triangles_intersect(te, moved_slot(fs))) continue;
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
