#include "engine/collision_pair.hpp"

#include <stdexcept>
#include <string>

namespace kdop {

std::optional<BvType> parse_bv_type(const std::string& name) {
  if (name == "kdop6" || name == "6") return BvType::kdop6;
  if (name == "kdop14" || name == "14") return BvType::kdop14;
  if (name == "kdop18" || name == "18") return BvType::kdop18;
  if (name == "kdop26" || name == "26") return BvType::kdop26;
  return std::nullopt;
}

const char* to_string(TumbleMethod method) {
  return method == TumbleMethod::affine ? "affine" : "vertices";
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
  }
  return "?";
}

namespace {

template <int K>
DopPair<K> make_dop_pair(const Mesh& environment, const Mesh& object, const PairConfig& c,
                         simd::Isa isa) {
  return DopPair<K>{build_dop_tree<K>(environment, c.environment),
                    build_flying_dop_tree<K>(object, c.object),
                    {},
                    dop_query_for<K>(isa)};
}

}  // namespace

CollisionPair::CollisionPair(const Mesh& environment, const Mesh& object, const PairConfig& config)
    : bv_(config.bv),
      isa_(simd::resolve_isa(config.isa)),
      tumble_(config.tumble),
      descent_(config.descent),
      impl_([&]() -> decltype(impl_) {
        switch (config.bv) {
          case BvType::kdop6:
            return make_dop_pair<6>(environment, object, config, isa_);
          case BvType::kdop14:
            return make_dop_pair<14>(environment, object, config, isa_);
          case BvType::kdop18:
            return make_dop_pair<18>(environment, object, config, isa_);
          case BvType::kdop26:
            break;
        }
        return make_dop_pair<26>(environment, object, config, isa_);
      }()) {}

QueryResult CollisionPair::query(const Pose& pose, QueryMode mode) {
  QueryResult r;
  std::visit(
      [&](auto& p) {
        p.query(p.env, p.fly, pose, QueryOptions{mode, tumble_, descent_}, p.scratch, r);
      },
      impl_);
  if (mode == QueryMode::all_contacts) sort_contacts(r.pairs);
  return r;
}

}  // namespace kdop
