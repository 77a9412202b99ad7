#include "apps/kdop/hierarchy_inputs.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>

#include "apps/kdop/cli_common.hpp"
#include "apps/kdop/pair_config.hpp"
#include "io/hierarchy_file.hpp"
#include "io/mesh_reader.hpp"

namespace kdop::cli {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A file's hierarchy is built already: build options other than the role's defaults that would
// have shaped it get a one-line note (not an error: the same command line may mix files and
// meshes). A leaf size is noted when it was given (`given_leaf` non-zero) and differs from the
// file's: its default depends on the BV type, which the file may fix to another one.
void note_ignored_options(const std::string& path, const BuildConfig& file,
                          const BuildConfig& asked, const BuildConfig& defaults,
                          std::uint32_t given_leaf, const char* leaf_flag) {
  std::string ignored;
  auto add = [&](const char* flag) {
    ignored += ignored.empty() ? flag : std::string(", ") + flag;
  };
  if (asked.rule != defaults.rule) add("--rule");
  if (asked.split_point != defaults.split_point) add("--split");
  if (asked.candidates != defaults.candidates) add("--bins");
  if (asked.all_directions != defaults.all_directions) add("--all-directions");
  if (given_leaf != 0 && given_leaf != file.leaf_size) add(leaf_flag);
  if (ignored.empty()) return;
  std::fprintf(
      stderr,
      "kdop: note: %s: %s ignored, the file's hierarchy was built with %s / %s, leaf size %u\n",
      path.c_str(), ignored.c_str(), to_string(file.rule), to_string(file.split_point),
      file.leaf_size);
}

}  // namespace

namespace {

// "a kdop18", "an obb".
std::string with_article(const std::string& name) {
  const bool vowel =
      !name.empty() && std::string_view("aeiou").find(name[0]) != std::string_view::npos;
  return (vowel ? "an " : "a ") + name;
}

}  // namespace

void BvAgreement::add(BvType bv, const std::string& path) {
  if (given_ && bv != requested_) {
    throw InputError(path + ": " + with_article(to_string(bv)) +
                     " hierarchy, but --bv/--k asks for " + to_string(requested_) +
                     " (leave both out to use the file's)");
  }
  if (first_ && bv != *first_) {
    throw InputError(path + ": " + with_article(to_string(bv)) + " hierarchy, but " + first_path_ +
                     " is " + with_article(to_string(*first_)) + " one");
  }
  if (!first_) {
    first_ = bv;
    first_path_ = path;
  }
}

Inputs load_inputs(const std::string& environment, const std::vector<std::string>& objects,
                   const BuildOptions& options, const PairConfig& config) {
  Inputs in;
  BvAgreement agreement(options, config.bv);
  // The hierarchies read or built so far stay in memory while the next mesh is built, so the
  // budget bounds the whole run, not each mesh on its own.
  const MemoryBudget budget = memory_budget(options.max_memory);
  std::uint64_t held = 0;
  // A hierarchy file of either role: read (timed), its ignored options noted, its BV agreed.
  auto load = [&](const std::string& path, auto read, const BuildConfig& asked,
                  const BuildConfig& defaults, std::uint32_t given_leaf, const char* leaf_flag) {
    check_file_fits(path, budget, held);  // mapped: its pages are read on every query
    const auto t0 = Clock::now();
    auto file = read(path);
    in.build_ms += ms_since(t0);
    held += memory_bytes(file.hierarchy);
    note_ignored_options(path, file.config, asked, defaults, given_leaf, leaf_flag);
    agreement.add(bv_type(file.hierarchy), path);
    return std::move(file.hierarchy);
  };
  // A mesh of either role, built (timed) with the BV type the files fixed, held to what the
  // hierarchies before it leave of the budget.
  auto build = [&](const std::string& path, auto build_hierarchy, const BuildConfig& c,
                   std::uint64_t per_triangle) {
    check_file_fits(path, budget, held);
    const Mesh mesh = read_mesh(path, kOrHierarchyFile);
    check_build_fits(path, mesh.triangle_count(), budget, per_triangle, held);
    const auto t0 = Clock::now();
    auto h = build_hierarchy(mesh, agreement.bv(), c);
    in.build_ms += ms_since(t0);
    held += memory_bytes(h);
    return h;
  };

  // Files first: they fix the BV type the meshes are built with.
  // Options a file ignores are noted when they differ from the requested BV type's defaults.
  BuildConfig env_defaults = BuildConfig::environment_defaults();
  BuildConfig object_defaults = BuildConfig::object_defaults();
  apply_bv_defaults(BuildOptions{}, config.bv, env_defaults, object_defaults);
  std::optional<EnvironmentHierarchy> env;
  std::vector<std::optional<ObjectHierarchy>> loaded(objects.size());
  if (is_hierarchy_file(environment)) {
    env = load(environment, read_environment_file, config.environment, env_defaults,
               options.env_leaf, "--env-leaf");
  }
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (is_hierarchy_file(objects[i])) {
      loaded[i] = load(objects[i], read_object_file, config.object, object_defaults,
                       options.object_leaf, "--object-leaf");
    }
  }
  check_dop_options(config, agreement.bv());
  // Only a mesh built here follows --all-directions (the files note it as ignored).
  const bool builds_mesh =
      !env || std::any_of(loaded.begin(), loaded.end(), [](const auto& h) { return !h; });
  if (builds_mesh) check_all_directions(config.environment.all_directions, agreement.bv());
  // Meshes take the defaults of the BV type the files fixed, for what the options leave out.
  PairConfig built = config;
  apply_bv_defaults(options, agreement.bv(), built.environment, built.object);
  in.environment = env ? std::move(*env)
                       : build(environment, build_environment_hierarchy, built.environment,
                               kEnvironmentBytesPerTriangle);
  for (std::size_t i = 0; i < objects.size(); ++i) {
    in.objects.push_back(loaded[i] ? std::move(*loaded[i])
                                   : build(objects[i], build_object_hierarchy, built.object,
                                           kObjectBytesPerTriangle));
  }
  return in;
}

}  // namespace kdop::cli
