// kdop build: a mesh's hierarchy built once and written to a hierarchy file (.kdop), for
// `kdop check` and `kdop batch` to load instead of rebuilding.
#include <chrono>
#include <cstdio>
#include <string>

#include "apps/kdop/cli_common.hpp"
#include "apps/kdop/commands.hpp"
#include "apps/kdop/pair_config.hpp"
#include "engine/hierarchy.hpp"
#include "io/file_extension.hpp"
#include "io/hierarchy_file.hpp"
#include "io/mesh_reader.hpp"
#include "io/mesh_writer.hpp"

namespace kdop::cli {

CLI::App* add_build_command(CLI::App& app, BuildArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "build",
      "Build a mesh's hierarchy once and write it to a hierarchy file (.kdop) that check and "
      "batch accept wherever they accept a mesh. Exit 0: written, 2: usage or input error, "
      "3: internal error.");
  cmd->add_option("--mesh", args.mesh, "Mesh (STL, OBJ, PLY, OFF)")->required()->check(non_empty());
  cmd->add_option("--out,-o", args.out, "Hierarchy file to write (atomically)")
      ->required()
      ->check(non_empty());
  cmd->add_option("--role", args.role,
                  "env: an environment hierarchy; object: a moving object's (with the DOP "
                  "vertices, leaf floats and root hull that tumbling needs)")
      ->capture_default_str();
  cmd->add_option("--leaf", args.leaf,
                  "Leaf size tau (default: env 3 with k-DOPs, 1 with obb and rss; object 40 with "
                  "k-DOPs, 8 with obb and rss)")
      ->check(CLI::Range(1u, 1000000u));
  add_build_options(*cmd, args.build, OptionSet::hierarchy);
  return cmd;
}

int run_build(const BuildArgs& args) {
  if (args.role != "env" && args.role != "object") {
    throw InputError("--role: expected env or object, got '" + args.role + "'");
  }
  check_outputs({{"--mesh", args.mesh}}, {{"--out", args.out}});
  // Formats follow names: a hierarchy under a mesh's (or any other) extension would be read back
  // as that format.
  const std::string out_extension = lowercase_extension(args.out);
  if (!out_extension.empty() && out_extension != ".kdop") {
    throw InputError("--out: " + args.out +
                     ": kdop build writes a hierarchy file; name it .kdop (" + out_extension +
                     " is read as another format)");
  }
  if (is_hierarchy_file(args.mesh)) {
    throw InputError("--mesh: " + args.mesh +
                     " is a hierarchy file already; kdop build reads a mesh (.stl, .obj, .ply or "
                     ".off)");
  }
  const bool object = args.role == "object";
  const PairConfig pair = make_pair_config(args.build);
  BuildConfig config = object ? pair.object : pair.environment;
  if (args.leaf != 0) config.leaf_size = args.leaf;
  const MemoryBudget budget = memory_budget(args.build.max_memory);
  check_file_fits(args.mesh, budget);
  const Mesh mesh = read_mesh(args.mesh);
  // The file's image is held in memory too before it is written.
  check_build_fits(args.mesh, mesh.triangle_count(), budget,
                   object ? kObjectBytesPerTriangle : kEnvironmentFileBytesPerTriangle);

  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  std::string bytes;
  std::uint32_t nodes = 0;
  auto encode = [&](const auto& hierarchy) {
    nodes = std::visit([](const auto& t) { return topology_of(t).node_count(); }, hierarchy);
    bytes = format_hierarchy_file(hierarchy, config);
  };
  if (object) {
    encode(build_object_hierarchy(mesh, pair.bv, config));
  } else {
    encode(build_environment_hierarchy(mesh, pair.bv, config));
  }
  const auto t1 = Clock::now();
  register_output_file(args.out);
  write_file_atomic(args.out, bytes);
  const auto t2 = Clock::now();
  std::fprintf(stderr,
               "kdop build: %s (%zu triangles) -> %s: %s %s hierarchy, %s / %s, leaf size %u, "
               "%u nodes, %zu bytes; build %.1f ms, write %.1f ms\n",
               args.mesh.c_str(), mesh.triangle_count(), args.out.c_str(), to_string(pair.bv),
               args.role.c_str(), to_string(config.rule), to_string(config.split_point),
               config.leaf_size, nodes, bytes.size(),
               std::chrono::duration<double, std::milli>(t1 - t0).count(),
               std::chrono::duration<double, std::milli>(t2 - t1).count());
  return kExitClear;
}

}  // namespace kdop::cli
