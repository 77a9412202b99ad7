#pragma once
// G-code programs (RS274/NGC as LinuxCNC reads it, the dialect CAM post-processors emit),
// expanded into the list of straight, arc and canned-cycle moves the machine makes.
//
// Dialect (v1): case-insensitive words, blanks anywhere outside comments (`G03X3.343`,
// `G 1 X 1 . 5`), signed numbers with optional trailing/leading dots (`X-75.`, `X.5`), no
// exponents; `N` first on the line; `( )` and `;` comments; `%` lines (a program opened by `%`
// ends at the next `%`); a leading `/` (block delete, off: the block runs, as in LinuxCNC by
// default); the program ends at M2/M30 (later lines are not read).
// Order within a block is LinuxCNC's: F, T, M6, plane, units, tool length offset, coordinate
// system, distance modes, retract mode, G10/G28/G30/G53/G92, then the motion.
// Supported: G0 G1 G2 G3 (G17 I,J / G18 K,I / G19 J,K centre offsets, G91.1 relative (default)
// or G90.1 absolute; R format, R<0 for more than half a turn; P turns; helices), G4, G10 L2 P0-P6,
// G17-G19, G20/G21, G28/G30 (and .1), G40, G43 [Hn] / G49, G53, G54-G59, G61/G61.1/G64,
// G80-G83 and G73 in G17 with G98/G99, R/Z/Q/P sticky and L repeats (G90 and G91), G90/G91,
// G92/G92.1/G92.2/G92.3, G93/G94/G95, G96/G97; M0 M1 M2 M3 M4 M5 M6 M7 M8 M9 M30 M48-M53 M60 M61;
// F S T H D. Everything else is rejected with the line: O-words, `#` parameters and `[ ]`
// expressions, cutter compensation G41/G42, splines G5.x, threading G33/G76, probing, other
// cycles and planes for cycles, A/B/C/U/V/W axes, unknown G/M codes and letters.
// Errors are LinuxCNC's: two words of one modal group, a letter twice, axis words without a
// motion mode, a feed move with F0, centre-format arcs whose end radius differs from the start
// radius by more than both abs and rel * radius, or by more than 100 * abs — abs 0.0028284 in
// (G20) / 0.028284 mm (G21), rel 0.001: the defaults of LinuxCNC's interpreter
// (CENTER_ARC_RADIUS_TOLERANCE_*, SPIRAL_RELATIVE_TOLERANCE), combined as rs274 2.9 does —,
// radii under 0.00005 in, |R| shorter than half the chord by more than 0.00005 in.
//
// Coordinates: every move's points are the tool TIP in machine coordinates, in mm:
//   tip = program point (in mm) + work offset (G54-G59) + G92 offset.
// The tool length offset (G43) is not added: the spindle gauge point is tip + (0, 0, tool_length).
// LinuxCNC's canonical commands are program coordinates of the tip (what rs274 prints); its
// machine position is the gauge point. G53 and the G28/G30 positions address the gauge point in
// machine coordinates, so there tip z = given z - tool_length. The program starts with the gauge
// point at NcSetup::start (default the machine origin, where rs274 starts), no tool length
// offset, and NcSetup::initial_tool in the spindle (default 0: empty, until the first M6).
// Retract mode starts as G99 (return to R) and the motion mode as G80 — LinuxCNC's reset state.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kdop {

enum class NcMoveKind : std::uint8_t { rapid, feed, arc, cycle_rapid, cycle_feed };
const char* to_string(NcMoveKind kind);
// G0 or a canned cycle's rapid: a move that does not cut.
inline bool is_rapid(NcMoveKind kind) {
  return kind == NcMoveKind::rapid || kind == NcMoveKind::cycle_rapid;
}

enum class NcArcDir : std::uint8_t { cw, ccw };

struct NcMove {
  std::uint32_t line = 0;   // 1-based source line
  std::int64_t n = -1;      // N number, -1 when the line has none
  std::uint32_t block = 0;  // index into NcProgram::blocks (one text per source line)
  NcMoveKind kind = NcMoveKind::rapid;
  std::array<double, 3> start{};  // tool tip, machine coordinates, mm
  std::array<double, 3> end{};
  // Arcs only (zero for lines): the centre at the start's level along the plane normal; the
  // plane (17: normal +Z, 18: normal +Y, 19: normal +X); ccw = positive rotation about that
  // normal (LinuxCNC's reading of G3 in every plane); whole turns, >= 1 (the last one partial
  // unless start and end coincide in the plane).
  std::array<double, 3> centre{};
  std::uint8_t plane = 17;
  NcArcDir dir = NcArcDir::cw;
  std::uint32_t turns = 0;
  std::int32_t tool = 0;   // tool in the spindle (M6), 0: none
  double tool_length = 0;  // tool length offset in effect (G43), mm
};

// Where the tip is along a move. An arc turns about its plane's normal at a constant rate, with
// the radius and the height along the normal linear in the angle (a helix, or LinuxCNC's slight
// spiral when the end radius differs).
//   arc_sweep: the signed angle turned, radians (ccw > 0), whole extra turns included; 0 for
//   lines. arc_radius: the larger of the start and end radius; 0 for lines. arc_radii: both
//   ({0, 0} for lines).
//   sample_move: the tip at fractions 0, 1/n, ..., 1 of the move (n >= 1) appended to `out`,
//   exactly the start and the end at 0 and 1.
double arc_sweep(const NcMove& move);
double arc_radius(const NcMove& move);
std::array<double, 2> arc_radii(const NcMove& move);
void sample_move(const NcMove& move, std::uint32_t n, std::vector<std::array<double, 3>>& out);

// What a setup says about the machine (filled by the setup reader). Lengths in mm.
struct NcSetup {
  std::array<std::array<double, 3>, 6> work_offsets{};  // G54..G59, x y z
  std::array<double, 3> g28{};  // stored positions, machine coordinates of the gauge point
  std::array<double, 3> g30{};
  std::map<std::int32_t, double> tool_lengths;  // tool number -> length offset along z
  std::array<double, 3> start{};  // the gauge point at program start, machine coordinates
  std::int32_t initial_tool = 0;  // the tool in the spindle at program start (0: none)
};

// Guards against programs that would take the world: text size, line and number length, moves
// (canned cycles and L repeats multiply them) and arc turns (P).
struct NcLimits {
  std::uint64_t max_bytes = std::uint64_t{1} << 30;
  std::size_t max_line_chars = 4096;
  std::size_t max_number_chars = 40;
  double max_abs_value = 1e9;  // any number, program units
  std::uint64_t max_moves = 50'000'000;
  // Why max_moves is what it is, appended to the error (kdop nc derives it from its memory
  // budget, each move taking about kNcBytesPerMove).
  std::string max_moves_why;
  std::uint32_t max_turns = 10'000;
};

// Memory a program needs per expanded move at its peak: the move, and the vector's growth (it
// doubles, so up to twice the moves' bytes are held while it moves them).
inline constexpr std::uint64_t kNcBytesPerMove = 3 * sizeof(NcMove);

struct NcProgram {
  std::string file;
  std::vector<NcMove> moves;
  std::vector<std::string> blocks;  // source text of lines with moves, trimmed

  const std::string& block_text(const NcMove& move) const { return blocks[move.block]; }
};

// Reads and expands a program. Without a setup, the start point, work offsets, stored positions
// and tool length offsets are 0, the spindle is empty and any tool number is accepted; with one,
// T and H numbers and the initial tool (other than 0) must be in its tool table. Throws IoError
// "<file>: line N: <what>" on the first problem ("<file>: <what>" for an unknown initial tool).
NcProgram read_gcode_program(const std::string& path, const std::optional<NcSetup>& setup = {},
                             const NcLimits& limits = {});
NcProgram parse_gcode_program(std::string_view text, const std::string& name,
                              const std::optional<NcSetup>& setup = {},
                              const NcLimits& limits = {});

}  // namespace kdop
