// Wavefront OBJ reader: `v` positions and `f` faces; everything else in the OBJ vocabulary
// (normals, texture coordinates, groups, materials, free-form geometry) is skipped. A statement
// outside that vocabulary is an error, so a file that is not OBJ does not pass silently.
//
// Indices are 1-based; negative indices count back from the last vertex read so far. Positive
// indices may point at vertices defined later in the file, so their range is checked once the
// whole file has been read, and an error still names the face's line.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "io/io_error.hpp"
#include "io/mesh_reader.hpp"
#include "io/text_scanner.hpp"

namespace kdop {
namespace {

constexpr std::uint64_t kMaxVertices = std::numeric_limits<std::uint32_t>::max();

// Statements of the OBJ specification that carry nothing a collision mesh needs.
constexpr std::array<std::string_view, 37> kSkipped = {
    "vn",        "vt",    "vp",       "g",        "o",    "s",      "usemtl", "mtllib",
    "l",         "p",     "cstype",   "deg",      "bmat", "step",   "curv",   "curv2",
    "surf",      "parm",  "trim",     "hole",     "scrv", "sp",     "end",    "con",
    "mg",        "bevel", "c_interp", "d_interp", "lod",  "maplib", "usemap", "shadow_obj",
    "trace_obj", "ctech", "stech",    "call",     "csh"};

class ObjReader {
 public:
  explicit ObjReader(const std::string& name) : name_(name) {}

  void statement(text::LineScanner& line, std::uint64_t line_no) {
    const std::string_view keyword = line.token();
    if (keyword.empty()) return;
    if (keyword == "v") {
      vertex(line, line_no);
    } else if (keyword == "f" || keyword == "fo") {  // "fo" is the pre-3.0 spelling of "f"
      face(line, line_no);
    } else if (std::find(kSkipped.begin(), kSkipped.end(), keyword) == kSkipped.end()) {
      throw IoError::at_line(
          name_, line_no,
          "unknown statement " + text::quote(keyword) + " (expected v, f or another OBJ keyword)");
    }
  }

  Mesh finish() {
    // Forward references were allowed while reading; now the vertex count is final.
    for (const auto& [line_no, index] : forward_) {
      if (index > mesh_.vertex_count()) out_of_range(line_no, std::to_string(index));
    }
    if (mesh_.triangle_count() == 0) throw IoError::in_file(name_, "no triangles");
    return std::move(mesh_);
  }

 private:
  void vertex(text::LineScanner& line, std::uint64_t line_no) {
    const double x = text::parse_coordinate(line.token(), name_, line_no);
    const double y = text::parse_coordinate(line.token(), name_, line_no);
    const double z = text::parse_coordinate(line.token(), name_, line_no);
    // An optional w or per-vertex colour may follow; it is ignored but must be numeric.
    for (std::string_view tok = line.token(); !tok.empty(); tok = line.token()) {
      double ignored;
      if (!text::parse_double(tok, ignored)) {
        throw IoError::at_line(
            name_, line_no,
            "expected a number after the vertex coordinates, got " + text::quote(tok));
      }
    }
    if (mesh_.vertex_count() >= kMaxVertices) {
      throw IoError::at_line(name_, line_no, "too many vertices for 32-bit indices");
    }
    mesh_.add_vertex(x, y, z);
  }

  void face(text::LineScanner& line, std::uint64_t line_no) {
    corners_.clear();
    std::uint64_t max_forward = 0;
    for (std::string_view tok = line.token(); !tok.empty(); tok = line.token()) {
      const std::int64_t index = corner_index(tok, line_no);
      const std::uint64_t count = mesh_.vertex_count();
      std::uint64_t resolved;  // 0-based
      if (index < 0) {
        const std::uint64_t back = static_cast<std::uint64_t>(-(index + 1)) + 1;
        if (back > count) {
          throw IoError::at_line(name_, line_no,
                                 "face index " + std::to_string(index) + " out of range (only " +
                                     count_of(count, "vertex", "vertices") + " read so far)");
        }
        resolved = count - back;
      } else {
        resolved = static_cast<std::uint64_t>(index) - 1;
        if (resolved >= kMaxVertices) out_of_range(line_no, std::to_string(index));
        if (resolved >= count) max_forward = std::max(max_forward, resolved + 1);
      }
      corners_.push_back(static_cast<std::uint32_t>(resolved));
    }
    if (corners_.size() < 3) {
      throw IoError::at_line(
          name_, line_no,
          "face has " + std::to_string(corners_.size()) + " corners, expected at least 3");
    }
    if (max_forward != 0) forward_.emplace_back(line_no, max_forward);
    for (std::size_t i = 1; i + 1 < corners_.size(); ++i) {
      mesh_.add_triangle(corners_[0], corners_[i], corners_[i + 1]);
    }
  }

  // The vertex index of a corner "i", "i/t", "i//n" or "i/t/n"; t and n are checked, not kept.
  std::int64_t corner_index(std::string_view tok, std::uint64_t line_no) const {
    std::string_view parts[3];
    std::size_t n = 0;
    for (std::size_t start = 0;;) {
      const std::size_t slash = tok.find('/', start);
      if (n == 3) bad_corner(tok, line_no);
      parts[n++] = tok.substr(start, slash == std::string_view::npos ? slash : slash - start);
      if (slash == std::string_view::npos) break;
      start = slash + 1;
    }
    std::int64_t index = 0;
    if (!text::parse_int(parts[0], index)) bad_corner(tok, line_no);
    for (std::size_t k = 1; k < n; ++k) {
      std::int64_t ignored;
      if (!parts[k].empty() && !text::parse_int(parts[k], ignored)) bad_corner(tok, line_no);
    }
    if (index == 0) {
      throw IoError::at_line(name_, line_no, "face index 0 is invalid (OBJ indices start at 1)");
    }
    return index;
  }

  [[noreturn]] void bad_corner(std::string_view tok, std::uint64_t line_no) const {
    throw IoError::at_line(name_, line_no,
                           "expected a face corner i, i/t, i//n or i/t/n, got " + text::quote(tok));
  }

  [[noreturn]] void out_of_range(std::uint64_t line_no, const std::string& index) const {
    throw IoError::at_line(name_, line_no,
                           "face index " + index + " out of range (file has " +
                               count_of(mesh_.vertex_count(), "vertex", "vertices") + ")");
  }

  const std::string& name_;
  Mesh mesh_;
  std::vector<std::uint32_t> corners_;  // scratch for the current face
  // (line, largest 1-based index) of faces that referred past the vertices read so far.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> forward_;
};

bool continues(std::string_view rest) {
  return !rest.empty() && rest.back() == '\\';
}

}  // namespace

Mesh parse_obj(std::string_view bytes, const std::string& name) {
  if (bytes.empty()) throw IoError::in_file(name, "empty file");
  ObjReader reader(name);
  text::LineScanner scanner(bytes);
  std::string joined;  // only used for lines continued with a trailing backslash
  while (scanner.next_line()) {
    scanner.drop_comment();
    if (!continues(scanner.rest())) {
      reader.statement(scanner, scanner.line());
      continue;
    }
    const std::uint64_t first = scanner.line();
    joined.clear();
    do {
      const std::string_view rest = scanner.rest();
      joined.append(rest.substr(0, rest.size() - 1)).push_back(' ');
      if (!scanner.next_line()) break;
      scanner.drop_comment();
    } while (continues(scanner.rest()));
    if (!continues(scanner.rest())) joined.append(scanner.rest());
    text::LineScanner logical(joined);
    logical.next_line();
    reader.statement(logical, first);
  }
  return reader.finish();
}

}  // namespace kdop
