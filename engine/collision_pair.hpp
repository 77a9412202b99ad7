#pragma once
// An environment and a moving object with their hierarchies built once, for a bounding-volume
// type chosen at run time; then any number of queries at any poses. The BV type and the ISA are
// resolved once (std::visit and a function pointer), never per node.
#include <optional>
#include <variant>

#include "builders/build_config.hpp"
#include "builders/dop_tree.hpp"
#include "engine/bv_traits.hpp"
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
  // The k-DOP types' leaf sizes (environment 3, object 40). For obb and rss set
  // default_env_leaf(bv) and default_object_leaf(bv) (engine/bv_type.hpp: 1 and 8), as the CLI
  // does.
  BuildConfig environment = BuildConfig::environment_defaults();
  BuildConfig object = BuildConfig::object_defaults();
  std::optional<simd::Isa> isa;  // default: simd::select_isa() (the best, or KDOP_ISA)
  TumbleMethod tumble = TumbleMethod::automatic;
  DescentRule descent = DescentRule::larger_first;  // measured: docs/design-notes.md
  RootMethod root = RootMethod::automatic;          // k-DOP objects (engine/query.hpp)
};

template <class Bv>
struct HierarchyPair {
  typename BvTraits<Bv>::Environment env;
  typename BvTraits<Bv>::Object fly;
  typename BvTraits<Bv>::Scratch scratch;
  typename BvTraits<Bv>::QueryFn query;
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
  RootMethod root_;
  std::variant<HierarchyPair<DopBv<6>>, HierarchyPair<DopBv<8>>, HierarchyPair<DopBv<14>>,
               HierarchyPair<DopBv<18>>, HierarchyPair<DopBv<26>>, HierarchyPair<DopBv<32>>,
               HierarchyPair<ObbBv>, HierarchyPair<RssBv>>
      impl_;
};

}  // namespace kdop
