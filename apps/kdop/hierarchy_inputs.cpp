#include "apps/kdop/hierarchy_inputs.hpp"

#include <chrono>
#include <cstdio>
#include <optional>

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

// The BV type the files fix, checked as each file comes.
class BvAgreement {
 public:
  BvAgreement(const BuildOptions& o, BvType requested)
      : given_(bv_given(o)), requested_(requested) {}

  void add(BvType bv, const std::string& path) {
    if (given_ && bv != requested_) {
      throw InputError(path + ": a " + to_string(bv) + " hierarchy, but --bv/--k asks for " +
                       to_string(requested_) + " (leave both out to use the file's)");
    }
    if (first_ && bv != *first_) {
      throw InputError(path + ": a " + to_string(bv) + " hierarchy, but " + first_path_ + " is a " +
                       to_string(*first_) + " one");
    }
    if (!first_) {
      first_ = bv;
      first_path_ = path;
    }
  }
  BvType bv() const { return first_.value_or(requested_); }

 private:
  bool given_;
  BvType requested_;
  std::optional<BvType> first_;
  std::string first_path_;
};

// A file's hierarchy is built already: build options other than the defaults that would have
// shaped it get a one-line note (not an error: the same command line may mix files and meshes).
void note_ignored_options(const std::string& path, const BuildConfig& file,
                          const BuildConfig& asked, const char* leaf_flag,
                          std::uint32_t default_leaf) {
  const BuildConfig defaults;
  std::string ignored;
  auto add = [&](const char* flag) {
    ignored += ignored.empty() ? flag : std::string(", ") + flag;
  };
  if (asked.rule != defaults.rule) add("--rule");
  if (asked.split_point != defaults.split_point) add("--split");
  if (asked.candidates != defaults.candidates) add("--bins");
  if (asked.all_directions) add("--all-directions");
  if (asked.leaf_size != default_leaf) add(leaf_flag);
  if (ignored.empty()) return;
  std::fprintf(
      stderr,
      "kdop: note: %s: %s ignored, the file's hierarchy was built with %s / %s, leaf size %u\n",
      path.c_str(), ignored.c_str(), to_string(file.rule), to_string(file.split_point),
      file.leaf_size);
}

}  // namespace

Inputs load_inputs(const std::string& environment, const std::vector<std::string>& objects,
                   const BuildOptions& options, const PairConfig& config) {
  // Files first: they fix the BV type the meshes are built with.
  Inputs in;
  BvAgreement agreement(options, config.bv);
  std::optional<EnvironmentHierarchy> env;
  std::vector<std::optional<ObjectHierarchy>> loaded(objects.size());
  if (is_hierarchy_file(environment)) {
    const auto t0 = Clock::now();
    EnvironmentFile file = read_environment_file(environment);
    in.build_ms += ms_since(t0);
    note_ignored_options(environment, file.config, config.environment, "--env-leaf",
                         BuildConfig::environment_defaults().leaf_size);
    env = std::move(file.hierarchy);
    agreement.add(bv_type(*env), environment);
  }
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (!is_hierarchy_file(objects[i])) continue;
    const auto t0 = Clock::now();
    ObjectFile file = read_object_file(objects[i]);
    in.build_ms += ms_since(t0);
    note_ignored_options(objects[i], file.config, config.object, "--object-leaf",
                         BuildConfig::object_defaults().leaf_size);
    loaded[i] = std::move(file.hierarchy);
    agreement.add(bv_type(*loaded[i]), objects[i]);
  }
  in.bv = agreement.bv();
  if (env) {
    in.environment = std::move(*env);
  } else {
    const Mesh mesh = read_mesh(environment);
    const auto t0 = Clock::now();
    in.environment = build_environment_hierarchy(mesh, in.bv, config.environment);
    in.build_ms += ms_since(t0);
  }
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (loaded[i]) {
      in.objects.push_back(std::move(*loaded[i]));
      continue;
    }
    const Mesh mesh = read_mesh(objects[i]);
    const auto t0 = Clock::now();
    in.objects.push_back(build_object_hierarchy(mesh, in.bv, config.object));
    in.build_ms += ms_since(t0);
  }
  return in;
}

}  // namespace kdop::cli
