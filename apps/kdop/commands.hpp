#pragma once
// The kdop commands. Each registers its options on a CLI11 subcommand and runs from the parsed
// values, returning an exit code (cli_common.hpp).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kdop::cli {

struct BuildOptions {
  std::string bv;        // empty: kdop18, or a hierarchy file's
  std::optional<int> k;  // --k shorthand
  std::string rule;      // empty: the BV type's default (engine/bv_type.hpp)
  std::string split = "mean";
  std::uint32_t bins = 0;  // 0: not given (8 with --split binned)
  bool all_directions = false;
  std::uint32_t env_leaf = 0;     // 0: the BV type's default (engine/bv_type.hpp)
  std::uint32_t object_leaf = 0;  // 0: the BV type's default (engine/bv_type.hpp)
  std::string tumble = "auto";
  std::string descent = "larger";
  std::string root = "auto";
  std::string max_memory;  // --max-memory: bytes with an optional K/M/G suffix; empty: available
};

struct CheckArgs {
  std::string env, object, pose, matrix, out;
  double clearance = -1;  // < 0: not asked for
  BuildOptions build;
  bool all_contacts = false;
  bool json = false;
};

struct DemoArgs {
  bool nc = false;  // `kdop demo nc`: the built-in NC job instead of the flight
  int steps = 2000;
  std::uint64_t seed = 1;
  std::string mode = "all";
  std::string out;
  bool json = false;
  BuildOptions build;
};

struct BatchArgs {
  std::string env, poses, out, pairs;
  double clearance = -1;  // < 0: not asked for
  std::vector<std::string> objects;
  unsigned threads = 0;
  std::string mode = "first";
  std::size_t chunk = 16384;
  bool quiet = false;
  BuildOptions build;
};

struct BuildArgs {
  std::string mesh, out;
  std::string role = "env";
  std::uint32_t leaf = 0;  // 0: the role's default (1 for env, 40 for object)
  BuildOptions build;
};

struct PathArgs {
  std::string scene, trajectory, out, plot;
  bool continuous = false;
  double step = 0;
  double clearance = 0;
  double time_tolerance = 1e-9;
  std::uint64_t max_steps = 100000;
  unsigned threads = 0;
  bool quiet = false;
  BuildOptions build;
};

struct NcArgs {
  std::string program, moves;
  std::string setup, tools, out, plot;
  double tolerance = -1;   // < 0: the setup's
  double stock_cell = 0;   // 0: about 10^6 cells, about 0.01 mm at the smallest
  std::int64_t tool = -1;  // the tool in the spindle at the start (< 0: the setup's)
  std::string max_memory;  // --max-memory: the expanded program's limit (empty: available)
  unsigned threads = 0;
  bool quiet = false;
};

CLI::App* add_nc_command(CLI::App& app, NcArgs& args);
int run_nc(const NcArgs& args);

CLI::App* add_path_command(CLI::App& app, PathArgs& args);
int run_path(const PathArgs& args);

CLI::App* add_build_command(CLI::App& app, BuildArgs& args);
int run_build(const BuildArgs& args);

CLI::App* add_batch_command(CLI::App& app, BatchArgs& args);
int run_batch(const BatchArgs& args);

CLI::App* add_check_command(CLI::App& app, CheckArgs& args);
int run_check(const CheckArgs& args);

CLI::App* add_demo_command(CLI::App& app, DemoArgs& args);
int run_demo(const DemoArgs& args);

}  // namespace kdop::cli
