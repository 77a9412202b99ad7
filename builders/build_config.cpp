#include "builders/build_config.hpp"

namespace kdop {

std::optional<SplitAxisRule> parse_split_axis_rule(const std::string& name) {
  if (name == "splatter") return SplitAxisRule::splatter;
  if (name == "longest-side") return SplitAxisRule::longest_side;
  return std::nullopt;
}

std::optional<SplitPoint> parse_split_point(const std::string& name) {
  if (name == "mean") return SplitPoint::mean;
  if (name == "median") return SplitPoint::median;
  return std::nullopt;
}

const char* to_string(SplitAxisRule rule) {
  return rule == SplitAxisRule::splatter ? "splatter" : "longest-side";
}

const char* to_string(SplitPoint point) {
  return point == SplitPoint::mean ? "mean" : "median";
}

}  // namespace kdop
