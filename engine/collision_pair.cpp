#include "engine/collision_pair.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace kdop {

std::optional<BvType> parse_bv_type(const std::string& name) {
  if (name == "kdop6" || name == "6") return BvType::kdop6;
  if (name == "dop8" || name == "kdop8" || name == "8") return BvType::dop8;
  if (name == "kdop14" || name == "14") return BvType::kdop14;
  if (name == "kdop18" || name == "18") return BvType::kdop18;
  if (name == "kdop26" || name == "26") return BvType::kdop26;
  if (name == "kdop32" || name == "32") return BvType::kdop32;
  if (name == "obb") return BvType::obb;
  if (name == "rss") return BvType::rss;
  return std::nullopt;
}

const char* to_string(TumbleMethod method) {
  return method == TumbleMethod::affine      ? "affine"
         : method == TumbleMethod::automatic ? "auto"
                                             : "vertices";
}

const char* to_string(RootMethod method) {
  switch (method) {
    case RootMethod::exact:
      return "exact";
    case RootMethod::vertices:
      return "vertices";
    case RootMethod::automatic:
      break;
  }
  return "auto";
}

std::optional<RootMethod> parse_root_method(std::string_view name) {
  for (RootMethod m : {RootMethod::exact, RootMethod::vertices, RootMethod::automatic}) {
    if (name == to_string(m)) return m;
  }
  return std::nullopt;
}

const char* to_string(DescentRule rule) {
  return rule == DescentRule::larger_first ? "larger" : "environment";
}

const char* to_string(BvType bv) {
  switch (bv) {
    case BvType::kdop6:
      return "kdop6";
    case BvType::kdop14:
      return "kdop14";
    case BvType::kdop18:
      return "kdop18";
    case BvType::kdop26:
      return "kdop26";
    case BvType::kdop32:
      return "kdop32";
    case BvType::dop8:
      return "dop8";
    case BvType::obb:
      return "obb";
    case BvType::rss:
      return "rss";
  }
  return "?";
}

namespace {

template <class Environment>
HierarchyPair<typename Environment::Bv> make_pair(Environment&& environment,
                                                  ObjectHierarchy& object, simd::Isa isa) {
  using Traits = BvTraits<typename Environment::Bv>;
  return {std::move(environment),
          take_object<typename Traits::Object>(object, "the object's"),
          {},
          Traits::query_for(isa)};
}

}  // namespace

CollisionPair::CollisionPair(const Mesh& environment, const Mesh& object, const PairConfig& config)
    : CollisionPair(build_environment_hierarchy(environment, config.bv, config.environment),
                    build_object_hierarchy(object, config.bv, config.object), config) {}

CollisionPair::CollisionPair(EnvironmentHierarchy environment, ObjectHierarchy object,
                             const PairConfig& config)
    : bv_(bv_type(environment)),
      isa_(simd::resolve_isa(config.isa)),
      tumble_(config.tumble),
      descent_(config.descent),
      root_(config.root),
      impl_(std::visit(
          [&](auto& env) -> decltype(impl_) { return make_pair(std::move(env), object, isa_); },
          environment)) {}

QueryResult CollisionPair::query(const Pose& pose, QueryMode mode) {
  QueryResult r;
  std::visit(
      [&](auto& p) {
        p.query(p.env, p.fly, pose,
                QueryOptions{.mode = mode, .tumble = tumble_, .descent = descent_, .root = root_},
                p.scratch, r);
      },
      impl_);
  if (mode == QueryMode::all_contacts) sort_contacts(r.pairs);
  return r;
}

}  // namespace kdop
