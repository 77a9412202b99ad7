#pragma once
// Distance queries between a k-DOP environment hierarchy (at identity) and a flying k-DOP
// hierarchy at a pose: the least distance between their triangles, or every triangle pair closer
// than a clearance. Branch and bound over node pairs as PQP does with swept-sphere volumes
// (Larsen et al., "Fast proximity queries with swept sphere volumes"), with the k-DOP lower
// bound: two point sets whose projections on a direction n are [a, b] and [c, d] with b < c are
// at least (c - b) / |n| apart, so the largest such gap over the k/2 slab directions bounds the
// distance of everything inside two DOPs from below (the flying DOP re-aligned as the collision
// query does, engine/tumble.hpp). The leaf test is triangle_distance on the double coordinates
// (geometry/triangle_distance.hpp); intersecting triangles are at distance 0 by the exact test.
//
// Compiled once (scalar): distance queries run per segment step or per reported pose, where the
// collision query runs per pose of a batch.
#include <cstdint>
#include <limits>
#include <vector>

#include "builders/dop_tree.hpp"
#include "engine/query.hpp"
#include "geometry/pose.hpp"
#include "geometry/tri_tri.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

struct ProximityResult {
  // nearest: the least distance found below the cap (+inf when nothing is closer than the cap);
  // within: the least distance among the pairs found (+inf when none).
  double distance = std::numeric_limits<double>::infinity();
  bool intersecting = false;           // some pair intersects (distance 0, exact test)
  ContactPair nearest{};               // a closest pair, valid when distance is finite
  std::vector<ContactPair> pairs;      // within: every pair at distance <= clearance, sorted
  std::vector<double> pair_distances;  // within: their distances, in the same order
  QueryStats stats;                    // n_v node pairs bounded, n_p triangle pairs measured
  // A bound of each measured distance's rounding error (triangle_distance_error of the query's
  // largest coordinate): a distance this close to a threshold may be on either side of it.
  double error_bound = 0;
  // within: the least exact distance among the pairs decided beyond the clearance by their exact
  // distances (those within rounding of it; +inf when none).
  double least_beyond = std::numeric_limits<double>::infinity();
};

// A flying triangle at the pose (apply_pose's corners) and what the leaf prefilters read: its
// edges e[i] = p(i+1) - p(i), and the slab of its plane: n (any vector; the face normal), n . p
// of its corners in [n_lo, n_hi], the rounding margin of one n . p difference, and 1 / |n|
// rounded down (0 when the triangle is too degenerate for the slab to help).
struct ProximitySlot {
  Triangle t;
  Vec3 e[3];
  Vec3 n;
  double n_lo, n_hi, margin, inv_norm;
};

// Per-thread state for one flying hierarchy (sized on first use, reused for every pose).
template <int K>
struct ProximityScratch {
  std::vector<float> tumbled;  // DopShape<K>::floats per flying node
  std::vector<std::uint32_t> tumble_stamp, slot_stamp;
  std::vector<ProximitySlot> slots;  // per flying slot, valid where slot_stamp is the epoch
  std::vector<float> slot_bounds;    // and its triangle's DOP, DopShape<K>::floats per slot
  struct Entry {
    std::uint32_t env, fly;
    double bound;  // lower bound of the pair's distance
  };
  std::vector<Entry> stack;  // depth-first stack, or the best-first search's min-heap
  std::uint32_t epoch = 0;
};

// The least distance between the trees' triangles at `pose`, searched only below `cap` (a caller
// that needs to know only whether something is closer than cap passes it: far pairs are pruned
// at once). Stops at the first intersecting pair (distance 0).
template <int K>
void nearest_pair(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose, double cap,
                  ProximityScratch<K>& scratch, ProximityResult& result);

// Every triangle pair at distance <= clearance (clearance >= 0; 0 gives the intersecting
// pairs), with their distances, and the least of them.
template <int K>
void pairs_within(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& pose,
                  double clearance, ProximityScratch<K>& scratch, ProximityResult& result);

// Whether some triangle pair comes within `clearance` (touches, for 0) at any time while the
// object translates from pose `from` to pose `to` (the same rotation; the positions in between
// are from + s (to - from), s in [0, 1]). The swept node's DOP is the union of its DOPs at both
// ends, exact for every slab (a convex set's support function moves by n . d); a leaf pair is the
// environment triangle against the prism the flying triangle sweeps: by exact predicates for
// clearance 0 (it meets one of the prism's 8 faces or lies inside), else by its distance to them.
// Stops at the first such pair (result.nearest; result.distance 0), else result.distance is inf.
template <int K>
bool sweep_within(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& from,
                  const Pose& to, double clearance, ProximityScratch<K>& scratch,
                  ProximityResult& result);

// The least distance between the environment's triangles and the flying triangles' prisms while
// the object translates from `from` to `to`: the least distance the motion reaches (a prism is
// the union of the translates), searched below `cap` (+inf when nothing comes closer). 0, with
// result.intersecting, exactly when sweep_within(..., 0) is true. A closest pair in
// result.nearest.
template <int K>
void sweep_nearest(const DopTree<K>& env, const FlyingDopTree<K>& fly, const Pose& from,
                   const Pose& to, double cap, ProximityScratch<K>& scratch,
                   ProximityResult& result);

// A lower bound of the distance between any point of a node's DOP a and any point of DOP b
// (Lanes lo then Lanes hi floats each, the same directions): max over slabs of gap / |n_j|,
// rounded down; 0 when every slab overlaps.
template <int K>
double dop_distance_bound(const float* a, const float* b);

#define KDOP_PROXIMITY_EXTERN(K)                                                                 \
  extern template void nearest_pair<K>(const DopTree<K>&, const FlyingDopTree<K>&, const Pose&,  \
                                       double, ProximityScratch<K>&, ProximityResult&);          \
  extern template void pairs_within<K>(const DopTree<K>&, const FlyingDopTree<K>&, const Pose&,  \
                                       double, ProximityScratch<K>&, ProximityResult&);          \
  extern template double dop_distance_bound<K>(const float*, const float*);                      \
  extern template bool sweep_within<K>(const DopTree<K>&, const FlyingDopTree<K>&, const Pose&,  \
                                       const Pose&, double, ProximityScratch<K>&,                \
                                       ProximityResult&);                                        \
  extern template void sweep_nearest<K>(const DopTree<K>&, const FlyingDopTree<K>&, const Pose&, \
                                        const Pose&, double, ProximityScratch<K>&,               \
                                        ProximityResult&);
KDOP_PROXIMITY_EXTERN(6)
KDOP_PROXIMITY_EXTERN(8)
KDOP_PROXIMITY_EXTERN(14)
KDOP_PROXIMITY_EXTERN(18)
KDOP_PROXIMITY_EXTERN(26)
KDOP_PROXIMITY_EXTERN(32)
#undef KDOP_PROXIMITY_EXTERN

}  // namespace kdop
