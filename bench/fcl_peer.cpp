#include "bench/fcl_peer.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/OBB.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/math/bv/RSS.h>
#include <fcl/math/bv/kDOP.h>
#include <fcl/math/bv/kIOS.h>
#include <fcl/math/bv/utility.h>  // fit(), which BVHModel's refit code needs but does not include
#include <fcl/narrowphase/collision_request.h>
#include <fcl/narrowphase/collision_result.h>
#include <fcl/narrowphase/detail/traversal/collision/mesh_collision_traversal_node.h>
#include <fcl/narrowphase/detail/traversal/collision_node.h>

namespace kdop::bench {

// One virtual call per query (not per node): the BV type is fixed at construction.
struct FclPeer::Impl {
  explicit Impl(FclBv b) : bv(b) {}
  virtual ~Impl() = default;
  virtual FclQueryResult query(const Pose& pose, QueryMode mode) = 0;
  virtual std::size_t model_bytes() const = 0;

  FclBv bv;
  double build_ms = 0;
};

namespace {

// The traversal node fcl::collide uses for BV (collision_func_matrix-inl.h:524-644). The
// generic MeshCollisionTraversalNode<BV> is the copying, rebuilding path.
template <typename BVType, typename NodeType>
struct FclTypes {
  using BV = BVType;
  using Node = NodeType;
  static constexpr bool kRebuilds =
      std::is_same_v<NodeType, fcl::detail::MeshCollisionTraversalNode<BVType>>;
};

// Calls f(FclTypes<...>{}) for bv: the one table from FclBv to FCL's types.
template <typename F>
decltype(auto) with_fcl_types(FclBv bv, F&& f) {
  namespace d = fcl::detail;
  switch (bv) {
    case FclBv::obb:
      return f(FclTypes<fcl::OBB<double>, d::MeshCollisionTraversalNodeOBB<double>>{});
    case FclBv::obbrss:
      return f(FclTypes<fcl::OBBRSS<double>, d::MeshCollisionTraversalNodeOBBRSS<double>>{});
    case FclBv::kios:
      return f(FclTypes<fcl::kIOS<double>, d::MeshCollisionTraversalNodekIOS<double>>{});
    case FclBv::rss:
      return f(FclTypes<fcl::RSS<double>, d::MeshCollisionTraversalNode<fcl::RSS<double>>>{});
    case FclBv::kdop18:
      return f(
          FclTypes<fcl::KDOP<double, 18>, d::MeshCollisionTraversalNode<fcl::KDOP<double, 18>>>{});
  }
  throw std::invalid_argument("kdop::bench: unknown FclBv");
}

// FCL counts in int and stores indices as std::size_t: reject what it cannot hold or would
// read out of bounds.
void check_mesh(const Mesh& mesh, const char* role) {
  const auto fail = [role](const char* what) {
    throw std::invalid_argument(std::string("FclPeer: ") + role + " mesh " + what);
  };
  if (mesh.triangle_count() == 0) fail("has no triangles");
  constexpr auto kMax = static_cast<std::size_t>(std::numeric_limits<int>::max() / 2);
  if (mesh.triangle_count() > kMax || mesh.vertex_count() > kMax) fail("is too large for FCL");
  const std::size_t n = mesh.vertex_count();
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    if (mesh.a[t] >= n || mesh.b[t] >= n || mesh.c[t] >= n) fail("has a vertex index out of range");
  }
}

// Triangles keep the mesh's order, so FCL's primitive ids (Contact::b1/b2) are our triangle
// indices: every leaf holds one triangle, stored as first_child = -(index + 1)
// (BVH_model-inl.h:882-885), and primitiveId() is that index into tri_indices (BV_node_base.h:68).
template <typename BV>
void build_model(fcl::BVHModel<BV>& model, const Mesh& mesh) {
  std::vector<fcl::Vector3d> points(mesh.vertex_count());
  for (std::size_t i = 0; i < points.size(); ++i) points[i] = {mesh.x[i], mesh.y[i], mesh.z[i]};
  std::vector<fcl::Triangle> triangles(mesh.triangle_count());
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    triangles[t].set(mesh.a[t], mesh.b[t], mesh.c[t]);
  }
  if (model.beginModel(static_cast<int>(triangles.size()), static_cast<int>(points.size())) !=
          fcl::BVH_OK ||
      model.addSubModel(points, triangles) != fcl::BVH_OK || model.endModel() != fcl::BVH_OK) {
    throw std::runtime_error("FclPeer: FCL failed to build a BVHModel");
  }
}

template <typename BV>
std::size_t model_array_bytes(const fcl::BVHModel<BV>& model) {
  const auto bvs = static_cast<std::size_t>(model.getNumBVs());
  const auto vertices = static_cast<std::size_t>(model.num_vertices);
  const auto tris = static_cast<std::size_t>(model.num_tris);
  return bvs * sizeof(fcl::BVNode<BV>) + vertices * sizeof(fcl::Vector3d) +
         tris * sizeof(fcl::Triangle) + (2 * tris - 1) * sizeof(unsigned int);
}

fcl::Transform3d to_transform(const Pose& pose) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) tf.linear()(i, j) = pose.r[static_cast<std::size_t>(3 * i + j)];
    tf.translation()(i) = pose.t[static_cast<std::size_t>(i)];
  }
  return tf;
}

template <typename Types>
class Peer final : public FclPeer::Impl {
 public:
  using BV = typename Types::BV;
  using Node = typename Types::Node;

  Peer(const Mesh& environment, const Mesh& object, FclBv bv) : Impl(bv) {
    const auto start = std::chrono::steady_clock::now();
    build_model(env_, environment);
    build_model(obj_, object);
    build_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }

  FclQueryResult query(const Pose& pose, QueryMode mode) override {
    // As fcl::collide: a fresh request and result per query. FCL has no count-only mode: it
    // stores every contact for count_contacts too, which is its real cost.
    const bool first = mode == QueryMode::first_contact;
    const fcl::CollisionRequestd request(first ? 1 : std::numeric_limits<std::size_t>::max());
    fcl::CollisionResultd result;
    const fcl::Transform3d env_tf = fcl::Transform3d::Identity();
    const fcl::Transform3d obj_tf = to_transform(pose);
    Node node;
    bool ready;
    if constexpr (Types::kRebuilds) {
      // collision_func_matrix-inl.h:538-550: heap copies of both models, initialize() moves
      // and rebuilds the copies that are not at identity, the copies die after the traversal.
      auto env_copy = std::make_unique<fcl::BVHModel<BV>>(env_);
      auto obj_copy = std::make_unique<fcl::BVHModel<BV>>(obj_);
      fcl::Transform3d env_tf_tmp = env_tf, obj_tf_tmp = obj_tf;
      ready = fcl::detail::initialize(node, *env_copy, env_tf_tmp, *obj_copy, obj_tf_tmp, request,
                                      result);
      if (ready) traverse(node);
    } else {
      // collision_func_matrix-inl.h:571-590: the models as built, the relative transform.
      ready = fcl::detail::initialize(node, env_, env_tf, obj_, obj_tf, request, result);
      if (ready) traverse(node);
    }
    if (!ready) throw std::logic_error("FclPeer: FCL rejected the models as non-triangle meshes");

    FclQueryResult out;
    out.collides = result.isCollision();
    out.contacts = result.numContacts();  // one Contact per triangle pair without contact info
    out.bv_tests = static_cast<std::uint64_t>(node.num_bv_tests);
    out.leaf_tests = static_cast<std::uint64_t>(node.num_leaf_tests);
    if (mode == QueryMode::count_contacts) return out;
    out.pairs.reserve(result.numContacts());
    for (std::size_t i = 0; i < result.numContacts(); ++i) {
      const auto& c = result.getContact(i);
      out.pairs.push_back({static_cast<std::uint32_t>(c.b1), static_cast<std::uint32_t>(c.b2)});
    }
    std::sort(out.pairs.begin(), out.pairs.end());
    out.pairs.erase(std::unique(out.pairs.begin(), out.pairs.end()), out.pairs.end());
    return out;
  }

  std::size_t model_bytes() const override {
    return model_array_bytes(env_) + model_array_bytes(obj_);
  }

 private:
  // fcl::detail::collide with no front list is what both fcl::collide paths call.
  static void traverse(Node& node) {
    node.enable_statistics = true;
    fcl::detail::collide(&node);
  }

  fcl::BVHModel<BV> env_, obj_;
};

}  // namespace

const char* to_string(FclBv bv) {
  switch (bv) {
    case FclBv::obb:
      return "fcl-obb";
    case FclBv::obbrss:
      return "fcl-obbrss";
    case FclBv::kios:
      return "fcl-kios";
    case FclBv::rss:
      return "fcl-rss";
    case FclBv::kdop18:
      return "fcl-kdop18";
  }
  return "fcl-unknown";
}

std::optional<FclBv> parse_fcl_bv(const std::string& name) {
  for (FclBv bv : kAllFclBvs) {
    if (name == to_string(bv)) return bv;
  }
  return std::nullopt;
}

bool fcl_rebuilds_per_query(FclBv bv) {
  return with_fcl_types(bv, [](auto types) { return decltype(types)::kRebuilds; });
}

FclPeer::FclPeer(const Mesh& environment, const Mesh& object, FclBv bv) {
  check_mesh(environment, "environment");
  check_mesh(object, "object");
  impl_ = with_fcl_types(bv, [&](auto types) -> std::unique_ptr<Impl> {
    return std::make_unique<Peer<decltype(types)>>(environment, object, bv);
  });
}

FclPeer::~FclPeer() = default;
FclPeer::FclPeer(FclPeer&&) noexcept = default;
FclPeer& FclPeer::operator=(FclPeer&&) noexcept = default;

FclQueryResult FclPeer::query(const Pose& object_pose, QueryMode mode) {
  return impl_->query(object_pose, mode);
}

FclBv FclPeer::bv() const {
  return impl_->bv;
}
std::size_t FclPeer::model_bytes() const {
  return impl_->model_bytes();
}
double FclPeer::build_ms() const {
  return impl_->build_ms;
}

}  // namespace kdop::bench
