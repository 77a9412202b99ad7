// STL reader, binary and ASCII. STL stores every facet with its own three corners, so each
// facet adds three vertices: no welding, the coordinates stay exactly as stored.
//
// Binary: 80-byte header, uint32 facet count, then 50-byte records (normal, 3 corners as
// float32 little endian, uint16 attribute). Many exporters begin the binary header with
// "solid", so the size test (84 + 50 * count == file size) decides first; only a file that
// fails it, starts with "solid" and holds no NUL byte is read as ASCII.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "geometry/coordinate_range.hpp"
#include "io/io_error.hpp"
#include "io/mesh_reader.hpp"
#include "io/text_scanner.hpp"

namespace kdop {
namespace {

constexpr std::size_t kHeaderBytes = 84;  // 80-byte comment + uint32 facet count
constexpr std::size_t kRecordBytes = 50;  // 12 float32 + uint16 attribute
// Three vertices per facet must stay addressable by uint32 indices.
constexpr std::uint64_t kMaxFacets = std::numeric_limits<std::uint32_t>::max() / 3;

std::uint32_t load_u32_le(const char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::big) {
    v = (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
  }
  return v;
}

float load_f32_le(const char* p) {
  return std::bit_cast<float>(load_u32_le(p));
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool binary_size_matches(std::string_view bytes) {
  if (bytes.size() < kHeaderBytes) return false;
  const std::uint64_t count = load_u32_le(bytes.data() + 80);
  return kHeaderBytes + kRecordBytes * count == bytes.size();
}

bool looks_ascii(std::string_view bytes) {
  text::LineScanner scanner(bytes);
  while (scanner.next_line()) {
    const std::string_view tok = scanner.token();
    if (tok.empty()) continue;
    return iequals(tok, "solid") && bytes.find('\0') == std::string_view::npos;
  }
  return false;
}

Mesh parse_binary(std::string_view bytes, const std::string& name) {
  if (bytes.size() < kHeaderBytes) {
    throw IoError::at_byte(name, bytes.size(),
                           "file truncated: expected an 84-byte binary STL header (80-byte "
                           "comment + facet count) or ASCII STL starting with 'solid', file has " +
                               count_of(bytes.size(), "byte", "bytes"));
  }
  const std::uint64_t count = load_u32_le(bytes.data() + 80);
  const std::uint64_t expected = kHeaderBytes + kRecordBytes * count;
  const std::string says = "header says " + count_of(count, "triangle", "triangles") + " (" +
                           std::to_string(expected) + " bytes) but file has " +
                           std::to_string(bytes.size()) + " bytes";
  if (bytes.size() < expected) {
    const std::uint64_t complete = (bytes.size() - kHeaderBytes) / kRecordBytes;
    throw IoError::at_byte(name, kHeaderBytes + kRecordBytes * complete,
                           "file truncated: expected 50-byte facet record " +
                               std::to_string(complete + 1) + " of " + std::to_string(count) +
                               " (" + says + ")");
  }
  if (bytes.size() > expected) {
    throw IoError::at_byte(name, expected,
                           "unexpected " + count_of(bytes.size() - expected, "byte", "bytes") +
                               " after the last facet record (" + says + ")");
  }
  if (count > kMaxFacets) {
    throw IoError::at_byte(name, 80, "too many facets for 32-bit vertex indices: " + says);
  }

  Mesh mesh;
  // Safe to allocate: the count is backed by the file size checked above.
  mesh.x.reserve(3 * count);
  mesh.y.reserve(3 * count);
  mesh.z.reserve(3 * count);
  mesh.a.reserve(count);
  mesh.b.reserve(count);
  mesh.c.reserve(count);
  for (std::uint64_t f = 0; f < count; ++f) {
    const std::size_t record = kHeaderBytes + kRecordBytes * f;
    std::uint32_t corner[3];
    for (int k = 0; k < 3; ++k) {
      double xyz[3];
      for (int d = 0; d < 3; ++d) {
        // The normal (first 12 bytes) is ignored: it is redundant and often wrong.
        const std::size_t at = record + 12 + 12 * k + 4 * d;
        const float v = load_f32_le(bytes.data() + at);
        if (!std::isfinite(v)) {
          throw IoError::at_byte(name, at,
                                 "non-finite coordinate in facet record " + std::to_string(f + 1) +
                                     " of " + std::to_string(count));
        }
        if (!coordinate_in_range(v)) {
          throw IoError::at_byte(
              name, at,
              beyond_coordinate_range(v) + " (facet record " + std::to_string(f + 1) + ")");
        }
        xyz[d] = v;
      }
      corner[k] = mesh.add_vertex(xyz[0], xyz[1], xyz[2]);
    }
    mesh.add_triangle(corner[0], corner[1], corner[2]);
  }
  if (mesh.triangle_count() == 0) throw IoError::in_file(name, "no triangles");
  return mesh;
}

// Hands out the tokens of an ASCII STL across line breaks, remembering each token's line.
class AsciiStlTokens {
 public:
  AsciiStlTokens(std::string_view bytes, const std::string& name) : scanner_(bytes), name_(name) {}

  std::string_view next() {
    for (;;) {
      std::string_view tok = scanner_.token();
      if (!tok.empty()) return tok;
      if (!scanner_.next_line()) return {};
    }
  }

  // Skips what is left of the current line ("solid <name>", "endsolid <name>").
  void skip_line() {
    while (!scanner_.token().empty()) {
    }
  }

  void expect(std::string_view keyword, std::string_view context) {
    const std::string_view tok = next();
    if (!iequals(tok, keyword)) {
      std::string expected = "'";
      expected.append(keyword).append("' ").append(context);
      fail(tok, expected);
    }
  }

  double number(bool coordinate) {
    const char* what = coordinate ? "a vertex coordinate" : "a normal component";
    const std::uint64_t started = scanner_.line();
    const std::string_view tok = next();
    double value = 0;
    // A line one number short: name that line, not the next one where the scan found a word.
    if (scanner_.line() != started && !text::parse_double(tok, value)) {
      throw IoError::at_line(name_, started,
                             std::string("expected ") + what + ", the line ends (" +
                                 (tok.empty() ? "then the file ends"
                                              : "next is " + text::quote(tok) + " on line " +
                                                    std::to_string(scanner_.line())) +
                                 ")");
    }
    if (tok.empty()) fail(tok, what);
    if (coordinate) return text::parse_coordinate(tok, name_, scanner_.line());
    // Degenerate facets often carry NaN normals; the normal is ignored, so only its syntax counts.
    if (!text::parse_double(tok, value)) fail(tok, what);
    return value;
  }

  [[noreturn]] void fail(std::string_view tok, const std::string& expected) const {
    throw IoError::at_line(name_, scanner_.line(),
                           "expected " + expected + ", " +
                               (tok.empty() ? "found end of file" : "got " + text::quote(tok)));
  }

  std::uint64_t line() const { return scanner_.line(); }

 private:
  text::LineScanner scanner_;
  const std::string& name_;
};

Mesh parse_ascii(std::string_view bytes, const std::string& name) {
  AsciiStlTokens tokens(bytes, name);
  Mesh mesh;
  tokens.expect("solid", "at the start of the file");
  tokens.skip_line();
  for (;;) {
    const std::string_view tok = tokens.next();
    if (iequals(tok, "facet")) {
      tokens.expect("normal", "after 'facet'");
      for (int d = 0; d < 3; ++d) tokens.number(false);
      tokens.expect("outer", "after the facet normal");
      tokens.expect("loop", "after 'outer'");
      std::uint32_t corner[3];
      for (int k = 0; k < 3; ++k) {
        tokens.expect("vertex", k == 0 ? "after 'outer loop'" : "(a facet has 3 vertices)");
        const double x = tokens.number(true);
        const double y = tokens.number(true);
        const double z = tokens.number(true);
        if (mesh.vertex_count() >= std::numeric_limits<std::uint32_t>::max()) {
          throw IoError::at_line(name, tokens.line(), "too many vertices for 32-bit indices");
        }
        corner[k] = mesh.add_vertex(x, y, z);
      }
      tokens.expect("endloop", "after 3 vertices");
      tokens.expect("endfacet", "after 'endloop'");
      mesh.add_triangle(corner[0], corner[1], corner[2]);
    } else if (iequals(tok, "endsolid")) {
      tokens.skip_line();
      const std::string_view after = tokens.next();
      if (after.empty()) break;
      if (!iequals(after, "solid")) tokens.fail(after, "'solid' or end of file after 'endsolid'");
      tokens.skip_line();
    } else {
      tokens.fail(tok, "'facet' or 'endsolid'");
    }
  }
  if (mesh.triangle_count() == 0) throw IoError::in_file(name, "no triangles");
  return mesh;
}

}  // namespace

Mesh parse_stl(std::string_view bytes, const std::string& name) {
  if (bytes.empty()) throw IoError::in_file(name, "empty file");
  if (!binary_size_matches(bytes) && looks_ascii(bytes)) return parse_ascii(bytes, name);
  return parse_binary(bytes, name);
}

}  // namespace kdop
