#pragma once
// Prebuilt hierarchies of a run-time BV type: one alternative per K, so the K is resolved once
// (std::visit) and never per node. An environment is a DopTree, a moving object a FlyingDopTree;
// both come from the builders or from hierarchy files (io/hierarchy_file.hpp).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "builders/build_config.hpp"
#include "builders/dop_tree.hpp"
#include "engine/bv_type.hpp"
#include "geometry/mesh.hpp"

namespace kdop {

using EnvironmentHierarchy =
    std::variant<DopTree<6>, DopTree<8>, DopTree<14>, DopTree<18>, DopTree<26>>;
using ObjectHierarchy = std::variant<FlyingDopTree<6>, FlyingDopTree<8>, FlyingDopTree<14>,
                                     FlyingDopTree<18>, FlyingDopTree<26>>;

template <int K>
constexpr BvType bv_type_for() {
  if constexpr (K == 6) return BvType::kdop6;
  if constexpr (K == 8) return BvType::dop8;
  if constexpr (K == 14) return BvType::kdop14;
  if constexpr (K == 18) return BvType::kdop18;
  return BvType::kdop26;
}

// Throw std::invalid_argument for an empty or invalid mesh (see build_dop_tree).
EnvironmentHierarchy build_environment_hierarchy(const Mesh& mesh, BvType bv,
                                                 const BuildConfig& config);
ObjectHierarchy build_object_hierarchy(const Mesh& mesh, BvType bv, const BuildConfig& config);

// The topology of either kind of tree.
template <int K>
const TreeTopology& topology_of(const DopTree<K>& t) {
  return t.topology;
}
template <int K>
const TreeTopology& topology_of(const FlyingDopTree<K>& f) {
  return f.tree.topology;
}

// The object's FlyingDopTree<K>, moved out; std::invalid_argument naming `whose` ("the
// object's", "object 2's") when the object is of another K than the environment.
template <int K>
FlyingDopTree<K> take_object(ObjectHierarchy& object, const std::string& whose);

BvType bv_type(const EnvironmentHierarchy& h);
BvType bv_type(const ObjectHierarchy& h);

template <int K>
FlyingDopTree<K> take_object(ObjectHierarchy& object, const std::string& whose) {
  FlyingDopTree<K>* fly = std::get_if<FlyingDopTree<K>>(&object);
  if (fly == nullptr) {
    throw std::invalid_argument(std::string("the environment hierarchy is ") +
                                to_string(bv_type_for<K>()) + " but " + whose + " is " +
                                to_string(bv_type(object)));
  }
  return std::move(*fly);
}
std::uint32_t triangle_count(const EnvironmentHierarchy& h);
std::uint32_t triangle_count(const ObjectHierarchy& h);

}  // namespace kdop
