#pragma once
// Verifying an NC program before the machine runs it (issue 7, `kdop nc`): every move of the
// expanded program (io/gcode_program.hpp) with the tool in the spindle (io/tool_library.hpp,
// geometry/revolved_solid.hpp) against the setup's stock, finished part and fixtures
// (io/nc_setup.hpp), continuously along the move. 3-axis moves are pure translations of the tool:
// lines are checked exactly as sweeps; arcs are split into chords with the tool inflated by the
// chord's sagitta, so nothing between the chord and the arc is missed (sideways only for an arc
// in the XY plane at one height, whose chords are at its height; in every direction otherwise). A
// contact found on an arc is `near` unless the tool at a point of the arc itself makes it, and a
// gouge within the sagitta of the tolerance is `near`.
//
// Findings, per move:
// - collision: the holder or shank touches the stock, the part or a fixture; the cutter touches a
//   fixture. "Touches" is volumetric: a tool part wholly inside a solid collides too. The depth
//   is the largest erosion of the tool part that still touches (part by part for the unions of
//   shank and holder frustums: a lower bound).
// - rapid_into_material: a rapid (G0, or a canned cycle's rapid) whose cutter enters the part
//   or the stock, straight retracts included (one rising from under an overhang, or from under
//   material a cutter wider than its shank left above its flutes, enters it). What a rise sweeps
//   beyond its start is its cutter's top disc swept along it and the cutter at its end (every
//   column of a cutter reaches up to its top plane), so rising out of a cut or a gouge is not a
//   rapid into material: what the cutter meets at its start belongs to the move that brought it.
//   Where no move brought it (the program's start, M6, a G43/G49 change: the tool appears without
//   moving), the cutter at the next move's start is checked too, for a feed as for a rapid.
//   The depth is the largest erosion of the cutter that still meets (as for gouges).
// The stock: every move is first checked against the initial stock, in parallel. The stock is then
// followed as it is cut: the findings against it are judged again, in program order, on a height
// field of the material the earlier feeds left (geometry/stock_height_field.hpp; a box stock
// exactly, a mesh stock from a field that bounds it from above), which holds at least the real
// material, so a finding it clears is a false alarm and one it keeps meets material left to within
// the field's over-estimate. Vertical rapids of the cutter inside a hole that its own vertical
// feeds drilled at that (x, y) (G83 pecks, re-plunges) are judged only where they leave the hole.
// - gouge: the cutter enters the finished part deeper than the tolerance. The depth of a cutter
//   position is the largest s such that the cutter eroded by s still meets the part
//   (geometry/cutter_body.hpp); the move's depth is the largest over its positions, found by
//   bisection on s to within delta.
// Decisions are conservative within delta (1e-6 mm): distances come with certified bounds
// (geometry/convex_distance.hpp), a pair whose lower bound is within delta is a finding, and one
// that is not proved to reach the threshold (only within delta of it) is marked `near`.
//
// Tool position: the moves give the tip for the tool length offset in effect (G43); the tool
// really in the spindle reaches gauge_length below the gauge point, so the checked tip is
// the move's tip + (0, 0, offset in effect - gauge_length). A missing or wrong G43 thus shows up
// as the collision it would cause. Moves with no tool in the spindle are not checked (counted).
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "builders/build_config.hpp"
#include "io/gcode_program.hpp"
#include "io/nc_report.hpp"
#include "io/nc_setup.hpp"
#include "io/tool_library.hpp"

namespace kdop {

struct NcCheckOptions {
  double tolerance = -1;  // gouge threshold, mm (< 0: the setup's)
  double delta = 1e-6;
  double arc_sagitta = 1e-3;  // the largest chord sagitta, mm (the tool grows by it)
  // The stock's height-field cell, mm (0: about 10^6 cells, about 0.01 mm at the smallest).
  double stock_cell = 0;
  unsigned threads = 0;  // 0: every hardware thread
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
  const std::atomic<bool>* cancel = nullptr;
  BeforeBuild before_build;  // set: asked before each mesh solid's hierarchy is built
};

// Checks `program` on `setup` with `tools`. Reads the setup's meshes (IoError for unreadable
// files or meshes that are not closed outward solids); std::invalid_argument for inconsistent
// options. Returns nullopt when cancelled.
std::optional<NcReport> check_nc(const NcSetupFile& setup, const ToolLibrary& tools,
                                 const NcProgram& program, const NcCheckOptions& options);

// The machine setup the G-code reader needs: work offsets, stored positions, the start position
// and the tool in the spindle at the start, and the tool lengths (each tool's gauge length) that
// G43 applies.
NcSetup machine_setup(const NcSetupFile& setup, const ToolLibrary& tools);

}  // namespace kdop
