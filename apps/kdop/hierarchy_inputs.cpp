#include "apps/kdop/hierarchy_inputs.hpp"

#include <chrono>
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
    env = read_environment_file(environment).hierarchy;
    in.build_ms += ms_since(t0);
    agreement.add(bv_type(*env), environment);
  }
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (!is_hierarchy_file(objects[i])) continue;
    const auto t0 = Clock::now();
    loaded[i] = read_object_file(objects[i]).hierarchy;
    in.build_ms += ms_since(t0);
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
