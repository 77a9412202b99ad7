// STL reader: ASCII and binary, format detection, and malformed input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
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

// The message of the IoError the STL reader throws for `bytes` (named "part.stl").
std::string stl_error(const std::string& bytes) {
  return test::io_error_of([&] { parse_stl(bytes, "part.stl"); });
}

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}
void put_f32(std::string& out, float v) {
  put_u32(out, std::bit_cast<std::uint32_t>(v));
}

// A binary STL with the given header text, facet count field and facets (9 floats each).
std::string binary_stl(const std::string& header, std::uint32_t count,
                       const std::vector<std::vector<float>>& facets) {
  std::string out = header;
  out.resize(80, '\0');
  put_u32(out, count);
  for (const auto& f : facets) {
    for (int i = 0; i < 3; ++i) put_f32(out, 0.0f);  // normal
    for (float v : f) put_f32(out, v);
    out += std::string(2, '\0');  // attribute
  }
  return out;
}

const std::vector<float> kTri = {0, 0, 0, 1, 0, 0, 0, 1, 0};

const char* const kAsciiQuad =
    "solid quad\n"
    "  facet normal 0 0 1\n"
    "    outer loop\n"
    "      vertex 0 0 0\n"
    "      vertex 1 0 0\n"
    "      vertex 1 1 0\n"
    "    endloop\n"
    "  endfacet\n"
    "  facet normal 0 0 1\n"
    "    outer loop\n"
    "      vertex 0 0 0\n"
    "      vertex 1 1 0\n"
    "      vertex 0 1 0.5e-1\n"
    "    endloop\n"
    "  endfacet\n"
    "endsolid quad\n";

TEST(StlAscii, ReadsUnsharedVerticesPerFacet) {
  const Mesh m = parse_stl(kAsciiQuad, "quad.stl");
  ASSERT_EQ(m.triangle_count(), 2u);
  ASSERT_EQ(m.vertex_count(), 6u);
  EXPECT_EQ(m.a, (std::vector<std::uint32_t>{0, 3}));
  EXPECT_EQ(m.b, (std::vector<std::uint32_t>{1, 4}));
  EXPECT_EQ(m.c, (std::vector<std::uint32_t>{2, 5}));
  EXPECT_EQ(m.x, (std::vector<double>{0, 1, 1, 0, 1, 0}));
  EXPECT_EQ(m.y, (std::vector<double>{0, 0, 1, 0, 1, 1}));
  EXPECT_EQ(m.z, (std::vector<double>{0, 0, 0, 0, 0, 0.05}));
}

TEST(StlAscii, AcceptsSeveralSolidsCrlfAndUppercase) {
  const std::string two =
      std::string(kAsciiQuad) +
      "SOLID second\r\n FACET NORMAL 0 0 0\r\n OUTER LOOP\r\n"
      "VERTEX 2 2 2\r\nVERTEX 2 2 2\r\nVERTEX 2 2 2\r\n ENDLOOP\r\n ENDFACET\r\n"
      "ENDSOLID\r\n";
  const Mesh m = parse_stl(two, "two.stl");
  EXPECT_EQ(m.triangle_count(), 3u);
  EXPECT_EQ(m.x.back(), 2.0);
}

TEST(StlAscii, KeepsDegenerateAndDuplicateFacetsAndIgnoresNanNormals) {
  const std::string facet =
      "facet normal nan nan nan\nouter loop\nvertex 1 1 1\nvertex 1 1 1\nvertex 2 2 2\n"
      "endloop\nendfacet\n";
  const Mesh m = parse_stl("solid d\n" + facet + facet + "endsolid d\n", "d.stl");
  EXPECT_EQ(m.triangle_count(), 2u);
}

TEST(StlBinary, HeaderStartingWithSolidIsStillBinary) {
  const std::string bytes = binary_stl("solid made by a careless exporter", 2, {kTri, kTri});
  const Mesh m = parse_stl(bytes, "b.stl");
  ASSERT_EQ(m.triangle_count(), 2u);
  ASSERT_EQ(m.vertex_count(), 6u);
  EXPECT_EQ(m.x, (std::vector<double>{0, 1, 0, 0, 1, 0}));
  EXPECT_EQ(m.y, (std::vector<double>{0, 0, 1, 0, 0, 1}));
  EXPECT_EQ(m.c, (std::vector<std::uint32_t>{2, 5}));
}

TEST(StlBinary, KeepsExactFloatValues) {
  const float tiny = std::numeric_limits<float>::denorm_min();
  const Mesh m = parse_stl(binary_stl("", 1, {{0.1f, -3.5f, tiny, 1e29f, 2, 3, 4, 5, 6}}), "f.stl");
  EXPECT_EQ(m.x[0], static_cast<double>(0.1f));
  EXPECT_EQ(m.y[0], -3.5);
  EXPECT_EQ(m.z[0], static_cast<double>(tiny));
  EXPECT_EQ(m.x[1], static_cast<double>(1e29f));
}

TEST(StlBinary, TruncatedFileNamesTheFirstIncompleteRecord) {
  std::vector<std::vector<float>> facets(20, kTri);
  std::string bytes = binary_stl("", 20, facets);
  bytes.resize(84 + 50 * 12 + 17);  // 12 whole records, then part of record 13
  EXPECT_THAT(stl_error(bytes), AllOf(HasSubstr("part.stl: byte 684: file truncated"),
                                      HasSubstr("expected 50-byte facet record 13 of 20")));
}

TEST(StlBinary, TruncatedSolidHeaderIsNotMistakenForAscii) {
  std::string bytes = binary_stl("solid x", 3, {kTri, kTri, kTri});
  bytes.pop_back();
  EXPECT_THAT(stl_error(bytes), HasSubstr("part.stl: byte 184: file truncated"));
}

TEST(StlBinary, CountDisagreeingWithSizeIsAnError) {
  const std::string bytes = binary_stl("", 1, {kTri, kTri});
  EXPECT_THAT(stl_error(bytes), AllOf(HasSubstr("part.stl: byte 134: "),
                                      HasSubstr("header says 1 triangle (134 bytes) but file "
                                                "has 184 bytes")));
}

TEST(StlBinary, HugeCountFailsFromTheSizeAlone) {
  std::vector<std::vector<float>> facets(12, kTri);
  const std::string bytes = binary_stl("", 0xFFFFFFFFu, facets);
  ASSERT_EQ(bytes.size(), 684u);
  EXPECT_THAT(stl_error(bytes),
              AllOf(HasSubstr("part.stl: byte 684: "),
                    HasSubstr("header says 4294967295 triangles (214748364834 bytes) but file "
                              "has 684 bytes")));
}

TEST(StlBinary, NonFiniteBitPatternsAreErrorsAtTheirOffset) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // Record 2 starts at 134; its vertices at 146; coordinate 4 (second vertex x) at 158.
  EXPECT_THAT(stl_error(binary_stl("", 2, {kTri, {0, 0, 0, nan, 0, 0, 0, 0, 0}})),
              AllOf(HasSubstr("part.stl: byte 158: non-finite coordinate"),
                    HasSubstr("facet record 2 of 2")));
  EXPECT_THAT(stl_error(binary_stl("", 1, {{0, 0, -inf, 0, 0, 0, 0, 0, 0}})),
              HasSubstr("part.stl: byte 104: non-finite"));
  // Finite, but beyond kdop's coordinate range (floats reach 3.4e38).
  EXPECT_THAT(stl_error(binary_stl("", 2, {kTri, {0, 0, 0, 2e38f, 0, 0, 0, 0, 0}})),
              AllOf(HasSubstr("part.stl: byte 158: coordinate 2e+38 is beyond +-1e30"),
                    HasSubstr("facet record 2")));
}

TEST(StlBinary, ShortFileAndZeroFacets) {
  EXPECT_THAT(stl_error(std::string(40, '\x01')), HasSubstr("part.stl: byte 40: file truncated"));
  EXPECT_EQ(stl_error(binary_stl("", 0, {})), "part.stl: no triangles");
}

TEST(StlAscii, EmptyFileAndEmptySolid) {
  EXPECT_EQ(stl_error(""), "part.stl: empty file");
  EXPECT_EQ(stl_error("solid nothing\nendsolid nothing\n"), "part.stl: no triangles");
}

TEST(StlAscii, NonFiniteCoordinatesNameTheLine) {
  std::string text = kAsciiQuad;
  text.replace(text.find("vertex 1 1 0"), 12, "vertex 1 nan 0");
  EXPECT_THAT(stl_error(text), HasSubstr("part.stl: line 6: non-finite coordinate 'nan'"));
  text = kAsciiQuad;
  text.replace(text.find("0.5e-1"), 6, "-inf");
  EXPECT_THAT(stl_error(text), HasSubstr("part.stl: line 13: non-finite coordinate '-inf'"));
}

TEST(StlAscii, GarbageInANumberIsRejected) {
  std::string text = kAsciiQuad;
  text.replace(text.find("vertex 1 0 0"), 12, "vertex 1 0 0x");
  EXPECT_THAT(stl_error(text), HasSubstr("part.stl: line 5: expected a coordinate, got '0x'"));
  text = kAsciiQuad;
  text.replace(text.find("normal 0 0 1"), 12, "normal 0 0 one");
  EXPECT_THAT(stl_error(text), HasSubstr("part.stl: line 2: expected a normal component"));
}

TEST(StlAscii, AShortLineIsNamedNotTheNextOne) {
  std::string text = kAsciiQuad;
  text.replace(text.find("vertex 1 0 0"), 12, "vertex 1 0");
  EXPECT_THAT(stl_error(text), HasSubstr("part.stl: line 5: expected a vertex coordinate, the line "
                                         "ends (next is 'vertex' on line 6)"));
  text = kAsciiQuad;
  text.replace(text.find("normal 0 0 1"), 12, "normal 0 0");
  EXPECT_THAT(stl_error(text), HasSubstr("part.stl: line 2: expected a normal component, the line "
                                         "ends (next is 'outer' on line 3)"));
  // A file cut inside a vertex line.
  text = kAsciiQuad;
  text.erase(text.find("vertex 1 0 0") + 10);
  EXPECT_THAT(stl_error(text),
              HasSubstr("line 5: expected a vertex coordinate, found end of file"));
  EXPECT_THAT(
      stl_error(text + "\n\n"),
      HasSubstr("line 5: expected a vertex coordinate, the line ends (then the file ends)"));
  // Numbers split over lines are still read.
  text = kAsciiQuad;
  text.replace(text.find("vertex 1 0 0"), 12, "vertex 1 0\n 0");
  EXPECT_EQ(parse_stl(text, "part.stl").triangle_count(), 2u);
}

TEST(StlAscii, StructureIsValidated) {
  auto without = [](const std::string& what) {
    std::string text = kAsciiQuad;
    text.erase(text.find(what), what.size());
    return text;
  };
  EXPECT_THAT(stl_error(without("    endloop\n")),
              HasSubstr("part.stl: line 7: expected 'endloop' after 3 vertices, got 'endfacet'"));
  EXPECT_THAT(stl_error(without("      vertex 1 1 0\n")),
              HasSubstr("part.stl: line 6: expected 'vertex' (a facet has 3 vertices), got "
                        "'endloop'"));
  EXPECT_THAT(stl_error(without("outer ")), HasSubstr("line 3: expected 'outer'"));
  EXPECT_THAT(stl_error(without("endsolid quad\n")),
              HasSubstr("expected 'facet' or 'endsolid', found end of file"));
  EXPECT_THAT(stl_error(std::string(kAsciiQuad) + "garbage\n"),
              HasSubstr("line 17: expected 'solid' or end of file after 'endsolid', got "
                        "'garbage'"));
}

}  // namespace
}  // namespace kdop
