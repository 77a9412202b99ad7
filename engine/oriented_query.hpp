#pragma once
// One collision query between hierarchies of oriented volumes (builders/oriented_tree.hpp): the
// same traversal (engine/traverse.hpp) and leaf test (engine/leaf_test.hpp) as the k-DOP query,
// with the overlap tests of the papers:
//   - OBB: the 15-axis separating-axis test of Gottschalk et al. 1996, section 5 and Table 1
//     (geometry/obb_overlap.hpp). A flying box is not re-aligned: it is placed at the pose once
//     per pose when first visited (its centre moved, its axes rotated: N_u counts these), and
//     each pair is tested in the environment box's frame by the relative rotation and
//     translation;
//   - RSS: two rounded boxes overlap when their rectangles are at most r_a + r_b apart
//     (oriented-rounded-bv.txt; geometry/rectangle_distance.hpp), after the separating-axis test
//     of the boxes that enclose them, which settles most pairs for a fraction of the cost.
//
// Conservative in floating point:
//   - a pose's rotation M may be orthonormal only to 1e-6 (--matrix poses), and then it maps a
//     box to a parallelepiped. Flying volumes are rotated by Q, M made orthonormal by
//     Gram-Schmidt, and grown by deviation * (distance of a point from the centre), where
//     deviation >= |M - Q| (Frobenius), because M p = M c + Q (p - c) + (M - Q)(p - c);
//   - |R| is widened by 2^-40 (its entries are within a few ulps of the true cosines) and every
//     comparison by 2^-40 of the magnitudes involved (coordinates, extents): T and the reaches are
//     off by a few ulps of those, and the stored axes are orthonormal to about 1e-15, so a box's
//     slabs differ from the ideal box by far less;
//   - the rectangle distance is a distance between two points the segment tests pick, accurate
//     to about sqrt(ulp) of the rectangles' size when edges are nearly parallel: the RSS test
//     adds 1e-6 of the extents and radii.
// The hot start's cut and split queries are k-DOP features: oriented queries start at the roots
// and run on one thread (a batch still runs its poses on every core). The previous pose's witness
// is tested first here too (engine/leaf_test.hpp, previous_witness_holds).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "builders/oriented_tree.hpp"
#include "engine/leaf_test.hpp"
#include "engine/query.hpp"
#include "engine/traverse.hpp"
#include "geometry/obb_overlap.hpp"
#include "geometry/pose.hpp"
#include "geometry/rectangle_distance.hpp"
#include "geometry/staggered_arrays.hpp"
#include "simd/box_separation.hpp"

namespace kdop {

// A flying node placed at the pose: centre (3), axes (3 x 3, axis j at 3 + 3j), extents grown
// for the pose's deviation from a rotation (OBB: 3 half extents; RSS: 2 half lengths and the
// radius), and the magnitude its coordinates' rounding scales with.
inline constexpr int kPlacedDoubles = 16;
inline constexpr int kPlacedScaleAt = 15;
// OBB on AVX-512: the placed box also as the float block of the 15-axis vector test
// (simd/box_separation.hpp). Measured on the torus flight (mean query, 200 poses): the double
// test 28 us, the float test 19 us on AVX-512; its plain-float reference on AVX2 88 us, which
// is why the narrower ISAs keep the double test (so N_v may differ between AVX-512 and the
// others; the pairs, and the first-contact witness, do not: a tighter or looser conservative
// test only prunes subtrees without contacts, and the depth-first order is the same).
inline constexpr int kPlacedFloats = 16;
template <class Arch, class Bv>
inline constexpr bool kFloatBoxTest =
    std::is_same_v<Bv, ObbBv>&& std::is_same_v<Arch, xsimd::avx512bw>;

// Per-thread state of queries against one flying hierarchy; sized once, reused for every pose.
template <class Bv>
struct OrientedQueryScratch {
  std::vector<NodePair> stack;       // traversal_stack_size entries; never grows
  std::vector<double> placed;        // kPlacedDoubles per flying node
  std::vector<float> placed_blocks;  // kPlacedFloats per flying node (OBB)
  std::vector<std::uint32_t> place_stamp, slot_stamp;
  PrefilterKeyCache keys;         // environment triangles' keys, this pose
  StaggeredArrays<double> moved;  // the flying slots at the pose (as in DopQueryScratch)
  std::uint32_t epoch = 0;
  // The previous pose's witness (first_contact, hot start), tested first by the next pose of the
  // chain, as in DopQueryScratch; it names slots of the hierarchies seen last.
  PreviousWitness witness;
  const void* env_seen = nullptr;
  const void* fly_seen = nullptr;

  // Sizes the buffers for this pair of hierarchies (only when their sizes changed), forgets the
  // witness when the hierarchies are not the previous pose's, and starts a new pose. Defined in
  // oriented_query.cpp, compiled once.
  void prepare(const OrientedTree<Bv>& env, const FlyingOrientedTree<Bv>& fly);
  // The next pose does not follow the previous one (a new path or block).
  void start_chain() { witness.valid = false; }
};

extern template struct OrientedQueryScratch<ObbBv>;
extern template struct OrientedQueryScratch<RssBv>;

// The pose's rotation M, Q (M made orthonormal by Gram-Schmidt on its columns) and a bound on
// |(M - Q) v| / |v|.
struct OrientedFrame {
  double m[9];
  double q[9];
  double t[3];
  double deviation;
};

template <class Arch>
OrientedFrame make_oriented_frame(const Pose& pose) {
  OrientedFrame f{};
  for (int i = 0; i < 9; ++i) f.m[i] = pose.r[i];
  for (int i = 0; i < 3; ++i) f.t[i] = pose.t[i];
  const double* m = f.m;
  double c0[3] = {m[0], m[3], m[6]}, c1[3] = {m[1], m[4], m[7]};
  const double n0 = std::sqrt(c0[0] * c0[0] + c0[1] * c0[1] + c0[2] * c0[2]);
  for (double& v : c0) v /= n0;
  const double p = c0[0] * c1[0] + c0[1] * c1[1] + c0[2] * c1[2];
  for (int i = 0; i < 3; ++i) c1[i] -= p * c0[i];
  const double n1 = std::sqrt(c1[0] * c1[0] + c1[1] * c1[1] + c1[2] * c1[2]);
  for (double& v : c1) v /= n1;
  const double c2[3] = {c0[1] * c1[2] - c0[2] * c1[1], c0[2] * c1[0] - c0[0] * c1[2],
                        c0[0] * c1[1] - c0[1] * c1[0]};
  double sum = 0;
  for (int i = 0; i < 3; ++i) {
    f.q[3 * i] = c0[i];
    f.q[3 * i + 1] = c1[i];
    f.q[3 * i + 2] = c2[i];
    for (int j = 0; j < 3; ++j) {
      const double d = f.m[3 * i + j] - f.q[3 * i + j];
      sum += d * d;
    }
  }
  f.deviation = std::sqrt(sum) * (1 + 0x1p-40) + 0x1p-50;
  return f;
}

// Places flying node box `b` (Bv::doubles, object frame) at the pose into `out` (and, for OBB,
// its float block into `block`).
template <class Arch, class Bv>
void place_node(const OrientedFrame& f, const double* b, double* out, float* block) {
  const double* c = b + kCenterAt;
  const double* m = f.m;
  double scale = 0;
  for (int i = 0; i < 3; ++i) {
    out[i] = (m[3 * i] * c[0] + m[3 * i + 1] * c[1]) + m[3 * i + 2] * c[2] + f.t[i];
    scale += 2 * std::fabs(c[i]) + std::fabs(f.t[i]) + std::fabs(out[i]);
  }
  for (int j = 0; j < 3; ++j) {
    const double* u = b + kAxesAt + 3 * j;
    for (int i = 0; i < 3; ++i) {
      out[3 + 3 * j + i] = (f.q[3 * i] * u[0] + f.q[3 * i + 1] * u[1]) + f.q[3 * i + 2] * u[2];
    }
  }
  const double* h = b + kHalfAt;
  if constexpr (std::is_same_v<Bv, ObbBv>) {
    const double grow = f.deviation * std::sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    for (int j = 0; j < 3; ++j) out[12 + j] = h[j] + grow;
    if constexpr (kFloatBoxTest<Arch, Bv>) {
      simd::make_box_block<Arch>(out + 3, out + 12, scale, block);
    } else {
      (void)block;
    }
  } else {
    (void)block;
    const double r = b[kRadiusAt];
    out[12] = h[0];
    out[13] = h[1];
    out[14] = r + f.deviation * (std::sqrt(h[0] * h[0] + h[1] * h[1]) + r);
  }
  out[kPlacedScaleAt] = scale;
}

// True if environment volume `e` (Bv::doubles) and placed flying volume `p` (with its float
// block, OBB on AVX-512) may overlap. There, OBB pairs are decided by the float 15-axis test,
// which hands the rare pair outside float's range back to the double test below.
template <class Arch, class Bv>
bool oriented_overlap(const double* e, const double* p, const float* block) {
  if constexpr (kFloatBoxTest<Arch, Bv>) {
    const simd::BoxSeparation s = simd::boxes_separated<Arch>(e + kCenterAt, e + kAxesAt, p, block);
    if (s != simd::BoxSeparation::undecided) return s == simd::BoxSeparation::overlapping;
  } else {
    (void)block;
  }
  constexpr double slack = 0x1p-40;
  const double d[3] = {p[0] - e[kCenterAt], p[1] - e[kCenterAt + 1], p[2] - e[kCenterAt + 2]};
  double T[3], R[9];
  for (int i = 0; i < 3; ++i) {
    const double* u = e + kAxesAt + 3 * i;
    T[i] = (u[0] * d[0] + u[1] * d[1]) + u[2] * d[2];
    for (int j = 0; j < 3; ++j) {
      const double* v = p + 3 + 3 * j;
      R[3 * i + j] = (u[0] * v[0] + u[1] * v[1]) + u[2] * v[2];
    }
  }
  const double* a = e + kHalfAt;
  const double* b = p + 12;
  double scale = p[kPlacedScaleAt] + std::fabs(e[kCenterAt]) + std::fabs(e[kCenterAt + 1]) +
                 std::fabs(e[kCenterAt + 2]) + a[0] + a[1] + a[2] + b[0] + b[1] + b[2];
  if constexpr (std::is_same_v<Bv, ObbBv>) {
    return !obb_disjoint<Arch>(a, b, R, T, slack, slack * scale);
  } else {
    const double ra = a[2], rb = b[2];
    const double box_a[3] = {a[0] + ra, a[1] + ra, ra}, box_b[3] = {b[0] + rb, b[1] + rb, rb};
    scale += ra + rb;
    if (obb_disjoint<Arch>(box_a, box_b, R, T, slack, 2 * slack * scale)) return false;
    return rectangles_within(
        a, b, R, T, ra + rb + 1e-6 * (a[0] + a[1] + b[0] + b[1] + ra + rb) + slack * scale);
  }
}

// The object's bounding sphere at the pose against the environment's root volume (see
// sphere_misses_root in dop_query.hpp for the radius' allowance).
template <class Arch, class Bv>
bool sphere_misses_root(const OrientedTree<Bv>& env, const FlyingOrientedTree<Bv>& fly,
                        const Pose& pose) {
  const Vec3 c = apply_pose(pose, fly.sphere_center);
  const double* e = env.node_box(0);
  const double d[3] = {c.x - e[kCenterAt], c.y - e[kCenterAt + 1], c.z - e[kCenterAt + 2]};
  double l[3];
  for (int i = 0; i < 3; ++i) {
    const double* u = e + kAxesAt + 3 * i;
    l[i] = (u[0] * d[0] + u[1] * d[1]) + u[2] * d[2];
  }
  const double* h = e + kHalfAt;
  const double magnitude = std::fabs(c.x) + std::fabs(c.y) + std::fabs(c.z) +
                           std::fabs(e[kCenterAt]) + std::fabs(e[kCenterAt + 1]) +
                           std::fabs(e[kCenterAt + 2]) + h[0] + h[1] + h[2] + fly.sphere_radius;
  const double r = fly.sphere_radius * (1 + 4e-6) + 0x1p-40 * magnitude;
  if constexpr (std::is_same_v<Bv, ObbBv>) {
    for (int i = 0; i < 3; ++i) {
      if (std::fabs(l[i]) > h[i] + r) return true;
    }
    return false;
  } else {
    // std::max, not std::fmax (a libm call): a NaN stays NaN, and then nothing is a miss.
    const double dx = std::max(std::fabs(l[0]) - h[0], 0.0);
    const double dy = std::max(std::fabs(l[1]) - h[1], 0.0);
    return std::sqrt(dx * dx + dy * dy + l[2] * l[2]) > e[kRadiusAt] + r;
  }
}

// A pose whose sphere meets the environment's root: the rest of query_oriented, out of line (as
// query_dop_traversal).
template <class Arch, class Bv>
[[gnu::noinline]] void query_oriented_traversal(const OrientedTree<Bv>& env,
                                                const FlyingOrientedTree<Bv>& fly, const Pose& pose,
                                                const QueryOptions& options,
                                                OrientedQueryScratch<Bv>& s, QueryResult& result) {
  s.prepare(env, fly);
  const bool witness_first = options.hot_start && options.mode == QueryMode::first_contact;
  if (witness_first &&
      previous_witness_holds<Arch>(env.triangles, fly.tree.triangles, pose, s.witness, result)) {
    return;
  }
  const OrientedFrame frame = make_oriented_frame<Arch>(pose);
  ObjectFrame object_frame;  // made by the first key (nine divisions; DopTraversal's the same)
  bool object_ready = false;
  const simd::PrefilterSlots slots = fly.floats.template slots<Arch>();
  double* moved[LeafTriangles::array_count];
  for (int a = 0; a < LeafTriangles::array_count; ++a) moved[a] = s.moved.mutable_array(a);
  const LeafTriangles& fly_tris = fly.tree.triangles;

  auto placed = [&](std::uint32_t f) {
    double* out = s.placed.data() + std::size_t{f} * kPlacedDoubles;
    if (s.place_stamp[f] != s.epoch) {
      s.place_stamp[f] = s.epoch;
      ++result.stats.n_u;
      place_node<Arch, Bv>(frame, fly.tree.node_box(f), out,
                           s.placed_blocks.data() + std::size_t{f} * kPlacedFloats);
    }
    return out;
  };
  auto moved_slot = [&](std::uint32_t fs) {
    if (s.slot_stamp[fs] != s.epoch) {
      s.slot_stamp[fs] = s.epoch;
      move_slot<Arch>(pose, fly_tris, fs, moved);
    }
    return moved_triangle<Arch>(moved, fs);
  };
  auto overlap = [&](std::uint32_t e, std::uint32_t f) {
    const double* p = placed(f);
    return oriented_overlap<Arch, Bv>(env.node_box(e), p,
                                      s.placed_blocks.data() + std::size_t{f} * kPlacedFloats);
  };
  auto key_of = [&](std::uint32_t es, bool whole) -> const simd::PrefilterTriangle& {
    if (!object_ready) [[unlikely]] {
      object_frame = make_object_frame<Arch>(fly.corner_radius, pose);
      object_ready = true;
    }
    return cached_key<Arch>(s.keys, s.epoch, object_frame, env.triangles, es, whole);
  };
  const bool prefilter = prefilter_pays<Arch>(fly.corner_radius);
  auto leaf = [&](std::uint32_t e, std::uint32_t f) {
    // (Testing the triangle against the flying leaf's own box first, as the k-DOP query does
    // with the leaf's DOP, was measured: 23% fewer pairs for the prefilter on the swept flight,
    // no faster; the leaves of 8 are small already.)
    auto misses_leaf = [](std::uint32_t) { return false; };
    return test_leaf_pair<Arch>(env.triangles, env.topology, e, fly_tris, fly.tree.topology, f,
                                slots, prefilter, options.mode, moved_slot, key_of, misses_leaf,
                                result, &s.witness.slots);
  };
  auto settled = [](std::uint32_t, bool) {};
  std::uint32_t size = 0;
  s.stack[size++] = {0, 0};
  constexpr std::uint64_t no_budget = ~std::uint64_t{0};
  TraversalEnd end;
  if (options.descent == DescentRule::larger_first) {
    auto larger = [&](std::uint32_t e, std::uint32_t f) { return env.size[e] >= fly.tree.size[f]; };
    end = traverse_trees(env.topology, fly.tree.topology, s.stack.data(), size, overlap, leaf,
                         larger, settled, result.stats.n_v, no_budget);
  } else {
    auto always = [](std::uint32_t, std::uint32_t) { return true; };
    end = traverse_trees(env.topology, fly.tree.topology, s.stack.data(), size, overlap, leaf,
                         always, settled, result.stats.n_v, no_budget);
  }
  s.witness.valid = witness_first && end == TraversalEnd::stopped;
}

template <class Arch, class Bv>
void query_oriented(const OrientedTree<Bv>& env, const FlyingOrientedTree<Bv>& fly,
                    const Pose& pose, const QueryOptions& options, OrientedQueryScratch<Bv>& s,
                    QueryResult& result) {
  result.collides = false;
  result.contacts = 0;
  result.pairs.clear();
  result.stats = {};
  if (sphere_misses_root<Arch>(env, fly, pose)) {  // the scratch is not prepared (query_dop)
    result.stats.n_v = 1;
    s.witness.valid = false;
    return;
  }
  query_oriented_traversal<Arch>(env, fly, pose, options, s, result);
}

}  // namespace kdop
