#pragma once
// The all-pairs oracle: every environment triangle against every transformed object triangle,
// with the same exact predicate and the same pose routine as the engine. O(n m); for tests and
// for checking small inputs.
#include <vector>

#include "engine/query.hpp"
#include "geometry/mesh.hpp"
#include "geometry/pose.hpp"

namespace kdop {

// Every intersecting pair, sorted.
std::vector<ContactPair> brute_force_contacts(const Mesh& env, const Mesh& object,
                                              const Pose& pose);

}  // namespace kdop
