#include "engine/hierarchy.hpp"

namespace kdop {

EnvironmentHierarchy build_environment_hierarchy(const Mesh& mesh, BvType bv,
                                                 const BuildConfig& config) {
  return with_bv(bv, [&]<class Bv>() -> EnvironmentHierarchy {
    return BvTraits<Bv>::build_environment(mesh, config);
  });
}

ObjectHierarchy build_object_hierarchy(const Mesh& mesh, BvType bv, const BuildConfig& config) {
  return with_bv(
      bv, [&]<class Bv>() -> ObjectHierarchy { return BvTraits<Bv>::build_object(mesh, config); });
}

BvType bv_type(const EnvironmentHierarchy& h) {
  return std::visit([]<class T>(const T&) { return bv_type_of<T>(); }, h);
}

BvType bv_type(const ObjectHierarchy& h) {
  return std::visit([]<class T>(const T&) { return bv_type_of<T>(); }, h);
}

std::uint32_t triangle_count(const EnvironmentHierarchy& h) {
  return std::visit([](const auto& t) { return t.triangles.size(); }, h);
}

std::uint32_t triangle_count(const ObjectHierarchy& h) {
  return std::visit([](const auto& f) { return f.tree.triangles.size(); }, h);
}

std::size_t memory_bytes(const EnvironmentHierarchy& h) {
  return std::visit([](const auto& t) { return memory_bytes(t); }, h);
}

std::size_t memory_bytes(const ObjectHierarchy& h) {
  return std::visit([](const auto& f) { return memory_bytes(f); }, h);
}

}  // namespace kdop
