// Builds a collision pair through the installed kdop package and checks two queries (one far
// apart, one overlapping) against the brute-force oracle. Exits 0 only if both agree.
#include <cstdio>

#include <engine/brute_force.hpp>
#include <engine/collision_pair.hpp>
#include <geometry/pose.hpp>
#include <geometry/shapes.hpp>

namespace {

// Queries `pose` and compares with the oracle; true if both agree and collide as `expected`.
bool check(kdop::CollisionPair& pair, const kdop::Mesh& env, const kdop::Mesh& object,
           const kdop::Pose& pose, bool expected, const char* name) {
  const kdop::QueryResult result = pair.query(pose, kdop::QueryMode::all_contacts);
  const auto oracle = kdop::brute_force_contacts(env, object, pose);
  const bool ok =
      result.collides == expected && result.collides == !oracle.empty() && result.pairs == oracle;
  std::printf("%s: collides=%d pairs=%zu oracle=%zu node_pairs=%llu %s\n", name,
              result.collides ? 1 : 0, result.pairs.size(), oracle.size(),
              static_cast<unsigned long long>(result.stats.n_v), ok ? "ok" : "MISMATCH");
  return ok;
}

}  // namespace

int main() {
  const kdop::Mesh env = kdop::make_sphere({0, 0, 0}, 1.0, 24, 12);
  const kdop::Mesh object = kdop::make_torus({0, 0, 0}, 0.6, 0.2, 24, 12, 0.1);
  kdop::CollisionPair pair(env, object, kdop::PairConfig{});

  // Same rotation at both poses; only the translation differs.
  const kdop::Pose far = kdop::pose_from_quaternion(10, 0, 0, 0.9, 0.3, 0.2, 0.1);
  const kdop::Pose near = kdop::pose_from_quaternion(0.9, 0.1, 0.05, 0.9, 0.3, 0.2, 0.1);

  const bool far_ok = check(pair, env, object, far, false, "far");
  const bool near_ok = check(pair, env, object, near, true, "overlap");
  return far_ok && near_ok ? 0 : 1;
}
