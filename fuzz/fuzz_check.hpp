#pragma once
// What every fuzz target shares. A reader answers bad input with kdop::IoError and nothing else;
// any other exception, a broken promise about what a reader returns, a crash, a sanitizer report,
// a timeout or running out of memory is a finding: the target aborts and libFuzzer keeps the
// input as crash-*.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "io/io_error.hpp"

namespace kdop::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Aborts unless `ok`: a documented property of a reader's answer that does not hold.
inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "kdop fuzz: broken promise: %s\n", what);
  std::abort();
}

// Runs `read`; an IoError is an answer, any other exception a finding (reported with its message,
// which std::terminate would not print).
template <class Read>
void accept_io_errors(Read&& read) {
  try {
    read();
  } catch (const IoError&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kdop fuzz: undocumented exception: %s\n", e.what());
    std::abort();
  }
}

}  // namespace kdop::fuzz
