#include "engine/brute_force.hpp"

#include "geometry/tri_tri.hpp"

namespace kdop {

std::vector<ContactPair> brute_force_contacts(const Mesh& env, const Mesh& object,
                                              const Pose& pose) {
  std::vector<Vec3> moved(object.vertex_count());
  for (std::size_t i = 0; i < moved.size(); ++i) {
    moved[i] = apply_pose(pose, Vec3{object.x[i], object.y[i], object.z[i]});
  }
  auto env_corner = [&](std::uint32_t v) { return Vec3{env.x[v], env.y[v], env.z[v]}; };
  std::vector<ContactPair> pairs;
  for (std::uint32_t i = 0; i < env.triangle_count(); ++i) {
    const Triangle te{env_corner(env.a[i]), env_corner(env.b[i]), env_corner(env.c[i])};
    for (std::uint32_t j = 0; j < object.triangle_count(); ++j) {
      const Triangle tf{moved[object.a[j]], moved[object.b[j]], moved[object.c[j]]};
      if (triangles_intersect(te, tf)) pairs.push_back({i, j});
    }
  }
  return pairs;
}

}  // namespace kdop
