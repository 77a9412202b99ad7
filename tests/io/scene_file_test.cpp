// Scene files: the documented example, path resolution, Scene::checks, and every malformed-input
// message (each must name the file and the JSON path of the key).
#include "io/scene_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/io_error.hpp"
#include "io/json_document.hpp"
#include "tests/support/reader_checks.hpp"
#include "tests/support/scratch_dir.hpp"

namespace kdop {
namespace {

using test::io_error_of;
using ::testing::AllOf;
using ::testing::HasSubstr;

// A rotation of 90 degrees about z, by hand: x -> y, y -> -x.
constexpr std::array<double, 9> kQuarterTurnZ = {0, -1, 0, 1, 0, 0, 0, 0, 1};

void expect_rotation(const Pose& pose, const std::array<double, 9>& r) {
  for (std::size_t i = 0; i < 9; ++i) EXPECT_NEAR(pose.r[i], r[i], 1e-15) << "entry " << i;
}

class SceneFile : public test::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    for (const char* name : {"plate.obj", "table.obj", "box.obj", "arm.obj"}) touch(dir_ / name);
    std::filesystem::create_directories(dir_ / "folder.obj");
  }

  static void write(const std::filesystem::path& p, const std::string& text) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  static void touch(const std::filesystem::path& p) { write(p, "v 0 0 0\n"); }

  Scene parse(const std::string& text) const { return parse_scene(text, "scene.json", dir_); }

  // The message for a scene whose objects are `objects` (environment: plate and table).
  std::string error_with_objects(const std::string& objects, const std::string& tail = "") const {
    return error(
        R"({"environment": [{"name": "plate", "mesh": "plate.obj"},
                            {"name": "table", "mesh": "table.obj"}],
            "objects": )" +
        objects + tail + "}");
  }

  std::string error(const std::string& text) const {
    return io_error_of([&] { parse(text); });
  }
};

TEST_F(SceneFile, ParsesTheDocumentedExample) {
  const double h = std::sqrt(0.5);
  const Scene scene = parse(R"({
    "environment": [{"name": "plate", "mesh": "plate.obj",
                     "pose": [1, 2, 3, )" +
                            std::to_string(h) + ", 0, 0, " + std::to_string(h) + R"(]}],
    "objects": [{"name": "box", "mesh": "box.obj", "padding": 0.25}],
    "allow": [["box", "plate"]]})");
  EXPECT_EQ(scene.file, "scene.json");
  ASSERT_EQ(scene.environment.size(), 1u);
  EXPECT_EQ(scene.environment[0].name, "plate");
  EXPECT_EQ(scene.environment[0].mesh, (dir_ / "plate.obj").string());
  EXPECT_TRUE(scene.environment[0].has_pose);
  expect_rotation(scene.environment[0].pose, kQuarterTurnZ);
  EXPECT_EQ(scene.environment[0].pose.t, (std::array<double, 3>{1, 2, 3}));
  ASSERT_EQ(scene.objects.size(), 1u);
  EXPECT_EQ(scene.objects[0].name, "box");
  EXPECT_EQ(scene.objects[0].mesh, (dir_ / "box.obj").string());
  EXPECT_EQ(scene.objects[0].padding, 0.25);
  ASSERT_EQ(scene.allow.size(), 1u);
  EXPECT_EQ(scene.allow[0], (std::pair<std::string, std::string>("box", "plate")));
}

TEST_F(SceneFile, NormalizesAnyNonZeroQuaternion) {
  for (const char* q : {"2, 0, 0, 2", "1e200, 0, 0, 1e200", "1e-300, 0, 0, 1e-300"}) {
    const Scene scene = parse(R"({"environment": [{"name": "plate", "mesh": "plate.obj",
        "pose": [0, 0, 0, )" + std::string(q) +
                              R"(]}], "objects": [{"name": "box", "mesh": "box.obj"}]})");
    expect_rotation(scene.environment[0].pose, kQuarterTurnZ);
  }
}

TEST_F(SceneFile, OptionalPartsHaveDefaults) {
  const Scene scene = parse(
      "\xEF\xBB\xBF"  // a byte order mark is accepted
      R"({"objects": [{"name": "box", "mesh": "box.obj"}, {"name": "arm", "mesh": "arm.obj"}]})");
  EXPECT_TRUE(scene.environment.empty());
  EXPECT_TRUE(scene.allow.empty());
  ASSERT_EQ(scene.objects.size(), 2u);
  EXPECT_EQ(scene.objects[1].padding, 0.0);

  const Scene posed = parse(R"({"environment": [{"name": "plate", "mesh": "plate.obj"}],
                                "objects": [{"name": "box", "mesh": "box.obj"}]})");
  EXPECT_FALSE(posed.environment[0].has_pose);
  expect_rotation(posed.environment[0].pose, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  EXPECT_EQ(posed.environment[0].pose.t, (std::array<double, 3>{0, 0, 0}));
}

TEST_F(SceneFile, ReadSceneResolvesPathsAgainstTheScenesFolder) {
  write(dir_ / "scenes" / "meshes" / "part.stl", "solid\nendsolid\n");
  const std::filesystem::path absolute = dir_ / "box.obj";
  const std::filesystem::path file = dir_ / "scenes" / "cell.json";
  write(file, R"({"environment": [{"name": "part", "mesh": "meshes/part.stl"}],
                  "objects": [{"name": "box", "mesh": ")" +
                  absolute.string() + R"("}, {"name": "up", "mesh": "../arm.obj"}]})");
  const Scene scene = read_scene(file.string());
  EXPECT_EQ(scene.file, file.string());
  EXPECT_EQ(scene.environment[0].mesh, (dir_ / "scenes" / "meshes" / "part.stl").string());
  EXPECT_EQ(scene.objects[0].mesh, absolute.string());
  EXPECT_TRUE(std::filesystem::equivalent(scene.objects[1].mesh, dir_ / "arm.obj"));

  // A relative mesh next to a scene named without a folder stays relative to the same folder.
  struct WorkingDirectory {
    std::filesystem::path saved = std::filesystem::current_path();
    explicit WorkingDirectory(const std::filesystem::path& p) { std::filesystem::current_path(p); }
    ~WorkingDirectory() { std::filesystem::current_path(saved); }
  };
  const WorkingDirectory in_scenes(dir_ / "scenes");
  EXPECT_EQ(read_scene("cell.json").environment[0].mesh, "meshes/part.stl");
}

TEST_F(SceneFile, ReadSceneReportsUnreadableFiles) {
  const std::string missing = (dir_ / "missing.json").string();
  EXPECT_THAT(io_error_of([&] { read_scene(missing); }),
              HasSubstr(missing + ": cannot open (No such file"));
  EXPECT_THAT(io_error_of([&] { read_scene(dir_.string()); }),
              HasSubstr(dir_.string() + ": cannot read (Is a directory)"));
  write(dir_ / "broken.json", "{\"objects\": [}");
  EXPECT_THAT(io_error_of([&] { read_scene((dir_ / "broken.json").string()); }),
              HasSubstr((dir_ / "broken.json").string() + ": byte 13: JSON"));
}

TEST_F(SceneFile, ChecksEveryPairExceptAllowedOnes) {
  const Scene scene = parse(R"({
    "environment": [{"name": "plate", "mesh": "plate.obj"}, {"name": "table", "mesh": "table.obj"}],
    "objects": [{"name": "box", "mesh": "box.obj"}, {"name": "arm", "mesh": "arm.obj"}],
    "allow": [["plate", "box"], ["box", "arm"]]})");
  EXPECT_FALSE(scene.checks("box", "plate"));
  EXPECT_FALSE(scene.checks("plate", "box"));
  EXPECT_FALSE(scene.checks("arm", "box"));
  EXPECT_TRUE(scene.checks("box", "table"));
  EXPECT_TRUE(scene.checks("table", "box"));
  EXPECT_TRUE(scene.checks("arm", "plate"));
  EXPECT_FALSE(scene.checks("plate", "table"));  // environment meshes never meet
  EXPECT_FALSE(scene.checks("box", "box"));
}

TEST_F(SceneFile, SyntaxErrorsNameTheByte) {
  // The offset is that of the byte nlohmann stopped at: the '}' where a value was expected, the x.
  EXPECT_THAT(error(R"({"objects": [})"),
              AllOf(HasSubstr("scene.json: byte 13: JSON"), HasSubstr("syntax error")));
  EXPECT_THAT(error(""), HasSubstr("scene.json: byte 0: JSON"));
  EXPECT_THAT(error(R"({"objects": [{"name": "box", "mesh": "box.obj"}]} x)"),
              HasSubstr("scene.json: byte 50: JSON"));
  // Invalid UTF-8 is shown escaped, keeping the message printable.
  EXPECT_THAT(error("{\"objects\": \"\xff\"}"), HasSubstr("\\xff"));
}

TEST_F(SceneFile, TopLevelErrors) {
  EXPECT_THAT(error("[]"),
              HasSubstr("scene.json: expected a JSON object at the top level, got array"));
  EXPECT_THAT(error("{}"), HasSubstr("scene.json: missing key 'objects'"));
  EXPECT_THAT(error(R"({"objects": [{"name": "box", "mesh": "box.obj"}], "objectss": 1})"),
              HasSubstr("scene.json: unknown key 'objectss' (expected environment, objects, "
                        "allow)"));
  EXPECT_THAT(error(R"({"objects": {}})"),
              HasSubstr("scene.json: objects: expected an array, got object"));
  EXPECT_THAT(error(R"({"objects": []})"),
              HasSubstr("scene.json: objects: expected at least one object, got an empty array"));
  EXPECT_THAT(error(R"({"environment": "plate.obj", "objects": []})"),
              HasSubstr("scene.json: environment: expected an array, got string"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "box.obj"}])", R"(, "allow": {})"),
              HasSubstr("scene.json: allow: expected an array, got object"));
}

TEST_F(SceneFile, DuplicateKeysAreErrors) {
  EXPECT_THAT(error(R"({"objects": [], "objects": [{"name": "box", "mesh": "box.obj"}]})"),
              HasSubstr("scene.json: objects: duplicate key 'objects'"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "box.obj"},
                                     {"name": "arm", "mesh": "arm.obj", "mesh": "box.obj"}])"),
              HasSubstr("scene.json: objects[1].mesh: duplicate key 'mesh'"));
}

TEST_F(SceneFile, EntryErrors) {
  EXPECT_THAT(error_with_objects(R"(["box"])"),
              HasSubstr("scene.json: objects[0]: expected an object, got string"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "box.obj"},
                                     {"name": "arm", "meshh": "arm.obj"}])"),
              HasSubstr("scene.json: objects[1]: unknown key 'meshh' (expected name, mesh, "
                        "padding)"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "box.obj", "pose": []}])"),
              HasSubstr("scene.json: objects[0]: unknown key 'pose'"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box"}])"),
              HasSubstr("scene.json: objects[0]: missing key 'mesh'"));
  EXPECT_THAT(error(R"({"environment": [{"mesh": "plate.obj"}],
                       "objects": [{"name": "box", "mesh": "box.obj"}]})"),
              HasSubstr("scene.json: environment[0]: missing key 'name'"));
}

TEST_F(SceneFile, NameErrors) {
  EXPECT_THAT(error_with_objects(R"([{"name": "", "mesh": "box.obj"}])"),
              HasSubstr("scene.json: objects[0].name: expected a non-empty string"));
  EXPECT_THAT(error(R"({"environment": [{"name": null, "mesh": "plate.obj"}],
                       "objects": [{"name": "box", "mesh": "box.obj"}]})"),
              HasSubstr("scene.json: environment[0].name: expected a string, got null"));
  EXPECT_THAT(error(R"({"environment": [{"name": "box", "mesh": "plate.obj"}],
                       "objects": [{"name": "box", "mesh": "box.obj"}]})"),
              HasSubstr("scene.json: objects[0].name: duplicate name 'box' (also environment[0])"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "box.obj"},
                                     {"name": "box", "mesh": "arm.obj"}])"),
              HasSubstr("scene.json: objects[1].name: duplicate name 'box' (also objects[0])"));
}

TEST_F(SceneFile, MeshErrors) {
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "box.obj"},
                                     {"name": "arm", "mesh": 7}])"),
              HasSubstr("scene.json: objects[1].mesh: expected a string, got number"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": ""}])"),
              HasSubstr("scene.json: objects[0].mesh: expected a non-empty string"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "nope.obj"}])"),
              HasSubstr("scene.json: objects[0].mesh: file 'nope.obj' not found (looked for " +
                        (dir_ / "nope.obj").string() + ")"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "folder.obj"}])"),
              HasSubstr("scene.json: objects[0].mesh: 'folder.obj' is not a regular file (" +
                        (dir_ / "folder.obj").string() + ")"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "box.obj\u0000x"}])"),
              HasSubstr("scene.json: objects[0].mesh: a path cannot contain a NUL character"));
}

TEST_F(SceneFile, PoseErrors) {
  const auto with_pose = [&](const std::string& pose) {
    return error(R"({"environment": [{"name": "plate", "mesh": "plate.obj", "pose": )" + pose +
                 R"(}], "objects": [{"name": "box", "mesh": "box.obj"}]})");
  };
  EXPECT_THAT(with_pose(R"("identity")"),
              HasSubstr("scene.json: environment[0].pose: expected an array of 7 numbers [tx, ty, "
                        "tz, qw, qx, qy, qz], got string"));
  EXPECT_THAT(with_pose("[0, 0, 0, 1, 0, 0]"),
              HasSubstr("scene.json: environment[0].pose: expected an array of 7 numbers [tx, ty, "
                        "tz, qw, qx, qy, qz], got an array of 6"));
  EXPECT_THAT(with_pose(R"([0, 0, "z", 1, 0, 0, 0])"),
              HasSubstr("scene.json: environment[0].pose[2]: expected a number, got string"));
  EXPECT_THAT(with_pose("[0, 0, 0, 0, 0, 0, 0]"),
              HasSubstr("scene.json: environment[0].pose: quaternion is zero"));
  EXPECT_THAT(with_pose("[0, 0, 1e999, 1, 0, 0, 0]"),
              HasSubstr(": environment[0].pose[2]: expected a number within double's range"));
  EXPECT_THAT(with_pose("[4e38, 0, 0, 1, 0, 0, 0]"),
              HasSubstr("scene.json: environment[0].pose: translation tx = 4e+38 "
                        "is beyond +-1e30 (kdop's coordinate range)"));
}

TEST_F(SceneFile, PaddingErrors) {
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "box.obj", "padding": -1}])"),
              HasSubstr("scene.json: objects[0].padding: expected a number >= 0, got -1"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "box.obj", "padding": "1"}])"),
              HasSubstr("scene.json: objects[0].padding: expected a number, got string"));
  EXPECT_THAT(error_with_objects(R"([{"name": "box", "mesh": "box.obj", "padding": -1e400}])"),
              HasSubstr(": objects[0].padding: expected a number within double's range (magnitude "
                        "below 1.8e308), got -1e400"));
}

TEST_F(SceneFile, AllowErrors) {
  const auto with_allow = [&](const std::string& allow) {
    return error_with_objects(R"([{"name": "box", "mesh": "box.obj"},
                                  {"name": "arm", "mesh": "arm.obj"}])",
                              R"(, "allow": )" + allow);
  };
  EXPECT_THAT(with_allow(R"(["box"])"),
              HasSubstr("scene.json: allow[0]: expected a pair of names [\"a\", \"b\"], got "
                        "string"));
  EXPECT_THAT(with_allow(R"([["box", "arm", "plate"]])"),
              HasSubstr("scene.json: allow[0]: expected a pair of names [\"a\", \"b\"], got an "
                        "array of 3"));
  EXPECT_THAT(with_allow(R"([["box", 1]])"),
              HasSubstr("scene.json: allow[0][1]: expected a string, got number"));
  EXPECT_THAT(with_allow(R"([["box", "plate"], ["arm", "plat"]])"),
              HasSubstr("scene.json: allow[1][1]: unknown name 'plat' (not in environment or "
                        "objects)"));
  EXPECT_THAT(with_allow(R"([["box", "box"]])"),
              HasSubstr("scene.json: allow[0]: names 'box' twice"));
  EXPECT_THAT(with_allow(R"([["box", "plate"], ["plate", "box"]])"),
              HasSubstr("scene.json: allow[1]: the pair 'plate', 'box' is already allowed at "
                        "allow[0]"));
  EXPECT_THAT(with_allow(R"([["plate", "table"]])"),
              HasSubstr("scene.json: allow[0]: 'plate' and 'table' are both environment meshes"));
}

TEST_F(SceneFile, KeysThatAreNotWordsAreQuotedInPaths) {
  EXPECT_THAT(error(R"({"objects": [{"name": "box", "mesh": "box.obj", "my key": 1,
                                     "my key": 2}]})"),
              HasSubstr("scene.json: objects[0]['my key']: duplicate key 'my key'"));
}

// Nesting past kMaxJsonDepth is refused at the byte that opens the level too many, before the
// document is built (300,000 levels overflowed the stack in its recursive copy); brackets inside
// strings do not count. A value shown in a message is one line of at most 60 characters.
TEST(JsonDocument, RefusesDeepNestingAndShortensValuesInMessages) {
  const std::string deep =
      "{\"objects\":" + std::string(300000, '[') + std::string(300000, ']') + "}";
  EXPECT_EQ(io_error_of([&] { json::parse(deep, "f.json"); }),
            "f.json: byte 266: JSON nested more than 256 levels deep");
  const std::string limit = std::string(256, '[') + std::string(256, ']');
  EXPECT_TRUE(json::parse(limit, "f.json").is_array());
  EXPECT_TRUE(json::parse("[\"" + std::string(1000, '[') + "\\\"{\"]", "f.json").is_array());
  EXPECT_EQ(io_error_of([] { json::parse("[" + std::string(256, '{') + "]", "f.json"); }),
            "f.json: byte 256: JSON nested more than 256 levels deep");
  EXPECT_EQ(json::shown(json::parse("[1, \"a\\nb\"]", "f.json")), "[1,\"a\\nb\"]");
  const std::string long_text =
      json::shown(json::parse("[\"" + std::string(99, 'a') + "\"]", "f.json"));
  EXPECT_EQ(long_text, "[\"" + std::string(55, 'a') + "...");
}

// A number beyond double's range is named with its byte offset and key path (io/json_document):
// the same text inside a string, a key or another number is not taken for it.
TEST(JsonDocument, NamesTheByteOfANumberBeyondDoublesRange) {
  EXPECT_EQ(io_error_of([] { json::parse(R"({"a": "1e400", "b": [1, 1e400]})", "f.json"); }),
            "f.json: byte 24: b[1]: expected a number within double's range (magnitude below "
            "1.8e308), got 1e400");
  EXPECT_EQ(io_error_of([] { json::parse(R"({"1e400": 21e400, "c": -1e400})", "f.json"); }),
            "f.json: byte 10: 1e400: expected a number within double's range (magnitude below "
            "1.8e308), got 21e400");
  EXPECT_EQ(io_error_of([] { json::parse("{\"x\\\"1e400\": 0,\n \"y\": -1e400}", "f.json"); }),
            "f.json: byte 22: y: expected a number within double's range (magnitude below "
            "1.8e308), got -1e400");
  // A long run of digits like the number's own before it: found in one pass (a scan that compared
  // the number at every byte inside such a run would take minutes here), and shown shortened.
  const std::string ones(200000, '1');
  EXPECT_EQ(io_error_of([&] { json::parse("[0." + ones + ", " + ones + "]", "f.json"); }),
            "f.json: byte 200005: [1]: expected a number within double's range (magnitude below "
            "1.8e308), got " +
                ones.substr(0, 37) + "...");
  // Right after a byte order mark.
  EXPECT_EQ(io_error_of([] { json::parse("\xEF\xBB\xBF-1e999", "f.json"); }),
            "f.json: byte 3: expected a number within double's range (magnitude below 1.8e308), "
            "got -1e999");
  // Whatever follows the number (here a syntax error), the parser stops at it first; a longer
  // number that starts the same is another one.
  EXPECT_EQ(io_error_of([] { json::parse("[10, 1e4000, 1e400.5]", "f.json"); }),
            "f.json: byte 5: [1]: expected a number within double's range (magnitude below "
            "1.8e308), got 1e4000");
  EXPECT_EQ(io_error_of([] { json::parse("[1e4000, 1e400.5]", "f.json"); }),
            "f.json: byte 1: [0]: expected a number within double's range (magnitude below "
            "1.8e308), got 1e4000");
  const std::string digits = "1" + std::string(400, '0');
  EXPECT_EQ(io_error_of([&] { json::parse("[" + digits + "e-300, " + digits + "]", "f.json"); }),
            "f.json: byte " + std::to_string(1 + digits.size() + 7) +
                ": [1]: expected a number within double's range (magnitude below 1.8e308), got " +
                digits.substr(0, 37) + "...");
}

}  // namespace
}  // namespace kdop
