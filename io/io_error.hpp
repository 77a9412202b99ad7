#pragma once
// The one error type of the io layer. what() is a single line:
//   "<file>: line <n>: <what was expected>"     for text formats
//   "<file>: byte <offset>: <what was expected>" for binary formats
//   "<file>: <message>"                         when no position applies
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace kdop {

class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;

  static IoError at_line(const std::string& file, std::uint64_t line, const std::string& what) {
    return IoError(file + ": line " + std::to_string(line) + ": " + what);
  }
  static IoError at_byte(const std::string& file, std::uint64_t offset, const std::string& what) {
    return IoError(file + ": byte " + std::to_string(offset) + ": " + what);
  }
  static IoError in_file(const std::string& file, const std::string& what) {
    return IoError(file + ": " + what);
  }
};

// "1 vertex", "3 vertices": a count with its noun, for messages.
inline std::string count_of(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The reason an errno names, for "(reason)" in messages; "unknown error" for 0.
inline std::string errno_text(int error) {
  return error != 0 ? std::strerror(error) : "unknown error";
}

}  // namespace kdop
