// Path reports (JSON parsed back, exact CSV text, atomic writes) and path plots (valid SVG and
// PNG files, also for degenerate reports).
#include "io/path_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "io/io_error.hpp"
#include "tests/support/reader_checks.hpp"
#include "tests/support/scratch_dir.hpp"

namespace kdop {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using Json = nlohmann::ordered_json;

// Two objects, one segment of each status, a colliding waypoint and a free step; doubles that
// that need all 17 digits to read back, and 0.1, which needs one.
SegmentReport segment(std::string object, double t0, double t1, SegmentStatus status) {
  SegmentReport s;
  s.object = std::move(object);
  s.t0 = t0;
  s.t1 = t1;
  s.status = status;
  return s;
}

PathReport sample_report() {
  PathReport r;
  r.objects = {"tool", "holder, \"HSK\""};
  SegmentReport& free = r.segments.emplace_back(segment("tool", 0, 0.1 + 0.2, SegmentStatus::free));
  free.min_distance = 1.0 / 3.0;
  free.min_distance_t = 0.1;
  free.min_distance_with = "vise, \"left\"";
  free.steps = 4;
  free.time_us = 12.3456;
  SegmentReport& hit = r.segments.emplace_back(
      segment("holder, \"HSK\"", 0.1 + 0.2, 1e-300, SegmentStatus::collides));
  hit.t_hit = 0.7000000000000001;
  hit.with = "fixture\nA";
  hit.pair = TrianglePair{7, 4294967295u};
  hit.min_distance = 0;
  hit.steps = 18446744073709551615u;
  hit.time_us = 0.0004;
  SegmentReport& undecided =
      r.segments.emplace_back(segment("tool", 1, 2, SegmentStatus::undecided));
  undecided.t_hit = 1.25;
  undecided.steps = 1000;
  undecided.time_us = 5;
  WaypointReport& touching = r.waypoints.emplace_back();
  touching.object = "tool";
  touching.t = 0.5;
  touching.collides = true;
  touching.with = "part";
  touching.pair = TrianglePair{1, 2};
  touching.min_distance = 0;
  touching.time_us = 3.5;
  WaypointReport& step = r.waypoints.emplace_back();
  step.object = "tool";
  step.t = 0.75;
  step.kind = SampleKind::step;
  step.time_us = 1;
  r.samples = {{0, 0, 2.5, 10, false},  {0, 0.5, 0, 40, true},  {0, 1, kNotComputed, 12, false},
               {1, 0, 1.5, 200, false}, {1, 0.7, 0, 900, true}, {1, 1, 0.25, 150, false}};
  PathSummary& s = r.summary;
  s.segments = 3;
  s.free = 1;
  s.colliding = 1;
  s.undecided = 1;
  s.waypoints = 2;
  s.colliding_waypoints = 1;
  s.continuous = true;
  s.clearance = 0.05;
  s.time_tolerance = 1e-9;
  s.first_collision_t = 0.5;
  s.first_collision_object = "tool";
  s.first_collision_with = "part";
  s.worst_clearance = 0;
  s.worst_clearance_t = 0.5;
  s.worst_clearance_object = "tool";
  s.worst_clearance_with = "part";
  s.time_s = 0.012345678901234567;
  s.threads = 8;
  return r;
}

std::vector<std::string> keys(const Json& object) {
  std::vector<std::string> out;
  for (const auto& item : object.items()) out.push_back(item.key());
  return out;
}

class PathReportFiles : public test::ScratchDirTest {};

TEST(PathReportFormat, FromExtension) {
  EXPECT_EQ(report_format_from_path("out/p.json"), ReportFormat::json);
  EXPECT_EQ(report_format_from_path("P.CSV"), ReportFormat::csv);
  EXPECT_EQ(test::io_error_of([] { report_format_from_path("p.txt"); }),
            "p.txt: unknown extension '.txt' (expected .json or .csv)");
  EXPECT_EQ(test::io_error_of([] { report_format_from_path("report"); }),
            "report: no file extension (expected .json or .csv)");
}

TEST(PathReportStatus, Names) {
  EXPECT_STREQ(to_string(SegmentStatus::free), "free");
  EXPECT_STREQ(to_string(SegmentStatus::collides), "collides");
  EXPECT_STREQ(to_string(SegmentStatus::undecided), "undecided");
}

TEST_F(PathReportFiles, JsonRoundTrip) {
  const PathReport r = sample_report();
  const auto path = dir_ / "p.json";
  write_path_report(r, path.string());
  const Json j = Json::parse(slurp(path));

  EXPECT_EQ(keys(j), (std::vector<std::string>{"segments", "waypoints", "summary"}));
  ASSERT_EQ(j["segments"].size(), 3u);
  for (const Json& s : j["segments"]) {
    EXPECT_EQ(keys(s), (std::vector<std::string>{"object", "t0", "t1", "status", "t_hit", "with",
                                                 "pair", "min_distance", "steps", "time_us",
                                                 "min_distance_t", "min_distance_with"}));
  }
  const Json& free = j["segments"][0];
  EXPECT_EQ(free["object"], "tool");
  EXPECT_EQ(free["t1"].get<double>(), 0.1 + 0.2);
  EXPECT_EQ(free["status"], "free");
  EXPECT_TRUE(free["t_hit"].is_null());
  EXPECT_TRUE(free["with"].is_null());
  EXPECT_TRUE(free["pair"].is_null());
  EXPECT_EQ(free["min_distance"].get<double>(), 1.0 / 3.0);
  EXPECT_EQ(free["steps"], 4);
  EXPECT_EQ(free["time_us"].get<double>(), 12.3456);
  EXPECT_EQ(free["min_distance_t"].get<double>(), 0.1);
  EXPECT_EQ(free["min_distance_with"], "vise, \"left\"");

  const Json& hit = j["segments"][1];
  EXPECT_EQ(hit["object"], "holder, \"HSK\"");
  EXPECT_EQ(hit["t1"].get<double>(), 1e-300);
  EXPECT_EQ(hit["status"], "collides");
  EXPECT_EQ(hit["t_hit"].get<double>(), 0.7000000000000001);
  EXPECT_EQ(hit["with"], "fixture\nA");
  EXPECT_EQ(hit["pair"], Json::array({7, 4294967295u}));
  EXPECT_EQ(hit["min_distance"].get<double>(), 0.0);
  EXPECT_EQ(hit["steps"].get<std::uint64_t>(), 18446744073709551615u);
  EXPECT_EQ(hit["time_us"].get<double>(), 0.0004);

  const Json& undecided = j["segments"][2];
  EXPECT_EQ(undecided["status"], "undecided");
  EXPECT_EQ(undecided["t_hit"].get<double>(), 1.25);
  EXPECT_TRUE(undecided["with"].is_null());
  EXPECT_TRUE(undecided["min_distance"].is_null());
  EXPECT_TRUE(undecided["min_distance_t"].is_null());
  EXPECT_TRUE(undecided["min_distance_with"].is_null());

  ASSERT_EQ(j["waypoints"].size(), 2u);
  for (const Json& w : j["waypoints"]) {
    EXPECT_EQ(keys(w), (std::vector<std::string>{"object", "t", "kind", "collides", "with", "pair",
                                                 "min_distance", "time_us"}));
  }
  EXPECT_EQ(j["waypoints"][0]["kind"], "waypoint");
  EXPECT_EQ(j["waypoints"][0]["collides"], true);
  EXPECT_EQ(j["waypoints"][0]["with"], "part");
  EXPECT_EQ(j["waypoints"][0]["pair"], Json::array({1, 2}));
  EXPECT_EQ(j["waypoints"][1]["kind"], "step");
  EXPECT_EQ(j["waypoints"][1]["collides"], false);
  EXPECT_TRUE(j["waypoints"][1]["with"].is_null());
  EXPECT_TRUE(j["waypoints"][1]["pair"].is_null());
  EXPECT_TRUE(j["waypoints"][1]["min_distance"].is_null());

  const Json& s = j["summary"];
  EXPECT_EQ(keys(s), (std::vector<std::string>{"segments", "free", "colliding", "undecided",
                                               "waypoints", "colliding_waypoints", "continuous",
                                               "clearance", "time_tolerance", "first_collision",
                                               "worst_clearance", "time_s", "threads"}));
  EXPECT_EQ(s["segments"], 3);
  EXPECT_EQ(s["free"], 1);
  EXPECT_EQ(s["colliding"], 1);
  EXPECT_EQ(s["undecided"], 1);
  EXPECT_EQ(s["waypoints"], 2);
  EXPECT_EQ(s["colliding_waypoints"], 1);
  EXPECT_EQ(s["continuous"], true);
  EXPECT_EQ(s["clearance"].get<double>(), 0.05);
  EXPECT_EQ(s["time_tolerance"].get<double>(), 1e-9);
  EXPECT_EQ(s["first_collision"], Json::parse(R"({"t": 0.5, "object": "tool", "with": "part"})"));
  EXPECT_EQ(s["worst_clearance"],
            Json::parse(R"({"distance": 0.0, "t": 0.5, "object": "tool", "with": "part"})"));
  EXPECT_EQ(s["time_s"].get<double>(), 0.012345678901234567);
  EXPECT_EQ(s["threads"], 8);
  EXPECT_FALSE(j.contains("samples"));
  EXPECT_EQ(entries(), 1);  // no temporary left beside it
}

TEST_F(PathReportFiles, JsonNullsForMissingValues) {
  PathReport r;
  r.segments.push_back(
      segment("a", 0, std::numeric_limits<double>::infinity(), SegmentStatus::free));
  r.summary.time_s = kNotComputed;
  const auto path = dir_ / "empty.json";
  write_path_report(r, path.string());
  const Json j = Json::parse(slurp(path));
  EXPECT_TRUE(j["segments"][0]["t1"].is_null());
  EXPECT_TRUE(j["waypoints"].is_array());
  EXPECT_TRUE(j["waypoints"].empty());
  EXPECT_TRUE(j["summary"]["first_collision"].is_null());
  EXPECT_TRUE(j["summary"]["worst_clearance"].is_null());
  EXPECT_TRUE(j["summary"]["time_s"].is_null());
  EXPECT_EQ(j["summary"]["continuous"], false);
}

TEST_F(PathReportFiles, CsvExactText) {
  const auto path = dir_ / "p.csv";
  write_path_report(sample_report(), path.string());
  EXPECT_EQ(slurp(path),
            "object,t0,t1,status,t_hit,with,object_triangle,with_triangle,min_distance,steps,"
            "time_us,min_distance_t,min_distance_with\n"
            "tool,0,0.30000000000000004,free,,,,,0.3333333333333333,4,12.346,"
            "0.1,\"vise, \"\"left\"\"\"\n"
            "\"holder, \"\"HSK\"\"\",0.30000000000000004,1e-300,collides,"
            "0.7000000000000001,\"fixture\nA\",7,4294967295,0,18446744073709551615,0.000,,\n"
            "tool,1,2,undecided,1.25,,,,,1000,5.000,,\n");
}

TEST_F(PathReportFiles, CsvOfNoSegmentsIsTheHeader) {
  const auto path = dir_ / "p.csv";
  write_path_report(PathReport{}, path.string());
  EXPECT_EQ(slurp(path),
            "object,t0,t1,status,t_hit,with,object_triangle,with_triangle,min_distance,steps,"
            "time_us,min_distance_t,min_distance_with\n");
}

TEST_F(PathReportFiles, ReplacesAnExistingFile) {
  const auto path = dir_ / "p.csv";
  { std::ofstream(path) << "old contents that are longer than the new ones\n"; }
  write_path_report(PathReport{}, path.string());
  EXPECT_THAT(slurp(path), StartsWith("object,t0,"));
  EXPECT_EQ(entries(), 1);
}

TEST_F(PathReportFiles, UnwritableTargetThrowsAndLeavesNothing) {
  const std::string missing = (dir_ / "no_such_dir" / "p.json").string();
  EXPECT_THAT(test::io_error_of([&] { write_path_report(sample_report(), missing); }),
              StartsWith(missing + ": cannot create " + missing + ".tmp."));
  // A folder in the way is refused before anything is written.
  std::filesystem::create_directories(dir_ / "taken.csv" / "child");
  const std::string taken = (dir_ / "taken.csv").string();
  EXPECT_EQ(test::io_error_of([&] { write_path_report(sample_report(), taken); }),
            taken + ": is a folder, expected a file");
  EXPECT_EQ(entries(), 1);  // only taken.csv/
  // A bad extension is reported before anything is created.
  const std::string txt = (dir_ / "p.txt").string();
  EXPECT_THAT(test::io_error_of([&] { write_path_report(sample_report(), txt); }),
              HasSubstr("unknown extension '.txt'"));
  EXPECT_EQ(entries(), 1);
}

// ---- plots -----------------------------------------------------------------------------------

class PathPlotFiles : public PathReportFiles {
 protected:
  // Width and height from a PNG's IHDR chunk; fails the test if the signature is wrong.
  static std::pair<std::uint32_t, std::uint32_t> png_size(const std::string& png) {
    EXPECT_THAT(png, StartsWith(std::string("\x89PNG\r\n\x1a\n", 8)));
    EXPECT_GE(png.size(), 24u);
    if (png.size() < 24) return {0, 0};
    EXPECT_EQ(png.substr(12, 4), "IHDR");
    const auto be32 = [&](std::size_t at) {
      std::uint32_t v = 0;
      for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
      return v;
    };
    return {be32(16), be32(20)};
  }

  static void expect_svg(const std::string& svg) {
    EXPECT_TRUE(svg.starts_with("<?xml") || svg.starts_with("<svg")) << svg.substr(0, 40);
    EXPECT_THAT(svg, HasSubstr("</svg>"));
  }
};

// The plot's distance curve: the samples', then each segment's least distance where it was found.
TEST(LeastDistanceCurve, SamplesAndSegmentsByTime) {
  const PathReport r = sample_report();
  const std::vector<PathSample> tool = least_distance_curve(r, 0);
  ASSERT_EQ(tool.size(), 3u);  // the sample without a distance is left out, the undecided too
  EXPECT_EQ(tool[0].t, 0);
  EXPECT_EQ(tool[0].distance, 2.5);
  EXPECT_EQ(tool[1].t, 0.1);  // the free segment's least distance, between samples
  EXPECT_EQ(tool[1].distance, 1.0 / 3.0);
  EXPECT_FALSE(tool[1].collides);
  EXPECT_TRUE(std::isnan(tool[1].time_us));
  EXPECT_EQ(tool[2].t, 0.5);
  EXPECT_EQ(tool[2].distance, 0);
  const std::vector<PathSample> holder = least_distance_curve(r, 1);
  ASSERT_EQ(holder.size(), 4u);
  EXPECT_EQ(holder[1].t, 0.7);                 // the sample
  EXPECT_EQ(holder[2].t, 0.7000000000000001);  // the contact, at t_hit
  EXPECT_EQ(holder[2].distance, 0);
  EXPECT_TRUE(holder[2].collides);
  EXPECT_TRUE(least_distance_curve(r, 2).empty());
}

TEST_F(PathPlotFiles, SvgNamesTheObjects) {
  const auto path = dir_ / "plot.svg";
  write_path_plot(sample_report(), path.string());
  const std::string svg = slurp(path);
  expect_svg(svg);
  EXPECT_THAT(svg, HasSubstr("tool"));
  EXPECT_THAT(svg, HasSubstr("holder, &quot;HSK&quot;"));  // XML-escaped
  EXPECT_THAT(svg, HasSubstr("3 segments: 1 free, 1 collides, 1 undecided"));
  EXPECT_EQ(entries(), 1);
}

TEST_F(PathPlotFiles, PngHasTheSize) {
  const auto path = dir_ / "plot.PNG";
  write_path_plot(sample_report(), path.string());
  EXPECT_EQ(png_size(slurp(path)), std::make_pair(1200u, 700u));
  EXPECT_EQ(entries(), 1);
}

TEST_F(PathPlotFiles, OtherExtensionsThrow) {
  const std::string pdf = (dir_ / "plot.pdf").string();
  EXPECT_EQ(test::io_error_of([&] { write_path_plot(sample_report(), pdf); }),
            pdf + ": unknown extension '.pdf' (expected .svg or .png)");
  const std::string bare = (dir_ / "plot").string();
  EXPECT_EQ(test::io_error_of([&] { write_path_plot(sample_report(), bare); }),
            bare + ": no file extension (expected .svg or .png)");
  EXPECT_EQ(entries(), 0);
}

TEST_F(PathPlotFiles, UnwritableTargetThrowsAndLeavesNothing) {
  const std::string missing = (dir_ / "no_such_dir" / "plot.png").string();
  EXPECT_THAT(test::io_error_of([&] { write_path_plot(sample_report(), missing); }),
              StartsWith(missing + ": cannot create "));
  std::filesystem::create_directories(dir_ / "taken.svg" / "child");
  const std::string taken = (dir_ / "taken.svg").string();
  EXPECT_EQ(test::io_error_of([&] { write_path_plot(sample_report(), taken); }),
            taken + ": is a folder, expected a file");
  EXPECT_EQ(entries(), 1);
}

// Reports a plot must survive: each gives a valid PNG and SVG.
std::vector<std::pair<std::string, PathReport>> degenerate_reports() {
  std::vector<std::pair<std::string, PathReport>> out;
  out.emplace_back("empty", PathReport{});
  PathReport one;
  one.objects = {"a"};
  one.samples = {{0, 3, 1, 5, false}};
  out.emplace_back("single_sample", one);
  PathReport nan = sample_report();
  for (PathSample& s : nan.samples) s.distance = kNotComputed;
  out.emplace_back("all_distances_nan", nan);
  PathReport same_t = sample_report();
  for (PathSample& s : same_t.samples) s.t = 7;
  for (SegmentReport& s : same_t.segments) s.t0 = s.t1 = s.t_hit = 7;
  out.emplace_back("all_t_equal", same_t);
  PathReport huge = sample_report();
  const double big = std::numeric_limits<double>::max();
  huge.samples.push_back({0, -big, big, big, true});
  huge.samples.push_back({1, big, std::numeric_limits<double>::denorm_min(), 0, false});
  huge.samples.push_back({5, std::numeric_limits<double>::infinity(), -1, -1, true});
  huge.segments.push_back(segment("x", -big, big, SegmentStatus::collides));
  huge.segments.back().t_hit = big;
  huge.summary.clearance = big;
  out.emplace_back("huge_values", huge);
  PathReport tiny = sample_report();
  for (PathSample& s : tiny.samples) {
    s.t = 1e-310 * (1 + s.t);
    s.distance *= 1e-300;
    s.time_us *= 1e-250;
  }
  tiny.segments.clear();
  out.emplace_back("tiny_values", tiny);
  PathReport bad_text;
  bad_text.objects = {"\xff\xfe bad \x01 utf-8 \xe2\x82", std::string(500, 'n')};
  bad_text.samples = {{0, 0, 1, 1, false}, {1, 1, 2, 2, false}, {9, 2, 3, 3, true}};
  bad_text.summary.first_collision_t = 2;
  bad_text.summary.first_collision_object = "\xc0\x80";
  out.emplace_back("bad_text", bad_text);
  return out;
}

TEST_F(PathPlotFiles, DegenerateReportsGiveValidFiles) {
  for (const auto& [name, report] : degenerate_reports()) {
    SCOPED_TRACE(name);
    const auto png = dir_ / (name + ".png");
    const auto svg = dir_ / (name + ".svg");
    ASSERT_NO_THROW(write_path_plot(report, png.string()));
    ASSERT_NO_THROW(write_path_plot(report, svg.string()));
    EXPECT_EQ(png_size(slurp(png)), std::make_pair(1200u, 700u));
    expect_svg(slurp(svg));
  }
}

}  // namespace
}  // namespace kdop
