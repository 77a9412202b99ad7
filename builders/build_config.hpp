#pragma once
// How a top-down builder splits (Klosowski et al. 1998, section 3.3.4) and when it stops
// (section 4.3). Defaults are the paper's: splatter axis, split at the mean, leaf threshold
// tau = 1 for the environment and 40 for the flying object.
#include <cstdint>
#include <optional>
#include <string>

namespace kdop {

// Which coordinate axis the splitting plane is orthogonal to.
enum class SplitAxisRule {
  longest_side,  // the axis along which the node's bounding box is longest
  splatter,      // the axis along which the triangle centroids have the largest variance
};

// Where along that axis the plane sits.
enum class SplitPoint {
  mean,    // mean of the centroids (tighter volumes, the paper's default)
  median,  // median of the centroids (balanced tree)
};

struct BuildConfig {
  SplitAxisRule axis_rule = SplitAxisRule::splatter;
  SplitPoint split_point = SplitPoint::mean;
  std::uint32_t leaf_size = 1;  // tau: a node with at most this many triangles is a leaf

  static BuildConfig environment_defaults() {
    return {SplitAxisRule::splatter, SplitPoint::mean, 1};
  }
  static BuildConfig object_defaults() { return {SplitAxisRule::splatter, SplitPoint::mean, 40}; }
};

// "splatter", "longest-side" / "mean", "median"; nullopt for anything else.
std::optional<SplitAxisRule> parse_split_axis_rule(const std::string& name);
std::optional<SplitPoint> parse_split_point(const std::string& name);
const char* to_string(SplitAxisRule rule);
const char* to_string(SplitPoint point);

}  // namespace kdop
