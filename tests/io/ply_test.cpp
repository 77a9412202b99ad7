// PLY reader: all three encodings, skipped properties and elements, malformed input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "io/io_error.hpp"
#include "io/mesh_reader.hpp"
#include "tests/support/reader_checks.hpp"

namespace kdop {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string ply_error(const std::string& bytes) {
  return test::io_error_of([&] { parse_ply(bytes, "scan.ply"); });
}

using test::triangles;
using test::Triples;

// Appends values in a chosen byte order, to build binary PLY bodies by hand.
class Bytes {
 public:
  explicit Bytes(bool big_endian) : big_(big_endian) {}

  template <class T>
  Bytes& put(T v) {
    unsigned char raw[sizeof v];
    std::memcpy(raw, &v, sizeof v);
    const bool native_big = std::endian::native == std::endian::big;
    for (std::size_t i = 0; i < sizeof v; ++i) {
      out_ += static_cast<char>(raw[big_ == native_big ? i : sizeof v - 1 - i]);
    }
    return *this;
  }
  std::string str() const { return out_; }

 private:
  bool big_;
  std::string out_;
};

// A cube as quads, with normals and colours on the vertices, a face colour, and two elements
// a mesh reader does not know (one of them with a list property) between and after the others.
const char* const kAsciiCube =
    "ply\n"
    "format ascii 1.0\n"
    "comment made by hand\n"
    "obj_info scanner 7\n"
    "element vertex 8\n"
    "property float nx\n"
    "property float32 x\n"
    "property float64 y\n"
    "property list uchar float weights\n"
    "property double z\n"
    "property uchar red\n"
    "element material 2\n"
    "property list ushort int ids\n"
    "property float shine\n"
    "element face 6\n"
    "property list uchar int vertex_indices\n"
    "property uchar green\n"
    "element edge 1\n"
    "property int vertex1\n"
    "property int vertex2\n"
    "end_header\n"
    "0 0 0 0 0 255\n"
    "0 1 0 2 0.5 0.5 0 255\n"
    "0 1 1 0 0 255\n"
    "0 0 1 0 0 255\n"
    "0 0 0 0 1 255\n"
    "0 1 0 0 1 255\n"
    "0 1 1 0 1 255\n"
    "0 0 1 1 7 1 255\n"
    "3 1 2 3 0.5\n"
    "0 -1e10\n"
    "4 0 3 2 1 10\n"
    "4 4 5 6 7 10\n"
    "4 0 1 5 4 10\n"
    "4 1 2 6 5 10\n"
    "4 2 3 7 6 10\n"
    "4 3 0 4 7 10\n"
    "0 1\n";

const Triples kCubeTriangles = {{0, 3, 2}, {0, 2, 1}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};

TEST(PlyAscii, ReadsCubeSkippingUnknownPropertiesAndElements) {
  const Mesh m = parse_ply(kAsciiCube, "cube.ply");
  EXPECT_EQ(m.x, (std::vector<double>{0, 1, 1, 0, 0, 1, 1, 0}));
  EXPECT_EQ(m.y, (std::vector<double>{0, 0, 1, 1, 0, 0, 1, 1}));
  EXPECT_EQ(m.z, (std::vector<double>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(triangles(m), kCubeTriangles);
}

// The same cube in binary, with integer coordinates, a ushort/short index list named
// vertex_index, and an unknown element with a list in front.
std::string binary_cube(bool big_endian, const char* format) {
  std::string header = std::string("ply\nformat ") + format +
                       " 1.0\n"
                       "element tag 2\n"
                       "property list int uint16 codes\n"
                       "property double weight\n"
                       "element vertex 8\n"
                       "property short x\n"
                       "property uint8 y\n"
                       "property float nz\n"
                       "property int z\n"
                       "element face 6\n"
                       "property uchar flags\n"
                       "property list ushort short vertex_index\n"
                       "end_header\n";
  Bytes b(big_endian);
  b.put<std::int32_t>(2).put<std::uint16_t>(7).put<std::uint16_t>(8).put(0.25);
  b.put<std::int32_t>(0).put(-0.5);
  const int xyz[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                         {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (const auto& v : xyz) {
    b.put(static_cast<std::int16_t>(v[0])).put(static_cast<std::uint8_t>(v[1])).put(1.0f);
    b.put(static_cast<std::int32_t>(v[2]));
  }
  const int quads[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                           {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  for (const auto& q : quads) {
    b.put<std::uint8_t>(0xAB).put<std::uint16_t>(4);
    for (int i : q) b.put(static_cast<std::int16_t>(i));
  }
  return header + b.str();
}

TEST(PlyBinary, ReadsLittleAndBigEndian) {
  for (bool big : {false, true}) {
    const Mesh m =
        parse_ply(binary_cube(big, big ? "binary_big_endian" : "binary_little_endian"), "c.ply");
    EXPECT_EQ(m.x, (std::vector<double>{0, 1, 1, 0, 0, 1, 1, 0})) << big;
    EXPECT_EQ(m.y, (std::vector<double>{0, 0, 1, 1, 0, 0, 1, 1})) << big;
    EXPECT_EQ(m.z, (std::vector<double>{0, 0, 0, 0, 1, 1, 1, 1})) << big;
    EXPECT_EQ(triangles(m), kCubeTriangles) << big;
  }
}

TEST(PlyBinary, WrongEndiannessIsCaughtNotMisread) {
  // Big-endian bytes declared little endian: the first list length becomes 2^25.
  EXPECT_THAT(ply_error(binary_cube(true, "binary_little_endian")), HasSubstr("scan.ply: byte "));
}

// A header for one triangle with float (or double) coordinates and an int index list.
std::string triangle_header(const char* format, const char* coord = "float") {
  return std::string("ply\nformat ") + format + " 1.0\nelement vertex 3\nproperty " + coord +
         " x\nproperty " + coord + " y\nproperty " + coord +
         " z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n";
}

std::string binary_triangle(float bad = 0, std::int32_t index = 2, bool truncate = false) {
  const std::string header = triangle_header("binary_little_endian");
  Bytes b(false);
  for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, bad}) b.put(v);
  b.put<std::uint8_t>(3).put<std::int32_t>(0).put<std::int32_t>(1).put<std::int32_t>(index);
  std::string bytes = header + b.str();
  if (truncate) bytes.resize(bytes.size() - 3);
  return bytes;
}

TEST(PlyBinary, Errors) {
  const std::size_t data = triangle_header("binary_little_endian").size();
  const std::string at = [&](std::size_t offset) {
    return "scan.ply: byte " + std::to_string(data + offset) + ": ";
  }(0);
  EXPECT_EQ(parse_ply(binary_triangle(), "t.ply").triangle_count(), 1u);
  EXPECT_THAT(
      ply_error(binary_triangle(std::numeric_limits<float>::quiet_NaN())),
      AllOf(HasSubstr("scan.ply: byte " + std::to_string(data + 32) + ": non-finite coordinate"),
            HasSubstr("element vertex 3 of 3")));
  EXPECT_THAT(ply_error(binary_triangle(-std::numeric_limits<float>::infinity())),
              HasSubstr("byte " + std::to_string(data + 32) + ": non-finite"));
  EXPECT_THAT(
      ply_error(binary_triangle(-3e38f)),
      AllOf(HasSubstr("byte " + std::to_string(data + 32) + ": coordinate -3e+38 is beyond +-1e30"),
            HasSubstr("element vertex 3 of 3")));
  EXPECT_THAT(ply_error(binary_triangle(0, 3)),
              HasSubstr("scan.ply: byte " + std::to_string(data + 45) +
                        ": face index 3 out of range (file has 3 vertices)"));
  EXPECT_THAT(ply_error(binary_triangle(0, -1)),
              HasSubstr("byte " + std::to_string(data + 45) + ": negative vertex index -1"));
  EXPECT_THAT(ply_error(binary_triangle(0, 2, true)),
              AllOf(HasSubstr("scan.ply: byte " + std::to_string(data + 37) +
                              ": file truncated: expected 12 more bytes"),
                    HasSubstr("element face 1 of 1")));
  EXPECT_THAT(ply_error(binary_triangle() + "xyz"),
              HasSubstr("byte " + std::to_string(data + 49) + ": unexpected 3 bytes after"));
  EXPECT_THAT(ply_error(triangle_header("binary_little_endian")), HasSubstr(at));
}

TEST(PlyBinary, DoubleNanBitPatternIsAnError) {
  Bytes b(true);
  b.put(0.0).put(0.0).put(std::bit_cast<double>(std::uint64_t{0x7FF0000000000001}));
  const std::string header = triangle_header("binary_big_endian", "double");
  EXPECT_THAT(ply_error(header + b.str() + std::string(6 * 8 + 13, '\0')),
              HasSubstr("byte " + std::to_string(header.size() + 16) + ": non-finite"));
}

TEST(PlyAscii, Errors) {
  const std::string h = triangle_header("ascii");  // 9 header lines
  EXPECT_EQ(parse_ply(h + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", "t.ply").triangle_count(), 1u);
  EXPECT_THAT(ply_error(h + "0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"),
              HasSubstr("scan.ply: line 13: face index 3 out of range (file has 3 vertices)"));
  EXPECT_THAT(ply_error(h + "0 0 0\n1 0 0\n0 1 0\n3 0 -1 2\n"),
              HasSubstr("scan.ply: line 13: negative vertex index -1"));
  EXPECT_THAT(ply_error(h + "0 0 0\n1 nan 0\n0 1 0\n3 0 1 2\n"),
              HasSubstr("scan.ply: line 11: non-finite coordinate 'nan'"));
  EXPECT_THAT(ply_error(h + "0 0 0\n1 0 0\n0 1 inf\n3 0 1 2\n"),
              HasSubstr("scan.ply: line 12: non-finite coordinate 'inf'"));
  EXPECT_THAT(ply_error(h + "0 0 0\n1 0 0\n0 1 0\n2 0 1\n"),
              HasSubstr("scan.ply: line 13: face has 2 corners, expected at least 3"));
  EXPECT_THAT(ply_error(h + "0 0 0\n1 0 0\n0 1 0\n3 0 1\n"),
              HasSubstr("scan.ply: line 13: expected an integer of the declared type, found end"));
  EXPECT_THAT(ply_error(h + "0 0 0\n1 0 0\n0 1 0\n\n\n"),
              HasSubstr("line 14: unexpected end of file: expected element face 1 of 1"));
  EXPECT_THAT(ply_error(h + "0 0 0\n1 0 0 7\n0 1 0\n3 0 1 2\n"),
              HasSubstr("scan.ply: line 11: unexpected value '7'"));
  EXPECT_THAT(ply_error(h + "0 0 0\n1 0 0x1\n0 1 0\n3 0 1 2\n"),
              HasSubstr("line 11: expected a coordinate, got '0x1'"));
  EXPECT_THAT(ply_error(h + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2.5\n"), HasSubstr("line 13: expected"));
  EXPECT_THAT(ply_error(h + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 1 2\n"),
              HasSubstr("line 14: unexpected data after the last element"));
}

TEST(PlyAscii, SkipsBlankLinesAndAcceptsCrlf) {
  const std::string h = triangle_header("ascii");
  std::string text = h + "0 0 0\r\n\r\n1 0 0\r\n0 1 0\r\n3 0 1 2\r\n";
  EXPECT_EQ(parse_ply(text, "t.ply").triangle_count(), 1u);
  std::string crlf_header = h;
  for (std::size_t i = 0; (i = crlf_header.find('\n', i)) != std::string::npos; i += 2) {
    crlf_header.insert(i, 1, '\r');
  }
  EXPECT_EQ(parse_ply(crlf_header + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", "t.ply").a.size(), 1u);
}

TEST(PlyHeader, Errors) {
  const std::string body = "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  auto header_with = [&](const std::string& from, const std::string& to) {
    std::string text = triangle_header("ascii") + body;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  EXPECT_EQ(ply_error(""), "scan.ply: empty file");
  EXPECT_THAT(ply_error("PLY\nformat ascii 1.0\n"), HasSubstr("scan.ply: line 1: bad magic"));
  EXPECT_THAT(ply_error(header_with("ascii", "binary_middle_endian")),
              HasSubstr("scan.ply: line 2: unsupported format 'binary_middle_endian'"));
  EXPECT_THAT(ply_error(header_with("1.0", "2.0")),
              HasSubstr("line 2: unsupported format version '2.0'"));
  EXPECT_THAT(ply_error(header_with("property float y", "property float q")),
              HasSubstr("scan.ply: line 3: element vertex has no property y"));
  EXPECT_THAT(ply_error(header_with("vertex_indices", "corners")),
              HasSubstr("scan.ply: line 7: element face has no list property vertex_indices"));
  EXPECT_THAT(ply_error(header_with("uchar int", "uchar float")),
              HasSubstr("line 7: face vertex indices must have an integer type"));
  EXPECT_THAT(ply_error(header_with("property float z", "property quad z")),
              HasSubstr("scan.ply: line 6: unknown property type 'quad'"));
  EXPECT_THAT(ply_error(header_with("element face 1", "element face one")),
              HasSubstr("line 7: expected 'element <name> <count>'"));
  EXPECT_THAT(ply_error(header_with("end_header", "end_head")),
              HasSubstr("line 9: unknown header keyword 'end_head'"));
  EXPECT_THAT(ply_error("ply\nformat ascii 1.0\nelement vertex 0\n"),
              HasSubstr("unexpected end of file: expected 'end_header'"));
  EXPECT_THAT(
      ply_error(header_with("element face 1\nproperty list uchar int vertex_indices\n", "")),
      HasSubstr("scan.ply: no triangles"));
  EXPECT_THAT(ply_error(header_with("element vertex 3", "element point 3")),
              HasSubstr("scan.ply: header has no element vertex"));
}

TEST(Ply, FaceCountZeroIsNoTriangles) {
  const std::string text =
      "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
      "property float z\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n"
      "1 2 3\n";
  EXPECT_EQ(ply_error(text), "scan.ply: no triangles");
}

}  // namespace
}  // namespace kdop
