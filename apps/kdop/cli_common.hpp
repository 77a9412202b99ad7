#pragma once
// What every kdop command shares: exit codes, option parsing helpers, output.
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "io/file_extension.hpp"
#include "io/gcode_program.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "builders/build_config.hpp"
#include "geometry/pose.hpp"
#include "io/atomic_file.hpp"

namespace kdop::cli {

// Exit codes of every kdop command.
inline constexpr int kExitClear = 0;       // nothing found
inline constexpr int kExitFinding = 1;     // contact, finding or undecided
inline constexpr int kExitInputError = 2;  // usage or input error
inline constexpr int kExitInternal = 3;    // resource or internal error
inline constexpr int kExitInterrupted = 130;

// A usage or input error; main prints what() on one line and exits with kExitInputError.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "tx,ty,tz,qw,qx,qy,qz"; throws InputError naming the option.
Pose parse_pose_option(const std::string& text);
// "m00,...,m33" (16 numbers, rows); throws InputError naming the option.
Pose parse_matrix_option(const std::string& text);

// Option validators with one-line messages: a value that is not empty (CLI11 would otherwise take
// `--pose ""` as not given), and a finite number >= 0 or > 0 (CLI::NonNegativeNumber lets NaN
// through, and both it and CLI::PositiveNumber print their range with DBL_MAX in full).
CLI::Validator non_empty();
CLI::Validator finite_non_negative();
CLI::Validator finite_positive();
CLI::Validator whole_number_u64();

// A file an option names. Outputs are checked before any work, so a run that cannot write them
// fails at once and leaves none: each must be in an existing folder, and none may name an input
// or another output (`--out` naming the pose file, a mesh or the other output would destroy it).
// "-" (standard input) and empty (not given) are skipped. A symbolic link to an input counts as
// the input.
struct NamedPath {
  std::string option, path;
};
// `stdout_holds`, when given, names what the command prints on standard output ("the results"):
// an output that is standard output too (/dev/stdout, or the file it is redirected to) is then
// refused, as the two would interleave. "-" is refused as an output name (it would make a file
// called "-"); /dev/stdout names standard output.
void check_outputs(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs,
                   const char* stdout_holds = nullptr);
// Only the names: "-" refused (check_outputs does this too; for commands that look at the
// names' extensions first).
void check_output_names(const std::vector<NamedPath>& outputs);

// An output name's extension, any case, among `extensions` (or a stream without one, such as
// /dev/stdout); else InputError "<option>: expected <what> file name, got '<path>'".
void check_output_extension(const NamedPath& out, std::initializer_list<const char*> extensions,
                            const char* what);

// A command's outputs, all or none (write_outputs_atomic), their temporaries removed on an
// interrupt.
void write_outputs(const std::vector<PendingOutput>& outputs);

// The plural ending of a count in a summary: "1 pose", "2 poses".
inline const char* plural_s(std::uint64_t n) {
  return n == 1 ? "" : "s";
}

// --json given, or an --out name ending in .json (formats follow the name, as in every command).
inline bool wants_json(bool json_flag, const std::string& out) {
  return json_flag || lowercase_extension(out) == ".json";
}

// --plot's file name, checked before any work: .svg or .png (any case), else InputError.
void check_plot_option(const std::string& path);

// Flushes standard output; IoError "<stdout>: cannot write (reason)" if a write to it failed
// (a full disk, /dev/full). Callers clear errno before their writes, so the reason is theirs.
void check_stdout();

// Writes `text` to stdout, or atomically to `path` when it is not empty.
void emit(const std::string& text, const std::string& path);

// Set when SIGINT or SIGTERM arrives; long-running commands poll it and exit with
// kExitInterrupted. install_interrupt_handler() must run before any other thread starts.
bool interrupted();
const std::atomic<bool>& interrupt_flag();  // for RunControl::cancel
void install_interrupt_handler();
// An output file written atomically (path + ".tmp.<pid>", then renamed): its temporary is
// removed if an interrupt has to end the process while the command is stuck.
void register_output_file(const std::string& path);

// A one-line progress display on a terminal (standard error), at most ten updates a second;
// nothing when standard error is not a terminal (CI logs) or when disabled.
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO) == 1) {}
  void update(const std::string& text, double seconds) {
    if (!enabled_ || seconds - last_ < 0.1) return;
    last_ = seconds;
    // Padded to the widest line so far, so a shorter one leaves nothing of it behind.
    width_ = std::max(width_, static_cast<int>(text.size()));
    std::fprintf(stderr, "\r%-*s", width_, text.c_str());
    std::fflush(stderr);
  }
  void finish() {
    if (enabled_ && last_ > 0) std::fprintf(stderr, "\r%*s\r", width_, "");
  }

 private:
  bool enabled_;
  double last_ = 0;
  int width_ = 0;  // the widest line shown, to clear
};

// Memory for building hierarchies (issue 8: fail early and clearly, not by the kernel's OOM
// killer). The budget is --max-memory (bytes, K/M/G suffixes) or, when empty, MemAvailable
// from /proc/meminfo; under an address-space limit (ulimit -v), at most half of what it leaves
// (no limit when none of these can be read). InputError for a malformed value.
struct MemoryBudget {
  std::uint64_t bytes = 0;  // 0: no limit
  bool from_option = false;
  bool from_address_limit = false;  // ulimit -v, lower than the rest
};
MemoryBudget memory_budget(const std::string& max_memory);
// "the 2.00 GB --max-memory allows" or "the 24.79 GB available (MemAvailable; ...)", for messages.
std::string budget_text(const MemoryBudget& budget);

// A hierarchy needs about this much per triangle at its peak, the mesh included. Measured on a
// 10,001,406-triangle sphere (2026-12-01): `kdop check` with it as the environment peaked at
// 2.98 GB with kdop18 and 3.24 GB with kdop32 (298 and 324 bytes a triangle); as the moving
// object, whose build also finds every node's DOP vertices and the whole object's convex hull, at
// 6.63 and 6.96 GB (663 and 696 bytes; 871 and 895 before the STL soup's repeated corners were
// merged for the hull). `kdop build`, which also holds the file image before writing it: an
// environment (kdop32) 5.13 GB, 513 bytes (679 with kdop18 on 2026-11-23, when its file was
// larger); an object 8.38 GB, 838 bytes. A sphere is the hull's worst case (every point on it).
inline constexpr std::uint64_t kEnvironmentBytesPerTriangle = 450;
inline constexpr std::uint64_t kObjectBytesPerTriangle = 950;
inline constexpr std::uint64_t kEnvironmentFileBytesPerTriangle = 720;

// The G-code reader's move limit within the budget (kNcBytesPerMove each), with the reason in its
// error message.
NcLimits nc_limits(const MemoryBudget& budget);

// Before reading: a mesh or hierarchy file larger than the budget less `held` bytes (what
// `held_what` names: the hierarchies read or built before it) is refused (a mesh in memory is
// never much larger than its file, and a mapped hierarchy file larger than the memory would be
// read from disk again on every query). After reading: `triangles` are refused when their
// hierarchy would need more than the budget (`per_triangle` bytes each) less the `held` bytes of
// the hierarchies built or loaded before it, which stay in memory while it is built. InputError
// naming the file, the need and the budget. check_file_fits returns the file's size (0 when it
// cannot be read), for callers that sum the files before the next.
std::uint64_t check_file_fits(const std::string& path, const MemoryBudget& budget,
                              std::uint64_t held = 0,
                              const char* held_what = "the hierarchies built or read before it");
void check_build_fits(const std::string& path, std::uint64_t triangles, const MemoryBudget& budget,
                      std::uint64_t per_triangle, std::uint64_t held = 0);

// The checks above for a verify-layer build (kdop path, kdop nc): moving meshes at
// kObjectBytesPerTriangle, the rest at kEnvironmentBytesPerTriangle.
BeforeBuild build_gate(const MemoryBudget& budget);

}  // namespace kdop::cli
