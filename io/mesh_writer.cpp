// Mesh writers. Text coordinates use std::to_chars' shortest representation: it never needs
// more than 17 significant digits and always reads back to the same double, while 1.0 stays
// "1" instead of "1.0000000000000000".
#include "io/mesh_writer.hpp"

#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "io/io_error.hpp"

namespace kdop {
namespace {

void put(std::string& out, double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

void put(std::string& out, std::uint64_t v) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

void put_xyz(std::string& out, const Mesh& mesh, std::uint32_t i) {
  put(out, mesh.x[i]);
  out += ' ';
  put(out, mesh.y[i]);
  out += ' ';
  put(out, mesh.z[i]);
}

template <class U>
void put_binary(std::string& out, U v, bool big_endian) {
  for (std::size_t i = 0; i < sizeof v; ++i) {
    const std::size_t shift = 8 * (big_endian ? sizeof v - 1 - i : i);
    out += static_cast<char>((v >> shift) & 0xFF);
  }
}

// Unit normal of triangle t (zero for a degenerate triangle), for the STL facet records.
void facet_normal(const Mesh& m, std::size_t t, double n[3]) {
  const std::uint32_t a = m.a[t], b = m.b[t], c = m.c[t];
  const double ux = m.x[b] - m.x[a], uy = m.y[b] - m.y[a], uz = m.z[b] - m.z[a];
  const double vx = m.x[c] - m.x[a], vy = m.y[c] - m.y[a], vz = m.z[c] - m.z[a];
  n[0] = uy * vz - uz * vy;
  n[1] = uz * vx - ux * vz;
  n[2] = ux * vy - uy * vx;
  const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int d = 0; d < 3; ++d) n[d] = len > 0 && std::isfinite(len) ? n[d] / len : 0.0;
}

void check_fits_u32(std::size_t count, const char* what) {
  if (count > std::numeric_limits<std::uint32_t>::max()) {
    throw IoError(std::string("cannot write ") + what + ": more than 2^32-1 triangles");
  }
}

}  // namespace

std::string format_stl_ascii(const Mesh& mesh) {
  std::string out = "solid kdop\n";
  const std::uint32_t* corners[3] = {mesh.a.data(), mesh.b.data(), mesh.c.data()};
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    double n[3];
    facet_normal(mesh, t, n);
    out += "facet normal ";
    put(out, n[0]);
    out += ' ';
    put(out, n[1]);
    out += ' ';
    put(out, n[2]);
    out += "\n outer loop\n";
    for (const std::uint32_t* corner : corners) {
      out += "  vertex ";
      put_xyz(out, mesh, corner[t]);
      out += '\n';
    }
    out += " endloop\nendfacet\n";
  }
  out += "endsolid kdop\n";
  return out;
}

std::string format_stl_binary(const Mesh& mesh) {
  check_fits_u32(mesh.triangle_count(), "binary STL");
  // The header must not start with "solid", or weaker readers take the file for ASCII.
  std::string out = "binary STL written by kdop";
  out.resize(80, ' ');
  out.reserve(84 + 50 * mesh.triangle_count());
  put_binary(out, static_cast<std::uint32_t>(mesh.triangle_count()), false);
  auto put_f32 = [&](double v) {
    put_binary(out, std::bit_cast<std::uint32_t>(static_cast<float>(v)), false);
  };
  const std::uint32_t* corners[3] = {mesh.a.data(), mesh.b.data(), mesh.c.data()};
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    double n[3];
    facet_normal(mesh, t, n);
    for (double v : n) put_f32(v);
    for (const std::uint32_t* corner : corners) {
      put_f32(mesh.x[corner[t]]);
      put_f32(mesh.y[corner[t]]);
      put_f32(mesh.z[corner[t]]);
    }
    put_binary(out, std::uint16_t{0}, false);  // attribute byte count
  }
  return out;
}

std::string format_obj(const Mesh& mesh) {
  std::string out = "# written by kdop\n";
  for (std::uint32_t i = 0; i < mesh.vertex_count(); ++i) {
    out += "v ";
    put_xyz(out, mesh, i);
    out += '\n';
  }
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    out += "f ";
    put(out, std::uint64_t{mesh.a[t]} + 1);
    out += ' ';
    put(out, std::uint64_t{mesh.b[t]} + 1);
    out += ' ';
    put(out, std::uint64_t{mesh.c[t]} + 1);
    out += '\n';
  }
  return out;
}

std::string format_off(const Mesh& mesh) {
  std::string out = "OFF\n";
  put(out, std::uint64_t{mesh.vertex_count()});
  out += ' ';
  put(out, std::uint64_t{mesh.triangle_count()});
  out += " 0\n";
  for (std::uint32_t i = 0; i < mesh.vertex_count(); ++i) {
    put_xyz(out, mesh, i);
    out += '\n';
  }
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    out += "3 ";
    put(out, std::uint64_t{mesh.a[t]});
    out += ' ';
    put(out, std::uint64_t{mesh.b[t]});
    out += ' ';
    put(out, std::uint64_t{mesh.c[t]});
    out += '\n';
  }
  return out;
}

std::string format_ply(const Mesh& mesh, PlyEncoding encoding) {
  std::string out = "ply\nformat ";
  out += encoding == PlyEncoding::ascii                  ? "ascii"
         : encoding == PlyEncoding::binary_little_endian ? "binary_little_endian"
                                                         : "binary_big_endian";
  out += " 1.0\ncomment written by kdop\nelement vertex ";
  put(out, std::uint64_t{mesh.vertex_count()});
  // double coordinates keep every bit of the mesh; uint indices match the mesh's own.
  out += "\nproperty double x\nproperty double y\nproperty double z\nelement face ";
  put(out, std::uint64_t{mesh.triangle_count()});
  out += "\nproperty list uchar uint vertex_indices\nend_header\n";
  const std::uint32_t* corners[3] = {mesh.a.data(), mesh.b.data(), mesh.c.data()};
  if (encoding == PlyEncoding::ascii) {
    for (std::uint32_t i = 0; i < mesh.vertex_count(); ++i) {
      put_xyz(out, mesh, i);
      out += '\n';
    }
    for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
      out += '3';
      for (const std::uint32_t* corner : corners) {
        out += ' ';
        put(out, std::uint64_t{corner[t]});
      }
      out += '\n';
    }
    return out;
  }
  const bool big = encoding == PlyEncoding::binary_big_endian;
  out.reserve(out.size() + 24 * mesh.vertex_count() + 13 * mesh.triangle_count());
  for (std::uint32_t i = 0; i < mesh.vertex_count(); ++i) {
    put_binary(out, std::bit_cast<std::uint64_t>(mesh.x[i]), big);
    put_binary(out, std::bit_cast<std::uint64_t>(mesh.y[i]), big);
    put_binary(out, std::bit_cast<std::uint64_t>(mesh.z[i]), big);
  }
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    out += static_cast<char>(3);
    for (const std::uint32_t* corner : corners) put_binary(out, corner[t], big);
  }
  return out;
}

}  // namespace kdop
