// Path reports as JSON and CSV. The whole document is formatted in memory (a report holds one
// row per segment and waypoint, not per pose) and handed to an AtomicFileWriter in one piece.
#include "io/path_report.hpp"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string_view>

#include "io/atomic_file.hpp"
#include "io/csv_text.hpp"
#include "io/file_extension.hpp"
#include "io/io_error.hpp"
#include "io/report_json.hpp"
#include "io/result_file.hpp"

namespace kdop {
namespace {

using report_json::Json;
using report_json::name_or_null;
using report_json::number;

Json pair_json(const std::optional<TrianglePair>& pair) {
  if (!pair) return nullptr;
  return Json::array({pair->object_triangle, pair->with_triangle});
}

const char* to_string(SampleKind kind) {
  return kind == SampleKind::waypoint ? "waypoint" : "step";
}

Json segment_json(const SegmentReport& s) {
  Json j;
  j["object"] = s.object;
  j["t0"] = number(s.t0);
  j["t1"] = number(s.t1);
  j["status"] = to_string(s.status);
  j["t_hit"] = number(s.t_hit);
  j["with"] = name_or_null(s.with);
  j["pair"] = pair_json(s.pair);
  j["min_distance"] = number(s.min_distance);
  j["steps"] = s.steps;
  j["time_us"] = number(s.time_us);
  j["min_distance_t"] = number(s.min_distance_t);
  j["min_distance_with"] = name_or_null(s.min_distance_with);
  return j;
}

Json waypoint_json(const WaypointReport& w) {
  Json j;
  j["object"] = w.object;
  j["t"] = number(w.t);
  j["kind"] = to_string(w.kind);
  j["collides"] = w.collides;
  j["with"] = name_or_null(w.with);
  j["pair"] = pair_json(w.pair);
  j["min_distance"] = number(w.min_distance);
  j["time_us"] = number(w.time_us);
  return j;
}

Json summary_json(const PathSummary& s) {
  Json j;
  j["segments"] = s.segments;
  j["free"] = s.free;
  j["colliding"] = s.colliding;
  j["undecided"] = s.undecided;
  j["waypoints"] = s.waypoints;
  j["colliding_waypoints"] = s.colliding_waypoints;
  j["continuous"] = s.continuous;
  j["clearance"] = number(s.clearance);
  j["time_tolerance"] = number(s.time_tolerance);
  if (s.first_collision_t) {
    Json first;
    first["t"] = number(*s.first_collision_t);
    first["object"] = s.first_collision_object;
    first["with"] = name_or_null(s.first_collision_with);
    j["first_collision"] = std::move(first);
  } else {
    j["first_collision"] = nullptr;
  }
  if (!std::isnan(s.worst_clearance)) {
    Json worst;
    worst["distance"] = number(s.worst_clearance);
    worst["t"] = number(s.worst_clearance_t);
    worst["object"] = s.worst_clearance_object;
    worst["with"] = name_or_null(s.worst_clearance_with);
    j["worst_clearance"] = std::move(worst);
  } else {
    j["worst_clearance"] = nullptr;
  }
  j["time_s"] = number(s.time_s);
  j["threads"] = s.threads;
  return j;
}

std::string json_text(const PathReport& report) {
  Json segments = Json::array();
  for (const SegmentReport& s : report.segments) segments.push_back(segment_json(s));
  Json waypoints = Json::array();
  for (const WaypointReport& w : report.waypoints) waypoints.push_back(waypoint_json(w));
  std::string out = "{\n";
  report_json::put_array(out, "segments", segments);
  report_json::put_array(out, "waypoints", waypoints);
  out += "  \"summary\": ";
  out += summary_json(report.summary).dump(-1, ' ', false, Json::error_handler_t::replace);
  out += "\n}\n";
  return out;
}

std::string csv_text(const PathReport& report) {
  std::string out =
      "object,t0,t1,status,t_hit,with,object_triangle,with_triangle,min_distance,steps,time_us,"
      "min_distance_t,min_distance_with\n";
  for (const SegmentReport& s : report.segments) {
    csv::put_field(out, s.object);
    out += ',';
    csv::put_double(out, s.t0);
    out += ',';
    csv::put_double(out, s.t1);
    out += ',';
    out += to_string(s.status);
    out += ',';
    csv::put_double(out, s.t_hit);
    out += ',';
    csv::put_field(out, s.with);
    out += ',';
    if (s.pair) csv::put_uint(out, s.pair->object_triangle);
    out += ',';
    if (s.pair) csv::put_uint(out, s.pair->with_triangle);
    out += ',';
    csv::put_double(out, s.min_distance);
    out += ',';
    csv::put_uint(out, s.steps);
    out += ',';
    csv::put_fixed3(out, s.time_us);
    out += ',';
    csv::put_double(out, s.min_distance_t);
    out += ',';
    csv::put_field(out, s.min_distance_with);
    out += '\n';
  }
  return out;
}

}  // namespace

const char* to_string(SegmentStatus status) {
  switch (status) {
    case SegmentStatus::free:
      return "free";
    case SegmentStatus::collides:
      return "collides";
    case SegmentStatus::undecided:
      return "undecided";
  }
  return "unknown";
}

ReportFormat report_format_from_path(const std::string& path) {
  const std::string extension = lowercase_extension(path);
  if (extension == ".json") return ReportFormat::json;
  if (extension == ".csv") return ReportFormat::csv;
  if (is_stream_without_extension(path)) return ReportFormat::json;
  throw IoError::in_file(path, (extension.empty() ? std::string("no file extension")
                                                  : "unknown extension '" + extension + "'") +
                                   " (expected .json or .csv)");
}

void write_path_report(const PathReport& report, const std::string& path) {
  write_outputs_atomic({{path, [&](AtomicFileWriter& f) { write_path_report(report, f); }}});
}

void write_path_report(const PathReport& report, AtomicFileWriter& file) {
  const ReportFormat format = report_format_from_path(file.path());
  file.write(format == ReportFormat::json ? json_text(report) : csv_text(report));
}

}  // namespace kdop
