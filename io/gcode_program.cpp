// G-code interpreter: lexed lines -> blocks (words sorted into modal groups) -> moves, executed in
// LinuxCNC's order. The state keeps the tool tip in machine coordinates (mm); program
// coordinates are derived from it where a rule is stated in them (canned cycles, G92).
#include "io/gcode_program.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <new>
#include <numbers>
#include <string>

#include "io/gcode_lexer.hpp"
#include "io/io_error.hpp"
#include "io/json_document.hpp"
#include "io/text_scanner.hpp"

namespace kdop {
namespace {

using gcode::LexedLine;
using gcode::Word;
using Vec3 = std::array<double, 3>;

constexpr double kMmPerInch = 25.4;
// LinuxCNC's interpreter defaults (interp_internal.hh). The radius tolerance (zero radius, R too
// short for the chord) is the same length in both unit systems; the centre-format tolerance is
// not: 0.002 * sqrt(2) in (G20), 0.02 * sqrt(2) mm (G21), and 0.1 % relative.
constexpr double kRadiusToleranceMm = 0.00005 * kMmPerInch;
constexpr double kCentreToleranceInch = 2 * 0.001 * 1.4142135623730951;
constexpr double kCentreToleranceMm = 2 * 0.01 * 1.4142135623730951;
constexpr double kSpiralRelTolerance = 0.001;
constexpr double kTiny = 1e-12;                // semicircle snap in R format (LinuxCNC's TINY)
constexpr double kPeckRapidDeltaInch = 0.010;  // G83/G73 back-off, program units as inches
constexpr double kMaxPecksPerHole = 100000;

// G codes as ten times their number (G91.1 -> 911), as LinuxCNC spells them internally.
enum Group : int {
  kNonModal,
  kMotion,
  kPlane,
  kDistance,
  kIjkDistance,
  kFeedMode,
  kUnits,
  kCutterComp,
  kToolLength,
  kRetract,
  kCoordSystem,
  kPathControl,
  kSpindleMode,
  kGroupCount
};
constexpr const char* kGroupNames[kGroupCount] = {"non-modal codes (G4 G10 G28 G30 G53 G92)",
                                                  "motion",
                                                  "plane selection",
                                                  "distance mode",
                                                  "arc centre distance mode",
                                                  "feed rate mode",
                                                  "units",
                                                  "cutter compensation",
                                                  "tool length offset",
                                                  "canned cycle return mode",
                                                  "coordinate system",
                                                  "path control",
                                                  "spindle speed mode"};

enum MGroup : int { kMStop, kMTool, kMSpindle, kMCoolant, kMOverride, kMGroupCount };

// (snprintf: GCC 12 warns falsely (-Wrestrict) about "G" + std::to_string.)
std::string g_name(int code) {
  char buf[32];
  if (code % 10 != 0) {
    std::snprintf(buf, sizeof buf, "G%d.%d", code / 10, code % 10);
  } else {
    std::snprintf(buf, sizeof buf, "G%d", code / 10);
  }
  return buf;
}

struct Block {
  std::array<int, kGroupCount> g;
  std::array<int, kMGroupCount> m;
  std::array<bool, 26> has{};
  std::array<double, 26> val{};
  bool coolant_m7 = false, coolant_m8 = false;

  Block() {
    g.fill(-1);
    m.fill(-1);
  }
  bool given(char letter) const { return has[letter - 'A']; }
  double value(char letter) const { return val[letter - 'A']; }
  bool any_axis() const { return given('X') || given('Y') || given('Z'); }
};

// Rounds like LinuxCNC's round_to_int (half away from zero).
std::int64_t round_to_int(double v) {
  return static_cast<std::int64_t>(v < 0 ? v - 0.5 : v + 0.5);
}

struct ArcPlane {
  int first, second, normal;  // axis indices: G17 X,Y,Z; G18 Z,X,Y; G19 Y,Z,X
  char first_offset, second_offset, unused_offset;
  const char* name;
};
ArcPlane arc_plane(int plane) {
  if (plane == 180) return {2, 0, 1, 'K', 'I', 'J', "XZ (G18)"};
  if (plane == 190) return {1, 2, 0, 'J', 'K', 'I', "YZ (G19)"};
  return {0, 1, 2, 'I', 'J', 'K', "XY (G17)"};
}

class Interpreter {
 public:
  Interpreter(const std::string& file, const std::optional<NcSetup>& setup, const NcLimits& limits)
      : setup_(setup), limits_(limits) {
    program_.file = file;
    if (setup_) {
      work_ = setup_->work_offsets;
      g28_ = setup_->g28;
      g30_ = setup_->g30;
      pos_ = setup_->start;  // no tool length offset yet: the tip is at the gauge point
      const std::int32_t t = setup_->initial_tool;
      if (t != 0 && !setup_->tool_lengths.contains(t)) {
        throw IoError::in_file(
            file, "initial tool " + std::to_string(t) + " is not in the setup's tool table");
      }
      tool_ = prepared_tool_ = t;  // so an M6 with no T keeps it
    }
  }

  NcProgram run(std::string_view text) {
    text::LineScanner lines(text);
    LexedLine lexed;
    const gcode::LexLimits lex_limits{limits_.max_line_chars, limits_.max_number_chars,
                                      limits_.max_abs_value};
    bool seen_content = false;
    while (lines.next_line()) {
      line_ = lines.line();
      line_text_ = lines.rest();
      block_index_ = -1;
      if (text::has_bare_carriage_return(line_text_)) fail(text::kBareCarriageReturn);
      gcode::lex_line(line_text_, program_.file, line_, lex_limits, lexed);
      if (lexed.percent) {
        if (seen_content) break;  // the closing '%': nothing after it is read
        seen_content = true;
        continue;
      }
      if (lexed.words.empty()) continue;
      seen_content = true;
      const Block block = make_block(lexed);
      execute(block);
      if (ended_) break;
    }
    return std::move(program_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw IoError::at_line(program_.file, line_, what);
  }

  // ---- words -> block ------------------------------------------------------------------------

  Block make_block(const LexedLine& lexed) {
    Block b;
    n_ = -1;
    for (std::size_t i = 0; i < lexed.words.size(); ++i) {
      const Word& w = lexed.words[i];
      switch (w.letter) {
        case 'N':
          if (i != 0) fail("N word must come first on the line");
          n_ = integer_of(w, "N");
          if (n_ < 0) fail("N number must not be negative");
          break;
        case 'G':
          add_g(b, w.value);
          break;
        case 'M':
          add_m(b, w.value);
          break;
        case 'X':
        case 'Y':
        case 'Z':
        case 'I':
        case 'J':
        case 'K':
        case 'R':
        case 'F':
        case 'S':
        case 'T':
        case 'H':
        case 'P':
        case 'Q':
        case 'L':
          if (b.given(w.letter)) fail(std::string("two ") + w.letter + " words in one block");
          b.has[w.letter - 'A'] = true;
          b.val[w.letter - 'A'] = w.value;
          break;
        case 'A':
        case 'B':
        case 'C':
        case 'U':
        case 'V':
        case 'W':
          fail(std::string("axis ") + w.letter + " is not supported (3-axis programs: X Y Z)");
        case 'D':
          fail("D word (cutter compensation) is not supported");
        case 'E':
          fail("E word is not supported");
        default:
          fail(std::string("unknown word ") + w.letter);
      }
    }
    return b;
  }

  std::int64_t integer_of(const Word& w, const char* what) const {
    const double r = std::nearbyint(w.value);
    if (std::fabs(w.value - r) > 1e-4) {
      fail(std::string(what) + " needs a whole number, got " + std::to_string(w.value));
    }
    return static_cast<std::int64_t>(r);
  }

  void add_g(Block& b, double value) {
    const double tenfold = value * 10;
    const double r = std::nearbyint(tenfold);
    // The bound keeps the cast below defined (G499999999 passes the 1e9 number limit).
    if (std::fabs(tenfold - r) > 1e-6 || r < 0 || r > std::numeric_limits<int>::max()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "G%g is not a G code", value);
      fail(buf);
    }
    const int code = static_cast<int>(r);
    const int group = g_group(code);
    // LinuxCNC lets G80 share a block with another motion code, which then takes effect.
    if (group == kMotion && b.g[group] != -1 && (code == 800 || b.g[group] == 800)) {
      if (code != 800) b.g[group] = code;
      return;
    }
    if (b.g[group] != -1) {
      fail("two G codes of one modal group (" + std::string(kGroupNames[group]) +
           ") in one block: " + g_name(b.g[group]) + " and " + g_name(code));
    }
    b.g[group] = code;
  }

  // The modal group of a supported G code; an error naming the feature otherwise.
  int g_group(int code) const {
    switch (code) {
      case 40:
      case 100:
      case 280:
      case 281:
      case 300:
      case 301:
      case 530:
      case 920:
      case 921:
      case 922:
      case 923:
        return kNonModal;
      case 0:
      case 10:
      case 20:
      case 30:
      case 730:
      case 800:
      case 810:
      case 820:
      case 830:
        return kMotion;
      case 170:
      case 180:
      case 190:
        return kPlane;
      case 900:
      case 910:
        return kDistance;
      case 901:
      case 911:
        return kIjkDistance;
      case 930:
      case 940:
      case 950:
        return kFeedMode;
      case 200:
      case 210:
        return kUnits;
      case 400:
        return kCutterComp;
      case 430:
      case 490:
        return kToolLength;
      case 980:
      case 990:
        return kRetract;
      case 540:
      case 550:
      case 560:
      case 570:
      case 580:
      case 590:
        return kCoordSystem;
      case 610:
      case 611:
      case 640:
        return kPathControl;
      case 960:
      case 970:
        return kSpindleMode;
      case 410:
      case 411:
      case 420:
      case 421:
        fail("cutter radius compensation (" + g_name(code) + ") is not supported");
      case 50:
      case 51:
      case 52:
      case 53:
        fail("splines (" + g_name(code) + ") are not supported");
      case 330:
      case 331:
      case 760:
        fail("threading (" + g_name(code) + ") is not supported");
      case 382:
      case 383:
      case 384:
      case 385:
        fail("probing (" + g_name(code) + ") is not supported");
      case 740:
      case 840:
      case 850:
      case 860:
      case 870:
      case 880:
      case 890:
        fail("canned cycle " + g_name(code) + " is not supported (G73, G81, G82, G83 are)");
      case 591:
      case 592:
      case 593:
        fail(g_name(code) + " is not supported (work offsets G54-G59)");
      default:
        fail("unknown or unsupported G code " + g_name(code));
    }
  }

  void add_m(Block& b, double value) {
    const double r = std::nearbyint(value);
    if (std::fabs(value - r) > 1e-6 || r < 0 || r > std::numeric_limits<int>::max()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "M%g is not an M code", value);
      fail(buf);
    }
    const int code = static_cast<int>(r);
    int group;
    switch (code) {
      case 0:
      case 1:
      case 2:
      case 30:
      case 60:
        group = kMStop;
        break;
      case 6:
      case 61:
        group = kMTool;
        break;
      case 3:
      case 4:
      case 5:
        group = kMSpindle;
        break;
      case 7:
      case 8:
      case 9:
        // M7 and M8 may share a block (LinuxCNC); M9 stands alone in its group.
        if (code != 9 && b.m[kMCoolant] != 9 && !(code == 7 ? b.coolant_m7 : b.coolant_m8)) {
          (code == 7 ? b.coolant_m7 : b.coolant_m8) = true;
          b.m[kMCoolant] = code;
          return;
        }
        group = kMCoolant;
        if (b.m[kMCoolant] == -1) {
          b.m[kMCoolant] = code;
          return;
        }
        break;
      case 48:
      case 49:
      case 50:
      case 51:
      case 52:
      case 53:
        group = kMOverride;
        break;
      default:
        fail("unknown or unsupported M code M" + std::to_string(code));
    }
    if (b.m[group] != -1) {
      fail("two M codes of one modal group in one block: M" + std::to_string(b.m[group]) +
           " and M" + std::to_string(code));
    }
    b.m[group] = code;
  }

  // ---- execution -----------------------------------------------------------------------------

  double scale() const { return inch_ ? kMmPerInch : 1.0; }
  Vec3 program_offset() const {
    const Vec3& w = work_[coord_];
    return {w[0] + g92_[0], w[1] + g92_[1], w[2] + g92_[2]};
  }
  // Program coordinate (current units) of a machine tip coordinate along axis a: the number the
  // program wrote when the point came from one (LinuxCNC keeps program coordinates, so its
  // comparisons, e.g. "above R?" in a canned cycle, see that number, not a round trip of it).
  double to_program(double machine, int a) const {
    const Memo& m = memo_[a];
    if (m.valid && m.machine == machine && m.offset == program_offset()[a] && m.scale == scale()) {
      return m.program;
    }
    return (machine - program_offset()[a]) / scale();
  }
  void remember(int a, double program, double machine) {
    memo_[a] = {true, machine, program, program_offset()[a], scale()};
  }
  double to_machine(double program, int a) const { return program * scale() + program_offset()[a]; }

  double tool_length_of(std::int64_t tool, const char* word) const {
    if (!setup_ || tool == 0) return 0;
    const auto it = setup_->tool_lengths.find(static_cast<std::int32_t>(tool));
    if (it == setup_->tool_lengths.end()) {
      fail(std::string(word) + std::to_string(tool) + ": tool " + std::to_string(tool) +
           " is not in the setup's tool table");
    }
    return it->second;
  }

  std::int64_t tool_number(const Block& b, char letter) const {
    const std::int64_t t = integer_of({letter, b.value(letter)}, std::string(1, letter).c_str());
    if (t < 0 || t > 0x7fffffff) fail(std::string(1, letter) + " number out of range");
    return t;
  }

  void execute(const Block& b) {
    const int motion_word = b.g[kMotion];
    const int non_modal = b.g[kNonModal];
    const bool axis_user =
        non_modal == 100 || non_modal == 280 || non_modal == 300 || non_modal == 920;
    check_word_use(b, motion_word, non_modal, axis_user);

    // Feed mode and F, then tools: before anything moves.
    if (b.g[kFeedMode] != -1) inverse_time_ = b.g[kFeedMode] == 930;
    if (b.given('F')) {
      if (b.value('F') < 0) fail("negative feed rate F");
      feed_ = b.value('F');
      feed_given_ = true;
    }
    if (b.given('S') && b.value('S') < 0) fail("negative spindle speed S");
    if (b.given('T')) {
      const std::int64_t t = tool_number(b, 'T');
      tool_length_of(t, "T");  // must exist with a setup
      prepared_tool_ = static_cast<std::int32_t>(t);
    }
    if (b.m[kMTool] == 6) {
      tool_ = prepared_tool_;
    } else if (b.m[kMTool] == 61) {
      if (!b.given('Q')) fail("M61 needs a Q word (the tool number)");
      const std::int64_t t = tool_number(b, 'Q');
      tool_length_of(t, "M61 Q");
      tool_ = prepared_tool_ = static_cast<std::int32_t>(t);
    }
    if (non_modal == 40 && !b.given('P')) fail("G4 needs a P word (dwell seconds)");
    if (b.g[kPlane] != -1) plane_ = b.g[kPlane];
    if (b.g[kUnits] != -1) inch_ = b.g[kUnits] == 200;
    if (b.g[kToolLength] != -1) {
      double length = 0;
      if (b.g[kToolLength] == 430) {
        length =
            b.given('H') ? tool_length_of(tool_number(b, 'H'), "H") : tool_length_of(tool_, "T");
      }
      // The spindle stays where it is: the tip moves by the change of offset.
      pos_[2] += tool_length_ - length;
      tool_length_ = length;
    }
    if (b.g[kCoordSystem] != -1) coord_ = (b.g[kCoordSystem] - 540) / 10;
    if (b.g[kDistance] != -1) incremental_ = b.g[kDistance] == 910;
    if (b.g[kIjkDistance] != -1) ijk_absolute_ = b.g[kIjkDistance] == 901;
    if (b.g[kRetract] != -1) retract_to_r_ = b.g[kRetract] == 990;

    switch (non_modal) {
      case 100:
        set_work_offset(b);
        break;
      case 280:
      case 300:
        go_home(b, non_modal == 280 ? g28_ : g30_);
        break;
      case 281:
      case 301: {
        Vec3& stored = non_modal == 281 ? g28_ : g30_;
        stored = {pos_[0], pos_[1], pos_[2] + tool_length_};
        break;
      }
      case 920:
        set_g92(b);
        break;
      case 921:
        g92_ = {};
        g92_saved_ = {};
        break;
      case 922:
        g92_ = {};
        break;
      case 923:
        g92_ = g92_saved_;
        break;
      default:
        break;
    }

    // The motion: an explicit motion code, or axis words under the modal motion mode.
    int motion = -1;
    if (motion_word != -1) {
      motion = motion_word;
    } else if (b.any_axis() && !axis_user) {
      if (motion_mode_ == 800) fail("axis words without a motion mode (G80 is in effect)");
      motion = motion_mode_;
    }
    if (non_modal == 530) {
      const int mode = motion != -1 ? motion : motion_mode_;
      if (mode != 0 && mode != 10) fail("G53 needs G0 or G1");
      if (incremental_) fail("G53 cannot be used in incremental mode (G91)");
    }
    if (motion != -1) {
      if (motion != 730 && motion != 810 && motion != 820 && motion != 830) cycle_il_flag_ = false;
      switch (motion) {
        case 0:
        case 10:
          straight(b, motion, non_modal == 530);
          motion_mode_ = motion;
          break;
        case 20:
        case 30:
          arc(b, motion);
          motion_mode_ = motion;
          break;
        case 800:
          if (b.any_axis() && !axis_user) fail("axis words with G80");
          motion_mode_ = 800;
          break;
        default:
          cycle(b, motion);
          motion_mode_ = motion;
          break;
      }
    }
    if (b.m[kMStop] == 2 || b.m[kMStop] == 30) ended_ = true;
  }

  // Words that only some codes use, as LinuxCNC checks them.
  void check_word_use(const Block& b, int motion_word, int non_modal, bool axis_user) const {
    const int mode = motion_word != -1 ? motion_word : motion_mode_;
    const bool arc_motion = mode == 20 || mode == 30;
    const bool cycle_motion = mode == 730 || mode == 810 || mode == 820 || mode == 830;
    if (motion_word != -1 && motion_word != 800 && axis_user && b.any_axis()) {
      fail(g_name(motion_word) + " and " + g_name(non_modal) +
           " both use the axis words of one block");
    }
    if ((b.given('I') || b.given('J') || b.given('K')) && !arc_motion) {
      fail("I/J/K words without G2 or G3 to use them");
    }
    if (b.given('R') && !arc_motion && !cycle_motion && non_modal != 100) {
      fail("R word without G2/G3 or a canned cycle to use it");
    }
    if (b.given('Q') && !(mode == 830 || mode == 730) && b.m[kMTool] != 61) {
      fail("Q word without G73, G83 or M61 to use it");
    }
    if (b.given('P') && !(non_modal == 40 || non_modal == 100 || arc_motion || mode == 820 ||
                          b.g[kPathControl] == 640)) {
      fail("P word without G4, G10, G2/G3, G82 or G64 to use it");
    }
    if (b.given('L') && non_modal != 100 && !cycle_motion) {
      fail("L word without G10 or a canned cycle to use it");
    }
    if (b.given('H') && b.g[kToolLength] != 430) fail("H word without G43 to use it");
  }

  // The end point of a move from the block's axis words (others stay).
  Vec3 target(const Block& b, bool machine) {
    Vec3 p = pos_;
    constexpr char kAxes[3] = {'X', 'Y', 'Z'};
    for (int a = 0; a < 3; ++a) {
      if (!b.given(kAxes[a])) continue;
      const double v = b.value(kAxes[a]) * scale();
      if (machine) {
        p[a] = v - (a == 2 ? tool_length_ : 0.0);  // G53 addresses the gauge point
      } else if (incremental_) {
        p[a] = pos_[a] + v;
      } else {
        p[a] = v + program_offset()[a];
        remember(a, b.value(kAxes[a]), p[a]);
      }
    }
    return p;
  }

  NcMove& emit(NcMoveKind kind, const Vec3& end) {
    if (program_.moves.size() >= limits_.max_moves) {
      fail("more than " + std::to_string(limits_.max_moves) + " moves" + limits_.max_moves_why);
    }
    if (block_index_ < 0) {
      block_index_ = static_cast<std::int64_t>(program_.blocks.size());
      program_.blocks.emplace_back(line_text_);
    }
    NcMove& m = program_.moves.emplace_back();
    m.line = static_cast<std::uint32_t>(line_);
    m.n = n_;
    m.block = static_cast<std::uint32_t>(block_index_);
    m.kind = kind;
    m.start = pos_;
    m.end = end;
    m.plane = static_cast<std::uint8_t>(plane_ / 10);
    m.tool = tool_;
    m.tool_length = tool_length_;
    pos_ = end;
    return m;
  }

  void require_feed(const Block& b) const {
    if (inverse_time_) {
      if (!b.given('F')) fail("F word missing for a feed move in inverse time mode (G93)");
      if (b.value('F') == 0) fail("zero feed rate (F0)");
    } else if (feed_ == 0) {
      fail(feed_given_ ? "feed move with a zero feed rate (F0)"
                       : "feed move with a zero feed rate (no F word yet)");
    }
  }

  void straight(const Block& b, int motion, bool g53) {
    if (motion == 10) require_feed(b);
    emit(motion == 0 ? NcMoveKind::rapid : NcMoveKind::feed, target(b, g53));
  }

  void set_work_offset(const Block& b) {
    if (!b.given('L')) fail("G10 needs an L word (only G10 L2 is supported)");
    const std::int64_t l = integer_of({'L', b.value('L')}, "L");
    if (l != 2) fail("G10 L" + std::to_string(l) + " is not supported (only G10 L2)");
    if (!b.given('P')) fail("G10 L2 needs a P word (0: current, 1-6: G54-G59)");
    const std::int64_t p = integer_of({'P', b.value('P')}, "P");
    if (p < 0 || p > 9) fail("G10 L2 P must be 0 to 9");
    if (p > 6) fail("G10 L2 P" + std::to_string(p) + " (G59.1-G59.3) is not supported");
    if (b.given('R') && b.value('R') != 0) fail("G10 L2 R (rotation) is not supported");
    Vec3& w = work_[p == 0 ? coord_ : static_cast<int>(p - 1)];
    constexpr char kAxes[3] = {'X', 'Y', 'Z'};
    for (int a = 0; a < 3; ++a) {
      if (b.given(kAxes[a])) w[a] = b.value(kAxes[a]) * scale();  // absolute, even in G91
    }
  }

  void set_g92(const Block& b) {
    if (!b.any_axis()) fail("G92 needs at least one axis word");
    constexpr char kAxes[3] = {'X', 'Y', 'Z'};
    for (int a = 0; a < 3; ++a) {
      if (!b.given(kAxes[a])) continue;
      // The current point gets the given program coordinate (absolute, even in G91).
      g92_[a] = pos_[a] - work_[coord_][a] - b.value(kAxes[a]) * scale();
    }
    g92_saved_ = g92_;
  }

  // G28 / G30: a rapid to the intermediate point (the axis words, in the current distance mode;
  // the current point when there are none), then a rapid to the stored position on the axes
  // named (all axes when none is).
  void go_home(const Block& b, const Vec3& stored) {
    emit(NcMoveKind::rapid, target(b, false));
    Vec3 home = pos_;
    constexpr char kAxes[3] = {'X', 'Y', 'Z'};
    for (int a = 0; a < 3; ++a) {
      if (b.any_axis() && !b.given(kAxes[a])) continue;
      home[a] = stored[a] - (a == 2 ? tool_length_ : 0.0);
    }
    emit(NcMoveKind::rapid, home);
  }

  void arc(const Block& b, int motion) {
    require_feed(b);
    const ArcPlane pl = arc_plane(plane_);
    if (b.given(pl.unused_offset)) {
      fail(std::string(1, pl.unused_offset) + " word given for an arc in the " + pl.name +
           " plane");
    }
    const bool has_offset = b.given(pl.first_offset) || b.given(pl.second_offset);
    if (b.given('R') && has_offset) fail("arc with both R and I/J/K words");
    if (!b.given('R') && !has_offset) fail("arc without R or I/J/K words");
    std::uint32_t turns = 1;
    if (b.given('P')) {
      const std::int64_t p = round_to_int(b.value('P'));
      // As rs274 ("P value not an integer with M19 G2 or G3"): P2.4 is no number of turns.
      if (std::fabs(b.value('P') - static_cast<double>(p)) > 1e-3) {
        char text[64];
        std::snprintf(text, sizeof text, "P (turns) must be a whole number for G2/G3, got %g",
                      b.value('P'));
        fail(text);
      }
      if (p < 1) fail("P (turns) must be 1 or more for G2/G3");
      if (static_cast<std::uint64_t>(p) > limits_.max_turns) {
        fail("arc with P" + std::to_string(p) + " turns, more than the limit of " +
             std::to_string(limits_.max_turns));
      }
      turns = static_cast<std::uint32_t>(p);
    }
    const Vec3 start = pos_;
    const Vec3 end = target(b, false);
    const double s1 = start[pl.first], s2 = start[pl.second];
    const double e1 = end[pl.first], e2 = end[pl.second];
    double c1, c2;
    if (b.given('R')) {
      constexpr char kAxes[3] = {'X', 'Y', 'Z'};
      if (!b.given(kAxes[pl.first]) && !b.given(kAxes[pl.second])) {
        fail(std::string("R-format arc without ") + kAxes[pl.first] + " or " + kAxes[pl.second] +
             " words (a full circle needs I/J/K)");
      }
      if (e1 == s1 && e2 == s2) fail("R-format arc whose end is its start (use I/J/K)");
      const double radius = b.value('R') * scale();
      const double abs_radius = std::fabs(radius);
      const double d1 = e1 - s1, d2 = e2 - s2;
      const double chord = std::hypot(d1, d2);
      double half = chord / 2;
      if (half - abs_radius > kRadiusToleranceMm) {
        fail("arc radius |R| smaller than half the distance to the end point");
      }
      if (half / abs_radius > 1 - kTiny) half = abs_radius;  // a semicircle, within tolerance
      const double offset = std::sqrt(std::fmax(0.0, abs_radius * abs_radius - half * half));
      // The centre lies on the chord's perpendicular bisector: to the right of the chord for a
      // cw arc of at most half a turn (R > 0), to the left for ccw; R < 0 swaps sides.
      const bool right = (motion == 20) == (radius > 0);
      const double sign = right ? -1.0 : 1.0;
      c1 = (s1 + e1) / 2 + sign * offset * (-d2 / chord);
      c2 = (s2 + e2) / 2 + sign * offset * (d1 / chord);
    } else {
      const double i1 = b.given(pl.first_offset) ? b.value(pl.first_offset) * scale() : 0.0;
      const double i2 = b.given(pl.second_offset) ? b.value(pl.second_offset) * scale() : 0.0;
      if (ijk_absolute_) {
        c1 = i1 + program_offset()[pl.first];
        c2 = i2 + program_offset()[pl.second];
      } else {
        c1 = s1 + i1;
        c2 = s2 + i2;
      }
      const double r1 = std::hypot(c1 - s1, c2 - s2);
      const double r2 = std::hypot(c1 - e1, c2 - e2);
      if (r1 < kRadiusToleranceMm || r2 < kRadiusToleranceMm) fail("zero-radius arc");
      const double abs_err = std::fabs(r1 - r2);
      const double rel_err = abs_err / std::fmax(r1, r2);
      const double abs_tol = inch_ ? kCentreToleranceInch * kMmPerInch : kCentreToleranceMm;
      // rs274 (2.9) rejects a difference beyond both tolerances, or beyond 100 times the
      // length one (checked against it in tests/io/gcode_program_test.cpp).
      if (abs_err > 100 * abs_tol || (abs_err > abs_tol && rel_err > kSpiralRelTolerance)) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "radius to the end of the arc (%.6g mm) differs from the radius to the "
                      "start (%.6g mm) by more than %.4g mm and 0.1%% (or by more than %.4g mm)",
                      r2, r1, abs_tol, 100 * abs_tol);
        fail(buf);
      }
    }
    NcMove& m = emit(NcMoveKind::arc, end);
    m.centre[pl.first] = c1;
    m.centre[pl.second] = c2;
    m.centre[pl.normal] = start[pl.normal];
    m.dir = motion == 20 ? NcArcDir::cw : NcArcDir::ccw;
    m.turns = turns;
  }

  // G81, G82, G83, G73 in G17, as LinuxCNC's convert_cycle_xy runs them: positions in program
  // coordinates, the first move (maybe) straight up to R, then per repeat an XY rapid at the
  // clearance height, down to R, the drilling moves and the retract.
  void cycle(const Block& b, int motion) {
    if (plane_ != 170) fail("canned cycles are supported in the XY plane (G17) only");
    if (inverse_time_) fail("canned cycles cannot run in inverse time mode (G93)");
    require_feed(b);
    const bool same = motion_mode_ == motion;
    double r_word;
    if (b.given('R')) {
      r_word = b.value('R');
    } else if (same) {
      r_word = cycle_r_;
    } else {
      fail("R word (retract plane) missing for " + g_name(motion));
    }
    if (!same && !b.given('Z')) fail("Z word missing for " + g_name(motion));
    const double z_word = b.given('Z') ? b.value('Z') : cycle_z_;
    std::int64_t repeats = 1;
    if (b.given('L')) {
      repeats = integer_of({'L', b.value('L')}, "L");
      if (repeats < 1) fail("L (repeats) must be 1 or more");
    }
    double q = 0;
    if (motion == 830 || motion == 730) {
      if (!same && !b.given('Q')) fail("Q word (peck depth) missing for " + g_name(motion));
      q = b.given('Q') ? b.value('Q') : cycle_q_;
      if (q <= 0) fail("Q (peck depth) must be positive");
    }
    if (motion == 820) {
      if (!same && !b.given('P')) fail("P word (dwell) missing for G82");
      if (b.given('P') && b.value('P') < 0) fail("negative dwell P");
    }

    const double cur_z = to_program(pos_[2], 2);
    if (!cycle_il_flag_) {
      cycle_il_ = cur_z;
      cycle_il_flag_ = true;
    }
    double old_z = cycle_il_;
    double x, y, dx = 0, dy = 0, r, bottom;
    if (!incremental_) {
      x = b.given('X') ? b.value('X') : to_program(pos_[0], 0);
      y = b.given('Y') ? b.value('Y') : to_program(pos_[1], 1);
      r = r_word;
      bottom = z_word;
    } else {
      dx = b.given('X') ? b.value('X') : 0.0;
      dy = b.given('Y') ? b.value('Y') : 0.0;
      x = to_program(pos_[0], 0);
      y = to_program(pos_[1], 1);
      r = r_word + old_z;
      bottom = r + z_word;
    }
    if (r < bottom) fail("R plane below the bottom Z of " + g_name(motion));

    // Moves this block will make: refuse before making them when they exceed the limit.
    double per_repeat = 4;
    if (q > 0) {
      // A hole of more pecks than this takes hours on any machine: a Q in the wrong units or a
      // typo (Q0.000001 over 12 mm made 36 million moves and 13 GB), refused as such.
      const double pecks = std::ceil((r - bottom) / q);
      if (pecks > kMaxPecksPerHole) {
        char text[200];
        std::snprintf(text, sizeof text,
                      "%s with Q%.6g would peck %.0f times per hole, more than %.0f: Q is the "
                      "peck depth, in the program's units",
                      g_name(motion).c_str(), q, std::min(pecks, 1e18), kMaxPecksPerHole);
        fail(text);
      }
      per_repeat += 3 * pecks;
    }
    const double total = per_repeat * static_cast<double>(repeats);
    if (total > static_cast<double>(limits_.max_moves - program_.moves.size())) {
      fail(g_name(motion) + " would make about " +
           std::to_string(static_cast<std::uint64_t>(std::min(total, 1e18))) +
           " moves, more than the limit of " + std::to_string(limits_.max_moves) +
           limits_.max_moves_why);
    }

    auto at = [&](double px, double py, double pz) {
      const Vec3 p{to_machine(px, 0), to_machine(py, 1), to_machine(pz, 2)};
      remember(0, px, p[0]);
      remember(1, py, p[1]);
      remember(2, pz, p[2]);
      return p;
    };
    double current_z = cur_z;
    if (old_z < r) {
      emit(NcMoveKind::cycle_rapid, Vec3{pos_[0], pos_[1], to_machine(r, 2)});
      old_z = current_z = r;
    }
    const double clear = retract_to_r_ ? r : old_z;
    const double back_off = inch_ ? kPeckRapidDeltaInch : kPeckRapidDeltaInch * kMmPerInch;
    for (std::int64_t k = 0; k < repeats; ++k) {
      x += dx;
      y += dy;
      // The first positioning move is at the current height when that is above R; every other
      // one at the clearance height (LinuxCNC's CYCLE_MACRO).
      if (k == 0 && current_z > r) {
        emit(NcMoveKind::cycle_rapid, at(x, y, current_z));
        emit(NcMoveKind::cycle_rapid, at(x, y, r));
      } else {
        emit(NcMoveKind::cycle_rapid, at(x, y, clear));
        if (clear > r) emit(NcMoveKind::cycle_rapid, at(x, y, r));
      }
      if (motion == 830 || motion == 730) {
        for (double depth = r - q; depth > bottom; depth -= q) {
          emit(NcMoveKind::cycle_feed, at(x, y, depth));
          if (motion == 830) emit(NcMoveKind::cycle_rapid, at(x, y, r));
          emit(NcMoveKind::cycle_rapid, at(x, y, depth + back_off));
        }
      }
      emit(NcMoveKind::cycle_feed, at(x, y, bottom));
      emit(NcMoveKind::cycle_rapid, at(x, y, clear));
    }
    cycle_r_ = r_word;
    cycle_z_ = z_word;
    if (q > 0) cycle_q_ = q;
  }

  const std::optional<NcSetup>& setup_;
  const NcLimits& limits_;
  NcProgram program_;

  // Where we are in the text.
  std::uint64_t line_ = 0;
  std::string_view line_text_;
  std::int64_t n_ = -1;
  std::int64_t block_index_ = -1;
  bool ended_ = false;

  // Machine state (LinuxCNC's reset state).
  Vec3 pos_{};  // tool tip, machine coordinates, mm
  int motion_mode_ = 800;
  int plane_ = 170;
  bool inch_ = false;
  bool incremental_ = false;
  bool ijk_absolute_ = false;
  bool retract_to_r_ = true;
  bool inverse_time_ = false;
  double feed_ = 0;
  bool feed_given_ = false;  // an F word came (F0 included): a zero feed is then F0's
  int coord_ = 0;            // 0..5: G54..G59
  std::array<Vec3, 6> work_{};
  Vec3 g92_{}, g92_saved_{};
  Vec3 g28_{}, g30_{};
  std::int32_t tool_ = 0, prepared_tool_ = 0;
  double tool_length_ = 0;
  // Canned cycles: sticky words (program units, as written) and the initial level.
  double cycle_r_ = 0, cycle_z_ = 0, cycle_q_ = 0;
  bool cycle_il_flag_ = false;
  double cycle_il_ = 0;
  // The program coordinate last written for each axis, valid while the point and frame stay.
  struct Memo {
    bool valid = false;
    double machine = 0, program = 0, offset = 0, scale = 1;
  };
  std::array<Memo, 3> memo_{};
};

}  // namespace

const char* to_string(NcMoveKind kind) {
  switch (kind) {
    case NcMoveKind::rapid:
      return "rapid";
    case NcMoveKind::feed:
      return "feed";
    case NcMoveKind::arc:
      return "arc";
    case NcMoveKind::cycle_rapid:
      return "cycle_rapid";
    case NcMoveKind::cycle_feed:
      return "cycle_feed";
  }
  return "unknown";
}

namespace {

// An arc's in-plane axes (u, v), positive rotation u -> v about the normal w.
struct ArcAxes {
  int u, v, w;
};

ArcAxes arc_axes(const NcMove& m) {
  if (m.plane == 18) return {2, 0, 1};
  if (m.plane == 19) return {1, 2, 0};
  return {0, 1, 2};
}

double angle_of(const std::array<double, 3>& p, const std::array<double, 3>& c, ArcAxes a) {
  return std::atan2(p[a.v] - c[a.v], p[a.u] - c[a.u]);
}

double radius_of(const std::array<double, 3>& p, const std::array<double, 3>& c, ArcAxes a) {
  return std::hypot(p[a.u] - c[a.u], p[a.v] - c[a.v]);
}

}  // namespace

double arc_sweep(const NcMove& move) {
  if (move.kind != NcMoveKind::arc) return 0;
  const ArcAxes a = arc_axes(move);
  const double two_pi = 2 * std::numbers::pi;
  // The partial turn in (0, 2 pi] in the arc's direction (a whole one when the ends meet in the
  // plane), then the whole extra turns.
  double partial = angle_of(move.end, move.centre, a) - angle_of(move.start, move.centre, a);
  if (move.dir == NcArcDir::cw) partial = -partial;
  partial = std::fmod(partial, two_pi);
  if (partial <= 0) partial += two_pi;
  const double sweep = partial + two_pi * (std::max<std::uint32_t>(move.turns, 1) - 1);
  return move.dir == NcArcDir::ccw ? sweep : -sweep;
}

std::array<double, 2> arc_radii(const NcMove& move) {
  if (move.kind != NcMoveKind::arc) return {0, 0};
  const ArcAxes a = arc_axes(move);
  return {radius_of(move.start, move.centre, a), radius_of(move.end, move.centre, a)};
}

double arc_radius(const NcMove& move) {
  const std::array<double, 2> r = arc_radii(move);
  return std::max(r[0], r[1]);
}

void sample_move(const NcMove& move, std::uint32_t n, std::vector<std::array<double, 3>>& out) {
  n = std::max<std::uint32_t>(n, 1);
  out.push_back(move.start);
  const bool arc = move.kind == NcMoveKind::arc;
  const ArcAxes a = arc_axes(move);
  const double a0 = arc ? angle_of(move.start, move.centre, a) : 0;
  const double sweep = arc_sweep(move);
  const double r0 = arc ? radius_of(move.start, move.centre, a) : 0;
  const double r1 = arc ? radius_of(move.end, move.centre, a) : 0;
  for (std::uint32_t k = 1; k < n; ++k) {
    const double f = static_cast<double>(k) / n;
    std::array<double, 3> p{};
    for (int i = 0; i < 3; ++i) p[i] = move.start[i] + f * (move.end[i] - move.start[i]);
    if (arc) {
      const double angle = a0 + f * sweep, radius = r0 + f * (r1 - r0);
      p[a.u] = move.centre[a.u] + radius * std::cos(angle);
      p[a.v] = move.centre[a.v] + radius * std::sin(angle);
    }
    out.push_back(p);
  }
  out.push_back(move.end);
}

NcProgram parse_gcode_program(std::string_view text, const std::string& name,
                              const std::optional<NcSetup>& setup, const NcLimits& limits) {
  if (text.size() > limits.max_bytes) {
    throw IoError::in_file(name,
                           "program larger than " + std::to_string(limits.max_bytes) + " bytes");
  }
  return Interpreter(name, setup, limits).run(text);
}

NcProgram read_gcode_program(const std::string& path, const std::optional<NcSetup>& setup,
                             const NcLimits& limits) {
  try {
    const std::string text = json::read_text_file(
        path, limits.max_bytes,
        "program larger than " + std::to_string(limits.max_bytes >> 20) + " MiB");
    return parse_gcode_program(text, path, setup, limits);
  } catch (const std::bad_alloc&) {
    throw IoError::in_file(path, "not enough memory to expand the program");
  }
}

}  // namespace kdop
