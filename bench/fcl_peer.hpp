#pragma once
// FCL 0.7 (Debian's libfcl-dev) as the peer in the scenario benchmark: one environment mesh at
// identity and one moving object mesh, each a BVHModel built once, queried pose by pose the way
// fcl::collide(mesh, tf1, mesh, tf2, request, result) does it, but one level down (traversal
// nodes) so FCL's own BV and leaf test counters can be read. FCL's headers stay in
// fcl_peer.cpp, so only that file pays their compile time.
//
// What fcl::collide does per query for two BVHModels, read in /usr/include/fcl (0.7.0):
//
// - OBB, OBBRSS, kIOS: narrowphase/detail/collision_func_matrix-inl.h:592-644 specialize
//   BVHCollideImpl to orientedMeshCollide (571-590): no copies. initialize()
//   (traversal/collision/mesh_collision_traversal_node-inl.h:747-805 ->
//   setupMeshCollisionOrientedNode, 715-745) stores the relative transform (line 742); BV tests
//   take it as an argument (overlap(R, T, bv1, bv2), lines 296, 457, 499) and leaf tests move the
//   object's triangle by it (meshCollisionOrientedNodeLeafTesting, 571). Per-query cost is the
//   traversal only.
// - RSS and KDOP<18> (also AABB, KDOP16/24) have no specialization and take the generic
//   BVHCollideImpl (collision_func_matrix-inl.h:524-554): it copies BOTH models with
//   `new BVHModel<BV>(*obj)` (lines 541, 543). The generic initialize()
//   (mesh_collision_traversal_node-inl.h:210-279) then transforms every vertex of each copy whose
//   transform is not the identity (228-243, 245-260) and calls endReplaceModel(false, false),
//   which runs buildTree() (geometry/bvh/BVH_model-inl.h:608-615): a full top-down rebuild of
//   the object's tree, not a refit. With the environment at identity, each query pays a deep
//   copy of the environment model (vertices, triangles, BV nodes) plus copy, transform and
//   rebuild of the object. Traversal then tests BVs and triangles in world coordinates.
//   FCL also has MeshCollisionTraversalNodeRSS (relative transform), but only collide2() uses
//   it; fcl::collide never does, so neither does this peer.
//
// The peer mirrors both paths exactly (including the per-query copies and rebuild for RSS and
// KDOP<18>); the only addition is enable_statistics on the traversal node (one increment per
// test). Triangle tests are FCL's (floating-point separating axes, not exact), so answers can
// differ from kdop's exact oracle on pairs that only just touch.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/query.hpp"
#include "geometry/mesh.hpp"
#include "geometry/pose.hpp"

namespace kdop::bench {

// FCL's BVHModel<BV> with BV = OBB<double>, OBBRSS<double>, kIOS<double>, RSS<double>,
// KDOP<double, 18>.
enum class FclBv { obb, obbrss, kios, rss, kdop18 };

inline constexpr FclBv kAllFclBvs[] = {FclBv::obb, FclBv::obbrss, FclBv::kios, FclBv::rss,
                                       FclBv::kdop18};

// "fcl-obb", "fcl-obbrss", "fcl-kios", "fcl-rss", "fcl-kdop18".
const char* to_string(FclBv bv);
// The inverse of to_string; nullopt for any other name.
std::optional<FclBv> parse_fcl_bv(const std::string& name);
// True for rss and kdop18: fcl::collide copies both models and rebuilds the object's tree on
// every query (see the top of this file).
bool fcl_rebuilds_per_query(FclBv bv);

struct FclQueryResult {
  bool collides = false;
  std::uint64_t contacts = 0;  // intersecting pairs FCL reported: 0 or 1 in first_contact mode
  // first_contact: at most one pair (FCL's first in its traversal order); all_contacts: every
  // pair FCL reports, sorted and unique; count_contacts: empty (FCL still stores them all).
  // Indices are the input meshes' triangle indices.
  std::vector<ContactPair> pairs;
  std::uint64_t bv_tests = 0;    // FCL's num_bv_tests: BV pairs tested (root pair included)
  std::uint64_t leaf_tests = 0;  // FCL's num_leaf_tests: triangle pairs tested
};

class FclPeer {
 public:
  // Builds both BVHModels (FCL's default mean split). Throws std::invalid_argument if a mesh
  // has no triangles, an index is out of range, or a count does not fit FCL's int.
  FclPeer(const Mesh& environment, const Mesh& object, FclBv bv);
  ~FclPeer();
  // A moved-from FclPeer may only be destroyed or assigned to.
  FclPeer(FclPeer&&) noexcept;
  FclPeer& operator=(FclPeer&&) noexcept;
  FclPeer(const FclPeer&) = delete;
  FclPeer& operator=(const FclPeer&) = delete;

  // The object's vertices p are placed at R p + t. Not thread-safe, even through const data:
  // the rebuilding types share FCL's splitter/fitter between the model and its per-query copy.
  // Use one FclPeer per thread.
  FclQueryResult query(const Pose& object_pose, QueryMode mode);

  FclBv bv() const;
  // Bytes of both BVHModels' arrays, from FCL's own sizes: per model
  //   num_bvs * sizeof(BVNode<BV>) + num_vertices * sizeof(Vector3d)
  //   + num_tris * sizeof(Triangle) + (2 num_tris - 1) * sizeof(unsigned)
  // (endModel allocates 2 num_tris - 1 primitive indices, BVH_model-inl.h:494-502). Excludes
  // the BVHModel objects themselves and the transient per-query copies of the rebuilding types.
  std::size_t model_bytes() const;
  // Wall time to build both models: copying our arrays into FCL's layout, then beginModel ..
  // endModel (FCL's tree builds).
  double build_ms() const;

  struct Impl;  // per-BV implementation, defined in fcl_peer.cpp

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace kdop::bench
