#pragma once
// Helpers shared by the reader tests: the message of the IoError a call throws, and a mesh's
// triangles as index triples.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "geometry/mesh.hpp"
#include "io/io_error.hpp"

namespace kdop::test {

// The what() of the IoError that `call` throws; fails the test if it throws none.
template <class Call>
std::string io_error_of(Call&& call) {
  try {
    call();
  } catch (const IoError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no IoError";
  return {};
}

using Triples = std::vector<std::vector<std::uint32_t>>;

inline Triples triangles(const Mesh& m) {
  Triples t;
  for (std::size_t i = 0; i < m.triangle_count(); ++i) t.push_back({m.a[i], m.b[i], m.c[i]});
  return t;
}

}  // namespace kdop::test
