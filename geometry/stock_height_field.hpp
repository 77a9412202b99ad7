#pragma once
// The stock as material is removed: a height field over a grid of cells (issue 7's "stock model
// that removes material"; the dexel idea with one dexel per cell, for 3-axis tools cutting from
// above). Each cell stores an UPPER bound of the material's top over the whole cell: the material
// left lies inside the union of the columns cell x [z_bottom, top]. Removal only lowers a top where
// it is proved that the cutter swept everything above the new value over the whole cell, so the
// field always holds at least the real material: a tool that misses the field misses the real
// stock (never a missed finding), and one that meets it may still miss the real stock by up to the
// field's over-estimate (the cutter profile's rise over a cell's half-diagonal; 0.002 mm for a
// 6 mm ball and 0.17 mm cells).
//
// Removal by a cutter swept along [from, to]: for a cell with centre q and half-diagonal e, and
// any time t of the move, every point p of the cell is at most |q - P(t)|_xy + e from the axis,
// and the cutter's lowest height is non-decreasing in that distance (revolved_solid.hpp,
// lowest_z_at), so the cutter at t covers every column of the cell from
// P(t).z + lowest_z_at(|q - P(t)| + e) up to P(t).z + top of the cutter (a convex body holds the
// vertical segment between its lowest and highest points). When that top is above the cell's
// top, the new top is the bound; any t gives a valid bound, the move takes the best of a few.
//
// Contact of a tool part swept along [from, to] with the field: branch and bound over the move's
// time per cell. A time interval's lower bound is the least height of the tool's tip over it plus
// the tool's lowest height at the least horizontal distance between the cell and the interval's
// axis positions; a witness (a point of the cell at one time) proves contact.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "geometry/cutter_body.hpp"
#include "geometry/mesh.hpp"
#include "geometry/revolved_solid.hpp"
#include "geometry/vec3.hpp"

namespace kdop {

// Upper bounds of the cells' tops over square blocks of `span` x `span` cells (the last row and
// column of blocks may hold fewer), index bi + nx * bj.
struct FieldBlocks {
  std::size_t span = 0;
  std::size_t nx = 0, ny = 0;
  std::vector<double> top;
};

// Blocks of 4 x 4 cells, then of 4 x 4 such blocks, and so on: the contact and rise tests skip a
// block whose bound the tool stays clear of, so their cost follows the material near the tool, not
// the number of cells under it (a holder's 44 mm footprint covers 270,000 cells of 0.076 mm).
inline constexpr std::size_t kFieldBlock = 4;

struct StockHeightField {
  double x0 = 0, y0 = 0;          // the grid's corner
  double cell_x = 0, cell_y = 0;  // cell sizes
  std::size_t nx = 0, ny = 0;
  double z_bottom = 0;
  std::vector<double> top;  // nx * ny, index i + nx * j; top <= z_bottom: no material
  // Finest level first, up to one of at most kFieldBlock x kFieldBlock blocks. Each bound is at
  // least the top of every cell in its block: lowering `top` keeps that (a bound only loosens),
  // raising it needs refresh_blocks.
  std::vector<FieldBlocks> blocks;

  std::size_t cells() const { return nx * ny; }
};

// Recomputes every block bound from the cells' tops (the make_ functions call it).
void refresh_blocks(StockHeightField& field);

// Recomputes the bounds of the blocks within `radius` of the segment's horizontal bounding box,
// after remove_swept lowered cells there: the bounds tighten again to the material left.
void refresh_blocks_near(StockHeightField& field, Vec3 from, Vec3 to, double radius);

// A box stock [lo, hi] as cells of about `cell` mm (> 0; the box is split into whole cells, each
// at most `cell` wide). Throws std::invalid_argument for an empty box, a bad cell size, or more
// than `max_cells` cells.
StockHeightField make_stock_height_field(AxisBox box, double cell, std::size_t max_cells);

// A mesh stock (a closed solid) bounded the same way: cells over its bounding box, each top the
// highest point of the surface over the cell (every triangle clipped to the cell's rectangle: a
// vertical line through the solid leaves it through the surface, above every point of the solid
// on that line), z_bottom its lowest point, cells the surface does not reach empty. Throws as
// above.
StockHeightField mesh_stock_height_field(const Mesh& mesh, double cell, std::size_t max_cells);

// The cell size that splits the box into about `cells` square cells.
double cell_size_for(AxisBox box, std::size_t cells);

// A cutter's lowest height against the distance from its axis, tabulated for removal (the inner
// loop of a replay visits about a thousand cells per move): lowest[k] is lowest_z_at(k * step),
// k = 0..n, step = reach / n. The height is non-decreasing in the distance, so lowest[k + 1]
// bounds it from above over [k step, (k + 1) step].
struct CutterProfile {
  double z_hi = 0;   // the cutter cuts every column it spans up to here (a convex body's top)
  double reach = 0;  // no point farther than this from the axis
  double step = 0;
  std::vector<double> lowest;  // n + 1 values; empty for an empty cutter
};

CutterProfile make_cutter_profile(const CutterBody& cutter, std::size_t n = 4096);

// Lowers the field where the cutter swept from tip `from` to tip `to` proves the material gone
// (see above), in the rows [row_begin, row_end) only: cells of different rows are independent,
// so bands of rows can be cut in parallel, each in program order.
// `shrink` > 0 removes only what the cutter eroded by `shrink` sweeps (an arc's chord: the arc's
// cutter holds the chord's cutter eroded by the sagitta). The eroded cutter's lowest height at d
// is at most the cutter's at d + shrink, plus shrink: the ball of radius shrink about that point
// lies within radius d + shrink of the axis and above the cutter's lowest there, so inside it.
void remove_swept(StockHeightField& field, const CutterProfile& cutter, Vec3 from, Vec3 to,
                  double shrink = 0, std::size_t row_begin = 0, std::size_t row_end = SIZE_MAX);

enum class StockContact {
  clear,    // proved apart (by more than `margin`)
  touches,  // proved within `margin` of the field's material
  near      // neither proved within the search's budget: counts as a contact, marked near
};

// Whether the solid swept from tip `from` to tip `to` comes within `margin` (vertically) of the
// field's material: its lowest point over a cell below the cell's top, and its highest point
// above the field's bottom.
StockContact swept_contact(const StockHeightField& field, const RevolvedSolid& solid, Vec3 from,
                           Vec3 to, double margin);

// A solid moved straight up along its axis from tip `from` meets only material its start already
// meets when every cell within `reach` of the axis has its top at most from.z + column_top, where
// every column of the solid within reach extends up to at least column_top above its tip: the
// points it sweeps beyond its start lie above that (a convex body of revolution moving along its
// axis). True when the field proves that.
bool rise_meets_nothing_new(const StockHeightField& field, Vec3 from, double reach,
                            double column_top);

}  // namespace kdop
