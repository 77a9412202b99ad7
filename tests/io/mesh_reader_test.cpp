// read_mesh: extension dispatch and file errors.
#include "io/mesh_reader.hpp"
#include "tests/support/reader_checks.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <string>

#include <unistd.h>

#include "io/io_error.hpp"
#include "io/mesh_writer.hpp"

namespace kdop {
namespace {

using ::testing::HasSubstr;

std::string read_error(const std::string& path) {
  return test::io_error_of([&] { read_mesh(path); });
}

Mesh tetrahedron() {
  Mesh m;
  m.add_vertex(0, 0, 0);
  m.add_vertex(1, 0, 0);
  m.add_vertex(0, 1, 0);
  m.add_vertex(0, 0, 1);
  m.add_triangle(0, 2, 1);
  m.add_triangle(0, 1, 3);
  m.add_triangle(1, 2, 3);
  m.add_triangle(2, 0, 3);
  return m;
}

class ReadMesh : public test::ScratchDirTest {
 protected:
  std::string path(const std::string& file) const { return (dir_ / file).string(); }
};

TEST_F(ReadMesh, DispatchesByExtensionCaseInsensitively) {
  const Mesh m = tetrahedron();
  write_file_atomic(path("t.obj"), format_obj(m));
  write_file_atomic(path("t.OFF"), format_off(m));
  write_file_atomic(path("t.Ply"), format_ply(m, PlyEncoding::binary_little_endian));
  write_file_atomic(path("t.STL"), format_stl_binary(m));
  write_file_atomic(path("a.stl"), format_stl_ascii(m));
  for (const char* file : {"t.obj", "t.OFF", "t.Ply"}) {
    const Mesh r = read_mesh(path(file));
    EXPECT_EQ(r.x, m.x) << file;
    EXPECT_EQ(r.c, m.c) << file;
  }
  EXPECT_EQ(read_mesh(path("t.STL")).vertex_count(), 12u);
  EXPECT_EQ(read_mesh(path("a.stl")).triangle_count(), 4u);
}

TEST_F(ReadMesh, FormatFromPath) {
  EXPECT_EQ(mesh_format_from_path("dir.v2/part.Stl"), MeshFormat::stl);
  EXPECT_EQ(mesh_format_from_path("x.obj"), MeshFormat::obj);
  EXPECT_THAT(read_error(path("part.3ds")), HasSubstr("part.3ds: unknown extension '.3ds'"));
  EXPECT_THAT(test::io_error_of([] { mesh_format_from_path("dir.stl/part"); }),
              HasSubstr("dir.stl/part: no file extension (expected .stl, .obj, .ply or .off)"));
  EXPECT_THAT(test::io_error_of([] { read_mesh("part.3ds", "a hierarchy"); }),
              HasSubstr("part.3ds: unknown extension '.3ds' (expected .stl, .obj, .ply or .off, or "
                        "a hierarchy)"));
}

// A name without an extension (a pipe: /dev/stdin, a shell's <(...)) is read by its content: every
// format the writers make, a binary STL whose header starts with "solid" included; anything else is
// an error naming the formats.
TEST_F(ReadMesh, NameWithoutExtensionIsReadByContent) {
  const Mesh m = tetrahedron();
  std::string solid_header = format_stl_binary(m);
  solid_header.replace(0, 5, "solid");
  const std::pair<std::string, std::string> files[] = {
      {"obj", format_obj(m)},
      {"off", format_off(m)},
      {"ply_ascii", format_ply(m, PlyEncoding::ascii)},
      {"ply_binary", format_ply(m, PlyEncoding::binary_big_endian)},
      {"stl_ascii", format_stl_ascii(m)},
      {"stl_binary", format_stl_binary(m)},
      {"stl_binary_solid", solid_header},
      {"obj_comment", "# a comment\n" + format_obj(m)}};
  for (const auto& [name, text] : files) {
    write_file_atomic(path(name), text);
    const Mesh r = read_mesh(path(name));
    EXPECT_EQ(r.triangle_count(), 4u) << name;
    EXPECT_EQ(*std::max_element(r.z.begin(), r.z.end()), 1.0) << name;  // (STL keeps 12 corners)
  }
  EXPECT_EQ(sniff_mesh_format("  \n solid x\n facet"), MeshFormat::stl);
  EXPECT_EQ(sniff_mesh_format("OFF\n"), MeshFormat::off);
  EXPECT_EQ(sniff_mesh_format("ply\r\n"), MeshFormat::ply);
  EXPECT_EQ(sniff_mesh_format("v 1 2 3\n"), MeshFormat::obj);
  EXPECT_FALSE(sniff_mesh_format("").has_value());
  EXPECT_FALSE(sniff_mesh_format("pose_id,tx\n").has_value());
  write_file_atomic(path("notes"), "hello\n");
  EXPECT_EQ(read_error(path("notes")),
            path("notes") +
                ": no file extension, and the content is not STL, OBJ, PLY or OFF "
                "(expected .stl, .obj, .ply or .off)");
}

TEST_F(ReadMesh, FileErrors) {
  const std::string missing = path("missing.stl");
  EXPECT_EQ(read_error(missing), missing + ": cannot open (No such file or directory)");
  write_file_atomic(path("empty.obj"), "");
  EXPECT_EQ(read_error(path("empty.obj")), path("empty.obj") + ": empty file");
  std::filesystem::create_directories(path("folder.ply"));
  EXPECT_EQ(read_error(path("folder.ply")),
            path("folder.ply") + ": is a folder, expected a mesh file");
  // A folder without an extension is named a folder, not a name without an extension.
  std::filesystem::create_directories(path("meshes"));
  EXPECT_EQ(read_error(path("meshes")), path("meshes") + ": is a folder, expected a mesh file");
}

TEST_F(ReadMesh, ErrorsNameThePath) {
  write_file_atomic(path("bad.off"), "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n");
  EXPECT_EQ(read_error(path("bad.off")),
            path("bad.off") + ": line 6: face index 7 out of range (file has 3 vertices)");
}

// A whole mesh under 1e-30 is refused (geometry/coordinate_range.hpp: a mesh at 1e-157 gave false
// negatives with OBB and RSS), in every format; single tiny coordinates in a mesh of ordinary size
// (3.5e-32 from a sphere's sin(pi)) and a mesh of zeros are read.
TEST_F(ReadMesh, MeshesSmallerThanTheRangeAreRefused) {
  const std::string tiny = "v 0 0 0\nv 1e-157 0 0\nv 0 -2e-31 0\nf 1 2 3\n";
  EXPECT_EQ(test::io_error_of([&] { parse_mesh(tiny, MeshFormat::obj, "speck.obj"); }),
            "speck.obj: every coordinate is below 1e-30 in magnitude (the largest is 2e-31): kdop "
            "reads meshes that reach at least 1e-30 (scale the model up)");
  Mesh speck = tetrahedron();
  for (double& v : speck.x) v *= 0x1p-1000;
  for (double& v : speck.y) v *= 0x1p-1000;
  for (double& v : speck.z) v *= 0x1p-1000;
  write_file_atomic(path("speck.ply"), format_ply(speck, PlyEncoding::binary_little_endian));
  EXPECT_THAT(read_error(path("speck.ply")), HasSubstr("speck.ply: every coordinate is below"));
  write_file_atomic(path("speck.stl"), format_stl_binary(speck));  // floats: all 0 there
  EXPECT_EQ(read_mesh(path("speck.stl")).triangle_count(), 4u);
  EXPECT_EQ(parse_mesh("v 3.4691420382247109e-32 1 -1\nv 0 0 0\nv 1 0 0\nf 1 2 3\n",
                       MeshFormat::obj, "s.obj")
                .x[0],
            3.4691420382247109e-32);
  EXPECT_EQ(parse_mesh("v 0 0 0\nv 0 0 0\nv 0 0 -0\nf 1 2 3\n", MeshFormat::obj, "z.obj")
                .triangle_count(),
            1u);
  EXPECT_EQ(parse_mesh("v 1e-30 0 0\nv 0 0 0\nv 0 0 0\nf 1 2 3\n", MeshFormat::obj, "e.obj").x[0],
            1e-30);
}

}  // namespace
}  // namespace kdop
