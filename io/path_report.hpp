#pragma once
// The report of `kdop path` and the files it is written to. Plain data: verify/ fills it, this
// layer writes it.
//
// JSON (.json), keys in this order, one array element per line:
//   {"segments": [{"object", "t0", "t1", "status" ("free"|"collides"|"undecided"), "t_hit",
//                  "with", "pair", "min_distance", "steps", "time_us", "min_distance_t",
//                  "min_distance_with"}],
//    "waypoints": [{"object", "t", "kind" ("waypoint"|"step"), "collides", "with", "pair",
//                   "min_distance", "time_us"}],
//    "summary": {"segments", "free", "colliding", "undecided", "waypoints",
//                "colliding_waypoints", "continuous", "clearance", "time_tolerance",
//                "first_collision" (null or {"t", "object", "with"}),
//                "worst_clearance" (null or {"distance", "t", "object", "with"}),
//                "time_s", "threads"}}
//   "t_hit", "with" and "pair" are null where nothing was hit; "pair" is [object triangle,
//   other triangle] (0-based, file order of the two meshes); "min_distance" is null where it was
//   not computed; "min_distance_t" and "min_distance_with" say when it was reached and to what
//   (continuous: exact for pure translations, else at the check's samples; discrete: at the
//   samples; at a contact, 0 where it is proved, within the time tolerance after t_hit). Any
//   NaN or infinite number is null. The samples go to the plot only.
// CSV (.csv): the segment rows, header
//   object,t0,t1,status,t_hit,with,object_triangle,with_triangle,min_distance,steps,time_us,
//   min_distance_t,min_distance_with
//   (empty fields where JSON has null; fields holding ',', '"' or a line break quoted as
//   RFC 4180 says).
// Numbers round-trip exactly: the shortest digits that read back to the same double (time_us in
// CSV: 3 decimals). Files are written to a temporary name beside the target and renamed at the
// end, so a failed run leaves no partial file.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "io/atomic_file.hpp"

namespace kdop {

enum class SegmentStatus { free, collides, undecided };
const char* to_string(SegmentStatus status);

struct TrianglePair {
  std::uint32_t object_triangle = 0;  // of the segment's / waypoint's object
  std::uint32_t with_triangle = 0;    // of the item named by `with`
};

constexpr double kNotComputed = std::numeric_limits<double>::quiet_NaN();

struct SegmentReport {
  std::string object;
  double t0 = 0, t1 = 0;
  SegmentStatus status = SegmentStatus::free;
  // collides: the first contact time found (within the time tolerance) and what touches;
  // undecided: where the check stopped. NaN / empty / nullopt otherwise.
  double t_hit = kNotComputed;
  std::string with;
  std::optional<TrianglePair> pair;
  double min_distance = kNotComputed;    // least distance seen in the segment (NaN: not computed)
  double min_distance_t = kNotComputed;  // when, and to which item
  std::string min_distance_with;
  std::uint64_t steps = 0;  // queries the segment's check ran
  double time_us = 0;
};

enum class SampleKind { waypoint, step };

struct WaypointReport {
  std::string object;
  double t = 0;
  SampleKind kind = SampleKind::waypoint;
  bool collides = false;
  std::string with;  // the first item found touching (empty when free)
  std::optional<TrianglePair> pair;
  double min_distance = kNotComputed;
  double time_us = 0;
};

// A distance sample along the path for the plot (waypoints, steps and continuous steps).
struct PathSample {
  std::uint32_t object = 0;  // index into PathReport::objects
  double t = 0;
  double distance = kNotComputed;  // least distance to everything checked (0 when touching)
  double time_us = 0;              // the query's time
  bool collides = false;
};

struct PathSummary {
  std::uint64_t segments = 0, free = 0, colliding = 0, undecided = 0;
  std::uint64_t waypoints = 0, colliding_waypoints = 0;
  bool continuous = false;
  double clearance = 0;
  double time_tolerance = 0;
  // The earliest collision (segment or waypoint), if any.
  std::optional<double> first_collision_t;
  std::string first_collision_object, first_collision_with;
  // The least distance seen (over the segments and the waypoints), where and between what.
  double worst_clearance = kNotComputed;
  double worst_clearance_t = kNotComputed;
  std::string worst_clearance_object, worst_clearance_with;
  double time_s = 0;
  unsigned threads = 1;
};

struct PathReport {
  std::vector<std::string> objects;
  std::vector<SegmentReport> segments;    // by object, then time
  std::vector<WaypointReport> waypoints;  // by object, then time
  std::vector<PathSample> samples;        // by object, then time
  PathSummary summary;
};

enum class ReportFormat { json, csv };

// From the extension (.json or .csv, case-insensitive); IoError otherwise.
ReportFormat report_format_from_path(const std::string& path);

// Writes the report; IoError naming the file if it cannot be written.
void write_path_report(const PathReport& report, const std::string& path);
// Into `file` (.json or .csv by its name), which the caller commits (write_outputs_atomic).
void write_path_report(const PathReport& report, AtomicFileWriter& file);

// The least-distance curve the plot draws for objects[object], by time: every sample's distance
// (0 for a touching sample without one), and every segment's least distance at the time it was
// found (min_distance_t, or t_hit at a contact), which a sweep or an advancement finds between
// samples: without those, a collision between two samples would not reach 0 on the curve.
// time_us of the segments' points is NaN.
std::vector<PathSample> least_distance_curve(const PathReport& report, std::uint32_t object);

// The plot, 1200 x 700 px: query time and least distance along the path in two panels sharing the
// time axis (Klosowski et al. 1998, Fig. 3 style), one line per object, collisions marked; .svg or
// .png (cairo) by extension, IoError otherwise. Layout: io/path_plot.cpp.
void write_path_plot(const PathReport& report, const std::string& path);
// Into `file`, which the caller commits (write_outputs_atomic).
void write_path_plot(const PathReport& report, AtomicFileWriter& file);

}  // namespace kdop
