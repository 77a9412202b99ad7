#pragma once
// The environment and objects of `kdop check` and `kdop batch`, each given as a mesh or as a
// hierarchy file (`kdop build`; found by its magic or its .kdop extension). Files fix the BV type
// (all must agree, and so must an explicit --bv / --k); meshes are built with it. BvAgreement is
// also `kdop path`'s check of its scene's hierarchy files.
#include <optional>
#include <string>
#include <vector>

#include "apps/kdop/commands.hpp"
#include "apps/kdop/pair_config.hpp"
#include "engine/collision_pair.hpp"
#include "engine/hierarchy.hpp"

namespace kdop::cli {

// The BV type hierarchy files fix, checked as each file comes: every file must have the type an
// explicit --bv / --k asks for, else the first file's. InputError naming both sides otherwise.
class BvAgreement {
 public:
  BvAgreement(const BuildOptions& o, BvType requested)
      : given_(bv_given(o)), requested_(requested) {}

  void add(BvType bv, const std::string& path);
  // The files' type, else the one asked for (or its default).
  BvType bv() const { return first_.value_or(requested_); }

 private:
  bool given_;
  BvType requested_;
  std::optional<BvType> first_;
  std::string first_path_;
};

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
