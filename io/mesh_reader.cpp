// Format dispatch and file loading for the mesh readers; the formats live in stl.cpp, obj.cpp,
// ply.cpp and off.cpp.
#include "io/mesh_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

#include "geometry/coordinate_range.hpp"
#include "io/file_extension.hpp"
#include "io/io_error.hpp"

namespace kdop {
namespace {

std::string lower(std::string s) {
  for (char& ch : s) {
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  }
  return s;
}

}  // namespace

MeshFormat mesh_format_from_path(const std::string& path, std::string_view also_expected) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  const bool has_extension =
      dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const std::string extension = has_extension ? lower(path.substr(dot)) : std::string();
  if (extension == ".stl") return MeshFormat::stl;
  if (extension == ".obj") return MeshFormat::obj;
  if (extension == ".ply") return MeshFormat::ply;
  if (extension == ".off") return MeshFormat::off;
  throw IoError::in_file(
      path, (extension.empty() ? std::string("no file extension")
                               : "unknown extension '" + extension + "'") +
                " (expected .stl, .obj, .ply or .off" +
                (also_expected.empty() ? std::string() : ", or " + std::string(also_expected)) +
                ")");
}

namespace {

Mesh parse_by_format(std::string_view bytes, MeshFormat format, const std::string& name) {
  switch (format) {
    case MeshFormat::stl:
      return parse_stl(bytes, name);
    case MeshFormat::obj:
      return parse_obj(bytes, name);
    case MeshFormat::ply:
      return parse_ply(bytes, name);
    case MeshFormat::off:
      return parse_off(bytes, name);
  }
  throw IoError::in_file(name, "unknown mesh format");
}

}  // namespace

Mesh parse_mesh(std::string_view bytes, MeshFormat format, const std::string& name) {
  Mesh mesh = parse_by_format(bytes, format, name);
  // The whole mesh's scale (geometry/coordinate_range.hpp): its largest coordinate magnitude.
  double largest = 0;
  for (const std::vector<double>* axis : {&mesh.x, &mesh.y, &mesh.z}) {
    for (const double v : *axis) largest = std::max(largest, std::fabs(v));
  }
  if (!mesh_scale_in_range(largest)) throw IoError::in_file(name, mesh_below_scale(largest));
  return mesh;
}

std::optional<MeshFormat> sniff_mesh_format(std::string_view bytes) {
  if (bytes.size() >= 84) {
    std::uint32_t count = 0;
    std::memcpy(&count, bytes.data() + 80, 4);  // little endian, as x86 and the format are
    if (bytes.size() == 84 + 50 * std::uint64_t{count}) return MeshFormat::stl;
  }
  // The first word of the first line that is not blank.
  std::size_t i = 0;
  while (i < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[i]))) ++i;
  std::size_t j = i;
  while (j < bytes.size() && !std::isspace(static_cast<unsigned char>(bytes[j]))) ++j;
  const std::string_view word = bytes.substr(i, j - i);
  if (word == "solid") return MeshFormat::stl;
  if (word == "ply") return MeshFormat::ply;
  if (word.size() >= 3 && word.substr(word.size() - 3) == "OFF") return MeshFormat::off;
  for (const std::string_view obj :
       {"v", "vn", "vt", "f", "o", "g", "s", "l", "mtllib", "usemtl"}) {
    if (word == obj) return MeshFormat::obj;
  }
  if (!word.empty() && word[0] == '#')
    return MeshFormat::obj;  // OBJ's comments (OFF has its keyword first)
  return std::nullopt;
}

Mesh read_mesh(const std::string& path, std::string_view also_expected) {
  // Before the name's extension: a folder has none to complain about. (A directory also opens
  // fine on Linux, and its "size" is meaningless.)
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw IoError::in_file(path, "is a folder, expected a mesh file");
  }
  // A name without an extension (a pipe such as /dev/stdin or <(...)): the content says.
  std::optional<MeshFormat> format;
  if (!lowercase_extension(path).empty()) format = mesh_format_from_path(path, also_expected);
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError::in_file(path, "cannot open (" + errno_text(errno) + ")");
  // Read in one go: the parsers work on the whole file and check counts against its size.
  std::string bytes;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size >= 0) {
    bytes.resize(static_cast<std::size_t>(size));
    in.seekg(0, std::ios::beg);
    errno = 0;
    if (!in.read(bytes.data(), size)) {
      throw IoError::in_file(path, "cannot read (" + errno_text(errno) + ")");
    }
  } else {  // not seekable (a pipe such as /dev/stdin): stream it
    in.clear();
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) throw IoError::in_file(path, "cannot read (" + errno_text(errno) + ")");
  }
  if (!format) format = sniff_mesh_format(bytes);
  if (!format) {
    throw IoError::in_file(
        path,
        "no file extension, and the content is not STL, OBJ, PLY or OFF (expected .stl, "
        ".obj, .ply or .off" +
            (also_expected.empty() ? std::string() : ", or " + std::string(also_expected)) + ")");
  }
  return parse_mesh(bytes, *format, path);
}

}  // namespace kdop
