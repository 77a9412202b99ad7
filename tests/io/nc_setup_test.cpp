// NC setup files: the documented form in mm and inch, path resolution, the shipped example
// (examples/nc), and every malformed-input message (each must name the file and the key path).
#include "io/nc_setup.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>

#include "geometry/solid_check.hpp"
#include "io/io_error.hpp"
#include "io/mesh_reader.hpp"
#include "io/tool_library.hpp"
#include "tests/support/reader_checks.hpp"
#include "tests/support/scratch_dir.hpp"

namespace kdop {
namespace {

using test::io_error_of;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class NcSetup : public test::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    for (const char* name : {"part.stl", "vise.obj", "stock.obj", "tools.json"}) {
      std::ofstream(dir_ / name) << "x";
    }
    std::filesystem::create_directories(dir_ / "folder.stl");
  }

  NcSetupFile parse(const std::string& text) const {
    return parse_nc_setup(text, "setup.json", dir_.string());
  }
  std::string error(const std::string& text) const {
    return io_error_of([&] { parse(text); });
  }
  // The message for a setup with a box stock and `rest` after it.
  std::string error_with(const std::string& rest) const {
    return error(R"({"stock": {"box": [0, 0, 0, 100, 50, 20]})" + rest + "}");
  }
};

TEST_F(NcSetup, ReadsTheDocumentedForm) {
  const NcSetupFile s = parse(R"({"units": "mm",
    "stock": {"box": [0, 0, -20, 100, 50, 0]},
    "part": {"mesh": "part.stl"},
    "fixtures": [{"name": "clamp", "box": [-10, -10, -30, 0, 60, 5]},
                 {"name": "vise", "mesh": "vise.obj"}],
    "tolerance": 0.02, "tools": "tools.json",
    "work_offsets": {"G54": [100, 200, -50], "G59": [1, 2, 3]},
    "g28": [0, 0, 100], "g30": [10, 20, 90], "start": [0, 0, 150], "initial_tool": 3})");
  EXPECT_EQ(s.file, "setup.json");
  EXPECT_TRUE(s.stock.is_box());
  EXPECT_EQ(s.stock.name, "stock");
  EXPECT_EQ(s.stock.box, (std::array<double, 6>{0, 0, -20, 100, 50, 0}));
  ASSERT_TRUE(s.has_part);
  EXPECT_EQ(s.part.name, "part");
  EXPECT_EQ(s.part.mesh, (dir_ / "part.stl").string());
  EXPECT_EQ(s.part.mesh_scale, 1);
  ASSERT_EQ(s.fixtures.size(), 2u);
  EXPECT_EQ(s.fixtures[0].name, "clamp");
  EXPECT_EQ(s.fixtures[0].box, (std::array<double, 6>{-10, -10, -30, 0, 60, 5}));
  EXPECT_EQ(s.fixtures[1].name, "vise");
  EXPECT_EQ(s.fixtures[1].mesh, (dir_ / "vise.obj").string());
  EXPECT_EQ(s.tolerance, 0.02);
  EXPECT_EQ(s.tools, (dir_ / "tools.json").string());
  EXPECT_EQ(s.work_offsets[0], (std::array<double, 3>{100, 200, -50}));
  EXPECT_EQ(s.work_offsets[1], (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(s.work_offsets[5], (std::array<double, 3>{1, 2, 3}));
  EXPECT_EQ(s.g28, (std::array<double, 3>{0, 0, 100}));
  EXPECT_EQ(s.g30, (std::array<double, 3>{10, 20, 90}));
  EXPECT_EQ(s.start, (std::array<double, 3>{0, 0, 150}));
  EXPECT_EQ(s.initial_tool, 3);
}

TEST_F(NcSetup, DefaultsWithOnlyAStock) {
  const NcSetupFile s = parse(R"({"stock": {"mesh": "stock.obj"}})");
  EXPECT_FALSE(s.stock.is_box());
  EXPECT_FALSE(s.has_part);
  EXPECT_TRUE(s.fixtures.empty());
  EXPECT_EQ(s.tolerance, 0.01);
  EXPECT_EQ(s.tools, "");
  for (const auto& o : s.work_offsets) EXPECT_EQ(o, (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(s.g28, (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(s.start, (std::array<double, 3>{0, 0, 0}));  // the machine origin, as rs274
  EXPECT_EQ(s.initial_tool, 0);                          // an empty spindle
}

TEST_F(NcSetup, ConvertsInchAndHonoursPerSolidUnits) {
  const NcSetupFile s = parse(R"({"units": "inch",
    "stock": {"box": [0, 0, -1, 4, 2, 0]},
    "part": {"mesh": "part.stl", "units": "mm"},
    "fixtures": [{"name": "vise", "mesh": "vise.obj"}],
    "tolerance": 0.001, "work_offsets": {"G55": [1, 2, 3]}, "g28": [0, 0, 4],
    "start": [1, 0, 5]})");
  EXPECT_EQ(s.stock.box, (std::array<double, 6>{0, 0, -25.4, 101.6, 50.8, 0}));
  EXPECT_EQ(s.part.mesh_scale, 1);
  EXPECT_EQ(s.fixtures[0].mesh_scale, 25.4);
  EXPECT_EQ(s.tolerance, 0.001 * 25.4);
  EXPECT_EQ(s.work_offsets[1], (std::array<double, 3>{25.4, 50.8, 3 * 25.4}));
  EXPECT_EQ(s.g28, (std::array<double, 3>{0, 0, 101.6}));
  EXPECT_EQ(s.start, (std::array<double, 3>{25.4, 0, 127}));
}

TEST_F(NcSetup, ReadsFromAFileRelativeToItsFolder) {
  std::filesystem::create_directories(dir_ / "job" / "meshes");
  std::ofstream(dir_ / "job" / "meshes" / "p.obj") << "x";
  std::ofstream(dir_ / "job" / "setup.json")
      << R"({"stock": {"box": [0, 0, 0, 1, 1, 1]}, "part": {"mesh": "meshes/p.obj"}})";
  const NcSetupFile s = read_nc_setup((dir_ / "job" / "setup.json").string());
  EXPECT_EQ(s.part.mesh, (dir_ / "job" / "meshes" / "p.obj").string());
  const std::string missing = (dir_ / "none.json").string();
  EXPECT_THAT(io_error_of([&] { read_nc_setup(missing); }), StartsWith(missing + ": cannot open"));
}

TEST_F(NcSetup, MalformedJson) {
  const std::string truncated = R"({"stock": {"box": [0, 0)";
  EXPECT_THAT(error(truncated), StartsWith("setup.json: byte " + std::to_string(truncated.size()) +
                                           ": JSON parse error"));
  EXPECT_THAT(error(R"({"stock": {}, "stock": {}})"),
              StartsWith("setup.json: stock: duplicate key 'stock'"));
  // Not JSON at all (a CSV file given as the setup): said plainly, at its first byte.
  EXPECT_EQ(error("t,object,tx\n0,part,1\n"),
            "setup.json: byte 0: expected JSON (an object starting with '{'), got 't,object,tx'");
  EXPECT_THAT(error(" \n  solid part\n"), StartsWith("setup.json: byte 4: expected JSON"));
  EXPECT_THAT(error_with(R"(, "tolerance": 1e999)"),
              AllOf(StartsWith("setup.json: byte "),
                    HasSubstr(": tolerance: expected a number within double's range (magnitude "
                              "below 1.8e308), got 1e999")));
  EXPECT_EQ(error("42"), "setup.json: expected a JSON object at the top level, got number");
}

TEST_F(NcSetup, RejectsBadKeysAndSolids) {
  EXPECT_THAT(error_with(R"(, "fixture": [])"),
              StartsWith("setup.json: unknown key 'fixture' (expected"));
  EXPECT_EQ(error(R"({"part": {"mesh": "part.stl"}})"), "setup.json: missing key 'stock'");
  EXPECT_EQ(error(R"({"units": "yard", "stock": {}})"),
            "setup.json: units: expected \"mm\" or \"inch\", got \"yard\"");
  EXPECT_EQ(error(R"({"stock": {}})"), "setup.json: stock: missing key 'box' or 'mesh'");
  EXPECT_EQ(error(R"({"stock": {"box": [0, 0, 0, 1, 1, 1], "mesh": "stock.obj"}})"),
            "setup.json: stock: give either 'box' or 'mesh', not both");
  EXPECT_EQ(error(R"({"stock": {"box": [0, 0, 0, 1, 1]}})"),
            "setup.json: stock.box: expected [x0, y0, z0, x1, y1, z1], got an array of 5");
  EXPECT_EQ(error(R"({"stock": {"box": "0 0 0 1 1 1"}})"),
            "setup.json: stock.box: expected [x0, y0, z0, x1, y1, z1], got string");
  EXPECT_EQ(error(R"({"stock": {"box": [0, 0, 0, 1, "NaN", 1]}})"),
            "setup.json: stock.box[4]: expected a number, got string");
  EXPECT_EQ(error(R"({"stock": {"box": [5, 0, 0, 5, 1, 1]}})"),
            "setup.json: stock.box: x0 must be below x1 (got 5 and 5)");
  EXPECT_EQ(error(R"({"stock": {"box": [0, 0, 2, 1, 1, -1]}})"),
            "setup.json: stock.box: z0 must be below z1 (got 2 and -1)");
  EXPECT_EQ(error(R"({"stock": {"box": [0, 0, 0, 1, 1, 1e300]}})"),
            "setup.json: stock.box[5]: must be within +-1000000 mm (got 1e+300)");
  EXPECT_EQ(error(R"({"stock": {"box": [0, 0, 0, 1, 1, 1], "units": 1}})"),
            "setup.json: stock.units: expected a string, got number");
  EXPECT_THAT(error_with(R"(, "part": {"mesh": "part.stl", "name": "p"})"),
              StartsWith("setup.json: part: unknown key 'name'"));
}

TEST_F(NcSetup, RejectsMissingFiles) {
  EXPECT_THAT(error_with(R"(, "part": {"mesh": "nope.stl"})"),
              StartsWith("setup.json: part.mesh: file 'nope.stl' not found (looked for "));
  EXPECT_THAT(error_with(R"(, "part": {"mesh": "folder.stl"})"),
              StartsWith("setup.json: part.mesh: 'folder.stl' is not a regular file"));
  EXPECT_EQ(error_with(R"(, "part": {"mesh": ""})"),
            "setup.json: part.mesh: expected a non-empty string");
  EXPECT_EQ(error_with(R"(, "part": {"mesh": 3})"),
            "setup.json: part.mesh: expected a string, got number");
  EXPECT_THAT(error_with(R"(, "tools": "missing.json")"),
              StartsWith("setup.json: tools: file 'missing.json' not found"));
  EXPECT_THAT(error_with(R"(, "fixtures": [{"name": "vise", "mesh": "no.obj"}])"),
              StartsWith("setup.json: fixtures[0].mesh: file 'no.obj' not found"));
}

TEST_F(NcSetup, RejectsBadFixtures) {
  EXPECT_EQ(error_with(R"(, "fixtures": {"name": "a"})"),
            "setup.json: fixtures: expected an array, got object");
  EXPECT_EQ(error_with(R"(, "fixtures": [3])"),
            "setup.json: fixtures[0]: expected an object, got number");
  EXPECT_EQ(error_with(R"(, "fixtures": [{"box": [0, 0, 0, 1, 1, 1]}])"),
            "setup.json: fixtures[0]: missing key 'name'");
  EXPECT_EQ(error_with(R"(, "fixtures": [{"name": "", "box": [0, 0, 0, 1, 1, 1]}])"),
            "setup.json: fixtures[0].name: expected a non-empty string");
  EXPECT_EQ(error_with(R"(, "fixtures": [{"name": "clamp", "box": [0, 0, 0, 1, 1, 1]},
                                         {"name": "clamp", "mesh": "vise.obj"}])"),
            "setup.json: fixtures[1].name: duplicate name 'clamp' (also fixtures[0])");
  EXPECT_EQ(error_with(R"(, "fixtures": [{"name": "part", "box": [0, 0, 0, 1, 1, 1]}])"),
            "setup.json: fixtures[0].name: the name 'part' is taken by the setup's part");
  EXPECT_EQ(error_with(R"(, "fixtures": [{"name": "c", "box": [0, 0, 0, 1, 1, 0]}])"),
            "setup.json: fixtures[0].box: z0 must be below z1 (got 0 and 0)");
}

TEST_F(NcSetup, RejectsBadMachineValues) {
  EXPECT_EQ(error_with(R"(, "tolerance": -0.1)"), "setup.json: tolerance: must be >= 0 (got -0.1)");
  EXPECT_EQ(error_with(R"(, "tolerance": "0.1")"),
            "setup.json: tolerance: expected a number, got string");
  EXPECT_THAT(error_with(R"(, "work_offsets": {"G60": [0, 0, 0]})"),
              StartsWith("setup.json: work_offsets: unknown key 'G60' (expected G54, G55"));
  EXPECT_EQ(error_with(R"(, "work_offsets": [[0, 0, 0]])"),
            "setup.json: work_offsets: expected an object, got array");
  EXPECT_EQ(error_with(R"(, "work_offsets": {"G54": [0, 0]})"),
            "setup.json: work_offsets.G54: expected [x, y, z], got an array of 2");
  EXPECT_EQ(error_with(R"(, "work_offsets": {"G57": [0, null, 0]})"),
            "setup.json: work_offsets.G57[1]: expected a number, got null");
  EXPECT_EQ(error_with(R"(, "g28": 0)"), "setup.json: g28: expected [x, y, z], got number");
  EXPECT_EQ(error_with(R"(, "g30": [0, 0, -2e6])"),
            "setup.json: g30[2]: must be within +-1000000 mm (got -2000000)");
  EXPECT_EQ(error_with(R"(, "start": [0, 0])"),
            "setup.json: start: expected [x, y, z], got an array of 2");
  EXPECT_EQ(error_with(R"(, "start": [0, 0, "up"])"),
            "setup.json: start[2]: expected a number, got string");
  const std::string tool_number =
      "setup.json: initial_tool: expected a tool number, an integer from 0 (no tool) to "
      "2147483647 (got ";
  EXPECT_EQ(error_with(R"(, "initial_tool": -1)"), tool_number + "-1)");
  EXPECT_EQ(error_with(R"(, "initial_tool": 1.5)"), tool_number + "1.5)");
  EXPECT_EQ(error_with(R"(, "initial_tool": 3e9)"), tool_number + "3000000000)");
  EXPECT_EQ(error_with(R"(, "initial_tool": "1")"),
            "setup.json: initial_tool: expected a number, got string");
}

// ASCII STL stores each facet's corners separately: the check welds them, so the reader's
// unwelded cube is as closed as the welded OBJ one.
TEST(NcSetupSolids, UnweldedStlAndWeldedObjCubesAreSolids) {
  const int kFaces[12][3] = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                             {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  const auto corner = [](int i) {
    return std::to_string(i & 1) + " " + std::to_string((i >> 1) & 1) + " " +
           std::to_string((i >> 2) & 1);
  };
  std::string stl = "solid cube\n", obj;
  for (int i = 0; i < 8; ++i) obj += "v " + corner(i) + "\n";
  for (const auto& f : kFaces) {
    stl += "facet normal 0 0 0\nouter loop\n";
    for (const int v : f) stl += "vertex " + corner(v) + "\n";
    stl += "endloop\nendfacet\n";
    obj += "f " + std::to_string(f[0] + 1) + " " + std::to_string(f[1] + 1) + " " +
           std::to_string(f[2] + 1) + "\n";
  }
  stl += "endsolid cube\n";
  const Mesh soup = parse_stl(stl, "cube.stl");
  const Mesh indexed = parse_obj(obj, "cube.obj");
  EXPECT_EQ(soup.vertex_count(), 36u);
  EXPECT_EQ(indexed.vertex_count(), 8u);
  for (const Mesh* m : {&soup, &indexed}) {
    const SolidCheck c = check_solid(*m);
    EXPECT_TRUE(c.outward_solid()) << solid_problem(c);
    EXPECT_EQ(c.signed_volume, 1.0);
  }
}

// The shipped example: a setup, its tool library and its meshes all read, and every mesh is a
// closed outward solid.
TEST(NcSetupExample, ReadsTheShippedExample) {
  const std::string dir = KDOP_EXAMPLES_DIR "/nc";
  const NcSetupFile s = read_nc_setup(dir + "/setup.json");
  EXPECT_TRUE(s.stock.is_box());
  ASSERT_TRUE(s.has_part);
  ASSERT_FALSE(s.fixtures.empty());
  std::vector<const NcSetupSolid*> meshes = {&s.part};
  for (const NcSetupSolid& f : s.fixtures) meshes.push_back(&f);
  for (const NcSetupSolid* solid : meshes) {
    if (solid->is_box()) continue;
    const SolidCheck c = check_solid(read_mesh(solid->mesh));
    EXPECT_EQ(solid_problem(c), "") << solid->mesh;
  }
  ASSERT_FALSE(s.tools.empty());
  const ToolLibrary tools = read_tool_library(s.tools);
  EXPECT_GE(tools.tools.size(), 4u);
  for (const auto& [n, tool] : tools.tools) EXPECT_NO_THROW(make_tool(tool.geometry)) << n;
}

}  // namespace
}  // namespace kdop
