#pragma once
// The environment and objects of `kdop check` and `kdop batch`, each given as a mesh or as a
// hierarchy file (`kdop build`; found by its magic or its .kdop extension). Files fix the BV type
// (all must agree, and so must an explicit --bv / --k); meshes are built with it.
#include <string>
#include <vector>

#include "apps/kdop/commands.hpp"
#include "engine/collision_pair.hpp"
#include "engine/hierarchy.hpp"

namespace kdop::cli {

struct Inputs {
  EnvironmentHierarchy environment;
  std::vector<ObjectHierarchy> objects;
  double build_ms = 0;  // building or loading the hierarchies (reading meshes not included)
};

// Throws InputError for BV types that disagree, IoError for an unreadable or damaged file (also
// one of the other role).
Inputs load_inputs(const std::string& environment, const std::vector<std::string>& objects,
                   const BuildOptions& options, const PairConfig& config);

}  // namespace kdop::cli
