// Geomview OFF reader (text). Layout: an optional "OFF" keyword (the variants COFF, NOFF,
// CNOFF, STOFF... add per-vertex values, which are ignored), a counts line "nv nf [ne]", nv
// vertex lines "x y z ...", then nf face lines "n i0 ... i(n-1) [colour]". '#' starts a comment
// anywhere. Read line by line: the trailing per-vertex and per-face extras are only
// distinguishable from the next record by the line break.
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

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) {
    return std::numeric_limits<std::uint64_t>::max();
  }
  return a * b;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return b > std::numeric_limits<std::uint64_t>::max() - a
             ? std::numeric_limits<std::uint64_t>::max()
             : a + b;
}

// True for OFF and its variants whose vertex lines still start with x y z. "4OFF" and "nOFF"
// (other dimensions) are not.
bool is_off_keyword(std::string_view tok) {
  if (tok.size() < 3 || tok.substr(tok.size() - 3) != "OFF") return false;
  for (char ch : tok.substr(0, tok.size() - 3)) {
    if (ch != 'S' && ch != 'T' && ch != 'C' && ch != 'N') return false;
  }
  return true;
}

class OffReader {
 public:
  OffReader(std::string_view bytes, const std::string& name) : lines_(bytes), name_(name) {}

  Mesh read() {
    std::uint64_t counts[3] = {0, 0, 0};
    read_counts(counts);
    const std::uint64_t nv = counts[0], nf = counts[1];
    if (nv > std::numeric_limits<std::uint32_t>::max()) {
      fail("too many vertices for 32-bit indices: " + std::to_string(nv));
    }
    // Fail fast before allocating: every value needs a digit and a separator, a vertex has 3
    // values and a face at least 4 (the last value of the file needs no separator).
    const std::uint64_t values = saturating_add(saturating_mul(3, nv), saturating_mul(4, nf));
    const std::uint64_t needed = values == 0 ? 0 : saturating_mul(2, values) - 1;
    if (needed > lines_.remaining_bytes()) {
      fail("header says " + count_of(nv, "vertex", "vertices") + " and " +
           count_of(nf, "face", "faces") + " (at least " + count_of(needed, "byte", "bytes") +
           ") but only " + count_of(lines_.remaining_bytes(), "byte follows", "bytes follow"));
    }

    Mesh mesh;
    mesh.x.reserve(nv);
    mesh.y.reserve(nv);
    mesh.z.reserve(nv);
    mesh.a.reserve(nf);
    mesh.b.reserve(nf);
    mesh.c.reserve(nf);
    for (std::uint64_t i = 0; i < nv; ++i) {
      expect_record("vertex", i, nv);
      const double x = text::parse_coordinate(lines_.token(), name_, lines_.line());
      const double y = text::parse_coordinate(lines_.token(), name_, lines_.line());
      const double z = text::parse_coordinate(lines_.token(), name_, lines_.line());
      numbers_only("after the vertex coordinates");  // normals, colours, texture coordinates
      mesh.add_vertex(x, y, z);
    }
    std::vector<std::uint32_t> corners;
    for (std::uint64_t i = 0; i < nf; ++i) {
      expect_record("face", i, nf);
      const std::uint64_t n = unsigned_value("a face corner count");
      if (n < 3) fail("face has " + std::to_string(n) + " corners, expected at least 3");
      corners.clear();
      for (std::uint64_t k = 0; k < n; ++k) {
        const std::uint64_t index = unsigned_value("a vertex index");
        if (index >= nv) {
          fail("face index " + std::to_string(index) + " out of range (file has " +
               count_of(nv, "vertex", "vertices") + ")");
        }
        corners.push_back(static_cast<std::uint32_t>(index));
      }
      numbers_only("after the face's vertex indices");  // an optional colour
      for (std::size_t k = 1; k + 1 < corners.size(); ++k) {
        mesh.add_triangle(corners[0], corners[k], corners[k + 1]);
      }
    }
    while (lines_.next_line()) {
      lines_.drop_comment();
      if (!lines_.at_line_end()) {
        fail("unexpected data after the last face (header says " + count_of(nf, "face", "faces") +
             ")");
      }
    }
    if (mesh.triangle_count() == 0) throw IoError::in_file(name_, "no triangles");
    return mesh;
  }

 private:
  // Reads the optional keyword and "nv nf [ne]"; they may share a line ("OFF 8 6 12").
  void read_counts(std::uint64_t (&counts)[3]) {
    if (!next_record()) fail("unexpected end of file: expected 'OFF' or the counts 'nv nf ne'");
    std::string_view tok = lines_.token();
    if (tok == "OFF" || is_off_keyword(tok)) {
      if (lines_.rest() == "BINARY") fail("binary OFF is not supported (expected text OFF)");
      if (lines_.at_line_end() && !next_record()) {
        fail("unexpected end of file: expected the counts 'nv nf ne'");
      }
      tok = lines_.token();
    } else if (tok.find("OFF") != std::string_view::npos) {
      fail("unsupported OFF variant " + text::quote(tok) + " (expected OFF, COFF, NOFF or CNOFF)");
    } else if (std::uint64_t ignored; !text::parse_uint(tok, ignored)) {
      fail("bad magic: expected 'OFF' or the counts 'nv nf ne', got " + text::quote(tok));
    }
    for (int k = 0; k < 3; ++k) {
      if (k == 2 && tok.empty()) break;  // the edge count is often left out
      if (!text::parse_uint(tok, counts[k])) {
        fail(std::string("expected the ") +
             (k == 0   ? "vertex"
              : k == 1 ? "face"
                       : "edge") +
             " count, " + (tok.empty() ? "found end of line" : "got " + text::quote(tok)));
      }
      if (k < 2) tok = lines_.token();
    }
    if (!lines_.at_line_end()) {
      fail("unexpected " + text::quote(lines_.token()) + " after the counts 'nv nf ne'");
    }
  }

  // Moves to the next line holding data; false at the end of the file.
  bool next_record() {
    for (;;) {
      if (!lines_.next_line()) return false;
      lines_.drop_comment();
      if (!lines_.at_line_end()) return true;
    }
  }

  // Moves to the line of record i of n (the message is built only on failure: hot loop).
  void expect_record(const char* what, std::uint64_t i, std::uint64_t n) {
    if (!next_record()) {
      fail(std::string("unexpected end of file: expected ") + what + " " + std::to_string(i + 1) +
           " of " + std::to_string(n));
    }
  }

  std::uint64_t unsigned_value(const char* what) {
    const std::string_view tok = lines_.token();
    std::uint64_t v = 0;
    if (std::int64_t negative; text::parse_int(tok, negative) && negative < 0) {
      fail(std::string("negative value ") + std::string(tok) + ", expected " + what);
    }
    if (!text::parse_uint(tok, v)) {
      fail(std::string("expected ") + what + ", " +
           (tok.empty() ? "found end of line" : "got " + text::quote(tok)));
    }
    return v;
  }

  void numbers_only(const char* where) {
    for (std::string_view tok = lines_.token(); !tok.empty(); tok = lines_.token()) {
      double ignored;
      if (!text::parse_double(tok, ignored)) {
        fail(std::string("expected a number ") + where + ", got " + text::quote(tok));
      }
    }
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw IoError::at_line(name_, lines_.line() == 0 ? 1 : lines_.line(), what);
  }

  text::LineScanner lines_;
  const std::string& name_;
};

}  // namespace

Mesh parse_off(std::string_view bytes, const std::string& name) {
  if (bytes.empty()) throw IoError::in_file(name, "empty file");
  return OffReader(bytes, name).read();
}

}  // namespace kdop
