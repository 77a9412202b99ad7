#pragma once
// Turns the shared build options into a PairConfig, rejecting unknown names.
#include "apps/kdop/cli_common.hpp"
#include "apps/kdop/commands.hpp"
#include "engine/collision_pair.hpp"

namespace kdop::cli {

// Which options a command takes: a hierarchy's (--bv, --k, --rule, --split, --bins,
// --all-directions), or a pair's (also both leaf sizes, --tumble and --descent); a pair's read
// from mesh files (which may be hierarchy files, fixing the BV type) or generated (kdop demo).
enum class OptionSet { hierarchy, pair, generated_pair };

inline void add_build_options(CLI::App& command, BuildOptions& o, OptionSet set = OptionSet::pair) {
  CLI::Option* bv =
      command
          .add_option(
              "--bv", o.bv,
              set == OptionSet::pair
                  ? "Bounding volume: kdop6, kdop14, kdop18, kdop26, kdop32, dop8, obb, rss "
                    "(default: kdop18, or a hierarchy file's)"
                  : "Bounding volume: kdop6, kdop14, kdop18, kdop26, kdop32, dop8, obb, rss "
                    "(default: kdop18)")
          ->check(non_empty());
  command.add_option("--k", o.k, "Shorthand for --bv kdopK (6, 14, 18, 26 or 32; 8 for dop8)")
      ->excludes(bv);
  command
      .add_option("--rule", o.rule,
                  "Split rule: splatter, longest-side, min-sum, min-max, surface-area, zachmann, "
                  "obb-axis (default: splatter for k-DOPs, obb-axis for obb and rss)")
      ->check(non_empty());
  command
      .add_option("--split", o.split,
                  "Split point: mean, median, or binned (best of --bins planes; volume rules)")
      ->capture_default_str();
  command
      .add_option("--bins", o.bins, "Candidate planes per direction for --split binned (default 8)")
      ->check(CLI::Range(2u, 1024u));
  command.add_flag("--all-directions", o.all_directions,
                   "Volume rules try planes along all k/2 DOP directions, not only the first three "
                   "(x, y, z; dop8: three of its four diagonals)");
  command.add_option("--max-memory", o.max_memory,
                     "Refuse meshes whose hierarchies would need more memory than this (bytes, or "
                     "with K, M or G: 10^3, 10^6, 10^9; default: the memory available, "
                     "MemAvailable; under ulimit -v at most half the address space it leaves)");
  if (set == OptionSet::hierarchy) return;
  command
      .add_option("--env-leaf", o.env_leaf,
                  "Environment leaf size tau (default: 3 for k-DOPs, 1 for obb and rss)")
      ->check(CLI::Range(1u, 1000000u));
  command
      .add_option("--object-leaf", o.object_leaf,
                  "Object leaf size tau (default: 40 for k-DOPs, 8 for obb and rss)")
      ->check(CLI::Range(1u, 1000000u));
  command
      .add_option("--tumble", o.tumble,
                  "Re-aligning flying nodes: auto (inner nodes affine, leaves by vertices), "
                  "vertices (transform the DOP's vertices) or affine (Zachmann: 3 multiply-adds "
                  "per plane)")
      ->capture_default_str();
  command
      .add_option("--descent", o.descent,
                  "Which node to split: environment (Algorithm 1: environment first) or larger "
                  "(the larger volume first, as OBBTrees do)")
      ->capture_default_str();
  command
      .add_option("--root", o.root,
                  "The flying root's DOP per pose (k-DOPs): exact (hill-climbing the hull), "
                  "vertices (its stored DOP's vertices, as other nodes) or auto (vertices, exact "
                  "where that pays)")
      ->capture_default_str();
}

// True when --bv or --k was given (a hierarchy file's BV type must then agree).
inline bool bv_given(const BuildOptions& o) {
  return o.k.has_value() || !o.bv.empty();
}

// The BV type's own defaults (engine/bv_type.hpp) for what the options leave out: the split
// rule (--rule) and the leaf sizes (--env-leaf, --object-leaf).
inline void apply_bv_defaults(const BuildOptions& o, BvType bv, BuildConfig& environment,
                              BuildConfig& object) {
  if (o.rule.empty()) environment.rule = object.rule = default_split_rule(bv);
  if (o.env_leaf == 0) environment.leaf_size = default_env_leaf(bv);
  if (o.object_leaf == 0) object.leaf_size = default_object_leaf(bv);
}

// --all-directions adds the directions a volume rule tries beyond its first three (x, y, z; the
// 8-DOP's first three diagonals), which kdop6's boxes and the OBB and RSS builds (split along x,
// y, z) do not have. Checked where a mesh is built with the BV type: at parsing, and again once
// hierarchy files have fixed the type (load_inputs). (kdop path takes no build rule options.)
inline void check_all_directions(bool all_directions, BvType bv) {
  if (all_directions && (bv == BvType::kdop6 || !is_dop(bv))) {
    throw InputError(std::string("--all-directions: ") + to_string(bv) +
                     " trees split along x, y and z only, there are no other directions to try");
  }
}

// --tumble affine and --root exact|vertices choose how k-DOPs are re-aligned; OBB and RSS trees
// rotate their boxes instead, so the options would change nothing there. Checked again once
// hierarchy files have fixed the BV type (load_inputs).
inline void check_dop_options(const PairConfig& c, BvType bv) {
  if (is_dop(bv)) return;
  if (c.tumble == TumbleMethod::affine) {
    throw InputError("--tumble affine: " + std::string(to_string(bv)) +
                     " trees rotate their boxes, they do not tumble k-DOPs");
  }
  if (c.root != RootMethod::automatic) {
    throw InputError(std::string("--root ") + (c.root == RootMethod::exact ? "exact" : "vertices") +
                     ": " + to_string(bv) +
                     " trees rotate their boxes, they have no flying root DOP");
  }
}

inline PairConfig make_pair_config(const BuildOptions& o) {
  PairConfig c;
  const std::string bv = o.k ? std::to_string(*o.k) : (o.bv.empty() ? "kdop18" : o.bv);
  const auto type = parse_bv_type(bv);
  if (!type && o.k) throw InputError("--k: expected 6, 14, 18, 26, 32 or 8, got " + bv);
  if (!type)
    throw InputError(
        "--bv: expected kdop6, kdop14, kdop18, kdop26, kdop32, dop8, obb or rss, got '" + bv + "'");
  c.bv = *type;
  const auto rule = o.rule.empty() ? SplitRule::splatter : parse_split_rule(o.rule);
  if (!rule) {
    throw InputError(
        "--rule: expected splatter, longest-side, min-sum, min-max, surface-area, zachmann or "
        "obb-axis, got '" +
        o.rule + "'");
  }
  const auto split = parse_split_point(o.split);
  if (!split) throw InputError("--split: expected mean, median or binned, got '" + o.split + "'");
  // Said rather than ignored: --bins without binned splits would change nothing.
  if (o.bins != 0 && *split != SplitPoint::binned) throw InputError("--bins needs --split binned");
  const std::uint32_t bins = o.bins != 0 ? o.bins : 8;
  c.environment = BuildConfig{*rule, *split, o.env_leaf, bins, o.all_directions};
  c.object = BuildConfig{*rule, *split, o.object_leaf, bins, o.all_directions};
  apply_bv_defaults(o, c.bv, c.environment, c.object);
  check_all_directions(o.all_directions, c.bv);  // before the rule: no rule would make it apply
  // Only the volume rules cost candidate planes; the others would take the mean instead. (No BV
  // type's default rule is one; which default applies may be up to hierarchy files.)
  if (!is_volume_rule(c.environment.rule) && (*split == SplitPoint::binned || o.all_directions)) {
    throw InputError(
        std::string(*split == SplitPoint::binned ? "--split binned" : "--all-directions") +
        " needs a volume rule (--rule min-sum, min-max or surface-area), not " +
        (o.rule.empty() ? std::string("the default rule") : to_string(*rule)));
  }
  if (o.tumble != "vertices" && o.tumble != "affine" && o.tumble != "auto") {
    throw InputError("--tumble: expected auto, vertices or affine, got '" + o.tumble + "'");
  }
  c.tumble = o.tumble == "affine"     ? TumbleMethod::affine
             : o.tumble == "vertices" ? TumbleMethod::vertices
                                      : TumbleMethod::automatic;
  if (o.descent != "environment" && o.descent != "larger") {
    throw InputError("--descent: expected environment or larger, got '" + o.descent + "'");
  }
  c.descent = o.descent == "larger" ? DescentRule::larger_first : DescentRule::environment_first;
  const auto root = parse_root_method(o.root);
  if (!root) throw InputError("--root: expected exact, vertices or auto, got '" + o.root + "'");
  c.root = *root;
  check_dop_options(c, c.bv);
  return c;
}

}  // namespace kdop::cli
