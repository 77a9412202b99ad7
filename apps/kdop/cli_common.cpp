#include "apps/kdop/cli_common.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <iostream>
#include <vector>

#include "io/mesh_writer.hpp"

namespace kdop::cli {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;  // the one flag a signal handler may set

extern "C" void on_interrupt(int) {
  g_interrupted = 1;
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

void emit(const std::string& text, const std::string& path) {
  if (path.empty()) {
    std::cout << text << std::flush;
  } else {
    write_file_atomic(path, text);
  }
}

bool interrupted() {
  return g_interrupted != 0;
}

void install_interrupt_handler() {
  std::signal(SIGINT, on_interrupt);
}

}  // namespace kdop::cli
