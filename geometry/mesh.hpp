#pragma once
// A triangle mesh ("polygon soup") as structure-of-arrays: vertex coordinates kept as read
// (double), plus uint32 index triples. Triangle i is (a[i], b[i], c[i]); indices are 0-based
// into x/y/z. Degenerate and duplicate triangles are legal and kept: triangle indices are the
// caller's identity for a face (file order, polygons fanned into n-2 consecutive triangles).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kdop {

struct Mesh {
  std::vector<double> x, y, z;         // vertex coordinates
  std::vector<std::uint32_t> a, b, c;  // triangle corner indices

  std::size_t vertex_count() const { return x.size(); }
  std::size_t triangle_count() const { return a.size(); }

  std::uint32_t add_vertex(double px, double py, double pz) {
    x.push_back(px);
    y.push_back(py);
    z.push_back(pz);
    return static_cast<std::uint32_t>(x.size() - 1);
  }
  void add_triangle(std::uint32_t i, std::uint32_t j, std::uint32_t k) {
    a.push_back(i);
    b.push_back(j);
    c.push_back(k);
  }
};

}  // namespace kdop
