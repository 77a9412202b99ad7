#include "apps/kdop/cli_common.hpp"
#include "geometry/coordinate_range.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/io_error.hpp"
#include "io/mesh_writer.hpp"
#include "io/plot_canvas.hpp"

namespace kdop::cli {
namespace {

// Interrupts (SIGINT, SIGTERM) are taken by one watcher thread instead of a signal handler, so
// that they are seen even while the main thread is blocked reading a pipe: it sets this flag
// (long-running commands poll it and stop cleanly, exit 130), and if the command has not ended
// 2 seconds later it removes the temporary files of the registered outputs and exits 130.
// Process-wide by nature: a signal belongs to the process.
std::atomic<bool> g_interrupted{false};
std::mutex g_outputs_mutex;
std::vector<std::string> g_outputs;  // the temporaries of atomic output files

void watch_interrupts(sigset_t signals) {
  int signal_number = 0;
  if (sigwait(&signals, &signal_number) != 0) return;
  g_interrupted.store(true);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  {
    std::lock_guard<std::mutex> lock(g_outputs_mutex);
    for (const std::string& temporary : g_outputs) ::unlink(temporary.c_str());
  }
  const char message[] = "kdop: interrupted\n";
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(kExitInterrupted);
}

// "number 1 (tx)": the number's place, and its name when `layout` lists one name per number.
std::string number_name(std::size_t index, std::size_t expected, const std::string& layout) {
  std::vector<std::string> names{""};
  for (const char c : layout) {
    if (c == ',') {
      names.emplace_back();
    } else {
      names.back() += c;
    }
  }
  std::string text = "number " + std::to_string(index + 1);
  if (names.size() == expected && index < names.size()) text += " (" + names[index] + ")";
  return text;
}

std::vector<double> parse_numbers(const std::string& option, const std::string& text,
                                  std::size_t expected, const char* layout) {
  std::vector<double> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = text.find(',', pos);
    const std::size_t end = comma == std::string::npos ? text.size() : comma;
    const char* first = text.data() + pos;
    const char* last = text.data() + end;
    while (first < last && *first == ' ') ++first;
    double v = 0;
    const auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec == std::errc::result_out_of_range && ptr == last) {
      throw InputError(option + ": " + number_name(out.size(), expected, layout) + ", '" +
                       std::string(first, last) + "', is outside double's range");
    }
    if (ec != std::errc() || ptr != last || first == last) {
      throw InputError(option + ": expected " + std::to_string(expected) +
                       " comma-separated numbers " + layout + ", got '" + text + "'");
    }
    if (!std::isfinite(v))
      throw InputError(option + ": " + number_name(out.size(), expected, layout) +
                       " is not finite");
    out.push_back(v);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  if (out.size() != expected) {
    throw InputError(option + ": expected " + std::to_string(expected) + " numbers " + layout +
                     ", got " + std::to_string(out.size()));
  }
  return out;
}

}  // namespace

Pose parse_pose_option(const std::string& text) {
  const std::vector<double> v = parse_numbers("--pose", text, 7, "tx,ty,tz,qw,qx,qy,qz");
  try {
    check_translation_range(v[0], v[1], v[2]);
    return pose_from_quaternion(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("--pose: ") + e.what());
  }
}

Pose parse_matrix_option(const std::string& text) {
  const std::vector<double> v = parse_numbers("--matrix", text, 16, "m00,m01,...,m33 (row by row)");
  std::array<double, 16> m{};
  for (int i = 0; i < 16; ++i) m[i] = v[i];
  try {
    check_translation_range(m[3], m[7], m[11]);
    return pose_from_matrix(m);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("--matrix: ") + e.what());
  }
}

CLI::Validator non_empty() {
  return CLI::Validator(
      [](const std::string& value) { return value.empty() ? std::string("empty value") : ""; },
      "NOT EMPTY");
}

namespace {

// A finite number >= 0 (or > 0), parsed with strtod: unlike from_chars it takes a leading '+' and
// reads 1e-400 as 0 (in the "C" locale; kdop never sets another).
CLI::Validator finite_validator(bool zero_allowed) {
  const std::string bound = zero_allowed ? ">= 0" : "> 0";
  return CLI::Validator(
      [zero_allowed, bound](const std::string& value) {
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        const bool number = !value.empty() && end == value.c_str() + value.size();
        if (number && std::isfinite(v) && (v > 0 || (zero_allowed && v == 0))) return std::string();
        return "expected a finite number " + bound + ", got '" + value + "'";
      },
      "NUMBER " + bound);
}

}  // namespace

CLI::Validator finite_non_negative() {
  return finite_validator(true);
}

CLI::Validator finite_positive() {
  return finite_validator(false);
}

// CLI11 reads "-1" or a number past 2^64 - 1 into a uint64 without complaint (wrapped or
// saturated); this refuses them before the conversion.
CLI::Validator whole_number_u64() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (text.empty() || ec != std::errc() || ptr != end) {
          return "expected a whole number from 0 to 18446744073709551615, got '" + text + "'";
        }
        return {};
      },
      "UINT64");
}

namespace {

// Whether two paths name one file: the same inode when both exist, else the same absolute
// path once '.', '..' and symbolic links of the existing part are resolved.
bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::equivalent(a, b, ec) && !ec) return true;
  const auto resolved = [&](const std::string& p) {
    const fs::path absolute = fs::absolute(p, ec);
    return ec ? fs::path() : fs::weakly_canonical(absolute, ec).lexically_normal();
  };
  const fs::path ca = resolved(a);
  if (ec) return false;
  const fs::path cb = resolved(b);
  return !ec && ca == cb;
}

bool names_a_file(const NamedPath& p) {
  return !p.path.empty() && p.path != "-";
}

// True when `target` writes where standard output goes: descriptor 1 by name (/dev/stdout), or
// the file or pipe standard output is redirected to by its path. Not when standard output is
// thrown away (/dev/null: two discarded outputs do not mix), and not for another descriptor by
// name (/dev/stderr is a deliberate choice, though on a terminal it shows on the same screen).
bool is_standard_output(const OutputTarget& target) {
  struct stat out = {}, file = {}, null = {};
  if (::fstat(STDOUT_FILENO, &out) != 0) return false;
  if (S_ISCHR(out.st_mode) && ::stat("/dev/null", &null) == 0 && out.st_rdev == null.st_rdev)
    return false;
  if (target.descriptor >= 0) return target.descriptor == STDOUT_FILENO;
  if (!S_ISREG(out.st_mode) && !S_ISFIFO(out.st_mode)) return false;
  if (::stat(target.file.c_str(), &file) != 0) return false;
  return file.st_dev == out.st_dev && file.st_ino == out.st_ino;
}

}  // namespace

void check_output_names(const std::vector<NamedPath>& outputs) {
  for (const NamedPath& out : outputs) {
    if (out.path == "-") {
      throw InputError(out.option + ": '-' is not an output name here; /dev/stdout is standard " +
                       "output");
    }
  }
}

void check_output_extension(const NamedPath& out, std::initializer_list<const char*> extensions,
                            const char* what) {
  const std::string extension = lowercase_extension(out.path);
  for (const char* e : extensions) {
    if (extension == e) return;
  }
  if (is_stream_without_extension(out.path)) return;
  throw InputError(out.option + ": expected " + what + " file name, got '" + out.path + "'");
}

void write_outputs(const std::vector<PendingOutput>& outputs) {
  for (const PendingOutput& o : outputs) register_output_file(o.path);
  write_outputs_atomic(outputs);
}

void check_outputs(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs,
                   const char* stdout_holds) {
  std::vector<std::string> written(outputs.size());  // the files the outputs write
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& out = outputs[i];
    check_output_names({out});
    if (!names_a_file(out)) continue;
    const std::filesystem::path folder = std::filesystem::path(out.path).parent_path();
    std::error_code ec;
    if (!folder.empty() && !std::filesystem::is_directory(folder, ec)) {
      throw InputError(out.option + ": " + out.path + ": folder " + folder.string() +
                       " does not exist");
    }
    // Refused now, not after the work: what resolve_output refuses (a folder, a link loop), a
    // link into a missing folder, and a file this user may not write or nobody may (replacing a
    // file by rename needs no permission on the file itself, so it would be replaced quietly).
    OutputTarget target;
    try {
      target = resolve_output(out.path);
    } catch (const IoError& e) {
      throw InputError(out.option + ": " + e.what());
    }
    written[i] = target.file;
    if (stdout_holds != nullptr && is_standard_output(target)) {
      throw InputError(out.option + ": " + out.path +
                       (target.descriptor == STDOUT_FILENO ? " is standard output"
                                                           : " is where standard output goes") +
                       ", which takes " + stdout_holds + "; name a file, or give --out one");
    }
    const std::filesystem::path target_folder = std::filesystem::path(target.file).parent_path();
    if (!target.in_place && !target_folder.empty() &&
        !std::filesystem::is_directory(target_folder, ec)) {
      throw InputError(out.option + ": " + out.path + ": folder " + target_folder.string() +
                       " does not exist");
    }
    if (target.existed && ((target.permissions & 0222) == 0 ||
                           ::faccessat(AT_FDCWD, target.file.c_str(), W_OK, AT_EACCESS) != 0)) {
      throw InputError(out.option + ": " + out.path + " is read-only");
    }
    for (const NamedPath& in : inputs) {
      if (names_a_file(in) && same_file(out.path, in.path)) {
        throw InputError(out.option + ": " + out.path + " is the " + in.option +
                         " file; it would be overwritten");
      }
    }
    for (std::size_t j = 0; j < i; ++j) {
      // Also by the files written: a link to a file not yet made names the file another output
      // makes, and two writers of one file would share its temporary.
      if (names_a_file(outputs[j]) &&
          (same_file(out.path, outputs[j].path) || same_file(target.file, written[j]))) {
        throw InputError(out.option + ": " + out.path + " is also the " + outputs[j].option +
                         " file");
      }
    }
  }
}

void check_plot_option(const std::string& path) {
  try {
    plot::plot_format_from_path(path);
  } catch (const IoError& e) {
    throw InputError(std::string("--plot: ") + e.what());
  }
}

void check_stdout() {
  std::cout.flush();
  const int error = errno;  // the failing flush's reason; 0 when an earlier write failed
  if (std::cout && std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return;
  throw IoError::in_file("<stdout>",
                         error != 0 ? std::string("cannot write (") + std::strerror(error) + ")"
                                    : std::string("cannot write"));
}

void emit(const std::string& text, const std::string& path) {
  if (path.empty()) {
    errno = 0;
    std::cout << text;
    check_stdout();
  } else {
    register_output_file(path);
    write_file_atomic(path, text);
  }
}

bool interrupted() {
  return g_interrupted.load(std::memory_order_relaxed);
}

void register_output_file(const std::string& path) {
  const OutputTarget target = resolve_output(path);
  if (target.in_place) return;  // a device or FIFO: no temporary
  std::lock_guard<std::mutex> lock(g_outputs_mutex);
  g_outputs.push_back(target.temporary());
}

const std::atomic<bool>& interrupt_flag() {
  return g_interrupted;
}

void install_interrupt_handler() {
  // Default dispositions first: a background job starts with SIGINT ignored, and an ignored
  // signal is discarded even while blocked. Then block both in this thread and every thread
  // started later (oneTBB's workers), so only the watcher receives them.
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  // A reader that goes away (`kdop batch ... | head -1`) makes writes fail with EPIPE, an error
  // like any other (exit 2, temporaries removed), instead of killing the process mid-output.
  std::signal(SIGPIPE, SIG_IGN);
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread(watch_interrupts, signals).detach();
}

namespace {

std::string gigabytes(std::uint64_t bytes) {
  const double b = static_cast<double>(bytes);
  char text[32];
  if (b >= 1e9) {
    std::snprintf(text, sizeof text, "%.2f GB", b / 1e9);
  } else if (b >= 1e6) {
    std::snprintf(text, sizeof text, "%.1f MB", b / 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.0f bytes", b);
  }
  return text;
}

}  // namespace

std::string budget_text(const MemoryBudget& b) {
  if (b.from_option) return "the " + gigabytes(b.bytes) + " --max-memory allows";
  if (b.from_address_limit) {
    return "the " + gigabytes(b.bytes) + " that half the address space left under ulimit -v allows";
  }
  return "the " + gigabytes(b.bytes) + " available (MemAvailable; --max-memory sets the limit)";
}

namespace {

// Half the address space an address-space limit (ulimit -v) leaves this process, or 0 when there
// is none: a mesh file is held whole while its arrays are filled, and the allocator reserves
// address space in large segments, so a file of the whole remainder would not fit.
std::uint64_t address_space_budget() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  std::uint64_t used = 0;  // bytes of address space mapped now (/proc/self/statm: pages)
  std::ifstream statm("/proc/self/statm");
  if (std::uint64_t pages = 0; statm >> pages) {
    used = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  }
  const std::uint64_t cap = limit.rlim_cur;
  return cap > used ? std::max<std::uint64_t>((cap - used) / 2, 1) : 1;
}

}  // namespace

MemoryBudget memory_budget(const std::string& max_memory) {
  MemoryBudget b;
  if (!max_memory.empty()) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(max_memory, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    const std::string suffix = max_memory.substr(used);
    double scale = 0;
    if (suffix.empty()) scale = 1;
    if (suffix == "K" || suffix == "k") scale = 1e3;
    if (suffix == "M" || suffix == "m") scale = 1e6;
    if (suffix == "G" || suffix == "g") scale = 1e9;
    if (used == 0 || scale == 0 || !(value > 0) || !std::isfinite(value * scale)) {
      throw InputError(
          "--max-memory: expected a number of bytes > 0 with an optional K, M or G, "
          "got '" +
          max_memory + "'");
    }
    b.bytes = static_cast<std::uint64_t>(std::min(value * scale, 1.8e19));
    b.from_option = true;
  } else {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kb = 0;
    std::string unit;
    while (meminfo >> key >> kb >> unit) {
      if (key == "MemAvailable:") {
        b.bytes = kb * 1024;
        break;
      }
    }
  }
  // An address-space limit (ulimit -v) below that, even below --max-memory: allocations past it
  // fail, and mimalloc's operator new then aborts (SIGABRT) instead of throwing.
  const std::uint64_t address = address_space_budget();
  if (address != 0 && (b.bytes == 0 || address < b.bytes)) {
    b.bytes = address;
    b.from_option = false;
    b.from_address_limit = true;
  }
  return b;
}

NcLimits nc_limits(const MemoryBudget& budget) {
  NcLimits limits;
  if (budget.bytes == 0) return limits;
  const std::uint64_t fit = budget.bytes / kNcBytesPerMove;
  if (fit < limits.max_moves) {
    limits.max_moves = fit;
    limits.max_moves_why = " (about " + std::to_string(kNcBytesPerMove) + " bytes each within " +
                           budget_text(budget) + ")";
  }
  return limits;
}

namespace {

// "the 2.00 GB --max-memory allows", or with `held` bytes taken: "the 1.50 GB left of the 2.00 GB
// --max-memory allows (<held_what> hold 0.50 GB)".
std::string room_text(const MemoryBudget& budget, std::uint64_t held, const char* held_what) {
  if (held == 0) return budget_text(budget);
  return "the " + gigabytes(budget.bytes > held ? budget.bytes - held : 0) + " left of " +
         budget_text(budget) + " (" + held_what + " hold " + gigabytes(held) + ")";
}

}  // namespace

std::uint64_t check_file_fits(const std::string& path, const MemoryBudget& budget,
                              std::uint64_t held, const char* held_what) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return 0;  // the reader names what is wrong with it
  if (budget.bytes == 0 ||
      static_cast<double>(size) + static_cast<double>(held) <= static_cast<double>(budget.bytes)) {
    return size;
  }
  throw InputError(path + ": the file has " + gigabytes(size) + ", more than " +
                   room_text(budget, held, held_what));
}

void check_build_fits(const std::string& path, std::uint64_t triangles, const MemoryBudget& budget,
                      std::uint64_t per_triangle, std::uint64_t held) {
  const double need = static_cast<double>(triangles) * static_cast<double>(per_triangle);
  if (budget.bytes == 0 || need + static_cast<double>(held) <= static_cast<double>(budget.bytes))
    return;
  const std::string room = room_text(budget, held, "the hierarchies built or read before it");
  throw InputError(path + ": " + std::to_string(triangles) + " triangles need about " +
                   gigabytes(static_cast<std::uint64_t>(need)) + " to build (about " +
                   std::to_string(per_triangle) + " bytes per triangle), more than " + room);
}

BeforeBuild build_gate(const MemoryBudget& budget) {
  return
      [budget](const std::string& mesh, std::uint64_t triangles, bool moving, std::uint64_t held) {
        check_build_fits(mesh, triangles, budget,
                         moving ? kObjectBytesPerTriangle : kEnvironmentBytesPerTriangle, held);
      };
}

}  // namespace kdop::cli
