#pragma once
// How a top-down builder splits (Klosowski et al. 1998, section 3.3.4; Zachmann 1998, section
// 4.2) and when it stops (section 4.3). Defaults are the paper's (splatter axis, split at the
// mean, leaf threshold tau = 40 for the flying object) but for the environment's tau: 3, not 1
// (measured for the k-DOP types: engine/bv_type.hpp, default_env_leaf).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace kdop {

// How a node's triangles are divided in two.
enum class SplitRule : std::uint8_t {
  splatter,      // the axis of largest centroid variance
  longest_side,  // the axis along which the node's bounding box is longest
  min_sum,       // the candidate split whose two children's k-DOP volumes have the least sum
  min_max,       // the candidate split whose larger child k-DOP volume is least
  surface_area,  // the candidate split of least  area(L) |L| + area(R) |R|  (k-DOP areas)
  zachmann,      // near-farthest pair as seeds, then greedy growth (Zachmann, section 4.2)
  obb_axis,      // the longest axis of the node's OBB (Gottschalk et al. 1996, section 4)
};

// Where along the chosen direction the splitting plane sits (not used by `zachmann`;
// `obb-axis` takes the median for `median`, else the mean).
enum class SplitPoint : std::uint8_t {
  mean,    // mean of the centroids (tighter volumes, the paper's default)
  median,  // median of the centroids (balanced tree)
  binned,  // best of `candidates` evenly spaced planes (volume rules; mean for the others)
};

struct BuildConfig {
  SplitRule rule = SplitRule::splatter;
  SplitPoint split_point = SplitPoint::mean;
  std::uint32_t leaf_size = 1;   // tau: a node with at most this many triangles is a leaf
  std::uint32_t candidates = 8;  // planes per direction for SplitPoint::binned
  // Volume rules (min_sum, min_max, surface_area) try splitting planes orthogonal to x, y, z as
  // the paper does, or with this set, orthogonal to all k/2 DOP directions (section 3.3.4's
  // open question).
  bool all_directions = false;

  static BuildConfig environment_defaults() {
    BuildConfig c;
    c.leaf_size = 3;
    return c;
  }
  static BuildConfig object_defaults() {
    BuildConfig c;
    c.leaf_size = 40;
    return c;
  }
};

// Names as the CLI spells them ("splatter", "longest-side", "min-sum", "min-max",
// "surface-area", "zachmann", "obb-axis" / "mean", "median", "binned"); nullopt otherwise.
std::optional<SplitRule> parse_split_rule(const std::string& name);
std::optional<SplitPoint> parse_split_point(const std::string& name);
const char* to_string(SplitRule rule);
const char* to_string(SplitPoint point);

// True for the rules that compare children's k-DOP volumes or areas (they need K).
inline bool is_volume_rule(SplitRule r) {
  return r == SplitRule::min_sum || r == SplitRule::min_max || r == SplitRule::surface_area;
}

// Called by checks that read their own meshes (kdop path, kdop nc) after a mesh is read and
// before its hierarchy is built: the mesh's path, its triangles, whether it is a moving object's
// (whose build needs more) and the bytes of the hierarchies built or read before it, which stay
// in memory meanwhile. It throws to refuse the build (the CLI's memory budget).
using BeforeBuild = std::function<void(const std::string& mesh, std::uint64_t triangles,
                                       bool moving, std::uint64_t held_bytes)>;

}  // namespace kdop
