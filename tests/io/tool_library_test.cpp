// Tool libraries: kdop's form for every shape and unit, CAMotics projects and tables, and every
// malformed-input message (each must name the file and the key path).
#include "io/tool_library.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include "io/io_error.hpp"
#include "tests/support/reader_checks.hpp"
#include "tests/support/scratch_dir.hpp"

namespace kdop {
namespace {

using test::io_error_of;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

ToolLibrary parse(const std::string& text, const std::string& name = "tools.json") {
  return parse_tool_library(text, name);
}

std::string error(const std::string& text, const std::string& name = "tools.json") {
  return io_error_of([&] { parse(text, name); });
}

// A library with one tool numbered 1 holding `fields`.
std::string one_tool(const std::string& fields) {
  return R"({"units": "mm", "tools": {"1": {)" + fields + "}}}";
}

// The message for tool 1 with a 6 mm `shape` cutter, 20 cutting, 50 long, plus `extra`.
std::string tool_error(const std::string& shape, const std::string& extra) {
  return error(one_tool(R"("shape": ")" + shape +
                        R"(", "diameter": 6, "cutting_length": 20, "length": 50)" + extra));
}

double degrees(double radians) {
  return radians * 180 / std::numbers::pi;
}

TEST(ToolLibrary, ReadsEveryShapeInMm) {
  const ToolLibrary lib = parse(R"({"units": "mm", "tools": {
    "1": {"shape": "flat", "diameter": 6, "corner_radius": 0, "included_angle": 90,
          "cutting_length": 20, "shank_diameter": 6, "length": 50,
          "holder": [{"height": 20, "lower_diameter": 30, "upper_diameter": 40}],
          "name": "6 mm flat"},
    "2": {"shape": "ball", "diameter": 8, "cutting_length": 16, "length": 40,
          "corner_radius": 4, "gauge_length": 100, "description": "ball"},
    "3": {"shape": "bull", "diameter": 10, "corner_radius": 1.5, "cutting_length": 25,
          "shank_diameter": 12, "length": 60,
          "holder": [{"height": 10, "lower_diameter": 20, "upper_diameter": 20},
                     {"height": 30, "lower_diameter": 25, "upper_diameter": 45}]},
    "17": {"shape": "cone", "diameter": 12, "included_angle": 60, "tip_diameter": 0.2,
           "cutting_length": 15, "length": 45}}})");
  EXPECT_EQ(lib.file, "tools.json");
  EXPECT_EQ(lib.format, ToolLibraryFormat::kdop);
  ASSERT_EQ(lib.tools.size(), 4u);

  const ToolSpec& flat = lib.tools.at(1);
  EXPECT_EQ(flat.number, 1);
  EXPECT_EQ(flat.name, "6 mm flat");
  EXPECT_EQ(flat.geometry.shape, CutterShape::kFlat);
  EXPECT_EQ(flat.geometry.diameter, 6);
  EXPECT_EQ(flat.geometry.corner_radius, 0);
  EXPECT_EQ(flat.geometry.included_angle, 0);  // only cones keep an angle
  EXPECT_EQ(flat.geometry.cutting_length, 20);
  EXPECT_EQ(flat.geometry.shank_diameter, 6);
  EXPECT_EQ(flat.geometry.length, 50);
  ASSERT_EQ(flat.geometry.holder.size(), 1u);
  EXPECT_EQ(flat.geometry.holder[0].height, 20);
  EXPECT_EQ(flat.geometry.holder[0].lower_diameter, 30);
  EXPECT_EQ(flat.geometry.holder[0].upper_diameter, 40);
  EXPECT_EQ(flat.gauge_length, 70);  // length + holder heights

  const ToolSpec& ball = lib.tools.at(2);
  EXPECT_EQ(ball.geometry.shape, CutterShape::kBall);
  EXPECT_EQ(ball.geometry.corner_radius, 0);
  EXPECT_EQ(ball.geometry.shank_diameter, 8);  // default: the diameter
  EXPECT_TRUE(ball.geometry.holder.empty());
  EXPECT_EQ(ball.gauge_length, 100);
  EXPECT_EQ(ball.description, "ball");

  const ToolSpec& bull = lib.tools.at(3);
  EXPECT_EQ(bull.geometry.shape, CutterShape::kBullNose);
  EXPECT_EQ(bull.geometry.corner_radius, 1.5);
  EXPECT_EQ(bull.geometry.shank_diameter, 12);
  ASSERT_EQ(bull.geometry.holder.size(), 2u);
  EXPECT_EQ(bull.geometry.holder[1].upper_diameter, 45);
  EXPECT_EQ(bull.gauge_length, 100);

  const ToolSpec& cone = lib.tools.at(17);
  EXPECT_EQ(cone.number, 17);
  EXPECT_EQ(cone.geometry.shape, CutterShape::kCone);
  EXPECT_EQ(cone.geometry.included_angle, 60);
  EXPECT_EQ(cone.geometry.tip_diameter, 0.2);
  EXPECT_EQ(cone.gauge_length, 45);

  // The geometry layer accepts what the reader accepted.
  for (const auto& [n, tool] : lib.tools) EXPECT_NO_THROW(make_tool(tool.geometry)) << n;
}

TEST(ToolLibrary, ConvertsInchAndHonoursPerToolUnits) {
  const ToolLibrary lib = parse(R"({"units": "inch", "tools": {
    "1": {"shape": "bull", "diameter": 0.5, "corner_radius": 0.125, "cutting_length": 1,
          "length": 2, "holder": [{"height": 1, "lower_diameter": 1, "upper_diameter": 1.5}]},
    "2": {"units": "mm", "shape": "flat", "diameter": 6, "cutting_length": 20, "length": 50}}})");
  const ToolSpec& t1 = lib.tools.at(1);
  EXPECT_EQ(t1.geometry.diameter, 12.7);
  EXPECT_EQ(t1.geometry.corner_radius, 0.125 * 25.4);
  EXPECT_EQ(t1.geometry.cutting_length, 25.4);
  EXPECT_EQ(t1.geometry.length, 50.8);
  EXPECT_EQ(t1.geometry.shank_diameter, 12.7);
  EXPECT_EQ(t1.geometry.holder[0].height, 25.4);
  EXPECT_EQ(t1.geometry.holder[0].upper_diameter, 1.5 * 25.4);
  EXPECT_EQ(t1.gauge_length, 50.8 + 25.4);
  EXPECT_EQ(lib.tools.at(2).geometry.diameter, 6);  // its own units
  // The file's default units are mm.
  EXPECT_EQ(parse(R"({"tools": {"1": {"shape": "flat", "diameter": 6, "cutting_length": 2,
                                       "length": 5}}})")
                .tools.at(1)
                .geometry.diameter,
            6);
}

TEST(ToolLibrary, BoundaryValuesAreAccepted) {
  // Corner radius exactly diameter/2, cutting length exactly the length, a 180-degree angle on
  // a flat tool, a ball cutting exactly its radius, a ball stating its corner radius.
  EXPECT_NO_THROW(parse(one_tool(R"("shape": "bull", "diameter": 6, "corner_radius": 3,
                                     "cutting_length": 50, "length": 50)")));
  EXPECT_NO_THROW(parse(one_tool(R"("shape": "flat", "diameter": 6, "included_angle": 180,
                                     "cutting_length": 2, "length": 50)")));
  EXPECT_NO_THROW(parse(one_tool(R"("shape": "ball", "diameter": 6, "corner_radius": 3,
                                     "cutting_length": 3, "length": 50)")));
  // A shank wider than the holder face is allowed (a union of solids; see the header).
  EXPECT_NO_THROW(parse(one_tool(R"("shape": "flat", "diameter": 6, "cutting_length": 2,
                                     "shank_diameter": 40, "length": 50,
                                     "holder": [{"height": 5, "lower_diameter": 30,
                                                 "upper_diameter": 30}])")));
}

TEST(ToolLibrary, MalformedJsonNamesTheByte) {
  const std::string truncated = R"({"tools": {"1": {"shape": "flat")";
  EXPECT_THAT(error(truncated), StartsWith("tools.json: byte " + std::to_string(truncated.size()) +
                                           ": JSON parse error"));
  EXPECT_THAT(error(R"({"tools": {"1": {}, "1": {}}})"),
              StartsWith("tools.json: tools.1: duplicate key '1'"));
  EXPECT_THAT(error(one_tool(R"("shape": "flat", "diameter": 1e400)")),
              AllOf(StartsWith("tools.json: byte "),
                    HasSubstr(": tools.1.diameter: expected a number within double's range")));
  EXPECT_EQ(error("[1, 2]"), "tools.json: expected a JSON object at the top level, got array");
}

TEST(ToolLibrary, RejectsBadKeysAndTypes) {
  EXPECT_THAT(error(R"({"units": "mm", "tool": {}})"),
              StartsWith("tools.json: unknown key 'tool' (expected units, tools)"));
  EXPECT_EQ(error(R"({"units": "mm"})"), "tools.json: missing key 'tools'");
  EXPECT_EQ(error(R"({"tools": {}})"),
            "tools.json: tools: expected at least one tool, got an empty object");
  EXPECT_EQ(error(R"({"tools": [1]})"), "tools.json: tools: expected an object, got array");
  EXPECT_EQ(error(R"({"units": "cm", "tools": {}})"),
            "tools.json: units: expected \"mm\" or \"inch\", got \"cm\"");
  EXPECT_THAT(tool_error("flat", R"(, "diamter": 6)"),
              StartsWith("tools.json: tools.1: unknown key 'diamter' (expected shape, diameter,"));
  EXPECT_EQ(error(one_tool(R"("shape": "flat", "diameter": "6")")),
            "tools.json: tools.1.diameter: expected a number, got string");
  EXPECT_EQ(error(one_tool(R"("shape": "flat", "diameter": "NaN")")),
            "tools.json: tools.1.diameter: expected a number, got string");
  EXPECT_EQ(error(one_tool(R"("shape": "flat", "diameter": null)")),
            "tools.json: tools.1.diameter: expected a number, got null");
  EXPECT_EQ(error(one_tool(R"("shape": 1)")),
            "tools.json: tools.1.shape: expected a string, got number");
  EXPECT_EQ(error(one_tool(R"("shape": "drill")")),
            "tools.json: tools.1.shape: expected \"flat\", \"ball\", \"bull\", \"cone\" or "
            "\"composite\", got \"drill\"");
  EXPECT_EQ(error(one_tool(R"("diameter": 6)")), "tools.json: tools.1: missing key 'shape'");
  EXPECT_EQ(error(one_tool(R"("shape": "flat", "diameter": 6, "length": 5)")),
            "tools.json: tools.1: missing key 'cutting_length'");
  EXPECT_EQ(tool_error("flat", R"(, "units": "feet")"),
            "tools.json: tools.1.units: expected \"mm\" or \"inch\", got \"feet\"");
  EXPECT_EQ(tool_error("flat", R"(, "name": "")"),
            "tools.json: tools.1.name: expected a non-empty string");
  EXPECT_EQ(tool_error("flat", R"(, "description": 3)"),
            "tools.json: tools.1.description: expected a string, got number");
}

TEST(ToolLibrary, RejectsBadSizes) {
  EXPECT_EQ(error(one_tool(R"("shape": "flat", "diameter": -6)")),
            "tools.json: tools.1.diameter: must be > 0 (got -6)");
  EXPECT_EQ(error(one_tool(R"("shape": "flat", "diameter": 0)")),
            "tools.json: tools.1.diameter: must be > 0 (got 0)");
  EXPECT_EQ(error(one_tool(R"("shape": "flat", "diameter": 1e300)")),
            "tools.json: tools.1.diameter: must be at most 100000 mm (got 1e+300)");
  EXPECT_EQ(error(R"({"units": "inch", "tools": {"1": {"shape": "flat", "diameter": 4000}}})"),
            "tools.json: tools.1.diameter: must be at most 100000 mm (got 4000 inch)");
  EXPECT_EQ(error(one_tool(R"("shape": "flat", "diameter": 6, "cutting_length": 60,
                               "length": 50)")),
            "tools.json: tools.1.cutting_length: must be at most length = 50 (got 60)");
  EXPECT_EQ(tool_error("flat", R"(, "shank_diameter": -1)"),
            "tools.json: tools.1.shank_diameter: must be > 0 (got -1)");
  EXPECT_EQ(tool_error("flat", R"(, "gauge_length": 0)"),
            "tools.json: tools.1.gauge_length: must be > 0 (got 0)");
}

TEST(ToolLibrary, RejectsShapeInconsistencies) {
  EXPECT_EQ(tool_error("bull", ""), "tools.json: tools.1: missing key 'corner_radius'");
  EXPECT_EQ(error(R"({"tools": {"3": {"shape": "bull", "diameter": 6, "corner_radius": 4,
                                      "cutting_length": 20, "length": 50}}})"),
            "tools.json: tools.3.corner_radius: must be at most diameter/2 = 3 (got 4)");
  EXPECT_EQ(tool_error("bull", R"(, "corner_radius": 0)"),
            "tools.json: tools.1.corner_radius: must be > 0 (got 0)");
  EXPECT_EQ(error(one_tool(R"("shape": "bull", "diameter": 6, "corner_radius": 2,
                               "cutting_length": 1, "length": 50)")),
            "tools.json: tools.1.cutting_length: must be at least corner_radius = 2 (the corner "
            "is part of the cutter; got 1)");
  EXPECT_EQ(error(one_tool(R"("shape": "ball", "diameter": 6, "cutting_length": 2,
                               "length": 50)")),
            "tools.json: tools.1.cutting_length: must be at least diameter/2 = 3 (the ball is "
            "part of the cutter; got 2)");
  EXPECT_EQ(tool_error("ball", R"(, "corner_radius": 1)"),
            "tools.json: tools.1.corner_radius: a ball's corner radius is diameter/2 = 3 (or "
            "leave it 0), got 1");
  EXPECT_EQ(tool_error("flat", R"(, "corner_radius": 1)"),
            "tools.json: tools.1.corner_radius: must be 0 for shape \"flat\" (a rounded corner is "
            "shape \"bull\"), got 1");
  EXPECT_EQ(tool_error("cone", ""), "tools.json: tools.1: missing key 'included_angle'");
  EXPECT_EQ(tool_error("cone", R"(, "included_angle": 180)"),
            "tools.json: tools.1.included_angle: must be in (0, 180) degrees (got 180)");
  EXPECT_EQ(tool_error("cone", R"(, "included_angle": 0)"),
            "tools.json: tools.1.included_angle: must be in (0, 180) degrees (got 0)");
  EXPECT_EQ(tool_error("flat", R"(, "included_angle": 200)"),
            "tools.json: tools.1.included_angle: must be in (0, 180] degrees (got 200)");
  EXPECT_EQ(tool_error("cone", R"(, "included_angle": 90, "tip_diameter": 6)"),
            "tools.json: tools.1.tip_diameter: must be in [0, diameter) = [0, 6) (got 6)");
  EXPECT_EQ(tool_error("flat", R"(, "tip_diameter": 1)"),
            "tools.json: tools.1.tip_diameter: only shape \"cone\" has a tip diameter");
}

// Composite outlines: the profile from the tip up, in the tool's units; the diameter and cutting
// length are its top's (optional, and checked when stated).
TEST(ToolLibrary, ReadsCompositeProfiles) {
  const ToolLibrary lib = parse(R"({"units": "inch", "tools": {
    "4": {"shape": "composite", "profile": [[0, 0.1], [0.05, 0.15], [0.5, 0.2], [1, 0.2]],
          "length": 2},
    "5": {"shape": "composite", "profile": [[0, 0], [0.1, 0.1], [1, 0.25]], "diameter": 0.5,
          "cutting_length": 1, "length": 2, "units": "mm"}}})");
  const ToolParameters& a = lib.tools.at(4).geometry;
  EXPECT_EQ(a.shape, CutterShape::kComposite);
  ASSERT_EQ(a.profile.size(), 4u);
  EXPECT_DOUBLE_EQ(a.profile[1].z, 0.05 * 25.4);
  EXPECT_DOUBLE_EQ(a.profile[1].r, 0.15 * 25.4);
  EXPECT_DOUBLE_EQ(a.diameter, 0.4 * 25.4);
  EXPECT_DOUBLE_EQ(a.cutting_length, 25.4);
  EXPECT_DOUBLE_EQ(lib.tools.at(5).geometry.diameter, 0.5);
}

TEST(ToolLibrary, RejectsBadCompositeProfiles) {
  const auto composite = [](const std::string& profile, const std::string& extra = "") {
    return error(
        one_tool(R"("shape": "composite", "profile": )" + profile + R"(, "length": 50)" + extra));
  };
  EXPECT_EQ(composite("[[0, 1], [5, 2], [6, 4], [20, 4]]"),
            "tools.json: tools.1.profile: a composite profile must be convex");
  EXPECT_EQ(composite("[[0, 0], [1e-320, 5], [10, 5]]"),
            "tools.json: tools.1.profile: a composite profile's segments must not be steeper than "
            "1e300");
  EXPECT_EQ(composite("[[0, 3], [10, 2]]"),
            "tools.json: tools.1.profile: a composite profile must not narrow upward");
  EXPECT_EQ(composite("[[1, 3], [10, 3]]"),
            "tools.json: tools.1.profile: a composite profile starts at the tip, z = 0");
  EXPECT_EQ(composite("[[0, 3], [0, 3]]"),
            "tools.json: tools.1.profile: profile heights must increase");
  EXPECT_EQ(composite("[[0, 3]]"),
            "tools.json: tools.1.profile: a composite profile needs at least 2 points");
  EXPECT_EQ(composite("[[0, 3], [10]]"),
            "tools.json: tools.1.profile[1]: expected [z, r] (height above the tip and radius), "
            "got [10]");
  EXPECT_EQ(composite("[[0, 3], [10, -3]]"),
            "tools.json: tools.1.profile: profile radius must be finite and >= 0");
  EXPECT_EQ(composite("[[0, 3], [10, 3]]", R"(, "diameter": 8)"),
            "tools.json: tools.1.diameter: must be the profile's top diameter = 6 (got 8)");
  EXPECT_EQ(composite("[[0, 3], [10, 3]]", R"(, "corner_radius": 1)"),
            "tools.json: tools.1.corner_radius: a composite cutter's outline is its profile (no "
            "corner radius)");
  EXPECT_THAT(error(one_tool(R"("shape": "composite", "length": 50)")),
              HasSubstr("tools.1: missing key 'profile'"));
}

TEST(ToolLibrary, RejectsBadHolders) {
  EXPECT_EQ(tool_error("flat", R"(, "holder": {"height": 1})"),
            "tools.json: tools.1.holder: expected an array, got object");
  EXPECT_EQ(tool_error("flat", R"(, "holder": [{"lower_diameter": 1, "upper_diameter": 1}])"),
            "tools.json: tools.1.holder[0]: missing key 'height'");
  EXPECT_EQ(tool_error("flat", R"(, "holder": [{"height": 1, "lower_diameter": 1,
                                                  "upper_diameter": 1},
                                                 {"height": 1, "lower_diameter": -2,
                                                  "upper_diameter": 1}])"),
            "tools.json: tools.1.holder[1].lower_diameter: must be > 0 (got -2)");
  EXPECT_THAT(tool_error("flat", R"(, "holder": [{"height": 1, "lower_diameter": 1,
                                                    "upper_diameter": 1, "angle": 3}])"),
              StartsWith("tools.json: tools.1.holder[0]: unknown key 'angle'"));
  std::string many;
  for (int i = 0; i < 65; ++i) {
    many +=
        std::string(i ? "," : "") + R"({"height": 1, "lower_diameter": 1, "upper_diameter": 1})";
  }
  EXPECT_EQ(tool_error("flat", R"(, "holder": [)" + many + "]"),
            "tools.json: tools.1.holder: more than 64 holder segments");
}

TEST(ToolLibrary, RejectsBadToolNumbers) {
  const std::string body = R"({"shape": "flat", "diameter": 6, "cutting_length": 2, "length": 5})";
  const auto with_key = [&](const std::string& key) {
    return error(R"({"tools": {")" + key + R"(": )" + body + "}}");
  };
  EXPECT_EQ(with_key("abc"),
            "tools.json: tools.abc: a tool number must be a positive integer, got key 'abc'");
  EXPECT_EQ(with_key("-1"),
            "tools.json: tools.-1: a tool number must be a positive integer, got key '-1'");
  EXPECT_EQ(with_key("1.5"),
            "tools.json: tools['1.5']: a tool number must be a positive integer, got key '1.5'");
  EXPECT_EQ(with_key("0"), "tools.json: tools.0: tool number 0 means no tool; numbers start at 1");
  EXPECT_EQ(with_key("2147483648"),
            "tools.json: tools.2147483648: tool number '2147483648' is above 2147483647");
  EXPECT_EQ(parse(R"({"tools": {"000000000000000000007": )" + body + "}}").tools.count(7), 1u);
  EXPECT_EQ(error(R"({"tools": {"1": )" + body + R"(, "01": )" + body + "}}"),
            "tools.json: tools.01: tool 1 twice (also tools.1)");
}

// ---- CAMotics ----------------------------------------------------------------------------------

class CamoticsTools : public test::ScratchDirTest {
 protected:
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const std::filesystem::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

// A project as CAMotics 1.2 saves it: project units, resolution, one tool per shape (the imperial
// one in inch), workpiece and files.
constexpr const char* kProject = R"({
  "units": "metric",
  "resolution-mode": "medium",
  "resolution": 0.214355,
  "tools": {
    "1": {"units": "metric", "shape": "cylindrical", "length": 12, "diameter": 3.175,
          "description": "1/8 end mill"},
    "2": {"units": "imperial", "shape": "ballnose", "length": 1, "diameter": 0.25,
          "description": ""},
    "3": {"units": "metric", "shape": "conical", "length": 5, "diameter": 10,
          "description": "90 deg V"},
    "4": {"units": "metric", "shape": "snubnose", "length": 4, "diameter": 6,
          "snub_diameter": 2, "description": "chamfer"}
  },
  "workpiece": {"automatic": false, "margin": 5,
                "bounds": {"min": [0, 0, -10], "max": [100, 50, 0]}},
  "files": ["part.nc"]
})";

TEST_F(CamoticsTools, ImportsAProjectFile) {
  const std::filesystem::path p = write("job.camotics", kProject);
  const ToolLibrary lib = read_tool_library(p.string());
  EXPECT_EQ(lib.format, ToolLibraryFormat::camotics_project);
  ASSERT_EQ(lib.tools.size(), 4u);

  const ToolSpec& flat = lib.tools.at(1);
  EXPECT_EQ(flat.geometry.shape, CutterShape::kFlat);
  EXPECT_EQ(flat.geometry.diameter, 3.175);
  EXPECT_EQ(flat.geometry.cutting_length, 12);
  EXPECT_EQ(flat.geometry.length, 12);  // no shank
  EXPECT_TRUE(flat.geometry.holder.empty());
  EXPECT_EQ(flat.gauge_length, 12);
  EXPECT_EQ(flat.description, "1/8 end mill");

  const ToolSpec& ball = lib.tools.at(2);
  EXPECT_EQ(ball.geometry.shape, CutterShape::kBall);
  EXPECT_EQ(ball.geometry.diameter, 0.25 * 25.4);
  EXPECT_EQ(ball.geometry.length, 25.4);

  // 10 mm wide over 5 mm: a 90-degree V.
  const ToolSpec& vee = lib.tools.at(3);
  EXPECT_EQ(vee.geometry.shape, CutterShape::kCone);
  EXPECT_NEAR(vee.geometry.included_angle, 90, 1e-12);
  EXPECT_EQ(vee.geometry.tip_diameter, 0);
  EXPECT_EQ(vee.geometry.cutting_length, 5);

  // From 2 mm to 6 mm over 4 mm: radius grows by 2 over 4, half-angle atan(1/2).
  const ToolSpec& snub = lib.tools.at(4);
  EXPECT_EQ(snub.geometry.shape, CutterShape::kCone);
  EXPECT_EQ(snub.geometry.tip_diameter, 2);
  EXPECT_NEAR(snub.geometry.included_angle, 2 * degrees(std::atan(0.5)), 1e-12);
  const double height =
      (3 - 1) / std::tan(snub.geometry.included_angle / 2 * std::numbers::pi / 180);
  EXPECT_NEAR(height, 4, 1e-12);

  for (const auto& [n, tool] : lib.tools) EXPECT_NO_THROW(make_tool(tool.geometry)) << n;
}

TEST_F(CamoticsTools, ImportsABareToolTableByContent) {
  const std::filesystem::path p = write("table.json", R"({
    "5": {"units": "mm", "shape": "Cylindrical", "length": 20, "diameter": 4, "number": 5},
    "6": {"shape": "cone", "length": 3, "diameter": 6},
    "7": {"shape": "snubnose", "length": 3, "diameter": 6, "snub_diameter": 6}})");
  const ToolLibrary lib = read_tool_library(p.string());
  EXPECT_EQ(lib.format, ToolLibraryFormat::camotics_table);
  ASSERT_EQ(lib.tools.size(), 3u);
  EXPECT_EQ(lib.tools.at(5).geometry.shape, CutterShape::kFlat);
  EXPECT_NEAR(lib.tools.at(6).geometry.included_angle, 90, 1e-12);
  EXPECT_EQ(lib.tools.at(7).geometry.shape, CutterShape::kFlat);  // no taper left
  // The same table under an explicit format, and a project recognised by its keys.
  EXPECT_EQ(read_tool_library(p.string(), ToolLibraryFormat::camotics_table).tools.size(), 3u);
  EXPECT_EQ(parse(kProject, "job.json").format, ToolLibraryFormat::camotics_project);
}

TEST(CamoticsToolErrors, NameTheKey) {
  const auto table_error = [](const std::string& fields) {
    return error(R"({"1": {)" + fields + "}}", "t.json");
  };
  EXPECT_EQ(table_error(R"("shape": "spheroid", "length": 5, "diameter": 6)"),
            "t.json: 1.shape: CAMotics shape \"spheroid\" has no kdop equivalent (expected "
            "cylindrical, ballnose, conical or snubnose)");
  EXPECT_EQ(table_error(R"("number": 2, "length": 5, "diameter": 6)"),
            "t.json: 1.number: must equal the tool's key 1, got 2");
  EXPECT_EQ(table_error(R"("units": "furlong", "length": 5, "diameter": 6)"),
            "t.json: 1.units: expected \"metric\" or \"imperial\", got \"furlong\"");
  EXPECT_EQ(table_error(R"("shape": "snubnose", "length": 5, "diameter": 6, "snub_diameter": 7)"),
            "t.json: 1.snub_diameter: must be in [0, diameter] = [0, 6] (got 7)");
  EXPECT_EQ(table_error(R"("length": 5, "diameter": 6, "snub_diameter": 1)"),
            "t.json: 1.snub_diameter: only shape \"snubnose\" has a snub diameter");
  EXPECT_EQ(table_error(R"("diameter": 6)"), "t.json: 1: missing key 'length'");
  EXPECT_EQ(table_error(R"("shape": "ballnose", "length": 2, "diameter": 6)"),
            "t.json: 1.length: a ballnose tool must be at least diameter/2 = 3 long (got 2)");
  EXPECT_THAT(table_error(R"("length": 5, "diameter": 6, "pocket": 3)"),
              StartsWith("t.json: 1: unknown key 'pocket'"));
  EXPECT_EQ(error(R"({"units": "metric", "files": []})", "p.camotics"),
            "p.camotics: missing key 'tools' (a CAMotics project's tool table)");
  EXPECT_EQ(error(R"({"files": [], "tools": {"x": {}}})"),
            "tools.json: tools.x: a tool number must be a positive integer, got key 'x'");
}

TEST_F(CamoticsTools, MissingFileNamesThePath) {
  const std::string missing = (dir_ / "nope.json").string();
  EXPECT_THAT(io_error_of([&] { read_tool_library(missing); }),
              StartsWith(missing + ": cannot open"));
}

}  // namespace
}  // namespace kdop
