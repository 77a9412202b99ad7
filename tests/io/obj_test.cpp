// OBJ reader: face corner forms, relative and forward indices, fanning, malformed input.
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

std::string obj_error(const std::string& text) {
  return test::io_error_of([&] { parse_obj(text, "cube.obj"); });
}

using test::triangles;
using test::Triples;

// A unit cube with quad faces in every corner form, and the statements a reader skips.
const char* const kCube =
    "# unit cube\n"
    "mtllib cube.mtl\n"
    "o cube\n"
    "v 0 0 0\n"
    "v 1 0 0\n"
    "v 1 1 0\n"
    "v 0 1 0\n"
    "v 0 0 1 1.0\n"          // with w
    "v 1 0 1 0.5 0.5 0.5\n"  // with a colour
    "v 1 1 1\n"
    "v 0 1 1\n"
    "vt 0 0\n"
    "vt 1 0\n"
    "vn 0 0 1\n"
    "\n"
    "g sides\n"
    "usemtl steel\n"
    "s off\n"
    "f 1 4 3 2\n"
    "f 5/1 6/2 7/1 8/2\n"
    "f 1//1 2//1 6//1 5//1\n"
    "f 2/1/1 3/2/1 7/1/1 6/2/1\n"
    "f 3 4 8 7 # trailing comment\n"
    "f 4 1 5 8\n"
    "l 1 2\n"
    "p 3\n";

TEST(Obj, ReadsCubeAndFansQuads) {
  const Mesh m = parse_obj(kCube, "cube.obj");
  ASSERT_EQ(m.vertex_count(), 8u);
  ASSERT_EQ(m.triangle_count(), 12u);
  EXPECT_EQ(m.x, (std::vector<double>{0, 1, 1, 0, 0, 1, 1, 0}));
  EXPECT_EQ(m.z, (std::vector<double>{0, 0, 0, 0, 1, 1, 1, 1}));
  const Triples t = triangles(m);
  EXPECT_EQ(t[0], (std::vector<std::uint32_t>{0, 3, 2}));
  EXPECT_EQ(t[1], (std::vector<std::uint32_t>{0, 2, 1}));
  EXPECT_EQ(t[2], (std::vector<std::uint32_t>{4, 5, 6}));
  EXPECT_EQ(t[3], (std::vector<std::uint32_t>{4, 6, 7}));
  EXPECT_EQ(t[11], (std::vector<std::uint32_t>{3, 4, 7}));
}

TEST(Obj, PolygonFansIntoConsecutiveTriangles) {
  const Mesh m = parse_obj("v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nf 1 2 3 4 5\n", "p.obj");
  EXPECT_EQ(triangles(m), (Triples{{0, 1, 2}, {0, 2, 3}, {0, 3, 4}}));
}

TEST(Obj, NegativeIndicesCountBackFromTheLastVertexRead) {
  const Mesh m = parse_obj(
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n"
      "v 5 5 5\nf -1 -2/1 -3//2\n",
      "rel.obj");
  EXPECT_EQ(triangles(m), (Triples{{0, 1, 2}, {3, 2, 1}}));
}

TEST(Obj, PositiveIndicesMayReferToLaterVertices) {
  const Mesh m = parse_obj("f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n", "fwd.obj");
  EXPECT_EQ(triangles(m), (Triples{{0, 1, 2}}));
}

TEST(Obj, CrlfContinuationAndLeadingPlus) {
  const Mesh m = parse_obj("v +1 0 0\r\nv 0 1 0\r\nv 0 0 1\r\nf 1 \\\r\n 2 \\\n3\r\n", "c.obj");
  EXPECT_EQ(m.x[0], 1.0);
  EXPECT_EQ(triangles(m), (Triples{{0, 1, 2}}));
}

TEST(Obj, KeepsDegenerateAndDuplicateFaces) {
  const Mesh m = parse_obj("v 0 0 0\nv 1 1 1\nv 2 2 2\nf 1 1 2\nf 1 2 3\nf 1 2 3\n", "d.obj");
  EXPECT_EQ(triangles(m), (Triples{{0, 0, 1}, {0, 1, 2}, {0, 1, 2}}));
}

TEST(Obj, ZeroIndexIsAnErrorWithTheLine) {
  EXPECT_THAT(obj_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 0 2\n"),
              HasSubstr("cube.obj: line 4: face index 0 is invalid"));
}

TEST(Obj, OutOfRangeIndexNamesTheFaceLine) {
  std::string text;
  for (int i = 0; i < 8; ++i) text += "v 0 0 0\n";
  text += "f 1 2 3\n\n\nf 1 9 2\nf 1 2 3\n";
  EXPECT_EQ(obj_error(text), "cube.obj: line 12: face index 9 out of range (file has 8 vertices)");
  EXPECT_THAT(obj_error("v 0 0 0\nv 1 0 0\nf 1 2 -3\n"),
              HasSubstr("cube.obj: line 3: face index -3 out of range (only 2 vertices read"));
  EXPECT_THAT(obj_error("v 0 0 0\nf 1 1 99999999999\n"),
              HasSubstr("cube.obj: line 2: face index 99999999999 out of range"));
}

TEST(Obj, FaceWithTwoCornersIsAnError) {
  EXPECT_THAT(obj_error("v 0 0 0\nv 1 0 0\nf 1 2\n"),
              HasSubstr("cube.obj: line 3: face has 2 corners, expected at least 3"));
  EXPECT_THAT(obj_error("v 0 0 0\nf\n"), HasSubstr("cube.obj: line 2: face has 0 corners"));
}

TEST(Obj, NonFiniteCoordinatesAreErrors) {
  EXPECT_THAT(obj_error("v 0 0 0\nv 1 nan 0\n"),
              HasSubstr("cube.obj: line 2: non-finite coordinate 'nan'"));
  EXPECT_THAT(obj_error("v inf 0 0\n"), HasSubstr("cube.obj: line 1: non-finite coordinate"));
  EXPECT_EQ(obj_error("v 1e999 0 0\n"),
            "cube.obj: line 1: coordinate '1e999' is outside double's range");
  EXPECT_EQ(obj_error("v 0 -1e-999 0\n"),
            "cube.obj: line 1: coordinate '-1e-999' is outside double's range");
}

// Beyond +-1e30 the float bounding volumes cannot hold a contact (geometry/coordinate_range.hpp).
TEST(Obj, CoordinatesBeyondTheRangeAreErrors) {
  EXPECT_THAT(obj_error("v 0 0 0\nv 1 -4e38 0\n"),
              HasSubstr("cube.obj: line 2: coordinate '-4e38' is beyond +-1e30"));
  EXPECT_THAT(obj_error("v 0 0 1.0000001e30\n"), HasSubstr("line 1: coordinate '1.0000001e30'"));
  EXPECT_EQ(parse_obj("v 1e30 -1e30 1e-300\nv 0 1 0\nv 0 0 1\nf 1 2 3\n", "c.obj").x[0], 1e30);
}

TEST(Obj, GarbageIsRejected) {
  EXPECT_THAT(obj_error("v 0 0 0.5.5\n"),
              HasSubstr("cube.obj: line 1: expected a coordinate, got '0.5.5'"));
  EXPECT_THAT(obj_error("v 0 0\n"),
              HasSubstr("cube.obj: line 1: expected a coordinate, found end of line"));
  EXPECT_THAT(obj_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2a 3\n"),
              HasSubstr("cube.obj: line 4: expected a face corner i, i/t, i//n or i/t/n, got "
                        "'2a'"));
  EXPECT_THAT(obj_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/x 2 3\n"), HasSubstr("line 4: "));
  EXPECT_THAT(obj_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1/1/1 2 3\n"), HasSubstr("line 4: "));
  EXPECT_THAT(obj_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf //1 2 3\n"), HasSubstr("line 4: "));
  EXPECT_THAT(obj_error("v 0 0 0 red\n"), HasSubstr("line 1: expected a number after"));
  EXPECT_THAT(obj_error("v 0 0 0\n\x7f\x45LF\x01\n"),
              HasSubstr("cube.obj: line 2: unknown statement '\\x7fELF\\x01'"));
}

TEST(Obj, EmptyFileAndNoFaces) {
  EXPECT_EQ(obj_error(""), "cube.obj: empty file");
  EXPECT_EQ(obj_error("# only a comment\nv 0 0 0\n"), "cube.obj: no triangles");
}

}  // namespace
}  // namespace kdop
