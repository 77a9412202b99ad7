#pragma once
// The plot of `kdop nc --plot`, 1200 x 700 px, .svg or .png (cairo) by extension:
//   left: plan view (XY, equal scales) of the setup's solids as their bounding boxes, the tool
//   path (cutting moves solid, rapids dashed) and the findings as markers, one colour and shape
//   per kind, labelled with their program lines;
//   right: the tip's z along the program (moves evenly spaced, ticks named by program line) with
//   the findings, and under it a strip with one row per kind of finding;
//   title: moves, findings per kind, the deepest gouge; bottom: the legend.
// IoError for another extension, or a file that cannot be written (nothing is left then).
// Layout and drawing: io/nc_plot.cpp.
#include <string>

#include "io/gcode_program.hpp"
#include "io/nc_report.hpp"

namespace kdop {

void write_nc_plot(const NcProgram& program, const NcReport& report, const std::string& path);
// Into `file`, which the caller commits (write_outputs_atomic).
void write_nc_plot(const NcProgram& program, const NcReport& report, AtomicFileWriter& file);

}  // namespace kdop
