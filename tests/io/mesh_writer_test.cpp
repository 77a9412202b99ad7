// Writers: every format and encoding reads back to identical coordinates and triangles.
#include "io/mesh_writer.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>

#include <unistd.h>

#include "io/io_error.hpp"
#include "io/mesh_reader.hpp"
#include "tests/support/scratch_dir.hpp"

namespace kdop {
namespace {

using ::testing::HasSubstr;

// A random soup whose coordinates exercise the digits a text writer must get right: wide
// exponents, negative zero, subnormals, and values one ulp apart. Optionally float-exact.
Mesh random_mesh(std::uint32_t vertices, std::uint32_t triangles, bool float_exact) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-40, 40);
  std::uniform_int_distribution<std::uint32_t> index(0, vertices - 1);
  auto coordinate = [&]() {
    double v = std::ldexp(mantissa(rng), exponent(rng));
    return float_exact ? static_cast<double>(static_cast<float>(v)) : v;
  };
  Mesh m;
  for (std::uint32_t i = 0; i < vertices; ++i)
    m.add_vertex(coordinate(), coordinate(), coordinate());
  m.x[0] = -0.0;
  m.y[0] = float_exact ? std::numeric_limits<float>::denorm_min()
                       : std::numeric_limits<double>::denorm_min();
  m.z[0] = float_exact ? 0.1f : 0.1;
  m.x[1] = float_exact ? std::nextafter(0.1f, 1.0f) : std::nextafter(0.1, 1.0);
  // The largest magnitudes the readers accept (geometry/coordinate_range.hpp), all digits used.
  m.y[1] =
      float_exact ? static_cast<double>(std::nextafter(1e30f, 0.0f)) : std::nextafter(1e30, 0.0);
  m.z[1] = float_exact ? -std::numeric_limits<float>::min() : -std::numeric_limits<double>::min();
  for (std::uint32_t t = 0; t < triangles; ++t) m.add_triangle(index(rng), index(rng), index(rng));
  m.add_triangle(0, 0, 1);  // degenerate, kept
  m.add_triangle(0, 0, 1);  // duplicate, kept
  return m;
}

bool same_bits(double p, double q) {
  return std::signbit(p) == std::signbit(q) && p == q;
}

void expect_identical(const Mesh& in, const Mesh& out) {
  ASSERT_EQ(in.vertex_count(), out.vertex_count());
  for (std::size_t i = 0; i < in.vertex_count(); ++i) {
    ASSERT_TRUE(same_bits(in.x[i], out.x[i]) && same_bits(in.y[i], out.y[i]) &&
                same_bits(in.z[i], out.z[i]))
        << "vertex " << i;
  }
  EXPECT_EQ(in.a, out.a);
  EXPECT_EQ(in.b, out.b);
  EXPECT_EQ(in.c, out.c);
}

// STL stores corners, not shared vertices: compare triangle by triangle.
void expect_same_corners(const Mesh& in, const Mesh& out) {
  ASSERT_EQ(in.triangle_count(), out.triangle_count());
  ASSERT_EQ(out.vertex_count(), 3 * in.triangle_count());
  const std::uint32_t* ci[3] = {in.a.data(), in.b.data(), in.c.data()};
  const std::uint32_t* co[3] = {out.a.data(), out.b.data(), out.c.data()};
  for (std::size_t t = 0; t < in.triangle_count(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t p = ci[k][t], q = co[k][t];
      ASSERT_TRUE(same_bits(in.x[p], out.x[q]) && same_bits(in.y[p], out.y[q]) &&
                  same_bits(in.z[p], out.z[q]))
          << "triangle " << t << " corner " << k;
    }
  }
}

TEST(RoundTrip, Obj) {
  const Mesh m = random_mesh(500, 1000, false);
  expect_identical(m, parse_obj(format_obj(m), "rt.obj"));
}

TEST(RoundTrip, Off) {
  const Mesh m = random_mesh(500, 1000, false);
  expect_identical(m, parse_off(format_off(m), "rt.off"));
}

TEST(RoundTrip, PlyAllEncodings) {
  const Mesh m = random_mesh(500, 1000, false);
  for (PlyEncoding e :
       {PlyEncoding::ascii, PlyEncoding::binary_little_endian, PlyEncoding::binary_big_endian}) {
    expect_identical(m, parse_ply(format_ply(m, e), "rt.ply"));
  }
}

TEST(RoundTrip, StlAscii) {
  const Mesh m = random_mesh(300, 600, false);
  expect_same_corners(m, parse_stl(format_stl_ascii(m), "rt.stl"));
}

TEST(RoundTrip, StlBinary) {
  const Mesh m = random_mesh(300, 600, true);
  const std::string bytes = format_stl_binary(m);
  EXPECT_EQ(bytes.size(), 84 + 50 * m.triangle_count());
  EXPECT_NE(bytes.substr(0, 5), "solid");
  expect_same_corners(m, parse_stl(bytes, "rt.stl"));
}

TEST(Writers, ExactTextForASmallMesh) {
  Mesh m;
  m.add_vertex(0, 0.5, -1);
  m.add_vertex(1e-300, 0.1, 3);
  m.add_vertex(2, 2, 2);
  m.add_triangle(0, 1, 2);
  EXPECT_EQ(format_obj(m), "# written by kdop\nv 0 0.5 -1\nv 1e-300 0.1 3\nv 2 2 2\nf 1 2 3\n");
  EXPECT_EQ(format_off(m), "OFF\n3 1 0\n0 0.5 -1\n1e-300 0.1 3\n2 2 2\n3 0 1 2\n");
  EXPECT_THAT(format_ply(m, PlyEncoding::ascii),
              HasSubstr("end_header\n0 0.5 -1\n1e-300 0.1 3\n2 2 2\n3 0 1 2\n"));
}

}  // namespace
}  // namespace kdop
