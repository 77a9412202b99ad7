#pragma once
// The expanded move list of a G-code program as CSV (`kdop nc --moves`), one row per move:
//   line,n,kind,x0,y0,z0,x1,y1,z1,cx,cy,cz,plane,dir,turns,tool,tool_length,block
// kind: rapid, feed, arc, cycle_rapid, cycle_feed; points are the tool tip in machine
// coordinates, mm (io/gcode_program.hpp); n, cx, cy, cz, dir and turns are empty where they do
// not apply (no N word; straight moves); plane is the active plane (17, 18, 19); block is the
// source line, quoted as RFC 4180 says when needed. Numbers are the shortest digits that read
// back exactly. The file is written to a temporary name beside the target and renamed at the end,
// so a failed run leaves no partial file.
#include <string>

#include "io/atomic_file.hpp"
#include "io/gcode_program.hpp"

namespace kdop {

void write_nc_moves_csv(const NcProgram& program, const std::string& path);
// Into `file`, which the caller commits (write_outputs_atomic).
void write_nc_moves_csv(const NcProgram& program, AtomicFileWriter& file);

}  // namespace kdop
