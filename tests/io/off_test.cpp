// OFF reader: header variants, comments, per-record extras, malformed input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/io_error.hpp"
#include "io/mesh_reader.hpp"
#include "tests/support/reader_checks.hpp"

namespace kdop {
namespace {

using ::testing::HasSubstr;

std::string off_error(const std::string& text) {
  return test::io_error_of([&] { parse_off(text, "box.off"); });
}

using test::triangles;
using test::Triples;

const char* const kCube =
    "OFF\n"
    "# a unit cube\n"
    "8 6 12\n"
    "0 0 0\n"
    "1 0 0  # comment after a vertex\n"
    "1 1 0\n"
    "0 1 0\n"
    "\n"
    "0 0 1\n"
    "1 0 1\n"
    "1 1 1\n"
    "0 1 1\n"
    "4 0 3 2 1\n"
    "4 4 5 6 7 255 0 0\n"  // a face colour
    "4 0 1 5 4 0.5 0.5 0.5 1\n"
    "4 1 2 6 5\n"
    "4 2 3 7 6\n"
    "4 3 0 4 7\n";

const Triples kCubeTriangles = {{0, 3, 2}, {0, 2, 1}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};

TEST(Off, ReadsCubeAndFansQuads) {
  const Mesh m = parse_off(kCube, "cube.off");
  EXPECT_EQ(m.x, (std::vector<double>{0, 1, 1, 0, 0, 1, 1, 0}));
  EXPECT_EQ(m.y, (std::vector<double>{0, 0, 1, 1, 0, 0, 1, 1}));
  EXPECT_EQ(m.z, (std::vector<double>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(triangles(m), kCubeTriangles);
}

TEST(Off, HeaderVariants) {
  const std::string body = "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  EXPECT_EQ(parse_off("OFF 3 1 0\n" + body, "a.off").triangle_count(), 1u);
  EXPECT_EQ(parse_off("3 1\n" + body, "b.off").triangle_count(), 1u);  // header keyword optional
  EXPECT_EQ(parse_off("OFF\r\n3 1 3\r\n0 0 0\r\n1 0 0\r\n0 1 0\r\n3 0 1 2\r\n", "c.off").a.size(),
            1u);
  const Mesh coloured =
      parse_off("COFF\n3 1 0\n0 0 0 1 0 0 1\n1 0 0 0 1 0 1\n0 1 0 0 0 1 1\n3 0 1 2\n", "d.off");
  EXPECT_EQ(coloured.x, (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(coloured.y, (std::vector<double>{0, 0, 1}));
  EXPECT_EQ(parse_off("NOFF\n3 1 0\n0 0 0 0 0 1\n1 0 0 0 0 1\n0 1 0 0 0 1\n3 2 1 0\n", "e.off").c,
            (std::vector<std::uint32_t>{0}));
}

TEST(Off, KeepsDegenerateAndDuplicateFaces) {
  const Mesh m = parse_off("OFF\n3 3 0\n0 0 0\n1 1 1\n2 2 2\n3 0 1 2\n3 0 1 2\n3 1 1 1\n", "d.off");
  EXPECT_EQ(triangles(m), (Triples{{0, 1, 2}, {0, 1, 2}, {1, 1, 1}}));
}

TEST(Off, Errors) {
  const std::string h = "OFF\n3 1 0\n";
  EXPECT_EQ(off_error(""), "box.off: empty file");
  EXPECT_THAT(off_error("PLY\n3 1 0\n"), HasSubstr("box.off: line 1: bad magic"));
  EXPECT_THAT(off_error("4OFF\n3 1 0\n"), HasSubstr("line 1: unsupported OFF variant '4OFF'"));
  EXPECT_THAT(off_error("OFF BINARY\n"), HasSubstr("line 1: binary OFF is not supported"));
  EXPECT_THAT(off_error("OFF\n3 x 0\n"), HasSubstr("line 2: expected the face count, got 'x'"));
  EXPECT_THAT(off_error("OFF\n3 1 0 9\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"),
              HasSubstr("line 2: unexpected '9' after the counts"));
  EXPECT_THAT(off_error(h + "0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"),
              HasSubstr("box.off: line 6: face index 3 out of range (file has 3 vertices)"));
  EXPECT_THAT(off_error(h + "0 0 0\n1 0 0\n0 1 0\n3 0 -1 2\n"),
              HasSubstr("box.off: line 6: negative value -1, expected a vertex index"));
  EXPECT_THAT(off_error(h + "0 0 0\n1 0 0\n0 1 0\n2 0 1    \n"),
              HasSubstr("box.off: line 6: face has 2 corners, expected at least 3"));
  EXPECT_THAT(off_error(h + "0 0 0\n1 NaN 0\n0 1 0\n3 0 1 2\n"),
              HasSubstr("box.off: line 4: non-finite coordinate 'NaN'"));
  EXPECT_THAT(off_error(h + "0 0 0\n1 0 0\n0 1 infinity\n3 0 1 2\n"),
              HasSubstr("box.off: line 5: non-finite coordinate 'infinity'"));
  EXPECT_THAT(off_error(h + "0 0 0\n1 0 0\n0 1     \n3 0 1 2\n"),
              HasSubstr("box.off: line 5: expected a coordinate, found end of line"));
  EXPECT_THAT(off_error(h + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2x\n"),
              HasSubstr("box.off: line 6: expected a vertex index, got '2x'"));
  EXPECT_THAT(off_error(h + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2 red\n"),
              HasSubstr("line 6: expected a number after the face's vertex indices, got 'red'"));
  EXPECT_THAT(off_error(h + "0 0 0\n1 0 0\n0 1 0\n# no face\n\n\n\n\n"),
              HasSubstr("box.off: line 10: unexpected end of file: expected face 1 of 1"));
  EXPECT_THAT(off_error(h + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 1 2\n"),
              HasSubstr("box.off: line 7: unexpected data after the last face"));
  EXPECT_EQ(off_error("OFF\n3 0 0\n0 0 0\n1 0 0\n0 1 0\n"), "box.off: no triangles");
}

}  // namespace
}  // namespace kdop
