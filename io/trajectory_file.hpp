#pragma once
// Trajectory files for `kdop path`: timed waypoints per object.
// - CSV (.csv): a header naming the columns t,object,tx,ty,tz,qw,qx,qy,qz (any order, names
//   without surrounding blanks; other columns are ignored, as in pose files), then one waypoint
//   per row of as many fields as the header; blanks
//   around fields (names and numbers alike) are dropped, blank lines skipped, CRLF and a UTF-8
//   byte order mark accepted, the last line may lack its line end; rows of several objects may
//   interleave. Fields may be quoted as RFC 4180 says (as R's write.csv writes every string;
//   io/csv_text.hpp; a quoted field may span lines). Numbers are read with std::from_chars (no
//   locale).
// - JSON (.json): {"objects": {"name": [{"t": 0.0, "pose": [tx,ty,tz,qw,qx,qy,qz]}, ...]}};
//   objects keep file order.
// Per object, t is strictly increasing (in file order) and finite; the quaternion (Hamilton,
// scalar first) is any finite non-zero one, normalized on reading. Every object has at least one
// waypoint, and a file without any is an error ("no waypoints"). Unknown or duplicate keys (JSON)
// and duplicate or missing columns (CSV) are errors. Files are read whole: CSV up to
// 4 GiB, JSON (whose parsed form takes several times the text) up to 256 MiB.
//
// Every problem is one IoError line: "<file>: line N: ..." (CSV), "<file>: byte N: ..." (JSON
// syntax, 0-based offset) or "<file>: objects.box[3].t: ..." (JSON keys; names that are not
// plain words are quoted: objects['my box'][3].t).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kdop {

struct Waypoint {
  double t = 0;
  std::array<double, 3> translation{};
  std::array<double, 4> rotation{1, 0, 0, 0};  // unit quaternion w, x, y, z
  std::uint64_t line = 0;                      // CSV line (0 for JSON)
};

struct Trajectory {
  std::string file;
  std::vector<std::string> objects;          // in order of first appearance
  std::vector<std::vector<Waypoint>> paths;  // paths[i]: objects[i]'s waypoints, t increasing

  // Index of `name` in objects, or -1.
  int find(const std::string& name) const;
};

enum class TrajectoryFormat { csv, json };

// Format from the extension (.csv or .json, case-insensitive); IoError otherwise.
TrajectoryFormat trajectory_format_from_path(const std::string& path);

Trajectory read_trajectory(const std::string& path);
Trajectory parse_trajectory(std::string_view text, const std::string& name,
                            TrajectoryFormat format);

}  // namespace kdop
