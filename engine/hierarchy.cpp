#include "engine/hierarchy.hpp"

namespace kdop {

EnvironmentHierarchy build_environment_hierarchy(const Mesh& mesh, BvType bv,
                                                 const BuildConfig& config) {
  return with_dop_k(
      bv, [&]<int K>() -> EnvironmentHierarchy { return build_dop_tree<K>(mesh, config); });
}

ObjectHierarchy build_object_hierarchy(const Mesh& mesh, BvType bv, const BuildConfig& config) {
  return with_dop_k(
      bv, [&]<int K>() -> ObjectHierarchy { return build_flying_dop_tree<K>(mesh, config); });
}

BvType bv_type(const EnvironmentHierarchy& h) {
  return std::visit([]<int K>(const DopTree<K>&) { return bv_type_for<K>(); }, h);
}

BvType bv_type(const ObjectHierarchy& h) {
  return std::visit([]<int K>(const FlyingDopTree<K>&) { return bv_type_for<K>(); }, h);
}

std::uint32_t triangle_count(const EnvironmentHierarchy& h) {
  return std::visit([](const auto& t) { return t.triangles.size(); }, h);
}

std::uint32_t triangle_count(const ObjectHierarchy& h) {
  return std::visit([](const auto& f) { return f.tree.triangles.size(); }, h);
}

}  // namespace kdop
