// Trajectory files: CSV and JSON values, the text variants CSV meets in the wild (CRLF, byte
// order mark, blank lines, no final newline), first-appearance order, and every malformed-input
// message (each must name the file and the line or JSON key).
#include "io/trajectory_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/io_error.hpp"
#include "tests/support/reader_checks.hpp"
#include "tests/support/scratch_dir.hpp"

namespace kdop {
namespace {

using test::io_error_of;
using ::testing::AllOf;
using ::testing::HasSubstr;

const std::string kHeader = "t,object,tx,ty,tz,qw,qx,qy,qz\n";

Trajectory csv(const std::string& text) {
  return parse_trajectory(text, "traj.csv", TrajectoryFormat::csv);
}
Trajectory json(const std::string& text) {
  return parse_trajectory(text, "traj.json", TrajectoryFormat::json);
}
std::string csv_error(const std::string& text) {
  return io_error_of([&] { csv(text); });
}
std::string json_error(const std::string& text) {
  return io_error_of([&] { json(text); });
}

void expect_quaternion(const Waypoint& w, const std::array<double, 4>& q) {
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(w.rotation[i], q[i], 1e-15) << "component " << i;
}

TEST(TrajectoryCsv, ParsesColumnsInAnyOrder) {
  const Trajectory tr =
      csv("qz, object ,t,tx,ty,tz,qw,qx,qy\n"
          "0,box,0,1,2,3,1,0,0\n"
          "2, box ,0.5,+4,-5,6e-1,2,0,0\n");
  EXPECT_EQ(tr.file, "traj.csv");
  ASSERT_EQ(tr.objects, (std::vector<std::string>{"box"}));
  ASSERT_EQ(tr.paths.size(), 1u);
  ASSERT_EQ(tr.paths[0].size(), 2u);
  const Waypoint& a = tr.paths[0][0];
  EXPECT_EQ(a.t, 0.0);
  EXPECT_EQ(a.translation, (std::array<double, 3>{1, 2, 3}));
  expect_quaternion(a, {1, 0, 0, 0});
  EXPECT_EQ(a.line, 2u);
  const Waypoint& b = tr.paths[0][1];
  EXPECT_EQ(b.t, 0.5);
  EXPECT_EQ(b.translation, (std::array<double, 3>{4, -5, 0.6}));
  const double h = std::sqrt(0.5);
  expect_quaternion(b, {h, 0, 0, h});  // (2, 0, 0, 2) normalized
  EXPECT_EQ(b.line, 3u);
}

TEST(TrajectoryCsv, AcceptsCrlfBomBlankLinesInterleavingAndNoFinalNewline) {
  const Trajectory tr =
      csv("\xEF\xBB\xBF\r\n"
          "t,object,tx,ty,tz,qw,qx,qy,qz\r\n"
          "\r\n"
          "0,zeta,0,0,0,1,0,0,0\r\n"
          "  \t\r\n"
          "0,alpha,1,0,0,1,0,0,0\r\n"
          "1,zeta,2,0,0,1,0,0,0\r\n"
          "\n"
          "0.5,alpha,3,0,0,1,0,0,0\r\n"
          "2,zeta,4,0,0,0,0,0,1");                                     // truncated: no line end
  ASSERT_EQ(tr.objects, (std::vector<std::string>{"zeta", "alpha"}));  // first appearance
  ASSERT_EQ(tr.paths.size(), 2u);
  ASSERT_EQ(tr.paths[0].size(), 3u);
  ASSERT_EQ(tr.paths[1].size(), 2u);
  EXPECT_EQ(tr.paths[0][0].line, 4u);
  EXPECT_EQ(tr.paths[0][1].line, 7u);
  EXPECT_EQ(tr.paths[0][2].line, 10u);
  EXPECT_EQ(tr.paths[0][2].t, 2.0);
  EXPECT_EQ(tr.paths[0][2].translation[0], 4.0);
  expect_quaternion(tr.paths[0][2], {0, 0, 0, 1});
  EXPECT_EQ(tr.paths[1][0].line, 6u);
  EXPECT_EQ(tr.paths[1][1].line, 9u);
  EXPECT_EQ(tr.paths[1][1].t, 0.5);
  EXPECT_EQ(tr.find("zeta"), 0);
  EXPECT_EQ(tr.find("alpha"), 1);
  EXPECT_EQ(tr.find("beta"), -1);
}

TEST(TrajectoryCsv, NoWaypoints) {
  EXPECT_THAT(csv_error(""), HasSubstr("traj.csv: no waypoints"));
  EXPECT_THAT(csv_error("\xEF\xBB\xBF\r\n \n"), HasSubstr("traj.csv: no waypoints"));
  EXPECT_THAT(csv_error(kHeader), HasSubstr("traj.csv: no waypoints"));
  EXPECT_THAT(csv_error(kHeader + "\r\n\n"), HasSubstr("traj.csv: no waypoints"));
}

TEST(TrajectoryCsv, HeaderErrors) {
  EXPECT_THAT(csv_error("\nt,object,tx,ty,tz,qw,qx,qy\n"),
              HasSubstr("traj.csv: line 2: header: missing column 'qz' (expected "
                        "t,object,tx,ty,tz,qw,qx,qy,qz, in any order)"));
  EXPECT_THAT(csv_error("t,object,tx,ty,tx,qw,qx,qy,qz\n"),
              HasSubstr("traj.csv: line 1: header: column 5: duplicate column 'tx'"));
  // Other columns are ignored, so a misspelt one is reported as the one missing.
  EXPECT_THAT(csv_error("t,object,tx,ty,tz,qw,qx,qy,Qz\n"),
              HasSubstr("traj.csv: line 1: header: missing column 'qz'"));
  EXPECT_THAT(csv_error("t,object,tx,,tz,qw,qx,qy,qz\n"),
              HasSubstr("traj.csv: line 1: header: missing column 'ty'"));
  EXPECT_THAT(csv_error("\"t\"x,object,tx,ty,tz,qw,qx,qy,qz\n"),
              HasSubstr("traj.csv: line 1: expected ',' or the end of the line after a quoted "
                        "field"));
  EXPECT_THAT(csv_error("t,object,tx,ty,tz,qw,qx,qy,qz\r0,box,0,0,0,1,0,0,0\r"),
              HasSubstr("traj.csv: line 1: carriage return inside the line"));
  EXPECT_THAT(csv_error("t,object,tx,ty,tz,qw,qx,qy,qz\n-1e308,box,0,0,0,1,0,0,0\n"
                        "1e308,box,1,0,0,1,0,0,0\n"),
              HasSubstr("traj.csv: line 3: the motion from the waypoint before overflows"));
}

// Columns other than the nine are ignored, as in pose files, wherever they stand; rows still have
// as many fields as the header.
TEST(TrajectoryCsv, OtherColumnsAreIgnored) {
  const Trajectory tr =
      csv("speed,t,object,tx,ty,tz,qw,qx,qy,qz,note\n"
          "fast,0,box,1,2,3,1,0,0,0,start\n"
          ",1,box,4,5,6,0,0,0,2,\n");
  ASSERT_EQ(tr.objects, std::vector<std::string>{"box"});
  ASSERT_EQ(tr.paths[0].size(), 2u);
  EXPECT_EQ(tr.paths[0][0].translation, (std::array<double, 3>{1, 2, 3}));
  EXPECT_EQ(tr.paths[0][1].t, 1);
  EXPECT_EQ(tr.paths[0][1].translation, (std::array<double, 3>{4, 5, 6}));
  EXPECT_EQ(tr.paths[0][1].rotation, (std::array<double, 4>{0, 0, 0, 1}));
  EXPECT_THAT(csv_error("t,object,tx,ty,tz,qw,qx,qy,qz,\n0,box,0,0,0,1,0,0,0\n"),
              HasSubstr("traj.csv: line 2: expected 10 fields as in the header, found 9"));
  // Lines of commas: counted, not kept field by field.
  EXPECT_THAT(csv_error(kHeader + "0,box,0,0,0,1,0,0,0" + std::string(100000, ',') + "\n"),
              HasSubstr("traj.csv: line 2: expected 9 fields as in the header, found 100009"));
  EXPECT_THAT(csv_error("t,object,tx,ty,tz,qw,qx,qy,qz" + std::string(992, ',') + "\n"),
              HasSubstr("traj.csv: line 1: header: more than 1000 columns"));
  EXPECT_THAT(csv_error("t,object,tx,ty,tz,qw,qx,qy,qz" + std::string(991, ',') + "\n"),
              HasSubstr("traj.csv: no waypoints"));
}

TEST(TrajectoryCsv, RowErrors) {
  EXPECT_THAT(csv_error(kHeader + "0,box,0,0,0,1,0,0,0\n1,box,0,0,0,1,0,0\n"),
              HasSubstr("traj.csv: line 3: expected 9 fields as in the header, found 8"));
  EXPECT_THAT(csv_error(kHeader + "0,box,0,0,0,1,0,0,0,0\n"),
              HasSubstr("traj.csv: line 2: expected 9 fields as in the header, found 10"));
  EXPECT_THAT(csv_error(kHeader + "0,box,abc,0,0,1,0,0,0\n"),
              HasSubstr("traj.csv: line 2: column tx: expected a number, got 'abc'"));
  EXPECT_THAT(csv_error(kHeader + "0,box,1.5x,0,0,1,0,0,0\n"),
              HasSubstr("traj.csv: line 2: column tx: expected a number, got '1.5x'"));
  EXPECT_THAT(csv_error(kHeader + "0,box,0,0,0, ,0,0,0\n"),
              HasSubstr("traj.csv: line 2: column qw: expected a number, found an empty field"));
  EXPECT_THAT(csv_error(kHeader + "inf,box,0,0,0,1,0,0,0\n"),
              HasSubstr("traj.csv: line 2: column t: non-finite value 'inf'"));
  EXPECT_THAT(csv_error(kHeader + "0,box,0,0,0,1,nan,0,0\n"),
              HasSubstr("traj.csv: line 2: column qx: non-finite value 'nan'"));
  EXPECT_THAT(csv_error(kHeader + "0,box,0,0,0,1,0,0,0\n1,box,0,0,5e35,1,0,0,0\n"),
              HasSubstr("traj.csv: line 3: translation tz = 5e+35 is beyond +-1e30"));
  EXPECT_THAT(csv_error(kHeader + "0,box,0,0,0,1,0,0,1e999\n"),
              HasSubstr("traj.csv: line 2: column qz: expected a number, got '1e999'"));
  EXPECT_THAT(csv_error(kHeader + "0, ,0,0,0,1,0,0,0\n"),
              HasSubstr("traj.csv: line 2: column object: empty object name"));
  EXPECT_THAT(csv_error(kHeader + "0,box,0,0,0,0,0,0,0\n"),
              HasSubstr("traj.csv: line 2: quaternion (qw, qx, qy, qz) is zero"));
  EXPECT_THAT(csv_error(kHeader + "0,box,0,0,0,1,0,0,0\n0,\"b\"ox\",0,0,0,1,0,0,0\n"),
              HasSubstr("traj.csv: line 3: expected ',' or the end of the line after a quoted "
                        "field"));
  EXPECT_THAT(csv_error(kHeader + "0,\"box,0,0,0,1,0,0,0\n"),
              HasSubstr("traj.csv: line 2: a quoted field opened on this line is not closed "
                        "before the end of the file"));
  EXPECT_THAT(csv_error(kHeader + "0,\"box\"" + std::string(100, ',') + "\n"),
              HasSubstr("traj.csv: line 2: a quoted line with far more commas than the header's 9 "
                        "fields"));
}

TEST(TrajectoryCsv, QuotedFieldsAsRWritesThem) {
  // R's write.csv quotes every string (and the header's names); a doubled quote is one quote.
  const Trajectory tr =
      csv("\"t\",\"object\",\"tx\",\"ty\",\"tz\",\"qw\",\"qx\",\"qy\",\"qz\"\n"
          "0,\"box, big\",1,0,0,1,0,0,0\n"
          "1,\"box, big\",2,0,0,1,0,0,0\n"
          "0,\"say \"\"hi\"\"\",3,0,0,1,0,0,0\n");
  ASSERT_EQ(tr.objects, (std::vector<std::string>{"box, big", "say \"hi\""}));
  ASSERT_EQ(tr.paths[0].size(), 2u);
  EXPECT_EQ(tr.paths[0][1].translation[0], 2.0);
  EXPECT_EQ(tr.paths[1][0].translation[0], 3.0);
}

// RFC 4180: a quoted field may hold line breaks (LF or CRLF, read as '\n'); the record runs on to
// the line that closes it, and its errors name its first line.
TEST(TrajectoryCsv, QuotedFieldsSpanLines) {
  const Trajectory tr = csv(kHeader + "0,\"robot  \r\n  arm\",1,0,0,1,0,0,0\r\n" +
                            "1,\"robot  \n  arm\",2,0,0,1,0,0,0\n" + "0,\"\n\",3,0,0,1,0,0,0\n");
  ASSERT_EQ(tr.objects, (std::vector<std::string>{"robot  \n  arm", "\n"}));
  ASSERT_EQ(tr.paths[0].size(), 2u);
  EXPECT_EQ(tr.paths[0][1].translation[0], 2.0);
  EXPECT_EQ(tr.paths[1][0].translation[0], 3.0);
  EXPECT_THAT(csv_error(kHeader + "0,box,0,0,0,1,0,0,0\n1,\"b\nc\",x,0,0,1,0,0,0\n"),
              HasSubstr("traj.csv: line 3: column tx: expected a number, got 'x'"));
  // The waypoint's line (named by later checks, such as kdop path's) is the record's first.
  const Trajectory lined =
      csv("t,object,tx,ty,tz,qw,qx,qy,qz,note\n0,box,0,0,0,1,0,0,0,\"a\nb\"\n" +
          std::string("1,box,0,0,0,1,0,0,0,c\n"));
  ASSERT_EQ(lined.paths[0].size(), 2u);
  EXPECT_EQ(lined.paths[0][0].line, 2u);
  EXPECT_EQ(lined.paths[0][1].line, 4u);
  std::string open_field = kHeader + "0,\"";
  for (int i = 0; i < 600'000; ++i) open_field += "y\n";
  EXPECT_THAT(csv_error(open_field),
              HasSubstr("traj.csv: line 2: a quoted field opened on this line is still open after "
                        "1048576 bytes"));
}

TEST(TrajectoryCsv, TimeMustIncreasePerObject) {
  const std::string rows =
      "0,a,0,0,0,1,0,0,0\n"
      "0,b,0,0,0,1,0,0,0\n"
      "1.5,a,0,0,0,1,0,0,0\n";
  EXPECT_EQ(csv(kHeader + rows).paths[0].size(), 2u);  // equal t of different objects is fine
  EXPECT_THAT(csv_error(kHeader + rows + "1.5,a,0,0,0,1,0,0,0\n"),
              HasSubstr("traj.csv: line 5: column t: t 1.5 is not greater than the previous t "
                        "1.5 of object 'a' (line 4)"));
  EXPECT_THAT(csv_error(kHeader + rows + "\n-1,b,0,0,0,1,0,0,0\n"),
              HasSubstr("traj.csv: line 6: column t: t -1 is not greater than the previous t 0 "
                        "of object 'b' (line 3)"));
}

TEST(TrajectoryJson, ParsesTheDocumentedForm) {
  const Trajectory tr = json(R"({"objects": {
      "zeta": [{"t": 0.0, "pose": [1, 2, 3, 1, 0, 0, 0]},
               {"pose": [4, 5, 6, 2, 0, 0, 2], "t": 1.25}],
      "alpha": [{"t": -1, "pose": [0, 0, 0, 0, 0, 0, 3]}]}})");
  EXPECT_EQ(tr.file, "traj.json");
  ASSERT_EQ(tr.objects, (std::vector<std::string>{"zeta", "alpha"}));  // file order
  ASSERT_EQ(tr.paths.size(), 2u);
  ASSERT_EQ(tr.paths[0].size(), 2u);
  EXPECT_EQ(tr.paths[0][0].t, 0.0);
  EXPECT_EQ(tr.paths[0][0].translation, (std::array<double, 3>{1, 2, 3}));
  expect_quaternion(tr.paths[0][0], {1, 0, 0, 0});
  EXPECT_EQ(tr.paths[0][0].line, 0u);
  EXPECT_EQ(tr.paths[0][1].t, 1.25);
  EXPECT_EQ(tr.paths[0][1].translation, (std::array<double, 3>{4, 5, 6}));
  const double h = std::sqrt(0.5);
  expect_quaternion(tr.paths[0][1], {h, 0, 0, h});
  ASSERT_EQ(tr.paths[1].size(), 1u);
  expect_quaternion(tr.paths[1][0], {0, 0, 0, 1});
  EXPECT_EQ(tr.find("alpha"), 1);
}

TEST(TrajectoryJson, SyntaxErrorsNameTheByte) {
  EXPECT_THAT(json_error(R"({"objects": {"box": [}})"),
              AllOf(HasSubstr("traj.json: byte 21: JSON"), HasSubstr("syntax error")));
  EXPECT_THAT(json_error(""), HasSubstr("traj.json: byte 0: JSON"));
}

TEST(TrajectoryJson, StructureErrors) {
  EXPECT_THAT(json_error("[]"),
              HasSubstr("traj.json: expected a JSON object at the top level, got array"));
  EXPECT_THAT(json_error("{}"), HasSubstr("traj.json: missing key 'objects'"));
  EXPECT_THAT(json_error(R"({"objects": {}, "objectz": 1})"),
              HasSubstr("traj.json: unknown key 'objectz' (expected objects)"));
  EXPECT_THAT(json_error(R"({"objects": []})"),
              HasSubstr("traj.json: objects: expected an object mapping names to waypoint arrays, "
                        "got array"));
  EXPECT_THAT(json_error(R"({"objects": {}})"), HasSubstr("traj.json: objects: no waypoints"));
  EXPECT_THAT(json_error(R"({"objects": {"box": []}})"),
              HasSubstr("traj.json: objects.box: no waypoints"));
  EXPECT_THAT(json_error(R"({"objects": {"box": {}}})"),
              HasSubstr("traj.json: objects.box: expected an array, got object"));
  EXPECT_THAT(json_error(R"({"objects": {"": [{"t": 0, "pose": [0, 0, 0, 1, 0, 0, 0]}]}})"),
              HasSubstr("traj.json: objects['']: empty object name"));
  EXPECT_THAT(json_error(R"({"objects": {"box": [{"t": 0, "pose": [0, 0, 0, 1, 0, 0, 0]}],
                                         "box": [{"t": 1, "pose": [0, 0, 0, 1, 0, 0, 0]}]}})"),
              HasSubstr("traj.json: objects.box: duplicate key 'box'"));
}

TEST(TrajectoryJson, WaypointErrors) {
  const std::string ok = R"({"t": 0, "pose": [0, 0, 0, 1, 0, 0, 0]}, )";
  const auto with = [&](const std::string& waypoint) {
    return json_error(R"({"objects": {"box": [)" + ok + waypoint + "]}}");
  };
  EXPECT_THAT(with("3"), HasSubstr("traj.json: objects.box[1]: expected an object, got number"));
  EXPECT_THAT(with(R"({"t": 1, "pose": [0, 0, 0, 1, 0, 0, 0], "speed": 2})"),
              HasSubstr("traj.json: objects.box[1]: unknown key 'speed' (expected t, pose)"));
  EXPECT_THAT(with(R"({"pose": [0, 0, 0, 1, 0, 0, 0]})"),
              HasSubstr("traj.json: objects.box[1]: missing key 't'"));
  EXPECT_THAT(with(R"({"t": 1})"), HasSubstr("traj.json: objects.box[1]: missing key 'pose'"));
  EXPECT_THAT(with(R"({"t": "1", "pose": [0, 0, 0, 1, 0, 0, 0]})"),
              HasSubstr("traj.json: objects.box[1].t: expected a number, got string"));
  EXPECT_THAT(with(R"({"t": 1e999, "pose": [0, 0, 0, 1, 0, 0, 0]})"),
              HasSubstr(": objects.box[1].t: expected a number within double's range"));
  EXPECT_THAT(with(R"({"t": 1, "t": 2, "pose": [0, 0, 0, 1, 0, 0, 0]})"),
              HasSubstr("traj.json: objects.box[1].t: duplicate key 't'"));
  EXPECT_THAT(with(R"({"t": 1, "pose": [0, 0, 0, 1, 0, 0]})"),
              HasSubstr("traj.json: objects.box[1].pose: expected an array of 7 numbers [tx, ty, "
                        "tz, qw, qx, qy, qz], got an array of 6"));
  EXPECT_THAT(with(R"({"t": 1, "pose": [0, -1e31, 0, 1, 0, 0, 0]})"),
              HasSubstr("traj.json: objects.box[1].pose: translation ty = -1e+31 "
                        "is beyond +-1e30"));
  EXPECT_THAT(with(R"({"t": 1, "pose": null})"),
              HasSubstr("traj.json: objects.box[1].pose: expected an array of 7 numbers [tx, ty, "
                        "tz, qw, qx, qy, qz], got null"));
  EXPECT_THAT(with(R"({"t": 1, "pose": [0, 0, 0, 1, true, 0, 0]})"),
              HasSubstr("traj.json: objects.box[1].pose[4]: expected a number, got boolean"));
  EXPECT_THAT(with(R"({"t": 1, "pose": [0, 0, 0, 0, 0, 0, 0]})"),
              HasSubstr("traj.json: objects.box[1].pose: quaternion is zero"));
  EXPECT_THAT(with(R"({"t": 0, "pose": [0, 0, 0, 1, 0, 0, 0]})"),
              HasSubstr("traj.json: objects.box[1].t: t 0 is not greater than the previous t 0 "
                        "(objects.box[0])"));
  EXPECT_THAT(
      json_error(R"({"objects": {"box": [{"t": -1e308, "pose": [0, 0, 0, 1, 0, 0, 0]},
                             {"t": 1e308, "pose": [1, 0, 0, 1, 0, 0, 0]}]}})"),
      HasSubstr("traj.json: objects.box[1]: the motion from the waypoint before overflows"));
  EXPECT_THAT(json_error(R"({"objects": {"my box": [)" + ok + R"({"t": -2.5,
                          "pose": [0, 0, 0, 1, 0, 0, 0]}]}})"),
              HasSubstr("traj.json: objects['my box'][1].t: t -2.5 is not greater than the "
                        "previous t 0 (objects['my box'][0])"));
}

class TrajectoryFile : public test::ScratchDirTest {
 protected:
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
};

TEST_F(TrajectoryFile, FormatFromExtension) {
  EXPECT_EQ(trajectory_format_from_path("a/b.csv"), TrajectoryFormat::csv);
  EXPECT_EQ(trajectory_format_from_path("b.CSV"), TrajectoryFormat::csv);
  EXPECT_EQ(trajectory_format_from_path("b.Json"), TrajectoryFormat::json);
  EXPECT_THAT(io_error_of([] { trajectory_format_from_path("path.txt"); }),
              HasSubstr("path.txt: unknown extension '.txt' (expected .csv or .json)"));
  EXPECT_THAT(io_error_of([] { trajectory_format_from_path("dir.csv/path"); }),
              HasSubstr("dir.csv/path: no file extension"));
}

TEST_F(TrajectoryFile, ReadsBothFormatsFromFiles) {
  const std::string c = write("path.csv", kHeader + "0,box,1,2,3,1,0,0,0\n");
  const Trajectory from_csv = read_trajectory(c);
  EXPECT_EQ(from_csv.file, c);
  ASSERT_EQ(from_csv.objects, (std::vector<std::string>{"box"}));
  EXPECT_EQ(from_csv.paths[0][0].translation, (std::array<double, 3>{1, 2, 3}));

  const std::string j =
      write("path.JSON", R"({"objects": {"box": [{"t": 0, "pose": [1, 2, 3, 1, 0, 0, 0]}]}})");
  const Trajectory from_json = read_trajectory(j);
  EXPECT_EQ(from_json.file, j);
  EXPECT_EQ(from_json.paths[0][0].translation, (std::array<double, 3>{1, 2, 3}));
}

TEST_F(TrajectoryFile, FileErrorsNameThePath) {
  const std::string missing = (dir_ / "missing.csv").string();
  EXPECT_THAT(io_error_of([&] { read_trajectory(missing); }),
              HasSubstr(missing + ": cannot open (No such file"));
  std::filesystem::create_directories(dir_ / "folder.json");
  const std::string folder = (dir_ / "folder.json").string();
  EXPECT_THAT(io_error_of([&] { read_trajectory(folder); }),
              HasSubstr(folder + ": cannot read (Is a directory)"));
  const std::string bad = write("bad.csv", kHeader + "0,box,0,0,0,1,0,0,0\n0,box,0,0,0,1,0,0,0");
  EXPECT_THAT(io_error_of([&] { read_trajectory(bad); }),
              HasSubstr(bad + ": line 3: column t: t 0 is not greater"));
}

}  // namespace
}  // namespace kdop
