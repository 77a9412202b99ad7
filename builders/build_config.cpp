#include "builders/build_config.hpp"

#include <array>
#include <utility>

namespace kdop {
namespace {

constexpr std::array<std::pair<SplitRule, const char*>, 7> kRuleNames{{
    {SplitRule::splatter, "splatter"},
    {SplitRule::longest_side, "longest-side"},
    {SplitRule::min_sum, "min-sum"},
    {SplitRule::min_max, "min-max"},
    {SplitRule::surface_area, "surface-area"},
    {SplitRule::zachmann, "zachmann"},
    {SplitRule::obb_axis, "obb-axis"},
}};

constexpr std::array<std::pair<SplitPoint, const char*>, 3> kPointNames{{
    {SplitPoint::mean, "mean"},
    {SplitPoint::median, "median"},
    {SplitPoint::binned, "binned"},
}};

}  // namespace

std::optional<SplitRule> parse_split_rule(const std::string& name) {
  for (const auto& [rule, text] : kRuleNames) {
    if (name == text) return rule;
  }
  return std::nullopt;
}

std::optional<SplitPoint> parse_split_point(const std::string& name) {
  for (const auto& [point, text] : kPointNames) {
    if (name == text) return point;
  }
  return std::nullopt;
}

const char* to_string(SplitRule rule) {
  for (const auto& [r, text] : kRuleNames) {
    if (r == rule) return text;
  }
  return "?";
}

const char* to_string(SplitPoint point) {
  for (const auto& [p, text] : kPointNames) {
    if (p == point) return text;
  }
  return "?";
}

}  // namespace kdop
