#pragma once
// Mesh writers, used for round-trip tests and for exporting the demo scenes. Coordinates are
// written with the shortest digits that read back to the same double (at most 17 significant
// digits; text formats) or bit-exact (binary PLY); binary STL holds float32 and so only
// round-trips float-representable coordinates.
#include <string>

#include "geometry/mesh.hpp"
#include "io/atomic_file.hpp"  // write_file_atomic, for the formats below

namespace kdop {

enum class PlyEncoding { ascii, binary_little_endian, binary_big_endian };

std::string format_stl_ascii(const Mesh& mesh);
std::string format_stl_binary(const Mesh& mesh);
std::string format_obj(const Mesh& mesh);
std::string format_off(const Mesh& mesh);
std::string format_ply(const Mesh& mesh, PlyEncoding encoding);

}  // namespace kdop
