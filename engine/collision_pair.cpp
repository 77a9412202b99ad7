#include "engine/collision_pair.hpp"

namespace kdop {

std::optional<BvType> parse_bv_type(const std::string& name) {
  if (name == "kdop6" || name == "6") return BvType::kdop6;
  if (name == "kdop14" || name == "14") return BvType::kdop14;
  if (name == "kdop18" || name == "18") return BvType::kdop18;
  if (name == "kdop26" || name == "26") return BvType::kdop26;
  return std::nullopt;
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
DopPair<K> make_dop_pair(const Mesh& environment, const Mesh& object, const PairConfig& c) {
  return DopPair<K>{build_dop_tree<K>(environment, c.environment),
                    build_flying_dop_tree<K>(object, c.object),
                    {}};
}

}  // namespace

CollisionPair::CollisionPair(const Mesh& environment, const Mesh& object, const PairConfig& config)
    : bv_(config.bv), impl_([&]() -> decltype(impl_) {
        switch (config.bv) {
          case BvType::kdop6:
            return make_dop_pair<6>(environment, object, config);
          case BvType::kdop14:
            return make_dop_pair<14>(environment, object, config);
          case BvType::kdop18:
            return make_dop_pair<18>(environment, object, config);
          case BvType::kdop26:
            break;
        }
        return make_dop_pair<26>(environment, object, config);
      }()) {}

QueryResult CollisionPair::query(const Pose& pose, QueryMode mode) {
  return std::visit([&](auto& p) { return query_dop(p.env, p.fly, pose, mode, p.scratch); }, impl_);
}

}  // namespace kdop
