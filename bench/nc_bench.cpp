// kdop-nc-bench: NC program checking at the scale issue 7 asks for, a 100,000-move finishing
// program over a part of 200,000 triangles with two fixtures, on 1 and 2 threads; the time spent
// reading and expanding the program against the time spent checking it.
//
// The part is a terrain (a height-field block, geometry/shapes.hpp) in a 200 x 150 x 30 stock; a
// 6 mm ball mill follows it in raster lines along x, its tip held 0.05 mm above the drop-cutter
// height (the highest the terrain reaches under the ball), so a correct checker reports no gouge
// and no collision. Medians of --repeat runs.
//
//   kdop-nc-bench [--moves 100000] [--grid 225] [--repeat 3] [--margin 0.05]
//
// A negative --margin plunges the ball into the terrain: every feed move then gouges.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "geometry/shapes.hpp"
#include "io/gcode_program.hpp"
#include "io/mesh_writer.hpp"
#include "verify/nc_check.hpp"

namespace {

using namespace kdop;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The terrain's height at (x, y), program coordinates (the stock's top is z = 0).
double terrain(double x, double y) {
  return -10 + 3 * std::sin(x / 17) * std::cos(y / 13);
}

// The lowest tip height at which a ball of radius r centred over (x, y) clears the terrain's
// grid vertices and, with `margin`, the facets between them (sampled finely under the ball).
double drop_cutter(double x, double y, double r, double margin) {
  double centre = -1e9;
  const int n = 12;
  for (int i = -n; i <= n; ++i) {
    for (int j = -n; j <= n; ++j) {
      const double dx = r * i / n, dy = r * j / n, d2 = dx * dx + dy * dy;
      if (d2 > r * r) continue;
      centre = std::max(centre, terrain(x + dx, y + dy) + std::sqrt(r * r - d2));
    }
  }
  return centre - r + margin;
}

constexpr const char* kUsage =
    "usage: kdop-nc-bench [--moves 100000] [--grid 225] [--repeat 3] [--margin 0.05]\n"
    "  A finishing program of --moves moves over a terrain part (a --grid x --grid height grid),\n"
    "  checked on 1 and 2 threads; medians of --repeat runs. A negative --margin gouges.\n";

}  // namespace

int main(int argc, char** argv) {
  std::size_t moves = 100000, grid = 225;
  int repeat = 3;
  double margin = 0.05;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (key == "--help" || key == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    const bool known =
        key == "--moves" || key == "--grid" || key == "--margin" || key == "--repeat";
    if (!known || i + 1 == argc) {
      std::fprintf(stderr, "kdop-nc-bench: %s %s\n%s",
                   known ? "missing value for" : "unknown option", key.c_str(), kUsage);
      return 2;
    }
    const char* value = argv[++i];
    if (key == "--moves") {
      moves = static_cast<std::size_t>(std::atoll(value));
    } else if (key == "--grid") {
      grid = static_cast<std::size_t>(std::atoll(value));
    } else if (key == "--margin") {
      margin = std::atof(value);
    } else {
      repeat = std::atoi(value);
    }
  }
  if (moves < 100 || grid < 2 || repeat < 1) {
    std::fprintf(stderr, "kdop-nc-bench: bad option value\n");
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("kdop-nc-bench-" + std::to_string(getpid()));
  fs::create_directories(dir);

  // Machine coordinates: program zero (G54) 300 below the machine origin, where the spindle's
  // gauge point starts.
  const double z0 = -300;
  std::vector<double> xs, ys, heights;
  for (std::size_t i = 0; i < grid; ++i) xs.push_back(200.0 * i / (grid - 1));
  for (std::size_t j = 0; j < grid; ++j) ys.push_back(150.0 * j / (grid - 1));
  for (const double y : ys) {
    for (const double x : xs) heights.push_back(z0 + terrain(x, y));
  }
  const Mesh part = make_heightfield_block(xs, ys, z0 - 30, heights);
  write_file_atomic((dir / "part.obj").string(), format_obj(part));

  NcSetupFile setup;
  setup.file = "bench";
  setup.stock.name = "stock";
  setup.stock.box = {0, 0, z0 - 30, 200, 150, z0};
  setup.has_part = true;
  setup.part.name = "part";
  setup.part.mesh = (dir / "part.obj").string();
  NcSetupSolid left, right;
  left.name = "left clamp";
  left.box = {-25, 60, z0 - 30, -5, 90, z0 + 5};
  right.name = "right clamp";
  right.box = {205, 60, z0 - 30, 225, 90, z0 + 5};
  setup.fixtures = {left, right};
  setup.work_offsets[0] = {0, 0, z0};

  ToolLibrary tools;
  ToolSpec& ball = tools.tools[1];
  ball.number = 1;
  ball.geometry.shape = CutterShape::kBall;
  ball.geometry.diameter = 6;
  ball.geometry.cutting_length = 25;
  ball.geometry.shank_diameter = 6;
  ball.geometry.length = 50;
  ball.geometry.holder = {{30, 20, 40}};
  ball.gauge_length = 80;

  // Raster lines along x, stepping in y, inside the part's footprint. Between lines the tool
  // lifts to 5 mm above the stock and plunges again, as a finishing toolpath would: a straight
  // step-over at cutting height would gouge where the terrain bulges between the lines (the
  // checker finds those).
  const std::size_t per_line = 500, lines = (moves + per_line + 1) / (per_line + 2);
  std::string program = "G21 G90 G17 G54\nT1 M6\nG43 H1\nG0 X10 Y10 Z20\n";
  std::size_t written = 0;
  char buf[96];
  for (std::size_t l = 0; l < lines && written < moves; ++l) {
    const double y = 10 + 130.0 * static_cast<double>(l) / static_cast<double>(lines);
    const double x_start = l % 2 == 0 ? 10 : 190;
    std::snprintf(buf, sizeof buf, "G0 Z5\nG0 X%.4f Y%.4f\n", x_start, y);
    program += buf;
    written += 2;
    for (std::size_t k = 0; k < per_line && written < moves; ++k, ++written) {
      const double u = static_cast<double>(k) / (per_line - 1);
      const double x = l % 2 == 0 ? 10 + 180 * u : 190 - 180 * u;
      std::snprintf(buf, sizeof buf, "G1 X%.4f Y%.4f Z%.4f F2000\n", x, y,
                    drop_cutter(x, y, 3, margin));
      program += buf;
    }
  }
  // Last, a rapid down into the finished surface's middle, to 1 mm above it: into the initial
  // stock, clear of the stock the program left, so the whole program is replayed on the stock's
  // height field (the finding is cleared: 0 findings, 1 cleared).
  std::snprintf(buf, sizeof buf, "G0 Z5\nG0 X100 Y75\nG0 Z%.4f\n", drop_cutter(100, 75, 3, 1));
  program += buf;
  program += "G0 Z20\nM30\n";
  write_file_atomic((dir / "finish.nc").string(), program);

  std::vector<double> parse;
  NcProgram expanded;
  for (int r = 0; r < repeat; ++r) {
    const auto t = Clock::now();
    expanded = read_gcode_program((dir / "finish.nc").string(), machine_setup(setup, tools));
    parse.push_back(seconds_since(t));
  }
  std::printf("kdop-nc-bench: %zu moves, part of %zu triangles, 2 fixtures, median of %d runs\n\n",
              expanded.moves.size(), part.triangle_count(), repeat);
  // The fixed cost inside check: loading the setup and building the part's hierarchy, measured
  // on the program's first 10 moves.
  NcProgram head = expanded;
  head.moves.resize(std::min<std::size_t>(head.moves.size(), 10));
  std::printf(
      "| threads | read and expand (s) | setup (s) | check (s) | of which stock replay (s) | "
      "moves/s (check) | findings | cleared by the stock model |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const unsigned threads : {1u, 2u}) {
    std::vector<double> check, fixed, replay;
    std::size_t findings = 0, cleared = 0;
    for (int r = 0; r < repeat; ++r) {
      NcCheckOptions options;
      options.threads = threads;
      fixed.push_back(check_nc(setup, tools, head, options)->summary.check_s);
      const NcReport report = *check_nc(setup, tools, expanded, options);
      check.push_back(report.summary.check_s);
      replay.push_back(report.summary.stock_s);
      findings = report.findings.size();
      cleared = report.summary.cleared_by_stock_model;
      if (r == 0 && threads == 1) {
        // A clean program has none; show the first few so a regression is easy to see.
        for (std::size_t f = 0; f < std::min<std::size_t>(findings, 5); ++f) {
          const NcFinding& x = report.findings[f];
          std::fprintf(stderr, "finding: line %u %s %s vs %s depth %.6f: %s\n", x.line,
                       to_string(x.kind), to_string(x.tool_part), x.object.c_str(), x.depth,
                       x.block.c_str());
        }
      }
    }
    std::printf("| %u | %.3f | %.3f | %.3f | %.3f | %.0f | %zu | %zu |\n", threads, median(parse),
                median(fixed), median(check), median(replay),
                static_cast<double>(expanded.moves.size()) / median(check), findings, cleared);
  }
  std::printf(
      "\n(check includes setup: loading the part and building its hierarchy, once per run)\n");
  fs::remove_all(dir);
  return 0;
}
