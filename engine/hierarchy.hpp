#pragma once
// Prebuilt hierarchies of a run-time BV type: one alternative per type, so the type is resolved
// once (std::visit) and never per node. An environment is a DopTree or an OrientedTree, a moving
// object a FlyingDopTree or a FlyingOrientedTree; both come from the builders or from hierarchy
// files (io/hierarchy_file.hpp).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "builders/build_config.hpp"
#include "builders/dop_tree.hpp"
#include "builders/oriented_tree.hpp"
#include "engine/bv_traits.hpp"
#include "engine/bv_type.hpp"
#include "geometry/mesh.hpp"

namespace kdop {

using EnvironmentHierarchy =
    std::variant<DopTree<6>, DopTree<8>, DopTree<14>, DopTree<18>, DopTree<26>, DopTree<32>,
                 OrientedTree<ObbBv>, OrientedTree<RssBv>>;
using ObjectHierarchy = std::variant<FlyingDopTree<6>, FlyingDopTree<8>, FlyingDopTree<14>,
                                     FlyingDopTree<18>, FlyingDopTree<26>, FlyingDopTree<32>,
                                     FlyingOrientedTree<ObbBv>, FlyingOrientedTree<RssBv>>;

// Throw std::invalid_argument for an empty or invalid mesh (see build_topdown).
EnvironmentHierarchy build_environment_hierarchy(const Mesh& mesh, BvType bv,
                                                 const BuildConfig& config);
ObjectHierarchy build_object_hierarchy(const Mesh& mesh, BvType bv, const BuildConfig& config);

// The topology of any kind of tree.
template <int K>
const TreeTopology& topology_of(const DopTree<K>& t) {
  return t.topology;
}
template <int K>
const TreeTopology& topology_of(const FlyingDopTree<K>& f) {
  return f.tree.topology;
}
template <class Bv>
const TreeTopology& topology_of(const OrientedTree<Bv>& t) {
  return t.topology;
}
template <class Bv>
const TreeTopology& topology_of(const FlyingOrientedTree<Bv>& f) {
  return f.tree.topology;
}

BvType bv_type(const EnvironmentHierarchy& h);
BvType bv_type(const ObjectHierarchy& h);

// The object's hierarchy of type Object, moved out; std::invalid_argument naming `whose` ("the
// object's", "object 2's") when the object is of another BV type than the environment.
template <class Object>
Object take_object(ObjectHierarchy& object, const std::string& whose) {
  Object* fly = std::get_if<Object>(&object);
  if (fly == nullptr) {
    throw std::invalid_argument(std::string("the environment hierarchy is ") +
                                to_string(bv_type_of<Object>()) + " but " + whose + " is " +
                                to_string(bv_type(object)));
  }
  return std::move(*fly);
}

std::uint32_t triangle_count(const EnvironmentHierarchy& h);
std::uint32_t triangle_count(const ObjectHierarchy& h);

// Bytes of the hierarchy's arrays (nodes, geometry, derived floats), as its own memory_bytes.
std::size_t memory_bytes(const EnvironmentHierarchy& h);
std::size_t memory_bytes(const ObjectHierarchy& h);

}  // namespace kdop
