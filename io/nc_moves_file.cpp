// Move lists as CSV, formatted in memory and handed to an AtomicFileWriter in one piece.
#include "io/nc_moves_file.hpp"

#include "io/csv_text.hpp"
#include "io/result_file.hpp"

namespace kdop {

void write_nc_moves_csv(const NcProgram& program, const std::string& path) {
  write_outputs_atomic({{path, [&](AtomicFileWriter& f) { write_nc_moves_csv(program, f); }}});
}

void write_nc_moves_csv(const NcProgram& program, AtomicFileWriter& file) {
  std::string out =
      "line,n,kind,x0,y0,z0,x1,y1,z1,cx,cy,cz,plane,dir,turns,tool,tool_length,block\n";
  out.reserve(out.size() + program.moves.size() * 160);
  for (const NcMove& m : program.moves) {
    const bool arc = m.kind == NcMoveKind::arc;
    csv::put_uint(out, m.line);
    out += ',';
    if (m.n >= 0) csv::put_uint(out, static_cast<std::uint64_t>(m.n));
    out += ',';
    out += to_string(m.kind);
    for (const double v : m.start) {
      out += ',';
      csv::put_double(out, v);
    }
    for (const double v : m.end) {
      out += ',';
      csv::put_double(out, v);
    }
    for (const double v : m.centre) {
      out += ',';
      if (arc) csv::put_double(out, v);
    }
    out += ',';
    csv::put_uint(out, m.plane);
    out += ',';
    if (arc) out += m.dir == NcArcDir::cw ? "cw" : "ccw";
    out += ',';
    if (arc) csv::put_uint(out, m.turns);
    out += ',';
    csv::put_uint(out, static_cast<std::uint32_t>(m.tool));  // never negative
    out += ',';
    csv::put_double(out, m.tool_length);
    out += ',';
    csv::put_field(out, program.block_text(m));
    out += '\n';
  }
  file.write(out);
}

}  // namespace kdop
