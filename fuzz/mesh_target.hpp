#pragma once
// The body of the mesh readers' targets: parse, then check what io/mesh_reader.hpp promises of a
// mesh it returns (triangles, corner indices in range, finite coordinates).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_check.hpp"
#include "io/mesh_reader.hpp"

namespace kdop::fuzz {

inline void fuzz_mesh(const std::uint8_t* data, std::size_t size, MeshFormat format) {
  accept_io_errors([&] {
    const Mesh m = parse_mesh(as_text(data, size), format, "fuzz");
    const std::size_t n = m.vertex_count(), t = m.triangle_count();
    require(t > 0, "a mesh has triangles");
    require(m.y.size() == n && m.z.size() == n && m.b.size() == t && m.c.size() == t,
            "parallel arrays of one length");
    const auto in_range = [n](std::uint32_t i) { return i < n; };
    require(std::all_of(m.a.begin(), m.a.end(), in_range) &&
                std::all_of(m.b.begin(), m.b.end(), in_range) &&
                std::all_of(m.c.begin(), m.c.end(), in_range),
            "corner indices in range");
    const auto finite = [](const std::vector<double>& v) {
      return std::all_of(v.begin(), v.end(), [](double d) { return std::isfinite(d); });
    };
    require(finite(m.x) && finite(m.y) && finite(m.z), "finite coordinates");
  });
}

}  // namespace kdop::fuzz
