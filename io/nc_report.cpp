// NC reports as JSON and CSV, formatted in memory (one row per finding) and written atomically.
#include "io/nc_report.hpp"

#include <cmath>

#include "io/csv_text.hpp"
#include "io/path_report.hpp"
#include "io/report_json.hpp"
#include "io/result_file.hpp"

namespace kdop {
namespace {

using report_json::Json;
using report_json::number;

// The first contact along a move is found to about 1e-6 of the move's length, through float
// bounds: positions are written to 0.1 micron, as the text summary shows them (not
// -200.00003051757812 for -200), and depths to 1e-6 mm, the decisions' resolution. (+ 0.0: no
// "-0.0" for what rounds to zero.)
double position_mm(double v) {
  return std::round(v * 1e4) / 1e4 + 0.0;
}

Json finding_json(const NcFinding& f) {
  Json j;
  j["line"] = f.line;
  j["n"] = f.n >= 0 ? Json(f.n) : Json(nullptr);
  j["block"] = f.block;
  j["kind"] = to_string(f.kind);
  j["tool_part"] = to_string(f.tool_part);
  j["object"] = f.object;
  j["position"] =
      Json::array({number(position_mm(f.position[0])), number(position_mm(f.position[1])),
                   number(position_mm(f.position[2]))});
  j["depth"] = number(depth_mm(f.depth));
  j["near"] = f.near;
  j["initial_stock"] = f.initial_stock;
  j["move"] = f.move;
  return j;
}

Json summary_json(const NcReport& r) {
  const NcSummary& s = r.summary;
  Json j;
  j["moves"] = s.moves;
  j["unchecked_moves"] = s.unchecked_moves;
  j["findings"] = r.findings.size();
  j["collisions"] = s.collisions;
  j["rapids_into_material"] = s.rapids_into_material;
  j["gouges"] = s.gouges;
  j["max_gouge_depth"] = number(depth_mm(s.max_gouge_depth));
  j["first_line"] = s.first_line > 0 ? Json(s.first_line) : Json(nullptr);
  j["tolerance"] = number(s.tolerance);
  j["stock_model"] = s.stock_model;
  j["stock_cell"] = s.stock_model == "height_field" ? number(s.stock_cell) : Json(nullptr);
  j["cleared_by_stock_model"] = s.cleared_by_stock_model;
  j["parse_s"] = number(s.parse_s);
  j["check_s"] = number(s.check_s);
  j["stock_s"] = number(s.stock_s);
  j["threads"] = s.threads;
  return j;
}

std::string json_text(const NcReport& report) {
  Json findings = Json::array();
  for (const NcFinding& f : report.findings) findings.push_back(finding_json(f));
  std::string out = "{\n";
  report_json::put_array(out, "findings", findings);
  out += "  \"summary\": ";
  out += summary_json(report).dump(-1, ' ', false, Json::error_handler_t::replace);
  out += "\n}\n";
  return out;
}

std::string csv_text(const NcReport& report) {
  std::string out = "line,n,block,kind,tool_part,object,x,y,z,depth,near,initial_stock,move\n";
  for (const NcFinding& f : report.findings) {
    csv::put_uint(out, f.line);
    out += ',';
    if (f.n >= 0) csv::put_uint(out, static_cast<std::uint64_t>(f.n));
    out += ',';
    csv::put_field(out, f.block);
    out += ',';
    out += to_string(f.kind);
    out += ',';
    out += to_string(f.tool_part);
    out += ',';
    csv::put_field(out, f.object);
    for (const double v : f.position) {
      out += ',';
      csv::put_double(out, position_mm(v));
    }
    out += ',';
    csv::put_double(out, depth_mm(f.depth));
    out += f.near ? ",1," : ",0,";
    out += f.initial_stock ? "1," : "0,";
    csv::put_uint(out, f.move);
    out += '\n';
  }
  return out;
}

}  // namespace

double depth_mm(double v) {
  return std::round(v * 1e6) / 1e6 + 0.0;
}

const char* to_string(NcFindingKind kind) {
  switch (kind) {
    case NcFindingKind::collision:
      return "collision";
    case NcFindingKind::rapid_into_material:
      return "rapid_into_material";
    case NcFindingKind::gouge:
      return "gouge";
  }
  return "?";
}

const char* to_string(ToolPart part) {
  switch (part) {
    case ToolPart::cutter:
      return "cutter";
    case ToolPart::shank:
      return "shank";
    case ToolPart::holder:
      return "holder";
  }
  return "?";
}

void write_nc_report(const NcReport& report, const std::string& path) {
  write_outputs_atomic({{path, [&](AtomicFileWriter& f) { write_nc_report(report, f); }}});
}

void write_nc_report(const NcReport& report, AtomicFileWriter& file) {
  const ReportFormat format = report_format_from_path(file.path());
  file.write(format == ReportFormat::json ? json_text(report) : csv_text(report));
}

}  // namespace kdop
