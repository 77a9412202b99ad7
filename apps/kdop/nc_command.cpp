// kdop nc: a G-code program checked against a setup (stock, part, fixtures) with the tools of a
// tool library (--setup), or only read and expanded into its moves (--moves).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "apps/kdop/cli_common.hpp"
#include "apps/kdop/commands.hpp"
#include "io/atomic_file.hpp"
#include "io/file_extension.hpp"
#include "io/gcode_program.hpp"
#include "io/io_error.hpp"
#include "io/nc_moves_file.hpp"
#include "io/nc_plot.hpp"
#include "io/nc_report.hpp"
#include "io/nc_setup.hpp"
#include "io/path_report.hpp"
#include "io/tool_library.hpp"
#include "verify/nc_check.hpp"

namespace kdop::cli {

CLI::App* add_nc_command(CLI::App& app, NcArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "nc",
      "NC programs (RS274/LinuxCNC G-code): with --setup, every move is checked continuously for "
      "holder/shank collisions, rapids into material and gouges; --moves writes the expanded "
      "move list. Exit 0: nothing found, 1: findings, 2: usage or input error "
      "(file: line N: why), 130: interrupted.");
  cmd->add_option("--program", args.program, "G-code program (.nc, .ngc, .tap, ...)")
      ->required()
      ->check(non_empty());
  cmd->add_option("--setup", args.setup,
                  "Setup JSON: stock, part, fixtures, tolerance, tools, work offsets")
      ->check(non_empty());
  cmd->add_option("--tools", args.tools, "Tool library JSON or .camotics (default: the setup's)")
      ->check(non_empty());
  cmd->add_option("--tolerance", args.tolerance, "Gouge tolerance, mm (default: the setup's)")
      ->check(finite_non_negative());
  cmd->add_option("--out", args.out, "Findings report: .json or .csv (written atomically)")
      ->check(non_empty());
  cmd->add_option("--plot", args.plot,
                  "Plot, .svg or .png: plan view of the setup, tool path and findings; tip z and "
                  "findings along the program")
      ->check(non_empty());
  cmd->add_option("--stock-cell", args.stock_cell,
                  "Cell size of the box stock's height field, mm (default: about 10^6 cells, about "
                  "0.01 at the smallest; "
                  "smaller cells cost time and judge rapids closer to walls)")
      ->check(finite_positive());
  cmd->add_option("--max-memory", args.max_memory,
                  "Refuse mesh solids and programs whose expanded moves would need more memory "
                  "than this (bytes, or with K, M or G; default: the memory available, "
                  "MemAvailable; under ulimit -v at most half the address space it leaves)");
  cmd->add_option("--tool", args.tool,
                  "The tool in the spindle when the program starts, for programs that rely on a "
                  "preloaded tool (default: the setup's \"initial_tool\"; 0: empty)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{2147483647}));
  cmd->add_option("--threads", args.threads, "Worker threads (0: all cores)")
      ->check(CLI::Range(0u, 1024u));
  cmd->add_flag("--quiet,-q", args.quiet, "No progress line and no summary on stderr");
  cmd->add_option("--moves", args.moves,
                  "Expanded moves as CSV: line,n,kind,x0,y0,z0,x1,y1,z1,cx,cy,cz,plane,dir,turns,"
                  "tool,tool_length,block; written atomically")
      ->check(non_empty());
  return cmd;
}

namespace {

// "1 gouge", "2 gouges".
std::string count_of(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The moves line: how many moves there were and how many could not be checked (no tool in the
// spindle), said as what the user sees in the program when they are the ones before its first
// tool change.
std::string moves_text(const NcProgram& program, const NcSummary& s) {
  const std::string moves = count_of(s.moves, "move", "moves");
  if (s.unchecked_moves == 0) return moves + " checked";
  const auto first_tool = std::find_if(program.moves.begin(), program.moves.end(),
                                       [](const NcMove& m) { return m.tool != 0; });
  const auto leading = static_cast<std::uint64_t>(first_tool - program.moves.begin());
  return moves + ", " + std::to_string(s.moves - s.unchecked_moves) + " checked, " +
         std::to_string(s.unchecked_moves) +
         (s.unchecked_moves == leading ? " before the first tool change (empty spindle)"
                                       : " with an empty spindle (not checked)");
}

// A depth as the JSON and CSV reports give it: to 1e-6 mm, the decisions' resolution, without
// trailing zeros (1.000001, 5, 0.000001).
std::string micrometres(double mm) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6f", depth_mm(mm));
  std::string t = text;
  while (t.size() > 1 && t.back() == '0') t.pop_back();
  if (t.back() == '.') t.pop_back();
  return t;
}

std::string summary_text(const NcReport& r, const NcProgram& program, bool has_part) {
  const NcSummary& s = r.summary;
  std::ostringstream out;
  out << program.file << ": " << moves_text(program, s) << "\n";
  out << "findings: " << r.findings.size() << " ("
      << count_of(s.collisions, "collision", "collisions") << ", "
      << count_of(s.rapids_into_material, "rapid into material", "rapids into material");
  if (has_part) {
    out << ", " << count_of(s.gouges, "gouge", "gouges") << ")\n";
  } else {
    out << "; gouges not checked: the setup has no part)\n";
  }
  std::size_t shown = 0;
  for (const NcFinding& f : r.findings) {
    if (++shown > 20) {
      out << "  ... " << r.findings.size() - 20 << " more (--out for all)\n";
      break;
    }
    char pos[128];
    std::snprintf(pos, sizeof pos, "(%.4f, %.4f, %.4f)", f.position[0], f.position[1],
                  f.position[2]);
    out << "  line " << f.line << ": " << to_string(f.kind) << ", " << to_string(f.tool_part)
        << " with " << f.object << " at " << pos;
    if (f.depth > 0) out << ", depth " << micrometres(f.depth) << " mm";
    if (f.near) out << " (near: within 1e-6 mm of the threshold)";
    if (f.initial_stock) out << " (initial stock: possibly a false alarm)";
    out << "   | " << f.block << "\n";
  }
  if (s.gouges > 0) out << "deepest gouge: " << micrometres(s.max_gouge_depth) << " mm\n";
  if (s.stock_model == "height_field") {
    out << "stock: followed as it is cut (height field, " << s.stock_cell << " mm cells); "
        << count_of(s.cleared_by_stock_model, "finding", "findings")
        << " against the initial stock cleared\n";
  } else {
    out << "stock: a mesh, checked as given (findings against it may be false alarms)\n";
  }
  out << "tolerance: " << s.tolerance << " mm; time: parse " << s.parse_s << " s, check "
      << s.check_s << " s on " << s.threads << " thread" << plural_s(s.threads) << "\n";
  return out.str();
}

// The tool in the spindle at the start: --tool, else the setup's "initial_tool"; like the
// program's T numbers, it must be in the tool table.
std::int32_t initial_tool(const NcArgs& args, const NcSetupFile& setup, const ToolLibrary& tools) {
  const auto unknown = [&](std::int64_t t) {
    return t != 0 && !tools.tools.contains(static_cast<std::int32_t>(t));
  };
  const std::string table = " is not in the tool table (" + tools.file + ")";
  if (args.tool >= 0) {
    if (unknown(args.tool)) throw InputError("--tool: tool " + std::to_string(args.tool) + table);
    return static_cast<std::int32_t>(args.tool);
  }
  if (unknown(setup.initial_tool)) {
    throw IoError::in_file(setup.file,
                           "initial_tool: tool " + std::to_string(setup.initial_tool) + table);
  }
  return setup.initial_tool;
}

// A program with no move, or none of whose moves has a tool, would pass without a single check:
// refused (an empty or wrong file is more likely than a program that does nothing).
void require_a_tool(const NcProgram& program, const std::string& setup_file) {
  if (program.moves.empty()) {
    throw IoError::in_file(
        program.file, "no moves (expected G0, G1, G2, G3 or a canned cycle), nothing to check");
  }
  const auto loaded = [](const NcMove& m) { return m.tool != 0; };
  if (std::any_of(program.moves.begin(), program.moves.end(), loaded)) return;
  throw IoError::at_line(program.file, program.moves.front().line,
                         "no tool is loaded (no M6, no initial tool), so no move can be checked; "
                         "give the tool in the spindle at the start with --tool N or "
                         "\"initial_tool\": N in " +
                             setup_file);
}

}  // namespace

int run_nc(const NcArgs& args) {
  if (args.moves.empty() && args.setup.empty()) {
    throw InputError(
        "give --setup SETUP.json to check the program, or --moves out.csv "
        "to expand it");
  }
  check_output_names({{"--moves", args.moves}, {"--out", args.out}, {"--plot", args.plot}});
  if (!args.moves.empty()) check_output_extension({"--moves", args.moves}, {".csv"}, "a .csv");
  if (!args.out.empty()) report_format_from_path(args.out);
  if (!args.plot.empty()) check_plot_option(args.plot);
  const std::vector<NamedPath> outputs{
      {"--moves", args.moves}, {"--out", args.out}, {"--plot", args.plot}};
  const char* stdout_holds = args.out.empty() && !args.setup.empty() ? "the summary" : nullptr;
  check_outputs({{"--program", args.program}, {"--setup", args.setup}, {"--tools", args.tools}},
                outputs, stdout_holds);
  if (args.setup.empty()) {
    if (!args.out.empty() || !args.plot.empty() || !args.tools.empty() || args.tolerance >= 0 ||
        args.stock_cell > 0 || args.tool >= 0) {
      throw InputError("--out, --plot, --tools, --tolerance, --stock-cell and --tool need --setup");
    }
    const NcProgram program =
        read_gcode_program(args.program, {}, nc_limits(memory_budget(args.max_memory)));
    register_output_file(args.moves);
    write_nc_moves_csv(program, args.moves);
    return kExitClear;
  }

  using Clock = std::chrono::steady_clock;
  const NcSetupFile setup = read_nc_setup(args.setup);
  const std::string tools_path = !args.tools.empty() ? args.tools : setup.tools;
  if (tools_path.empty()) {
    throw InputError(args.setup +
                     ": no \"tools\" given; name a tool library there or with --tools");
  }
  check_outputs({{"--setup tool library", tools_path}}, outputs, stdout_holds);
  // Mesh solids larger than the memory are refused before they are read.
  const MemoryBudget budget = memory_budget(args.max_memory);
  std::vector<const NcSetupSolid*> solids{&setup.stock};
  if (setup.has_part) solids.push_back(&setup.part);
  for (const NcSetupSolid& f : setup.fixtures) solids.push_back(&f);
  std::uint64_t files = 0;
  for (const NcSetupSolid* solid : solids) {
    if (solid->is_box()) continue;
    files += check_file_fits(solid->mesh, budget, files, "the setup's mesh files before it");
  }
  const ToolLibrary tools = read_tool_library(tools_path);
  const auto parse_start = Clock::now();
  NcSetup machine = machine_setup(setup, tools);
  machine.initial_tool = initial_tool(args, setup, tools);  // the setup's unless --tool says
  const NcProgram program =
      read_gcode_program(args.program, machine, nc_limits(memory_budget(args.max_memory)));
  const double parse_s = std::chrono::duration<double>(Clock::now() - parse_start).count();
  require_a_tool(program, setup.file);

  NcCheckOptions options;
  options.tolerance = args.tolerance;
  options.stock_cell = args.stock_cell;
  options.threads = args.threads;
  options.cancel = &interrupt_flag();
  options.before_build = build_gate(budget);
  const auto start = Clock::now();
  ProgressLine progress(!args.quiet);
  options.progress = [&](std::uint64_t done, std::uint64_t total) {
    progress.update("kdop nc: " + std::to_string(done) + "/" + std::to_string(total) + " moves",
                    std::chrono::duration<double>(Clock::now() - start).count());
  };
  std::optional<NcReport> report;
  try {
    report = check_nc(setup, tools, program, options);
  } catch (const std::invalid_argument& e) {
    progress.finish();
    throw InputError(e.what());
  }
  progress.finish();
  if (!report) {
    std::cerr << "kdop: interrupted\n";
    return kExitInterrupted;
  }
  report->summary.parse_s = parse_s;
  // Every output is written once the check has ended, all together: an error or an interrupt
  // leaves none (a plot that cannot be created keeps the report from replacing an older one).
  std::vector<PendingOutput> pending;
  if (!args.moves.empty()) {
    pending.push_back({args.moves, [&](AtomicFileWriter& f) { write_nc_moves_csv(program, f); }});
  }
  if (!args.out.empty()) {
    pending.push_back({args.out, [&](AtomicFileWriter& f) { write_nc_report(*report, f); }});
  }
  if (!args.plot.empty()) {
    pending.push_back(
        {args.plot, [&](AtomicFileWriter& f) { write_nc_plot(program, *report, f); }});
  }
  write_outputs(pending);
  if (interrupted()) return kExitInterrupted;
  const std::string text = summary_text(*report, program, setup.has_part);
  if (args.out.empty()) {
    std::cout << text;
  } else if (!args.quiet) {
    std::cerr << text;
  }
  return report->findings.empty() ? kExitClear : kExitFinding;
}

}  // namespace kdop::cli
