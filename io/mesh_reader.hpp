#pragma once
// Mesh readers for STL (binary and ASCII), OBJ, PLY (ASCII, binary little/big endian) and OFF.
// Every reader: keeps coordinates as double, fans polygons with n corners into n-2 consecutive
// triangles (0,i,i+1), keeps degenerate and duplicate triangles, and throws IoError (one line
// naming the file, the line or byte offset and what was expected) on malformed input,
// NaN/Inf coordinates, out-of-range indices, truncation, counts the file cannot hold, and meshes
// without triangles.
#include <optional>
#include <string>
#include <string_view>

#include "geometry/mesh.hpp"

namespace kdop {

enum class MeshFormat { stl, obj, ply, off };

// Format from the file extension (case-insensitive); throws IoError if unknown. `also_expected`
// names what else the caller takes there ("a .kdop hierarchy file"), for the message.
MeshFormat mesh_format_from_path(const std::string& path, std::string_view also_expected = {});

// The format of a mesh from its first bytes, for a file whose name has no extension (a pipe such
// as /dev/stdin or a shell's <(...)): a binary STL by its size (84 + 50 per triangle), then
// "solid" (ASCII STL), "ply", an OFF keyword, or OBJ's statements (v, f, o, g, #, ...). nullopt
// when none fits.
std::optional<MeshFormat> sniff_mesh_format(std::string_view bytes);

// Reads a mesh file, format chosen by extension; a name without one by its content.
Mesh read_mesh(const std::string& path, std::string_view also_expected = {});

// Parses a mesh held in memory; `name` is used in error messages.
Mesh parse_mesh(std::string_view bytes, MeshFormat format, const std::string& name);

Mesh parse_stl(std::string_view bytes, const std::string& name);
Mesh parse_obj(std::string_view bytes, const std::string& name);
Mesh parse_ply(std::string_view bytes, const std::string& name);
Mesh parse_off(std::string_view bytes, const std::string& name);

}  // namespace kdop
