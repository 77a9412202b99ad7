#pragma once
// Tool libraries for NC verification (issue 7): per tool number, a cutter, a shank and a holder,
// read into plain data in mm (the geometry layer's ToolParameters; make_tool builds the solids).
//
// kdop's own form (JSON):
//   {"units": "mm",
//    "tools": {"1": {"shape": "bull", "diameter": 6, "corner_radius": 1, "cutting_length": 20,
//                    "shank_diameter": 6, "length": 50,
//                    "holder": [{"height": 20, "lower_diameter": 30, "upper_diameter": 40}],
//                    "gauge_length": 75, "name": "6 mm bull nose"}}}
// - units: "mm" or "inch" (default "mm"); a tool's own "units" overrides the file's. Every
//   length is converted to mm (x 25.4 for inch); angles are degrees.
// - tool keys are tool numbers: decimal digits for 1 .. 2147483647 ("01" is tool 1, and then
//   naming tool 1 twice is an error).
// - required: shape ("flat" | "ball" | "bull" | "cone"), diameter, cutting_length, length;
//   bull also corner_radius, in (0, diameter/2]; cone also included_angle, in (0, 180).
// - optional: corner_radius (flat: only 0; ball: 0 or diameter/2; the value is implied by the
//   shape), included_angle (any shape; checked to be in (0, 180] but only cones use it, so a
//   script may write every key for every tool), tip_diameter (cones only: a flat tip, in
//   [0, diameter), default 0), shank_diameter (default diameter), holder (default none),
//   gauge_length (default length + the holder heights: what G43 tool length offsets refer to),
//   name and description (strings).
// - sizes: diameter, cutting_length, length, shank_diameter, gauge_length and every holder height
//   and diameter are > 0 and at most 100 m; cutting_length <= length (the shank spans
//   [cutting_length, length] and the holder stacks upward from the holder face at `length`);
//   ball: cutting_length >= diameter/2, bull: cutting_length >= corner_radius (the corner must
//   fit in the cutting part). At most 64 holder segments and 10000 tools.
// - not checked, on purpose: a shank wider than the cutter (reduced-neck tools have one) and a
//   shank wider than the holder face (the parts are a union of solids for collision checks; the
//   larger one is what can collide), a gauge length below `length`.
//
// CAMotics tool tables are imported too: a `.camotics` project file (its "tools" object; the
// project's other keys are ignored) or a bare tool table {"1": {...}, "2": {...}} as CAMotics
// writes it. Tool keys: "units" ("metric"/"mm" default, or "imperial"/"inch"; CAMotics gives each
// tool its own units and does not inherit the project's), "shape", "length", "diameter",
// "snub_diameter", "description", "number" (must equal the key). Shapes map to kdop's as
//   cylindrical (or cylinder) -> flat;   ballnose -> ball;
//   conical (or cone)         -> cone, included angle 2 atan(diameter / (2 length));
//   snubnose                  -> cone with tip_diameter = snub_diameter and the angle of the
//                                frustum from snub_diameter to diameter over `length`
//                                (snub_diameter = diameter: flat);
//   spheroid (or sphere)      -> rejected (no kdop cutter has that shape).
// CAMotics models only the cutting part: an imported tool has cutting_length = length, a shank of
// its diameter over nothing, no holder (holder and shank collisions cannot be found for it) and
// gauge_length = length. CAMotics defaults a missing length or diameter to 10 mm and 2 mm; here
// they are required, since a guessed size would make every check meaningless.
//
// read_tool_library picks the form: a ".camotics" extension is a project; otherwise JSON whose
// top-level keys are all tool numbers is a CAMotics table, JSON with any CAMotics project key
// ("resolution-mode", "resolution", "workpiece", "files") is a project, and anything else is
// kdop's form.
//
// Every problem is one IoError line naming the file and the key path, e.g.
//   "tools.json: tools.3.corner_radius: must be at most diameter/2 = 3 (got 4)"
//   "tools.json: byte 57: JSON parse error at line 3, column 12: syntax error ..."
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "geometry/revolved_solid.hpp"

namespace kdop {

struct ToolSpec {
  std::int32_t number = 0;
  std::string name, description;  // as given (empty when not)
  ToolParameters geometry;        // mm and degrees; corner_radius for bull only, angle and
                                  // tip_diameter for cones only (0 otherwise)
  double gauge_length = 0;        // mm, tip to gauge line
};

enum class ToolLibraryFormat { automatic, kdop, camotics_project, camotics_table };

struct ToolLibrary {
  std::string file;                                    // as given, for messages
  ToolLibraryFormat format = ToolLibraryFormat::kdop;  // the form read
  std::map<std::int32_t, ToolSpec> tools;              // by tool number, at least one
};

ToolLibrary read_tool_library(const std::string& path,
                              ToolLibraryFormat format = ToolLibraryFormat::automatic);

// The same from text; `name` names the file in messages and, for automatic, its extension counts.
ToolLibrary parse_tool_library(std::string_view text, const std::string& name,
                               ToolLibraryFormat format = ToolLibraryFormat::automatic);

}  // namespace kdop
