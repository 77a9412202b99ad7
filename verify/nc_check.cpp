#include "verify/nc_check.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "builders/dop_tree.hpp"
#include "engine/parallel.hpp"
#include "engine/point_in_solid.hpp"
#include "engine/tool_sweep_query.hpp"
#include "geometry/cutter_body.hpp"
#include "geometry/shapes.hpp"
#include "geometry/solid_check.hpp"
#include "geometry/stock_height_field.hpp"
#include "io/io_error.hpp"
#include "io/mesh_reader.hpp"

namespace kdop {

NcSetup machine_setup(const NcSetupFile& setup, const ToolLibrary& tools) {
  NcSetup m;
  m.work_offsets = setup.work_offsets;
  m.g28 = setup.g28;
  m.g30 = setup.g30;
  m.start = setup.start;
  m.initial_tool = setup.initial_tool;
  for (const auto& [number, spec] : tools.tools) m.tool_lengths[number] = spec.gauge_length;
  return m;
}

namespace {

constexpr int K = 18;
// The stock height field: about a million cells unless asked otherwise (8 MB), at most 64 million.
// The default cell is about 0.01 mm at the smallest (whole cells across the stock may make it a
// little smaller): a cut costs up to 64 samples per cell in the tool's reach, and on a stock
// smaller than the tool (a 1 mm cube: 0.001 mm cells) every cut reached all million cells, a
// minute for a few moves. Coarser cells only bound the material from further above.
constexpr std::size_t kDefaultStockCells = 1u << 20;
constexpr double kMinDefaultStockCell = 0.01;
constexpr std::size_t kMaxStockCells = std::size_t{1} << 26;
using Clock = std::chrono::steady_clock;

Vec3 vec(const std::array<double, 3>& a) {
  return {a[0], a[1], a[2]};
}

// One solid of the setup and its hierarchy.
struct SetupSolid {
  std::string name;
  DopTree<K> tree;
  Vec3 lo, hi;  // the mesh's bounds
  Mesh mesh;    // the stock's, for its height field (empty for the other solids)
};

SetupSolid load_solid(const NcSetupSolid& s, const std::string& setup_file,
                      const BeforeBuild& before_build, std::uint64_t& held,
                      bool keep_mesh = false) {
  Mesh m;
  std::string source = setup_file;
  if (s.is_box()) {
    m = make_box({s.box[0], s.box[1], s.box[2]}, {s.box[3], s.box[4], s.box[5]});
  } else {
    source = s.mesh;
    m = read_mesh(s.mesh);
    if (s.mesh_scale != 1) m = scaled_mesh(m, s.mesh_scale);
  }
  const SolidCheck check = check_solid(m);
  if (!check.outward_solid()) {
    throw IoError::in_file(source, s.name + " is " + solid_problem(check));
  }
  // check_solid passed, so the mesh has vertices.
  const auto [x_lo, x_hi] = std::minmax_element(m.x.begin(), m.x.end());
  const auto [y_lo, y_hi] = std::minmax_element(m.y.begin(), m.y.end());
  const auto [z_lo, z_hi] = std::minmax_element(m.z.begin(), m.z.end());
  const Vec3 lo{*x_lo, *y_lo, *z_lo}, hi{*x_hi, *y_hi, *z_hi};
  if (before_build && !s.is_box()) before_build(s.mesh, m.triangle_count(), false, held);
  // Leaves of one triangle (a plain BuildConfig): the default of 3 was measured on collision
  // queries, not on the tool sweeps of an NC check.
  DopTree<K> tree = build_dop_tree<K>(m, BuildConfig{});
  held += memory_bytes(tree);
  if (keep_mesh) {  // the stock's mesh stays for its height field
    held += 3 * sizeof(double) * m.vertex_count() + 3 * sizeof(std::uint32_t) * m.triangle_count();
  }
  return {s.name, std::move(tree), lo, hi, keep_mesh ? std::move(m) : Mesh{}};
}

// A tool ready for the checks: its solids and its cutter as one convex body, with the two
// erosions every move asks for, made once.
struct ToolModel {
  const ToolSpec* spec = nullptr;
  ToolSolids solids;
  CutterBody body;
  CutterProfile profile;  // for the stock height field
  double max_depth = 0;   // an erosion by more leaves nothing
  // The cutter eroded by delta (what enters material by more than delta: rapids; nullopt when
  // nothing is left), and by the tolerance (what gouges), as primitives: empty when nothing is
  // left, and an empty solid meets nothing.
  std::optional<CutterBody> entering;
  RevolvedSolid entering_solid, gouging_solid;
};

// The cutter body eroded by s as primitives; empty when nothing is left.
RevolvedSolid eroded_cutter(const CutterBody& body, double s) {
  const auto e = eroded(body, s);
  return e ? to_solid(*e) : RevolvedSolid{};
}

// The largest s in [lo, hi] (to delta) for which `reaches(s)` holds, by bisection; reaches(lo)
// is taken to hold. For depths: `reaches(s)` says the tool part eroded by s still meets.
template <class Reaches>
double deepest(double lo, double hi, double delta, Reaches&& reaches) {
  while (hi - lo > delta) {
    const double mid = 0.5 * (lo + hi);
    (reaches(mid) ? lo : hi) = mid;
  }
  return lo;
}

// A straight piece of a move: the tip from `from` to `to`, every tool part grown by `grow` (an
// arc's chord sagitta; 0 for lines): horizontally only for an arc in the XY plane that stays at
// one height (its chords are at the arc's height everywhere), else in every direction.
struct Piece {
  Vec3 from, to;
  double grow = 0;
  bool level = false;
};

Vec3 lerp(Vec3 a, Vec3 b, double u) {
  return {a.x + u * (b.x - a.x), a.y + u * (b.y - a.y), a.z + u * (b.z - a.z)};
}

// The move as straight pieces, shifted by `shift`: a line is one; an arc is chords between points
// of the curve (io/gcode_program.hpp, sample_move: a helix, or LinuxCNC's slight spiral when the
// end radius differs). A chord of angle t on radius r strays at most r (1 - cos(t / 2)) from the
// circle, plus twice the radius change along it for a spiral; the tool grows by that.
std::vector<Piece> pieces_of(const NcMove& m, Vec3 shift, double sagitta) {
  if (m.kind != NcMoveKind::arc) return {{vec(m.start) + shift, vec(m.end) + shift, 0, false}};
  const bool level = m.plane == 17 && m.start[2] == m.end[2];
  const double sweep = std::fabs(arc_sweep(m));
  const auto [r0, r1] = arc_radii(m);
  const double r = std::max(r0, r1);
  const double max_angle = sagitta < r ? 2 * std::acos(1 - sagitta / r) : std::numbers::pi / 2;
  const std::size_t n =
      std::clamp<std::size_t>(static_cast<std::size_t>(std::ceil(sweep / max_angle)), 1, 100000);
  const double step = sweep / static_cast<double>(n);
  const double grow = r * (1 - std::cos(step / 2)) + 2 * std::fabs(r1 - r0) / n;
  std::vector<std::array<double, 3>> points;
  sample_move(m, static_cast<std::uint32_t>(n), points);
  // A little extra growth covers the rounding of the chord ends (ulps of mm-sized coordinates).
  const double slack = 1e-9 * (r + 1);
  std::vector<Piece> out;
  out.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    out.push_back({vec(points[k]) + shift, vec(points[k + 1]) + shift, grow + slack, level});
  }
  return out;
}

// The solid grown for a piece: Minkowski-summed with a ball of radius `by`, or for a level piece
// with a horizontal disc of radius `by` (every radius grows by it: a horizontal slice of a body
// of revolution is a disc).
RevolvedSolid grown(const RevolvedSolid& s, double by, bool level = false) {
  RevolvedSolid g = s;
  for (RevolvedPrimitive& p : g.parts) {
    if (level) {
      p.r0 += by;
      p.r1 += by;
    } else {
      p.rounding += by;
    }
  }
  return g;
}

RevolvedSolid grown(const RevolvedSolid& s, const Piece& piece) {
  return piece.grow > 0 ? grown(s, piece.grow, piece.level) : s;
}

// Whether `solid` meets `target` anywhere along the pieces: a surface contact (certified lower
// bound within delta), or, with none, the solid wholly inside (one point of it inside the target:
// a connected sweep that never crosses the surface stays on one side).
struct Meeting {
  bool meets = false;
  bool proved = false;    // a contact proved (upper bound within delta) or the solid inside
  std::size_t piece = 0;  // the first piece that meets
  double lower = 0;       // the least lower bound of a contact (0: inside)
};

Meeting meet(const RevolvedSolid& solid, const SetupSolid& target, const std::vector<Piece>& pieces,
             double delta, ToolSweepResult& scratch) {
  Meeting m;
  if (solid.parts.empty()) return m;
  ToolSweepOptions o;
  o.within = delta;
  o.first_only = true;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const RevolvedSolid g = grown(solid, pieces[k]);
    tool_sweep_query<K>(target.tree, g, pieces[k].from, pieces[k].to, o, scratch);
    if (scratch.contacts.empty()) continue;
    m.meets = true;
    m.piece = k;
    m.lower = scratch.contacts.front().lower;
    for (const ToolContact& c : scratch.contacts) {
      m.lower = std::min(m.lower, c.lower);
      m.proved = m.proved || c.upper <= delta;
    }
    return m;
  }
  const RevolvedPrimitive& p = solid.parts.front();
  const Vec3 inside{pieces.front().from.x, pieces.front().from.y,
                    pieces.front().from.z + (p.z0 + p.z1) / 2};
  if (point_in_solid<K>(target.tree, inside) != SolidSide::outside) {
    m.meets = m.proved = true;
    m.lower = 0;
  }
  return m;
}

// The tip where a tool part first meets something on `piece`, by bisection on the travel (to
// 1e-4 mm); `meets(part)` tells whether it meets it along the part of the piece.
template <class Meets>
std::array<double, 3> first_contact(const Piece& piece, Meets meets) {
  if (meets(Piece{piece.from, piece.from, piece.grow, piece.level})) {
    return {piece.from.x, piece.from.y, piece.from.z};
  }
  const double length = norm(piece.to - piece.from);
  double lo = 0, hi = 1;
  while ((hi - lo) * length > 1e-4) {
    const double mid = 0.5 * (lo + hi);
    if (meets(Piece{piece.from, lerp(piece.from, piece.to, mid), piece.grow, piece.level})) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  const Vec3 p = lerp(piece.from, piece.to, hi);
  return {p.x, p.y, p.z};
}

// A solid swept along a piece.
struct Sweep {
  RevolvedSolid solid;
  Piece piece;
  bool top_disc = false;  // a rise's top disc (entering_sweeps): eroded as a disc for depths
};

// The flat disc of `body`'s reach at its top plane, top(), or an empty solid when nothing is
// left of the body (`solid`: to_solid of it). Every column of the body within its reach runs up
// to at least top() (see geometry/cutter_body.hpp), so the disc swept up a rise holds what the
// body sweeps beyond its start below end + top().
RevolvedSolid top_disc(const std::optional<CutterBody>& body, const RevolvedSolid& solid) {
  RevolvedSolid disc;
  if (!body) return disc;
  const double r = reach(solid), top = body->top();
  disc.parts.push_back(make_frustum(top, r, top, r));
  return disc;
}

// What a rapid of the cutter body tool.entering (the cutter eroded by delta) sweeps beyond its
// start: the body along every piece; for a straight rise up its axis, the body's top disc (a flat
// disc of the body's reach at its top plane, top(): z_hi, or the cap of a ball or bull nose) swept
// along the rise and the body at its end. Every column of the body within its reach runs from its
// lowest point up to at least top(), so a point it sweeps beyond its start lies above
// start + top() at its radius: in the disc's sweep up to end + top(), in the body at the end above
// that. What the body meets at its start belongs to the move that brought it there (a gouge, a
// cut), and a retract out of a cut is not a rapid into it.
// That holds only when such a move exists (`arrived`, see arrived_by_previous_move); otherwise
// the rise is swept whole, its start included.
std::vector<Sweep> entering_sweeps(const ToolModel& tool, const std::vector<Piece>& pieces,
                                   bool arrived) {
  const RevolvedSolid& body = tool.entering_solid;
  const Piece& p = pieces.front();
  const bool rise = arrived && pieces.size() == 1 && p.grow == 0 && p.from.x == p.to.x &&
                    p.from.y == p.to.y && p.to.z > p.from.z;
  if (!rise) {
    std::vector<Sweep> out;
    for (const Piece& q : pieces) out.push_back({body, q, false});
    return out;
  }
  return {{top_disc(tool.entering, body), p, true}, {body, Piece{p.to, p.to, 0, false}, false}};
}

// The cutter body tool.entering where a move starts (a feed's start where no move brought the
// tool).
std::vector<Sweep> start_sweeps(const ToolModel& tool, const std::vector<Piece>& pieces) {
  const Vec3 at = pieces.front().from;
  return {{tool.entering_solid, Piece{at, at, 0, false}, false}};
}

// Whether move `index` starts where the previous move left the same tool, with the same length
// offset: only then was the tool at this move's start already checked (by that move). Not so for
// the first move, after a tool change (M6: a new tool appears at the old tip position), after a
// G43/G49 change (the tip jumps without a move), or after a move with no tool.
bool arrived_by_previous_move(const NcProgram& program, std::size_t index) {
  if (index == 0) return false;
  const NcMove& move = program.moves[index];
  const NcMove& previous = program.moves[index - 1];
  return previous.tool == move.tool && previous.tool_length == move.tool_length &&
         previous.end == move.start;
}

// The tool part a finding against the stock was found with: the cutter eroded by delta for a
// rapid (entering by more than delta), the shank or the holder for a collision.
const RevolvedSolid& finding_solid(const NcFinding& f, const ToolModel& tool) {
  if (f.kind == NcFindingKind::rapid_into_material) return tool.entering_solid;
  return f.tool_part == ToolPart::holder ? tool.solids.holder : tool.solids.shank;
}

// Vertical feeds of each tool at each (x, y): the tip heights they swept, merged.
using Holes =
    std::map<std::tuple<double, double, std::int32_t>, std::vector<std::pair<double, double>>>;

// The part of a vertical rapid of the cutter (`solid`: the cutter eroded by delta) that the height
// field must still judge, or nullopt when none is left:
//   - inside a hole: the tool's vertical feeds swept tip heights [lo, hi] at this (x, y), which
//     removed every point of its cutter over that range up to hi + z_hi (z_hi: the cutter body's
//     top plane, up to which every column of the body reaches). The rapid's points up to that
//     height lie in removed material when its lowest tip height a is in [lo, hi]; a point above it
//     needs a tip above hi - dome, dome = the solid's highest point - z_hi. So only tip heights
//     from max(a, hi - dome) up are judged (G83 pecks, re-plunges into a drilled hole);
//   - rising from where the previous move left it: it meets nothing its start does not already
//     meet unless a cell within its reach holds material above a + column_top
//     (rise_meets_nothing_new; column_top: the eroded body's top plane), and what its start meets
//     belongs to the move that brought it there (if one did: `arrived`).
std::optional<Piece> vertical_rest(const Piece& p, const ToolModel& tool,
                                   const RevolvedSolid& solid, double column_top,
                                   const Holes& holes, std::int32_t number,
                                   const StockHeightField& field, bool arrived) {
  if (p.grow != 0 || p.from.x != p.to.x || p.from.y != p.to.y || p.from.z == p.to.z) return p;
  const bool rising = p.to.z > p.from.z;
  double a = std::min(p.from.z, p.to.z);
  const double b = std::max(p.from.z, p.to.z);
  bool in_hole = false;
  if (const auto it = holes.find({p.from.x, p.from.y, number}); it != holes.end()) {
    const double dome = std::max(0.0, highest_z(solid) - tool.profile.z_hi);
    for (const auto& [lo, hi] : it->second) {
      if (lo <= a && a <= hi) {
        a = std::max(a, hi - dome);
        in_hole = true;
      }
    }
    if (a >= b) return std::nullopt;
  }
  if (rising && arrived && !in_hole &&
      rise_meets_nothing_new(field, p.from, reach(solid), column_top)) {
    return std::nullopt;
  }
  const Vec3 low{p.from.x, p.from.y, a}, high{p.from.x, p.from.y, b};
  return rising ? Piece{low, high, 0, false} : Piece{high, low, 0, false};
}

// Judges the findings against the initial (box) stock again on the height field of the material
// the earlier moves left: the program's moves replayed in order, each finding's move against the
// field as it stands before the move, then every feed, arc and cycle feed removing what its
// cutter sweeps (arcs: the cutter eroded by the chord's sagitta, which the arc's cutter holds).
// A finding the field proves clear is dropped; `findings` are in move order. Returns the number
// dropped, or nullopt when cancelled.
std::optional<std::uint64_t> judge_on_height_field(StockHeightField& field,
                                                   const NcProgram& program,
                                                   const std::map<std::int32_t, ToolModel>& models,
                                                   std::vector<NcFinding>& findings,
                                                   const NcCheckOptions& options,
                                                   ParallelRunner& runner) {
  std::uint64_t last = 0;
  bool any = false;
  for (const NcFinding& f : findings) {
    if (f.initial_stock) last = f.move, any = true;
  }
  if (!any) return 0;
  // The cuts since the last finding, applied in bands of rows in parallel (each band in program
  // order, so the field is the same for any thread count) before the next finding is judged.
  struct Cut {
    const CutterProfile* cutter;
    Vec3 from, to;
    double shrink;
  };
  std::vector<Cut> cuts;
  const std::size_t bands = std::min<std::size_t>(field.ny, 8 * runner.threads());
  auto cut_band = [&](std::size_t band) {
    const std::size_t j0 = field.ny * band / bands, j1 = field.ny * (band + 1) / bands;
    for (std::size_t k = 0; k < cuts.size(); ++k) {
      if (k % 4096 == 0 && options.cancel != nullptr && options.cancel->load()) return;
      const Cut& c = cuts[k];
      remove_swept(field, *c.cutter, c.from, c.to, c.shrink, j0, j1);
    }
  };
  // After the cuts, the block bounds over what they swept tighten to the material left (the
  // findings' contact tests skip blocks by them).
  auto flush = [&] {
    if (cuts.empty()) return;
    runner.for_each_index(bands, cut_band);
    for (const Cut& c : cuts) refresh_blocks_near(field, c.from, c.to, c.cutter->reach);
    cuts.clear();
  };
  // Vertical feeds (drilling, plunges) as the tip heights each tool swept at each (x, y): a
  // vertical rapid of that tool inside such a hole meets no material there (vertical_rest).
  Holes holes;
  auto record_hole = [&](std::int32_t tool, const Piece& p) {
    if (p.grow != 0 || p.from.x != p.to.x || p.from.y != p.to.y) return;
    auto& spans = holes[{p.from.x, p.from.y, tool}];
    std::pair<double, double> span{std::min(p.from.z, p.to.z), std::max(p.from.z, p.to.z)};
    for (auto it = spans.begin(); it != spans.end();) {  // merge what overlaps
      if (it->first <= span.second && span.first <= it->second) {
        span = {std::min(span.first, it->first), std::max(span.second, it->second)};
        it = spans.erase(it);
      } else {
        ++it;
      }
    }
    spans.push_back(span);
  };
  std::vector<NcFinding> kept;
  std::uint64_t cleared = 0;
  std::size_t next = 0;
  for (std::uint64_t i = 0; i <= last; ++i) {
    // Large batches: a raster's cuts stay in a few bands for thousands of moves, and only a
    // batch that spans the part keeps every band busy.
    if (cuts.size() >= (1u << 20)) flush();
    if (options.cancel != nullptr && i % 4096 == 0 && options.cancel->load()) return std::nullopt;
    const NcMove& move = program.moves[i];
    const auto model = models.find(move.tool);
    std::vector<Piece> pieces;
    if (model != models.end()) {
      const Vec3 shift{0, 0, move.tool_length - model->second.spec->gauge_length};
      pieces = pieces_of(move, shift, options.arc_sagitta);
    }
    const bool rapid = is_rapid(move.kind);
    if (next < findings.size() && findings[next].move == i) flush();
    for (; next < findings.size() && findings[next].move == i; ++next) {
      NcFinding f = std::move(findings[next]);
      if (!f.initial_stock) {
        kept.push_back(std::move(f));
        continue;
      }
      const ToolModel& tool = model->second;
      const RevolvedSolid& solid = finding_solid(f, tool);
      const bool cutter = f.kind == NcFindingKind::rapid_into_material && tool.entering;
      // What the finding's tool part sweeps: the cutter as check_move sweeps it (a rise: its top
      // disc and its end), after dropping what lies inside a hole it drilled; the shank or holder
      // along every piece.
      std::vector<Sweep> sweeps;
      if (cutter && !rapid) {
        sweeps = start_sweeps(tool, pieces);  // a feed's start (check_move)
      } else if (cutter) {
        const bool arrived = arrived_by_previous_move(program, i);
        std::vector<Piece> rest = pieces;
        if (rest.size() == 1) {
          const auto r = vertical_rest(rest.front(), tool, solid, tool.entering->top(), holes,
                                       move.tool, field, arrived);
          if (!r) {
            ++cleared;
            continue;
          }
          rest.front() = *r;
        }
        sweeps = entering_sweeps(tool, rest, arrived);
      } else {
        for (const Piece& p : pieces) sweeps.push_back({solid, p, false});
      }
      auto contact = [&](const RevolvedSolid& body, const Piece& p) {
        return swept_contact(field, grown(body, p), p.from, p.to, options.delta);
      };
      std::size_t k = 0;
      StockContact c = StockContact::clear;
      for (; k < sweeps.size(); ++k) {
        c = contact(sweeps[k].solid, sweeps[k].piece);
        if (c != StockContact::clear) break;
      }
      if (c == StockContact::clear) {
        ++cleared;
        continue;
      }
      f.initial_stock = false;
      f.near = c == StockContact::near;
      f.position = first_contact(sweeps[k].piece, [&](const Piece& p) {
        return contact(sweeps[k].solid, p) != StockContact::clear;
      });
      // The depth on the field: the largest erosion of the tool part that still reaches the
      // material left (the cutter eroded exactly, shank and holder part by part: a lower bound).
      // A rise's top disc is the eroded body's disc: what the cutter eroded by d sweeps beyond its
      // start (whose material the move that brought it there cut or reported).
      f.depth = deepest(0, tool.max_depth, options.delta, [&](double d) {
        std::optional<CutterBody> body;
        RevolvedSolid e;
        if (f.kind == NcFindingKind::rapid_into_material) {
          body = eroded(tool.body, d);
          if (body) e = to_solid(*body);
        } else {
          e = eroded_parts(solid, d);
        }
        for (const Sweep& w : sweeps) {
          const StockContact c =
              w.top_disc ? contact(top_disc(body, e), w.piece) : contact(e, w.piece);
          if (c != StockContact::clear) return true;
        }
        return false;
      });
      kept.push_back(std::move(f));
    }
    if (rapid || pieces.empty()) continue;
    for (const Piece& p : pieces) {
      cuts.push_back({&model->second.profile, p.from, p.to, p.grow});
      record_hole(move.tool, p);
    }
  }
  for (; next < findings.size(); ++next) kept.push_back(std::move(findings[next]));
  // A cancelled band leaves the field part cut: nothing judged on it may be reported.
  if (options.cancel != nullptr && options.cancel->load()) return std::nullopt;
  findings = std::move(kept);
  return cleared;
}

}  // namespace

std::optional<NcReport> check_nc(const NcSetupFile& setup, const ToolLibrary& tools,
                                 const NcProgram& program, const NcCheckOptions& options) {
  const auto start = Clock::now();
  const double tolerance = options.tolerance >= 0 ? options.tolerance : setup.tolerance;
  if (!(tolerance >= 0) || !std::isfinite(tolerance)) {
    throw std::invalid_argument("tolerance must be a finite number >= 0");
  }
  if (!(options.delta > 0) || !(options.arc_sagitta > 0)) {
    throw std::invalid_argument("delta and arc sagitta must be > 0");
  }
  std::uint64_t held = 0;  // bytes of the solids' trees built so far
  const SetupSolid stock = load_solid(setup.stock, setup.file, options.before_build, held, true);
  std::optional<SetupSolid> part;
  if (setup.has_part) part = load_solid(setup.part, setup.file, options.before_build, held);
  std::vector<SetupSolid> fixtures;
  for (const NcSetupSolid& f : setup.fixtures) {
    fixtures.push_back(load_solid(f, setup.file, options.before_build, held));
  }

  std::map<std::int32_t, ToolModel> models;
  for (const auto& [number, spec] : tools.tools) {
    ToolModel& t = models[number];
    t.spec = &spec;
    t.solids = make_tool(spec.geometry);
    t.body = cutter_body(spec.geometry);
    t.profile = make_cutter_profile(t.body);
    t.max_depth = t.body.r_max + t.body.rounding + (t.body.z_hi - t.body.z_lo) + 1;
    t.entering = eroded(t.body, options.delta);
    if (t.entering) t.entering_solid = to_solid(*t.entering);
    t.gouging_solid = eroded_cutter(t.body, tolerance);
  }

  // One task per block of moves; each block's findings in move order.
  constexpr std::size_t kBlock = 64;
  const std::size_t count = program.moves.size();
  const std::size_t blocks = (count + kBlock - 1) / kBlock;
  std::vector<std::vector<NcFinding>> found(blocks);
  std::vector<std::uint64_t> unchecked(blocks, 0);
  ParallelRunner runner(options.threads);
  std::vector<ToolSweepResult> scratch(runner.threads());
  std::atomic<std::uint64_t> done{0};

  auto check_move = [&](std::size_t index, ToolSweepResult& sr, std::vector<NcFinding>& out) {
    const NcMove& move = program.moves[index];
    const auto model = models.find(move.tool);
    if (model == models.end()) return false;
    const ToolModel& tool = model->second;
    const Vec3 shift{0, 0, move.tool_length - tool.spec->gauge_length};
    const std::vector<Piece> pieces = pieces_of(move, shift, options.arc_sagitta);
    auto report = [&](NcFindingKind kind, ToolPart tool_part, const SetupSolid& target,
                      const RevolvedSolid& solid, const Piece& piece, double depth, bool near) {
      NcFinding f;
      f.move = index;
      f.line = move.line;
      f.n = move.n;
      f.block = program.block_text(move);
      f.kind = kind;
      f.tool_part = tool_part;
      f.object = target.name;
      f.position = first_contact(
          piece, [&](const Piece& p) { return meet(solid, target, {p}, options.delta, sr).meets; });
      f.depth = depth;
      f.near = near;
      f.initial_stock = &target == &stock;
      out.push_back(std::move(f));
    };
    std::vector<const SetupSolid*> everything{&stock};
    if (part) everything.push_back(&*part);
    for (const SetupSolid& f : fixtures) everything.push_back(&f);
    // How deep a contact goes: the largest s (to delta) for which the tool part eroded by s
    // still meets the target, starting from `lo`, which meets. `erode(s)` is that part, empty
    // when nothing is left. For the cutter the erosion is exact (one convex body); for the shank
    // and holder, unions of convex parts, the union of the parts' erosions lies inside the
    // erosion of the union, so the depth found is a lower bound.
    auto depth_along = [&](const std::vector<Piece>& along, auto&& erode, const SetupSolid& target,
                           double lo, double hi) {
      return deepest(lo, hi, options.delta, [&](double s) {
        return meet(erode(s), target, along, options.delta, sr).meets;
      });
    };
    auto depth = [&](auto&& erode, const SetupSolid& target, double lo, double hi) {
      return depth_along(pieces, erode, target, lo, hi);
    };
    auto cutter_eroded = [&](double s) { return eroded_cutter(tool.body, s); };
    // A contact found on an arc's chord with the tool grown by the sagitta is proved only if the
    // tool at a point of the arc itself (a chord's end) makes it.
    auto proved_on_arc = [&](const RevolvedSolid& solid, const SetupSolid& target,
                             const Meeting& m) {
      if (!m.proved) return false;
      const Piece& p = pieces[m.piece];
      if (p.grow == 0) return true;
      for (const Vec3 at : {p.from, p.to}) {
        const Meeting still = meet(solid, target, {Piece{at, at, 0, false}}, options.delta, sr);
        if (still.meets && still.proved) return true;
      }
      return false;
    };
    // 1. Collisions: holder and shank with everything, the cutter with the fixtures.
    const std::pair<ToolPart, const RevolvedSolid*> upper_parts[] = {
        {ToolPart::shank, &tool.solids.shank}, {ToolPart::holder, &tool.solids.holder}};
    for (const auto& [which, part_solid] : upper_parts) {
      const RevolvedSolid& solid = *part_solid;  // (a structured binding; lambdas take this)
      for (const SetupSolid* target : everything) {
        const Meeting m = meet(solid, *target, pieces, options.delta, sr);
        if (!m.meets) continue;
        const double d = depth([&](double s) { return eroded_parts(solid, s); }, *target, 0.0,
                               reach(solid) + options.delta);
        report(NcFindingKind::collision, which, *target, solid, pieces[m.piece], d,
               !proved_on_arc(solid, *target, m));
      }
    }
    for (const SetupSolid& f : fixtures) {
      const Meeting m = meet(tool.solids.cutter, f, pieces, options.delta, sr);
      if (!m.meets) continue;
      const double d = depth(cutter_eroded, f, 0.0, tool.max_depth);
      report(NcFindingKind::collision, ToolPart::cutter, f, tool.solids.cutter, pieces[m.piece], d,
             !proved_on_arc(tool.solids.cutter, f, m));
    }
    // 2. Rapids: the cutter entering (more than delta deep into) the part or the stock. Straight
    // retracts too: one that starts below an overhang of the part, or under material a wider
    // cutter left above its flutes, enters it. Against the stock, the replay on the height field
    // (judge_on_height_field) clears the retracts that leave their own cut.
    // A feed that no move brought the tool to (the program's first move, the first after M6 or a
    // G43/G49 change) starts where the tool appeared without cutting: its cutter there is checked
    // as a rapid's (start_sweeps), the rest of the move is a cut.
    const bool rapid = is_rapid(move.kind);
    const bool arrived = arrived_by_previous_move(program, index);
    if ((rapid || !arrived) && tool.entering) {
      const std::vector<Sweep> sweeps =
          rapid ? entering_sweeps(tool, pieces, arrived) : start_sweeps(tool, pieces);
      std::vector<const SetupSolid*> material{&stock};
      if (part) material.insert(material.begin(), &*part);
      for (const SetupSolid* target : material) {
        for (const Sweep& w : sweeps) {
          const Meeting m = meet(w.solid, *target, {w.piece}, options.delta, sr);
          if (!m.meets) continue;
          const double d =
              rapid ? depth(cutter_eroded, *target, options.delta, tool.max_depth)
                    : depth_along({w.piece}, cutter_eroded, *target, options.delta, tool.max_depth);
          report(NcFindingKind::rapid_into_material, ToolPart::cutter, *target, w.solid, w.piece, d,
                 !m.proved);
          break;
        }
      }
    }
    // 3. Gouges (feeds): the cutter eroded by the tolerance still meeting the part.
    if (part && !rapid) {
      const Meeting m = meet(tool.gouging_solid, *part, pieces, options.delta, sr);
      if (m.meets) {
        const double d = depth(cutter_eroded, *part, tolerance, tool.max_depth);
        // On an arc the tool was grown by the chord's sagitta: the depth may be that much too
        // large, so a gouge within it of the tolerance is only near.
        double grow = 0;
        for (const Piece& p : pieces) grow = std::max(grow, p.grow);
        report(NcFindingKind::gouge, ToolPart::cutter, *part, tool.gouging_solid, pieces[m.piece],
               d, d - grow - tolerance <= options.delta);
      }
    }
    return true;
  };

  auto body = [&](std::size_t b) {
    if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) return;
    ToolSweepResult& sr = scratch[runner.worker_id()];
    const std::size_t end = std::min(count, (b + 1) * kBlock);
    for (std::size_t i = b * kBlock; i < end; ++i) {
      if (!check_move(i, sr, found[b])) ++unchecked[b];
    }
    const std::uint64_t now = done.fetch_add(end - b * kBlock) + (end - b * kBlock);
    if (options.progress) options.progress(now, count);
  };
  runner.for_each_index(blocks, body);
  if (options.cancel != nullptr && options.cancel->load()) return std::nullopt;

  NcReport report;
  for (std::size_t b = 0; b < blocks; ++b) {
    for (NcFinding& f : found[b]) report.findings.push_back(std::move(f));
  }
  NcSummary& s = report.summary;
  // The stock is followed as material is removed: a box exactly, a mesh from a height field
  // that bounds it from above.
  {
    const AxisBox box{stock.lo, stock.hi};
    const double cell = options.stock_cell > 0 ? options.stock_cell
                                               : std::max(cell_size_for(box, kDefaultStockCells),
                                                          kMinDefaultStockCell);
    const auto replay_start = Clock::now();
    StockHeightField field = setup.stock.is_box()
                                 ? make_stock_height_field(box, cell, kMaxStockCells)
                                 : mesh_stock_height_field(stock.mesh, cell, kMaxStockCells);
    s.stock_model = "height_field";
    s.stock_cell = std::max(field.cell_x, field.cell_y);
    const auto cleared =
        judge_on_height_field(field, program, models, report.findings, options, runner);
    if (!cleared) return std::nullopt;
    s.cleared_by_stock_model = *cleared;
    s.stock_s = std::chrono::duration<double>(Clock::now() - replay_start).count();
  }
  auto extent = [&](const SetupSolid& solid, const char* role) {
    report.solids.push_back({solid.name,
                             role,
                             {solid.lo.x, solid.lo.y, solid.lo.z},
                             {solid.hi.x, solid.hi.y, solid.hi.z}});
  };
  extent(stock, "stock");
  if (part) extent(*part, "part");
  for (const SetupSolid& f : fixtures) extent(f, "fixture");
  s.moves = count;
  s.tolerance = tolerance;
  s.threads = runner.threads();
  for (std::size_t b = 0; b < blocks; ++b) {
    s.unchecked_moves += unchecked[b];
  }
  for (const NcFinding& f : report.findings) {
    if (s.first_line == 0) s.first_line = f.line;
    if (f.kind == NcFindingKind::collision) ++s.collisions;
    if (f.kind == NcFindingKind::rapid_into_material) ++s.rapids_into_material;
    if (f.kind == NcFindingKind::gouge) {
      ++s.gouges;
      s.max_gouge_depth = std::max(s.max_gouge_depth, f.depth);
    }
  }
  s.check_s = std::chrono::duration<double>(Clock::now() - start).count();
  return report;
}

}  // namespace kdop
