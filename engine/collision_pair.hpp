#pragma once
// An environment and a moving object with their hierarchies built once, for a bounding-volume
// type chosen at run time; then any number of queries at any poses. The BV type and the ISA are
// resolved once (std::visit and a function pointer), never per node.
#include <optional>
#include <variant>

#include "builders/build_config.hpp"
#include "builders/dop_tree.hpp"
#include "engine/bv_type.hpp"
#include "engine/dop_dispatch.hpp"
#include "engine/dop_query.hpp"
#include "engine/hierarchy.hpp"
#include "engine/query.hpp"
#include "geometry/mesh.hpp"
#include "geometry/pose.hpp"
#include "simd/isa.hpp"

namespace kdop {

struct PairConfig {
  BvType bv = BvType::kdop18;
  BuildConfig environment = BuildConfig::environment_defaults();
  BuildConfig object = BuildConfig::object_defaults();
  std::optional<simd::Isa> isa;  // default: simd::select_isa() (the best, or KDOP_ISA)
  TumbleMethod tumble = TumbleMethod::vertices;
  DescentRule descent = DescentRule::larger_first;  // measured: docs/design-notes.md
};

template <int K>
struct DopPair {
  DopTree<K> env;
  FlyingDopTree<K> fly;
  DopQueryScratch<K> scratch;
  DopQueryFn<K> query;
};

class CollisionPair {
 public:
  // Builds both hierarchies; throws std::invalid_argument for an empty or invalid mesh, or an
  // ISA this CPU cannot run.
  CollisionPair(const Mesh& environment, const Mesh& object, const PairConfig& config);
  // Takes prebuilt hierarchies (e.g. loaded from hierarchy files): the BV type is theirs, and
  // config's bv and build configs are not used. Throws std::invalid_argument if the two
  // hierarchies' BV types differ, or for an ISA this CPU cannot run.
  CollisionPair(EnvironmentHierarchy environment, ObjectHierarchy object, const PairConfig& config);

  // Not thread-safe: one CollisionPair holds one scratch (copy it per thread).
  QueryResult query(const Pose& pose, QueryMode mode);

  BvType bv() const { return bv_; }
  simd::Isa isa() const { return isa_; }

 private:
  BvType bv_;
  simd::Isa isa_;
  TumbleMethod tumble_;
  DescentRule descent_;
  std::variant<DopPair<6>, DopPair<8>, DopPair<14>, DopPair<18>, DopPair<26>> impl_;
};

}  // namespace kdop
