#pragma once
// NC setup files (issue 7): what is on the machine table, and where. JSON:
//   {"units": "mm",
//    "stock": {"box": [x0, y0, z0, x1, y1, z1]}          or {"mesh": "stock.stl"},
//    "part": {"mesh": "part.stl"},
//    "fixtures": [{"name": "clamp", "box": [...]}, {"name": "vise", "mesh": "vise.stl"}],
//    "tolerance": 0.01,
//    "tools": "tools.json",
//    "work_offsets": {"G54": [x, y, z], ..., "G59": [x, y, z]},
//    "g28": [x, y, z], "g30": [x, y, z],
//    "start": [x, y, z], "initial_tool": 1}
// - units: "mm" (default) or "inch"; everything is converted to mm: boxes, tolerance, work
//   offsets, stored positions, the start point, and mesh coordinates (mesh files carry no units, so
//   a solid's mesh_scale says what to multiply them by). A stock, part or fixture entry may give
//   its own "units" (e.g. an inch setup whose part comes from a mm CAD export).
// - stock: required, a box or a mesh. part: optional, a mesh or a box; without a part there is
//   nothing to gouge, so the gouge check is skipped. fixtures: optional, each with a unique
//   non-empty name other than "stock" and "part" (findings name the object they touch).
// - a box is 6 finite numbers with x0 < x1, y0 < y1, z0 < z1; coordinates at most 1e6 mm.
// - tolerance: the gouge depth allowed, >= 0, default 0.01 mm.
// - tools: the tool library's path (optional; a command line may give it instead).
// - work_offsets: G54..G59 (those keys exactly), each [x, y, z], default 0; g28/g30: the stored
//   positions G28/G30 move to, machine coordinates, default 0.
// - start: where the spindle's gauge point is when the program starts, machine coordinates,
//   default 0 (the machine origin, where LinuxCNC's rs274 starts). A job whose stock top is at
//   machine z = 0 needs a start above it, or the first move comes up through the stock.
// - initial_tool: the tool in the spindle when the program starts (programs that rely on a
//   preloaded tool have no M6 before they cut), an integer 0 .. 2147483647, default 0 (empty
//   spindle: moves before the first M6 are not checked). That it is in the tool table is checked
//   where the table is read (`kdop nc`), as for the program's T numbers.
// Paths are relative to the setup file's folder (joined, not normalized) and must name existing
// regular files; meshes are not read here (the verify layer reads them and checks that they are
// closed solids, geometry/solid_check.hpp).
//
// Every problem is one IoError line naming the file and the key's JSON path, e.g.
//   "setup.json: fixtures[1].name: duplicate name 'clamp' (also fixtures[0])"
//   "setup.json: stock.box: x0 must be below x1 (got 5 and 5)"
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kdop {

// The stock, the part or a fixture: a box, or a mesh file.
struct NcSetupSolid {
  std::string name;             // "stock", "part" or the fixture's name
  std::string mesh;             // resolved path; empty for a box
  double mesh_scale = 1;        // mm per mesh coordinate unit (25.4 for inch)
  std::array<double, 6> box{};  // x0 y0 z0 x1 y1 z1 in mm, when mesh is empty

  bool is_box() const { return mesh.empty(); }
};

struct NcSetupFile {
  std::string file;  // as given, for messages
  NcSetupSolid stock;
  bool has_part = false;
  NcSetupSolid part;  // when has_part
  std::vector<NcSetupSolid> fixtures;
  double tolerance = 0.01;  // mm
  std::string tools;        // resolved path of the tool library; empty when not given
  std::array<std::array<double, 3>, 6> work_offsets{};  // G54..G59, mm
  std::array<double, 3> g28{}, g30{};                   // mm
  std::array<double, 3> start{};                        // the gauge point at program start, mm
  std::int32_t initial_tool = 0;                        // 0: an empty spindle
};

NcSetupFile read_nc_setup(const std::string& path);

// The same from text; `base_dir` is the folder relative paths are joined to.
NcSetupFile parse_nc_setup(std::string_view text, const std::string& name,
                           const std::string& base_dir);

}  // namespace kdop
