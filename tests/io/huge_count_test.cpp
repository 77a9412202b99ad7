// Counts in file headers that the file cannot hold must fail at once, before any allocation
// sized by them. allocation_probe.cpp replaces operator new for this test executable and
// records the largest single request, so "without allocating" is checked, not assumed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "io/io_error.hpp"
#include "io/mesh_reader.hpp"
#include "tests/support/allocation_probe.hpp"

namespace kdop::test {}  // namespace kdop::test

namespace kdop {
namespace {

using ::testing::HasSubstr;

constexpr std::size_t kSmall = 64 * 1024;  // far below anything a header count would ask for

struct Outcome {
  std::string error;
  std::size_t largest_allocation = 0;
};

Outcome parse(const std::string& bytes, MeshFormat format, const std::string& name) {
  Outcome out;
  test::reset_allocation_probe();
  try {
    parse_mesh(bytes, format, name);
    ADD_FAILURE() << "no IoError";
  } catch (const IoError& e) {
    out.largest_allocation = test::largest_allocation();
    out.error = e.what();
  }
  return out;
}

TEST(HugeCount, BinaryStl) {
  std::string bytes(80, ' ');
  bytes += std::string("\xff\xff\xff\xff", 4) + std::string(600, '\0');
  const Outcome out = parse(bytes, MeshFormat::stl, "big.stl");
  EXPECT_THAT(out.error, HasSubstr("big.stl: byte 684: file truncated"));
  EXPECT_THAT(out.error, HasSubstr("header says 4294967295 triangles (214748364834 bytes)"));
  EXPECT_LT(out.largest_allocation, kSmall);
}

std::string ply_header(const char* format, const std::string& nv, const std::string& nf,
                       const char* list = "uchar int") {
  return std::string("ply\nformat ") + format + " 1.0\nelement vertex " + nv +
         "\nproperty float x\nproperty float y\nproperty float z\nelement face " + nf +
         "\nproperty list " + list + " vertex_indices\nend_header\n";
}

TEST(HugeCount, PlyVertexAndFaceCounts) {
  for (const char* format : {"ascii", "binary_little_endian", "binary_big_endian"}) {
    const std::string body(200, '0');
    const std::string header = ply_header(format, "1000000000", "3");
    Outcome out = parse(header + body, MeshFormat::ply, "big.ply");
    EXPECT_THAT(out.error, HasSubstr("header declares element vertex 1000000000, element face 3"))
        << format;
    EXPECT_THAT(out.error, HasSubstr("but only 200 bytes follow the header")) << format;
    EXPECT_LT(out.largest_allocation, kSmall) << format;

    out = parse(ply_header(format, "3", "18446744073709551615") + body, MeshFormat::ply, "big.ply");
    EXPECT_THAT(out.error,
                HasSubstr("header declares element vertex 3, element face 18446744073709551615"));
    EXPECT_LT(out.largest_allocation, kSmall) << format;

    out = parse(ply_header(format, "5000000000", "1") + body, MeshFormat::ply, "big.ply");
    EXPECT_THAT(out.error, HasSubstr("big.ply: line 3: too many vertices for 32-bit indices"));
    EXPECT_LT(out.largest_allocation, kSmall) << format;
  }
  const Outcome out =
      parse(ply_header("ascii", "99999999999999999999", "1"), MeshFormat::ply, "big.ply");
  EXPECT_THAT(out.error, HasSubstr("big.ply: line 3: expected 'element <name> <count>'"));
}

TEST(HugeCount, PlyListLength) {
  std::string bytes = ply_header("binary_little_endian", "3", "1", "uint int");
  bytes += std::string(36, '\0');               // three vertices at the origin
  bytes += std::string("\xff\xff\xff\xff", 4);  // a face with 4294967295 corners
  bytes += std::string(12, '\0');
  const Outcome out = parse(bytes, MeshFormat::ply, "big.ply");
  EXPECT_THAT(out.error, HasSubstr("file truncated: expected 17179869180 more bytes"));
  EXPECT_LT(out.largest_allocation, kSmall);
}

TEST(HugeCount, PlyElementWithoutPropertiesIsSkippedAtOnce) {
  std::string bytes =
      "ply\nformat binary_little_endian 1.0\nelement nothing 18446744073709551615\n" +
      ply_header("binary_little_endian", "3", "1").substr(36);
  bytes += std::string(36, '\0') + "\x03" + std::string(4, '\0') + "\x01" + std::string(3, '\0') +
           "\x02" + std::string(3, '\0');
  EXPECT_EQ(parse_ply(bytes, "empty_elements.ply").triangle_count(), 1u);
}

TEST(HugeCount, Off) {
  const std::string body = "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  Outcome out = parse("OFF\n2000000000 1000000000 0\n" + body, MeshFormat::off, "big.off");
  EXPECT_THAT(out.error, HasSubstr("big.off: line 2: header says 2000000000 vertices and "
                                   "1000000000 faces"));
  EXPECT_LT(out.largest_allocation, kSmall);
  // One of each: singular.
  out = parse("OFF\n1 1 0\n0 0 0\n", MeshFormat::off, "one.off");
  EXPECT_THAT(out.error, HasSubstr("one.off: line 2: header says 1 vertex and 1 face (at least"));
  out = parse("OFF\n3 1000000000000000000000 0\n" + body, MeshFormat::off, "big.off");
  EXPECT_THAT(out.error, HasSubstr("big.off: line 2: expected the face count"));
  out = parse("OFF\n5000000000 1 0\n" + body, MeshFormat::off, "big.off");
  EXPECT_THAT(out.error, HasSubstr("big.off: line 2: too many vertices for 32-bit indices"));
  EXPECT_LT(out.largest_allocation, kSmall);
}

// Found by fuzz/off_fuzzer: 4 x a face count from 2^62 up saturated, but adding the vertices'
// values wrapped around, so the size check passed and reserve() threw std::length_error.
TEST(HugeCount, OffFaceCountNearTheTopOfUint64) {
  const std::string body = "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  for (const char* nf : {"4611686018427387904", "8198552921648689616", "18446744073709551615"}) {
    const Outcome out =
        parse("OFF\n3 " + std::string(nf) + "\n" + body, MeshFormat::off, "big.off");
    EXPECT_THAT(out.error, HasSubstr("big.off: line 2: header says 3 vertices and " +
                                     std::string(nf) + " faces"));
    EXPECT_LT(out.largest_allocation, kSmall);
  }
}

}  // namespace
}  // namespace kdop
