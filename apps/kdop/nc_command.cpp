// kdop nc: a G-code program read and expanded into its moves (--moves). Checking a program
// against a setup (--setup) is not available yet, so without --moves the command refuses to run
// rather than half-work.
#include <iostream>

#include "apps/kdop/cli_common.hpp"
#include "apps/kdop/commands.hpp"
#include "io/gcode_program.hpp"
#include "io/nc_moves_file.hpp"

namespace kdop::cli {

CLI::App* add_nc_command(CLI::App& app, NcArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "nc",
      "NC programs (RS274/LinuxCNC G-code): --moves writes the expanded move list (tool tip, "
      "machine coordinates, mm). Exit 0: done, 2: usage or input error (file: line N: why).");
  cmd->add_option("--program", args.program, "G-code program (.nc, .ngc, .tap, ...)")->required();
  cmd->add_option("--moves", args.moves,
                  "Expanded moves as CSV: line,n,kind,x0,y0,z0,x1,y1,z1,cx,cy,cz,plane,dir,turns,"
                  "tool,tool_length,block; written atomically");
  return cmd;
}

int run_nc(const NcArgs& args) {
  if (args.moves.empty()) {
    throw InputError(
        "kdop nc: checking a program needs --setup, which is not available yet; use --moves "
        "out.csv to expand the program");
  }
  const std::string& out = args.moves;
  if (out.size() < 4 || (out.compare(out.size() - 4, 4, ".csv") != 0 &&
                         out.compare(out.size() - 4, 4, ".CSV") != 0)) {
    throw InputError("--moves: expected a .csv file name, got '" + out + "'");
  }
  const NcProgram program = read_gcode_program(args.program);
  register_output_file(out);
  write_nc_moves_csv(program, out);
  return kExitClear;
}

}  // namespace kdop::cli
