// NC checks on hand-built setups whose answers are known: a holder passing a clamp 0.001 mm
// away or 0.001 mm into it, a plunge 0.5 mm into the finished part, a rapid into the stock, a
// rapid through the clamp, a missing tool length offset, an arc grazing the clamp.
#include "verify/nc_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "geometry/shapes.hpp"
#include "io/mesh_writer.hpp"

namespace kdop {
namespace {

// Machine coordinates: the stock 100 x 100 x 50 with its bottom at z = -400 (G54 puts program
// zero there), the finished part its lower 40 mm, a tall clamp left of the stock.
NcSetupFile setup() {
  NcSetupFile s;
  s.file = "setup.json";
  s.stock.name = "stock";
  s.stock.box = {0, 0, -400, 100, 100, -350};
  s.has_part = true;
  s.part.name = "part";
  s.part.box = {0, 0, -400, 100, 100, -360};
  NcSetupSolid clamp;
  clamp.name = "clamp";
  clamp.box = {-30, 40, -400, -10, 60, -250};
  s.fixtures.push_back(clamp);
  s.tolerance = 0.01;
  s.work_offsets[0] = {0, 0, -400};
  return s;
}

// A 10 mm flat end mill, 20 mm flutes, shank to 50, a 40 mm holder 30 tall: gauge length 80.
ToolLibrary tools() {
  ToolLibrary t;
  t.file = "tools.json";
  ToolSpec& spec = t.tools[1];
  spec.number = 1;
  spec.geometry.shape = CutterShape::kFlat;
  spec.geometry.diameter = 10;
  spec.geometry.cutting_length = 20;
  spec.geometry.shank_diameter = 10;
  spec.geometry.length = 50;
  spec.geometry.holder = {{30, 40, 40}};
  spec.gauge_length = 80;
  return t;
}

// The findings, one per line, for failure messages.
std::string describe(const NcReport& r) {
  std::string out;
  for (const NcFinding& f : r.findings) {
    out += "line " + std::to_string(f.line) + " " + to_string(f.kind) + " " +
           to_string(f.tool_part) + " " + f.object + " depth " + std::to_string(f.depth) + " at " +
           std::to_string(f.position[0]) + "," + std::to_string(f.position[1]) + "," +
           std::to_string(f.position[2]) + (f.near ? " near" : "") + "\n";
  }
  return out;
}

// The program `text` read with the setup and tools, and checked (threads 0: all).
NcReport check_program(const std::string& text, const NcSetupFile& s, const ToolLibrary& t,
                       unsigned threads = 0) {
  const NcProgram program = parse_gcode_program(text, "test.nc", machine_setup(s, t));
  NcCheckOptions o;
  o.threads = threads;
  return *check_nc(s, t, program, o);
}

NcReport run(const std::string& body, const NcSetupFile& s = setup()) {
  return check_program("G21 G90 G54\nT1 M6\nG43 H1\n" + body + "M30\n", s, tools(), 2);
}

TEST(NcCheck, HolderPassingTheClampByOneMicron) {
  // Down beside the clamp (holder radius 20: its side 0.001 from the clamp's face x = -10),
  // 1 above the stock, then along y past the clamp.
  const NcReport miss = run("G0 X10.001 Y0\nG0 Z51\nG1 Y100 F1000\nG0 Z320\n");
  EXPECT_TRUE(miss.findings.empty());
  EXPECT_EQ(miss.summary.moves, 4u);
  EXPECT_EQ(miss.summary.unchecked_moves, 0u);
  const NcReport hit = run("G0 X9.999 Y0\nG0 Z51\nG1 Y100 F1000\nG0 Z320\n");
  ASSERT_EQ(hit.findings.size(), 1u);
  const NcFinding& f = hit.findings[0];
  EXPECT_EQ(f.kind, NcFindingKind::collision);
  EXPECT_EQ(f.tool_part, ToolPart::holder);
  EXPECT_EQ(f.object, "clamp");
  EXPECT_EQ(f.line, 6u);
  EXPECT_FALSE(f.near);
  // The holder's circle (radius 20 about x = 9.999) reaches x = -10 when it comes within
  // sqrt(20^2 - 19.999^2) of the clamp's side y = 40.
  EXPECT_NEAR(f.position[1], 40 - std::sqrt(400 - 19.999 * 19.999), 1e-3);
  EXPECT_NEAR(f.position[2], -349, 1e-9);
}

// Moves of 2 m and 200 m with a two-segment holder (its lower segment radius 12, from tip + 50
// to 65) past a rail whose face is g beside it. GJK on the whole sweep stalled on rounding and
// reported a `near` collision from a gap of 20 microns, at x = 21982 for a rail at |x| <= 10,
// with a depth of 0.0007 (a hostile probe, 2026-11-27); the halves of the sweep decide it. An
// overlap of 0.001 is found where the holder's circle first reaches the rail's corner, with its
// depth.
TEST(NcCheck, LongMovesPastARailAreDecidedToMicrons) {
  ToolLibrary t = tools();
  t.tools[1].geometry.holder = {{15, 24, 24}, {25, 32, 44}};
  t.tools[1].gauge_length = 90;
  for (const double g : {2e-5, -1e-3}) {
    NcSetupFile s;
    s.file = "setup.json";
    s.stock.name = "stock";
    s.stock.box = {5000, 5000, -100, 5010, 5010, -90};  // far away
    NcSetupSolid rail;
    rail.name = "rail";
    rail.box = {-10, 12 + g, 140, 10, 30, 160};
    s.fixtures.push_back(rail);
    s.tolerance = 0.01;
    s.start = {-100000, 0, 300};
    for (const std::string half : {"1000", "100000"}) {
      const NcReport r = check_program(
          "G21 G90 G54\nT1 M6\nG43 H1\nG0 X-" + half + " Y0 Z100\nG0 X" + half + "\nM30\n", s, t);
      if (g > 0) {
        EXPECT_TRUE(r.findings.empty()) << half << "\n" << describe(r);
        continue;
      }
      ASSERT_EQ(r.findings.size(), 1u) << half << "\n" << describe(r);
      const NcFinding& f = r.findings[0];
      EXPECT_EQ(f.kind, NcFindingKind::collision);
      EXPECT_EQ(f.tool_part, ToolPart::holder);
      EXPECT_EQ(f.object, "rail");
      EXPECT_FALSE(f.near);
      EXPECT_NEAR(f.depth, 1e-3, 2e-6) << half;
      EXPECT_NEAR(f.position[0], -10 - std::sqrt(144 - (12 + g) * (12 + g)), 1e-3) << half;
    }
  }
}

// A necked ball or bull-nose mill (6 mm, flutes 12 long, shank 4 mm) passes under an overhang
// 2.5 mm from its axis: above the flutes only the shank passes, 0.5 mm clear. The cutter body
// was rounded on top up to 12 + the corner radius and reported a 0.31 mm gouge (a hostile
// probe, 2026-11-27); capped at the cutting length it finds nothing there, and 0.1 mm lower the
// overhang is a 0.1 mm gouge.
TEST(NcCheck, NecksAboveBallAndBullCuttersAreNotTheCutter) {
  for (const double corner : {3.0, 2.5}) {
    ToolLibrary t = tools();
    ToolSpec& spec = t.tools[1];
    spec.geometry.shape = corner == 3.0 ? CutterShape::kBall : CutterShape::kBullNose;
    spec.geometry.corner_radius = corner == 3.0 ? 0.0 : corner;
    spec.geometry.diameter = 6;
    spec.geometry.cutting_length = 12;
    spec.geometry.shank_diameter = 4;
    spec.geometry.length = 40;
    spec.geometry.holder = {{20, 30, 30}};
    spec.gauge_length = 60;
    for (const double bottom : {13.0, 12.0, 11.9}) {
      NcSetupFile s;
      s.file = "setup.json";
      s.stock.name = "stock";
      s.stock.box = {-100, -100, -300, -90, -90, -290};  // far away
      s.has_part = true;
      s.part.name = "part";
      s.part.box = {2.5, -20, bottom, 50, 20, 20};
      s.tolerance = 0.01;
      s.start = {0, 0, 200};
      const NcReport r = check_program(
          "G21 G90 G54\nT1 M6\nG43 H1\nG0 X-20 Y0 Z0\nG1 X0 F100\nG1 X-20\nG0 Z100\nM30\n", s, t,
          2);
      if (bottom >= 12) {
        EXPECT_TRUE(r.findings.empty()) << "corner " << corner << " bottom " << bottom << "\n"
                                        << describe(r);
        continue;
      }
      ASSERT_EQ(r.findings.size(), 2u) << describe(r);
      for (const NcFinding& f : r.findings) {
        EXPECT_EQ(f.kind, NcFindingKind::gouge);
        EXPECT_NEAR(f.depth, 0.1, 1e-5) << describe(r);
      }
    }
  }
}

TEST(NcCheck, PlungeGougingHalfAMillimetre) {
  const NcReport r = run("G0 X50 Y50\nG0 Z52\nG1 Z39.5 F100\nG0 Z320\n");
  ASSERT_EQ(r.findings.size(), 1u) << describe(r);
  const NcFinding& f = r.findings[0];
  EXPECT_EQ(f.kind, NcFindingKind::gouge);
  EXPECT_EQ(f.object, "part");
  EXPECT_EQ(f.line, 6u);
  EXPECT_NEAR(f.depth, 0.5, 1e-5);
  EXPECT_DOUBLE_EQ(r.summary.max_gouge_depth, f.depth);
  // Within the tolerance: no gouge.
  EXPECT_TRUE(run("G0 X50 Y50\nG0 Z52\nG1 Z39.995 F100\nG0 Z320\n").findings.empty());
  // 0.5e-6 beyond the tolerance: reported (never missed) but marked near, since it is within
  // delta = 1e-6 of the threshold; 1e-5 beyond: a plain gouge.
  const NcReport near = run("G0 X50 Y50\nG0 Z52\nG1 Z39.9899995 F100\nG0 Z320\n");
  ASSERT_EQ(near.findings.size(), 1u) << describe(near);
  EXPECT_TRUE(near.findings[0].near);
  EXPECT_NEAR(near.findings[0].depth, 0.0100005, 1.1e-6);
  const NcReport beyond = run("G0 X50 Y50\nG0 Z52\nG1 Z39.98999 F100\nG0 Z320\n");
  ASSERT_EQ(beyond.findings.size(), 1u) << describe(beyond);
  EXPECT_FALSE(beyond.findings[0].near);
  EXPECT_NEAR(beyond.findings[0].depth, 0.01001, 1.1e-6);
}

TEST(NcCheck, RapidIntoTheStockAndThroughTheClamp) {
  const NcReport r = run("G0 X50 Y50\nG0 Z45\nG1 Z52 F100\nG0 Z320\n");
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, NcFindingKind::rapid_into_material);
  EXPECT_EQ(r.findings[0].object, "stock");
  // Judged on the height field of the box stock: nothing was cut yet, so it stands.
  EXPECT_FALSE(r.findings[0].initial_stock);
  EXPECT_EQ(r.summary.stock_model, "height_field");
  EXPECT_EQ(r.findings[0].line, 5u);
  // The tip enters the stock's top z = 50 (machine -350).
  EXPECT_NEAR(r.findings[0].position[2], -350, 1e-3);

  // Through the clamp, and then (line 7) up out of it.
  const NcReport c = run("G0 X50 Y50\nG0 Z70\nG0 X-20\nG0 Z320\n");
  ASSERT_FALSE(c.findings.empty());
  EXPECT_EQ(c.findings[0].line, 6u) << describe(c);
  bool cutter_in_clamp = false;
  for (const NcFinding& f : c.findings) {
    EXPECT_EQ(f.kind, NcFindingKind::collision);
    EXPECT_EQ(f.object, "clamp");
    cutter_in_clamp = cutter_in_clamp || f.tool_part == ToolPart::cutter;
  }
  EXPECT_TRUE(cutter_in_clamp);
}

TEST(NcCheck, MissingToolLengthOffsetIsACollision) {
  const NcSetupFile s = setup();
  const ToolLibrary t = tools();
  // No G43: the program's Z51 puts the gauge point there and the tip 80 lower, under the stock:
  // the shank goes through the stock and the part.
  const NcReport r = check_program("G21 G90 G54\nT1 M6\nG0 X50 Y50\nG0 Z51\nM30\n", s, t);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].line, 4u) << describe(r);
}

TEST(NcCheck, ArcsAreCheckedAlongTheCurve) {
  // Clockwise half circles about (20, 50), 1 above the stock, from the right to the leftmost
  // point: the holder (radius 20) reaches x = 20 - radius - 20 there, the clamp's face is x = -10.
  // Radius 30: deep into the clamp.
  const NcReport deep = run("G0 X50 Y50\nG0 Z51\nG2 X-10 Y50 I-30 J0 F500\nG0 Z320\n");
  ASSERT_FALSE(deep.findings.empty());
  EXPECT_EQ(deep.findings[0].line, 6u);
  // Radius 9.99: 0.01 short of the clamp (the chords' inflation, 0.001, must not reach it).
  EXPECT_TRUE(
      run("G0 X29.99 Y50\nG0 Z51\nG2 X10.01 Y50 I-9.99 J0 F500\nG0 Z320\n").findings.empty());
  // Radius 10.01: 0.01 into it, at the arc's leftmost point only.
  const NcReport in = run("G0 X30.01 Y50\nG0 Z51\nG2 X9.99 Y50 I-10.01 J0 F500\nG0 Z320\n");
  // The arc (line 6) ends 0.01 inside the clamp, and the retract (line 7) leaves it.
  ASSERT_EQ(in.findings.size(), 2u) << describe(in);
  for (const NcFinding& f : in.findings) {
    EXPECT_EQ(f.tool_part, ToolPart::holder);
    EXPECT_EQ(f.object, "clamp");
  }
  EXPECT_EQ(in.findings[0].line, 6u);
  EXPECT_NEAR(in.findings[0].position[0], 9.99, 0.05);
}

// A pocket 4 deep (to Z46, the part's top is Z40) in passes 4 apart, then a rapid down into it
// and a rapid from it through its wall.
std::string pocket_then_rapids() {
  std::string p = "G0 X20 Y20\nG0 Z51\nG1 Z46 F300\n";
  for (int y = 20; y <= 80; y += 4) {
    const std::string ys = std::to_string(y);
    p += (y / 4) % 2 == 1 ? "G1 X20 Y" + ys + "\nG1 X80 Y" + ys + "\n"
                          : "G1 X80 Y" + ys + "\nG1 X20 Y" + ys + "\n";
  }
  return p + "G0 Z60\nG0 X50 Y50\nG0 Z47\nG0 X50 Y95\nG0 Z320\n";
}

TEST(NcCheck, BoxStockIsFollowedAsItIsCut) {
  // On the height field, the rapid down into the pocket is clear (the initial stock would call it
  // a rapid into material) and the one through the wall stays.
  const NcReport r = run(pocket_then_rapids());
  ASSERT_EQ(r.findings.size(), 1u) << describe(r);
  const NcFinding& f = r.findings[0];
  EXPECT_EQ(f.kind, NcFindingKind::rapid_into_material);
  EXPECT_EQ(f.object, "stock");
  EXPECT_EQ(f.block, "G0 X50 Y95");
  EXPECT_FALSE(f.initial_stock);
  EXPECT_FALSE(f.near);
  // The last pass (y = 80) cut to y = 85, up to the cells' over-estimate; the rapid's cutter
  // (radius 5) reaches the wall with its axis there.
  EXPECT_GT(f.position[1], 79.0);
  EXPECT_LE(f.position[1], 80.0 + 1e-3);
  EXPECT_NEAR(f.position[2], -353, 1e-9);
  EXPECT_EQ(r.summary.stock_model, "height_field");
  EXPECT_EQ(r.summary.cleared_by_stock_model, 1u);
  EXPECT_GT(r.summary.stock_cell, 0);
}

TEST(NcCheck, TinyStockGetsTheDefaultCellFloor) {
  // A 1 mm cube of stock under the 10 mm cutter: about 10^6 cells would be 0.001 mm, and every cut
  // would reach all of them. The default cell stops at 0.01 mm, and the rapid into the uncut stock
  // is still found after the replay.
  NcSetupFile s = setup();
  s.has_part = false;
  s.fixtures.clear();
  s.stock.box = {0, 0, -351, 1, 1, -350};
  const NcReport r = run("G0 X0.5 Y0.5\nG0 Z51\nG0 Z49.5\nG1 X1 F800\nG0 Z320\n", s);
  ASSERT_EQ(r.findings.size(), 1u) << describe(r);
  EXPECT_EQ(r.findings[0].kind, NcFindingKind::rapid_into_material);
  EXPECT_EQ(r.findings[0].line, 6u);
  EXPECT_EQ(r.summary.stock_model, "height_field");
  EXPECT_NEAR(r.summary.stock_cell, 0.01, 1e-12);
  // A cell asked for is used as given.
  NcCheckOptions o;
  o.stock_cell = 0.02;
  const NcProgram program = parse_gcode_program(
      "G21 G90 G54\nT1 M6\nG43 H1\nG0 X0.5 Y0.5\nG0 Z51\nG0 Z49.5\nG0 Z320\nM30\n", "test.nc",
      machine_setup(s, tools()));
  EXPECT_NEAR(check_nc(s, tools(), program, o)->summary.stock_cell, 0.02, 1e-12);
}

TEST(NcCheck, MeshStockIsFollowedAsItIsCutToo) {
  // The same stock as a mesh: its height field bounds it from above cell by cell, so the rapid
  // into the pocket is cleared as for the box, and the one through the wall stays.
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / "kdop_nc_mesh_stock";
  std::filesystem::create_directories(dir);
  NcSetupFile s = setup();
  s.stock.box = {};
  s.stock.mesh = (dir / "stock.obj").string();
  write_file_atomic(s.stock.mesh, format_obj(make_box({0, 0, -400}, {100, 100, -350})));
  const NcReport r = run(pocket_then_rapids(), s);
  ASSERT_EQ(r.findings.size(), 1u) << describe(r);
  EXPECT_EQ(r.findings[0].block, "G0 X50 Y95");
  EXPECT_EQ(r.findings[0].kind, NcFindingKind::rapid_into_material);
  EXPECT_FALSE(r.findings[0].initial_stock);
  // The tip 3 below the material's top: the cutter is 3 deep in the wall's columns.
  EXPECT_NEAR(r.findings[0].depth, 3, 1e-5);
  EXPECT_EQ(r.summary.stock_model, "height_field");
  EXPECT_EQ(r.summary.cleared_by_stock_model, 1u);
  std::filesystem::remove_all(dir);
}

// A retract is a rapid too: rising from under the part into it is found, whatever the shank
// (here narrower than the cutter, so only the cutter meets the part); rising out of a cut or a
// gouge is not a rapid into material.
// A plate hanging in the air (stock and part 10 thick, program z 60 to 70, x >= 0) and a tool
// with a 4 mm shank on its 10 mm cutter. Beside the plate at tip z 25, the cutter (x -8 to 2)
// slides under its edge while the shank (x -5 to -1) stays beside it and the holder (from tip
// + 50) above it; then straight up to tip z `rise_to`: the cutter's top (tip + 20) enters the
// plate at tip 40.
NcReport retract_under_a_plate(int rise_to) {
  NcSetupFile s = setup();
  s.fixtures.clear();
  s.part.box = {0, 0, -340, 100, 100, -330};
  s.stock.box = {0, 0, -340, 100, 100, -330};
  ToolLibrary t = tools();
  t.tools[1].geometry.shank_diameter = 4;
  return check_program("G21 G90 G54\nT1 M6\nG43 H1\nG0 X-30 Y50 Z25\nG0 X-3\nG0 Z" +
                           std::to_string(rise_to) + "\nM30\n",
                       s, t);
}

// The findings of retract_under_a_plate: the part and the stock entered at tip 40, depth 2.
void expect_plate_entered(const NcReport& r) {
  ASSERT_EQ(r.findings.size(), 2u) << describe(r);
  for (const NcFinding& f : r.findings) {
    EXPECT_EQ(f.line, 6u) << describe(r);
    EXPECT_EQ(f.kind, NcFindingKind::rapid_into_material);
    EXPECT_NEAR(f.position[2], -360, 1e-3) << describe(r);  // tip 40
    EXPECT_NEAR(f.depth, 2, 1e-5) << describe(r);
  }
  EXPECT_EQ(r.findings[0].object, "part");
  EXPECT_EQ(r.findings[1].object, "stock");
}

TEST(NcCheck, RetractsIntoMaterialAreFound) {
  // 5 of the cutter's top in at the end, eroded from the side: depth 2 to the plate's edge x = 0.
  const NcReport r = retract_under_a_plate(45);
  expect_plate_entered(r);
  for (const NcFinding& f : r.findings) EXPECT_EQ(f.tool_part, ToolPart::cutter);
  // Out of a cut: a plunge 2 into the stock (above the part) and straight up is clean.
  EXPECT_TRUE(run("G0 X50 Y50\nG0 Z52\nG1 Z48 F100\nG0 Z320\n").findings.empty());
}

// The same retract, on up past the plate: the cutter at its end (tip 90, the plate's top at 70)
// meets nothing, and the depth is how far the eroded cutter's top disc still crosses the plate on
// the way: 2 again, for the stock too (its depth on the height field was 0).
TEST(NcCheck, RisesPastMaterialHaveTheirDepth) {
  expect_plate_entered(retract_under_a_plate(90));
}

// A 10 mm flat cutter ramps down through the stock (top at 50) from x 20, z 55 to x 40, z 35;
// the material it leaves at x is 70 - x (its lowest pass over x is at x + 5, where its rim last
// covers it). A 4 mm cutter then rapids down at x 35: the highest material under it is at its
// edge x = 33, z 37. The stock as cut kept the height at the ramp's closest pass over each cell
// (z 40 at x 35) and reported a rapid into 3 mm of material that was cut (a hostile probe,
// 2026-11-27); it now follows each cell down to the ramp's lowest pass over it, to within the
// field's over-estimate (0.1 mm cells on a 45 degree slope: about 0.15 mm).
TEST(NcCheck, RampsCutEachCellDownToTheirLowestPassOverIt) {
  NcSetupFile s = setup();
  s.has_part = false;
  ToolLibrary t = tools();
  t.tools[2] = t.tools[1];
  t.tools[2].number = 2;
  t.tools[2].geometry.diameter = 4;
  t.tools[2].geometry.shank_diameter = 4;
  for (const double depth : {37.3, 36.9}) {
    char z[32];
    std::snprintf(z, sizeof z, "%.1f", depth);
    const NcReport r = check_program(
        std::string("G21 G90 G54\nT1 M6\nG43 H1\nG0 X20 Y50 Z60\nG1 Z55 F100\nG1 X40 Z35\n"
                    "G0 Z60\nT2 M6\nG43 H2\nG0 X35 Y50 Z60\nG0 Z") +
            z + "\nG0 Z60\nM30\n",
        s, t);
    if (depth > 37) {
      EXPECT_TRUE(r.findings.empty()) << describe(r);
      continue;
    }
    ASSERT_EQ(r.findings.size(), 1u) << describe(r);
    EXPECT_EQ(r.findings[0].kind, NcFindingKind::rapid_into_material);
    EXPECT_EQ(r.findings[0].object, "stock");
    EXPECT_EQ(r.findings[0].line, 11u);
  }
}

// tools() and tool 2: tool 1 20 mm longer (shank to 70, gauge length 100).
ToolLibrary tools_with_a_longer_one() {
  ToolLibrary two = tools();
  ToolSpec& longer = two.tools[2];
  longer = two.tools[1];
  longer.number = 2;
  longer.geometry.length = 70;
  longer.gauge_length = 100;
  return two;
}

// A rise is checked from its start unless the previous move brought the same tool there: at the
// program's start, and after a tool change (the new tool appears at the old tip position), the
// tool's start position was never checked by any move.
TEST(NcCheck, RisesWithNoMoveBeforeThemAreCheckedFromTheirStart) {
  // The program starts with the tip 5 deep in the part (machine z -365; the gauge point 80 above)
  // and the flutes' top 5 above the stock; it rises at once.
  NcSetupFile s = setup();
  s.fixtures.clear();
  s.start = {50, 50, -285};
  s.initial_tool = 1;
  const ToolLibrary t = tools();
  const NcReport r = check_program("G21 G90 G54\nG43 H1\nG0 Z320\nM30\n", s, t);
  ASSERT_EQ(r.findings.size(), 2u) << describe(r);
  for (const NcFinding& f : r.findings) {
    EXPECT_EQ(f.line, 3u);
    EXPECT_EQ(f.kind, NcFindingKind::rapid_into_material);
    EXPECT_NEAR(f.position[2], -365, 1e-3) << describe(r);
  }
  EXPECT_EQ(r.findings[0].object, "part");
  EXPECT_EQ(r.findings[1].object, "stock");
  // Tool 1 stops with its tip 5 above the stock; tool 2, 20 longer, comes in at M6 with tool 1's
  // length offset still in effect: its tip is 15 deep in the stock, 5 in the part.
  const ToolLibrary two = tools_with_a_longer_one();
  NcSetupFile s2 = setup();
  s2.fixtures.clear();
  const NcReport c =
      check_program("G21 G90 G54\nT1 M6\nG43 H1\nG0 X50 Y50 Z55\nT2 M6\nG0 Z320\nM30\n", s2, two);
  ASSERT_EQ(c.findings.size(), 2u) << describe(c);
  for (const NcFinding& f : c.findings) {
    EXPECT_EQ(f.line, 6u);
    EXPECT_EQ(f.kind, NcFindingKind::rapid_into_material);
    EXPECT_NEAR(f.position[2], -365, 1e-3) << describe(c);
  }
  // Its own offset (G43 H2) moves nothing: the tip is still in the stock (line 7). Changing 20
  // higher up leaves tool 2's tip 5 above the stock: clean.
  const NcReport still = check_program(
      "G21 G90 G54\nT1 M6\nG43 H1\nG0 X50 Y50 Z55\nT2 M6\nG43 H2\nG0 Z320\nM30\n", s2, two);
  ASSERT_EQ(still.findings.size(), 2u) << describe(still);
  EXPECT_EQ(still.findings[0].line, 7u);
  const NcReport o = check_program(
      "G21 G90 G54\nT1 M6\nG43 H1\nG0 X50 Y50 Z75\nT2 M6\nG43 H2\nG0 Z320\nM30\n", s2, two);
  EXPECT_TRUE(o.findings.empty()) << describe(o);
}

// The same for a feed: cutting is allowed, but not where the tool appeared without a move (found
// in review: a feed after M6 or at the program's start was never checked against the stock
// there). Tool 2, 20 longer, comes in with its tip 5 deep in the stock, above the part.
TEST(NcCheck, FeedsWithNoMoveBeforeThemAreCheckedAtTheirStart) {
  const ToolLibrary two = tools_with_a_longer_one();
  NcSetupFile s = setup();
  s.fixtures.clear();
  const std::string change = "G21 G90 G54\nT1 M6\nG43 H1\nG0 X50 Y50 Z65\nT2 M6\n";
  for (const std::string feed : {"G1 X55 F100", "G1 Z66 F100", "G2 X60 I5 F100"}) {
    const NcReport r = check_program(change + feed + "\nG0 Z320\nM30\n", s, two);
    ASSERT_EQ(r.findings.size(), 1u) << feed << "\n" << describe(r);
    const NcFinding& f = r.findings[0];
    EXPECT_EQ(f.line, 6u) << feed;
    EXPECT_EQ(f.kind, NcFindingKind::rapid_into_material);
    EXPECT_EQ(f.object, "stock");
    EXPECT_FALSE(f.initial_stock);  // confirmed on the height field
    EXPECT_NEAR(f.position[2], -355, 1e-9) << feed;
    EXPECT_NEAR(f.depth, 5, 1e-5) << feed;
  }
  // Tool 1 fed to the same place and on: clean.
  const NcReport fed = check_program(
      "G21 G90 G54\nT1 M6\nG43 H1\nG0 X50 Y50 Z55\nG1 Z45 F100\nG1 X55\nG0 Z320\nM30\n", s, two);
  EXPECT_TRUE(fed.findings.empty()) << describe(fed);
  // The program's first move, a feed, with tool 1's tip 5 in the stock at the start.
  NcSetupFile at_start = s;
  at_start.start = {50, 50, -275};
  at_start.initial_tool = 1;
  const NcReport r =
      check_program("G21 G90 G54\nG43 H1\nG1 Z50 F100\nG0 Z320\nM30\n", at_start, two);
  ASSERT_EQ(r.findings.size(), 1u) << describe(r);
  EXPECT_EQ(r.findings[0].line, 3u);
  EXPECT_EQ(r.findings[0].object, "stock");
  EXPECT_NEAR(r.findings[0].depth, 5, 1e-5);
}

// G83 pecks and re-plunges into a drilled hole: the rapids back down the hole meet only what the
// drill removed, on a box stock and on a mesh stock; a rapid down beside the hole is still found.
TEST(NcCheck, PeckDrillingRapidsStayInTheHole) {
  const std::string pecks =
      "G0 X50 Y50\nG0 Z60\nG98 G83 X50 Y50 Z35 R52 Q4 F100\nG80\nG0 Z60\nG0 Z49\n"
      "G0 Z320\n";
  NcSetupFile s = setup();
  s.has_part = false;
  const NcReport box = run(pecks, s);
  EXPECT_TRUE(box.findings.empty()) << describe(box);
  // Four re-entries after the pecks at 48, 44, 40 and 36, and the re-plunge: found against the
  // initial stock, cleared on the field.
  EXPECT_EQ(box.summary.cleared_by_stock_model, 5u);
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "kdop_nc_pecks";
  std::filesystem::create_directories(dir);
  NcSetupFile m = s;
  m.stock.box = {};
  m.stock.mesh = (dir / "stock.obj").string();
  write_file_atomic(m.stock.mesh, format_obj(make_box({0, 0, -400}, {100, 100, -350})));
  const NcReport mesh = run(pecks, m);
  EXPECT_TRUE(mesh.findings.empty()) << describe(mesh);
  std::filesystem::remove_all(dir);
  // 0.5 beside the hole: the re-plunge enters the wall.
  const NcReport beside =
      run("G0 X50 Y50\nG0 Z60\nG98 G83 X50 Y50 Z35 R52 Q4 F100\nG80\nG0 X50.5\nG0 Z40\n"
          "G0 Z320\n",
          s);
  ASSERT_EQ(beside.findings.size(), 1u) << describe(beside);
  EXPECT_EQ(beside.findings[0].block, "G0 Z40");
}

// An arc in the XY plane at a constant height is checked with the tool grown sideways only (its
// chords are at the arc's height): 0.0095 deep with a tolerance of 0.01 is no gouge, as for a line.
TEST(NcCheck, LevelArcsDoNotGrowDownwards) {
  NcSetupFile s = setup();
  s.stock.box = s.part.box;  // finishing: nothing above the part
  const NcReport line = run("G0 X20 Y50\nG0 Z41\nG1 Z39.9905 F100\nG1 X80\nG0 Z320\n", s);
  EXPECT_TRUE(line.findings.empty()) << describe(line);
  const NcReport arc = run("G0 X20 Y50\nG0 Z41\nG1 Z39.9905 F100\nG2 X80 Y50 I30 J0\nG0 Z320\n", s);
  EXPECT_TRUE(arc.findings.empty()) << describe(arc);
  // 0.5 deep it is a gouge, and not near.
  const NcReport deep = run("G0 X20 Y50\nG0 Z41\nG1 Z39.5 F100\nG2 X80 Y50 I30 J0\nG0 Z320\n", s);
  ASSERT_EQ(deep.findings.size(), 2u) << describe(deep);  // the plunge and the arc
  EXPECT_EQ(deep.findings[1].line, 7u);
  EXPECT_NEAR(deep.findings[1].depth, 0.5, 1e-5);
  EXPECT_FALSE(deep.findings[1].near);
}

// A composite outline is checked like the built-in shape it draws: a 90-degree point on a 10 mm
// cylinder as "cone" and as "composite" give the same gouge, 0.5 / sqrt(2) deep for a plunge of
// its point 0.5 into the part (the point rises by s sqrt(2) when eroded by s).
TEST(NcCheck, CompositeCutterMatchesTheSameCone) {
  const NcSetupFile s = setup();
  ToolLibrary cone = tools();
  ToolParameters& c = cone.tools[1].geometry;
  c.shape = CutterShape::kCone;
  c.included_angle = 90;
  ToolLibrary composite = tools();
  ToolParameters& p = composite.tools[1].geometry;
  p.shape = CutterShape::kComposite;
  p.profile = {{0, 0}, {5, 5}, {20, 5}};
  const std::string text =
      "G21 G90 G54\nT1 M6\nG43 H1\nG0 X50 Y50\nG0 Z52\nG1 Z39.5 F100\nG0 Z320\nM30\n";
  std::vector<NcReport> reports;
  for (const ToolLibrary* t : {&cone, &composite}) reports.push_back(check_program(text, s, *t));
  ASSERT_EQ(reports[0].findings.size(), 1u) << describe(reports[0]);
  ASSERT_EQ(reports[1].findings.size(), 1u) << describe(reports[1]);
  for (const NcReport& r : reports) {
    EXPECT_EQ(r.findings[0].kind, NcFindingKind::gouge);
    EXPECT_NEAR(r.findings[0].depth, 0.5 / std::sqrt(2.0), 1e-5);
    EXPECT_NEAR(r.findings[0].position[2], -360 - 0.01 * std::sqrt(2.0), 1e-3);
  }
}

// Collisions report how deep the tool part goes: the holder 5 into the clamp's side.
TEST(NcCheck, CollisionDepth) {
  // Holder radius 20 about x = 5: its side at x = -15, 5 into the clamp (face x = -10).
  const NcReport r = run("G0 X5 Y0\nG0 Z85\nG0 Y50\nG0 Z320\n");
  ASSERT_FALSE(r.findings.empty()) << describe(r);
  const NcFinding& f = r.findings[0];
  EXPECT_EQ(f.tool_part, ToolPart::holder);
  EXPECT_NEAR(f.depth, 5, 1e-5);
}

}  // namespace
}  // namespace kdop
