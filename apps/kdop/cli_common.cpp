#include "apps/kdop/cli_common.hpp"

#include <pthread.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

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
std::vector<std::string> g_outputs;

void watch_interrupts(sigset_t signals) {
  int signal_number = 0;
  if (sigwait(&signals, &signal_number) != 0) return;
  g_interrupted.store(true);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  {
    std::lock_guard<std::mutex> lock(g_outputs_mutex);
    for (const std::string& path : g_outputs) {
      ::unlink((path + ".tmp." + std::to_string(::getpid())).c_str());
    }
  }
  const char message[] = "kdop: interrupted\n";
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(kExitInterrupted);
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
    if (ec != std::errc() || ptr != last || first == last) {
      throw InputError(option + ": expected " + std::to_string(expected) +
                       " comma-separated numbers " + layout + ", got '" + text + "'");
    }
    if (!std::isfinite(v))
      throw InputError(option + ": number " + std::to_string(out.size() + 1) + " is not finite");
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
    return pose_from_matrix(m);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("--matrix: ") + e.what());
  }
}

void check_plot_option(const std::string& path) {
  try {
    plot::plot_format_from_path(path);
  } catch (const IoError& e) {
    throw InputError(std::string("--plot: ") + e.what());
  }
}

void emit(const std::string& text, const std::string& path) {
  if (path.empty()) {
    std::cout << text << std::flush;
  } else {
    register_output_file(path);
    write_file_atomic(path, text);
  }
}

bool interrupted() {
  return g_interrupted.load(std::memory_order_relaxed);
}

void register_output_file(const std::string& path) {
  std::lock_guard<std::mutex> lock(g_outputs_mutex);
  g_outputs.push_back(path);
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
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread(watch_interrupts, signals).detach();
}

}  // namespace kdop::cli
