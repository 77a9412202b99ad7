#pragma once
// The report of `kdop nc` and the files it is written to. Plain data: verify/nc_check fills it,
// this layer writes it.
//
// JSON (.json), keys in this order, one finding per line:
//   {"findings": [{"line", "n", "block", "kind" ("collision"|"rapid_into_material"|"gouge"),
//                  "tool_part" ("cutter"|"shank"|"holder"), "object", "position": [x, y, z],
//                  "depth", "near", "initial_stock", "move"}],
//    "summary": {"moves", "unchecked_moves", "findings", "collisions", "rapids_into_material",
//                "gouges", "max_gouge_depth", "first_line" (null when none), "tolerance",
//                "stock_model" ("height_field"|"initial"), "stock_cell" (mm, null for initial),
//                "cleared_by_stock_model", "parse_s", "check_s", "stock_s", "threads"}}
//   "n" is null for lines without an N number; "move" is the 0-based index in the expanded
//   move list (`kdop nc --moves`).
// CSV (.csv): one row per finding, header
//   line,n,block,kind,tool_part,object,x,y,z,depth,near,initial_stock,move
//   (near and initial_stock as 0/1; fields holding ',', '"' or a line break quoted as RFC 4180).
// Numbers round-trip exactly; files are written to a temporary name and renamed at the end.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "io/atomic_file.hpp"

namespace kdop {

enum class NcFindingKind { collision, rapid_into_material, gouge };
// A depth as the reports give it: to 1e-6 mm, the decisions' resolution (+ 0.0: never -0).
double depth_mm(double v);

const char* to_string(NcFindingKind kind);

enum class ToolPart { cutter, shank, holder };
const char* to_string(ToolPart part);

struct NcFinding {
  std::uint64_t move = 0;  // index into the program's moves
  std::uint32_t line = 0;
  std::int64_t n = -1;
  std::string block;
  NcFindingKind kind = NcFindingKind::collision;
  ToolPart tool_part = ToolPart::cutter;
  std::string object;  // "stock", "part" or the fixture's name
  // The tool tip (machine coordinates, mm) at the first contact found along the move, to within
  // the bisection's resolution (1e-4 mm of travel).
  std::array<double, 3> position{};
  // gouge: the move's largest depth (mm); collision and rapid_into_material: the least distance
  // bound (0 when they meet).
  double depth = 0;
  bool near = false;  // within delta of the threshold, not proved beyond it
  // Against the stock: checked against the INITIAL stock (a mesh stock, which has no removal
  // model), so possibly a false alarm where earlier moves removed the material. Against a box
  // stock the finding was confirmed on the height field of the material left (summary).
  bool initial_stock = false;
};

struct NcSummary {
  std::uint64_t moves = 0;
  std::uint64_t unchecked_moves = 0;  // no tool in the spindle
  std::uint64_t collisions = 0, rapids_into_material = 0, gouges = 0;
  double max_gouge_depth = 0;
  std::uint32_t first_line = 0;  // of the first finding (0: none)
  double tolerance = 0;
  // What findings against the stock were judged by: "height_field" (the stock as earlier moves
  // left it, geometry/stock_height_field.hpp, cells of stock_cell mm) or "initial" (a mesh stock,
  // as given: such findings are marked initial_stock).
  std::string stock_model = "initial";
  double stock_cell = 0;
  // Findings against the initial stock that the height field proved clear (material removed).
  std::uint64_t cleared_by_stock_model = 0;
  double stock_s = 0;  // replaying the program on the height field (part of check_s)
  double parse_s = 0;  // reading and expanding the program (the caller fills it)
  double check_s = 0;  // loading the setup and checking
  unsigned threads = 1;
};

// The axis-aligned bounds of one solid of the setup, machine coordinates in mm (for plots; not
// written to the report files).
struct NcSolidExtent {
  std::string name;
  std::string role;  // "stock", "part" or "fixture"
  std::array<double, 3> lo{}, hi{};
};

struct NcReport {
  std::vector<NcFinding> findings;  // by move, then kind, tool part and object
  NcSummary summary;
  std::vector<NcSolidExtent> solids;  // stock, part (if any), then the fixtures in setup order
};

// Writes the report (.json or .csv by extension); IoError naming the file otherwise or if it
// cannot be written.
void write_nc_report(const NcReport& report, const std::string& path);
// Into `file` (.json or .csv by its name), which the caller commits (write_outputs_atomic).
void write_nc_report(const NcReport& report, AtomicFileWriter& file);

}  // namespace kdop
