// Every ISA's kernels against the scalar reference, bit for bit, on random and boundary inputs
// (touching intervals, padding lanes, slot counts that are not a multiple of the vector width).
#include "simd/kernel_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "geometry/dop.hpp"
#include "geometry/shapes.hpp"

namespace kdop::simd {
namespace {

float draw(std::uint64_t& rng, float lo, float hi) {
  return lo + (hi - lo) * static_cast<float>(next_uniform(rng));
}

// Values on a coarse grid, so equal endpoints (touching intervals) are frequent.
float grid(std::uint64_t& rng) {
  return static_cast<float>(static_cast<int>(next_uniform(rng) * 9)) * 0.25f - 1.0f;
}

template <int Lanes>
void check_slab_overlap(Isa isa) {
  const KernelTable<Lanes> ref = kernel_table<Lanes>(Isa::scalar);
  const KernelTable<Lanes> vec = kernel_table<Lanes>(isa);
  std::uint64_t rng = 7 + Lanes;
  const std::size_t n = 20000;
  std::vector<float> pairs(4 * Lanes * n);
  for (std::size_t i = 0; i < n; ++i) {
    float* p = pairs.data() + 4 * Lanes * i;
    // DOP b is DOP a with one random lane shifted by a grid step, so that one lane decides:
    // overlapping, touching (equal endpoints) or disjoint.
    const int padding_from = Lanes - static_cast<int>(next_uniform(rng) * 4);
    float* a = p;
    float* b = p + 2 * Lanes;
    for (int j = 0; j < Lanes; ++j) {
      const float u = grid(rng), v = grid(rng);
      a[j] = u < v ? u : v;
      a[Lanes + j] = u < v ? v : u;
      if (j >= padding_from) {
        a[j] = -std::numeric_limits<float>::infinity();
        a[Lanes + j] = std::numeric_limits<float>::infinity();
      }
      b[j] = a[j];
      b[Lanes + j] = a[Lanes + j];
    }
    const int lane = static_cast<int>(next_uniform(rng) * Lanes);
    const float shift = grid(rng) * 2;
    b[lane] += shift;
    b[Lanes + lane] += shift;
  }
  std::vector<std::uint8_t> expected(n), actual(n);
  ref.slab_overlap_pairs(pairs.data(), n, expected.data());
  vec.slab_overlap_pairs(pairs.data(), n, actual.data());
  std::size_t overlapping = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(actual[i], expected[i]) << to_string(isa) << " lanes " << Lanes << " pair " << i;
    overlapping += expected[i];
  }
  EXPECT_GT(overlapping, n / 50);  // both answers are exercised
  EXPECT_LT(overlapping, n - n / 50);
}

template <int Lanes>
void check_tumble(Isa isa) {
  const KernelTable<Lanes> ref = kernel_table<Lanes>(Isa::scalar);
  const KernelTable<Lanes> vec = kernel_table<Lanes>(isa);
  std::uint64_t rng = 11 + Lanes;
  SlabFrame<Lanes> frame;
  for (int j = 0; j < Lanes; ++j) {
    frame.mx[j] = draw(rng, -1.7f, 1.7f);
    frame.my[j] = draw(rng, -1.7f, 1.7f);
    frame.mz[j] = draw(rng, -1.7f, 1.7f);
    frame.c[j] = draw(rng, -1e3f, 1e3f);
  }
  std::vector<float> vx(4000), vy(4000), vz(4000);
  for (std::size_t i = 0; i < vx.size(); ++i) {
    vx[i] = draw(rng, -50, 50);
    vy[i] = draw(rng, -50, 50);
    vz[i] = draw(rng, -50, 50);
  }
  std::vector<std::uint32_t> first, count;
  for (std::uint32_t at = 0; at + 48 < vx.size();) {
    first.push_back(at);
    count.push_back(1 + static_cast<std::uint32_t>(next_uniform(rng) * 48));
    at += count.back();
  }
  // Nodes whose projections are +0 and -0 mixed (slab 0 sums the coordinates, the last slab
  // negates the sum, both with offset -0, which keeps the sign): which zero a minimum or maximum
  // keeps depends on the order of the reduction, which every ISA must share with the scalar
  // reference.
  for (const int j : {0, Lanes - 1}) {
    const float m = j == 0 ? 1.0f : -1.0f;
    frame.mx[j] = frame.my[j] = frame.mz[j] = m;
    frame.c[j] = -0.0f;
  }
  for (std::uint32_t i = 0, at = static_cast<std::uint32_t>(vx.size()); i < 64; ++i) {
    const float v = i % 3 == 0 ? 1.0f : i % 3 == 1 ? -0.0f : 0.0f;
    vx.push_back(v);
    vy.push_back(v);
    vz.push_back(v);
    if (i < 56) {
      first.push_back(at + i);
      count.push_back(1 + i % 8);
    }
  }
  std::vector<float> expected(2 * Lanes * first.size()), actual(expected.size());
  ref.tumble_nodes(frame, vx.data(), vy.data(), vz.data(), first.data(), count.data(), first.size(),
                   expected.data());
  vec.tumble_nodes(frame, vx.data(), vy.data(), vz.data(), first.data(), count.data(), first.size(),
                   actual.data());
  ASSERT_EQ(std::memcmp(expected.data(), actual.data(), expected.size() * sizeof(float)), 0)
      << to_string(isa) << " lanes " << Lanes;
}

// The wide layout: every ISA equals the scalar reference, and each mask bit equals the
// node-pair test of the same two DOPs.
template <int Lanes, int Slabs>
void check_wide(Isa isa) {
  const KernelTable<Lanes> ref = kernel_table<Lanes>(Isa::scalar);
  const KernelTable<Lanes> vec = kernel_table<Lanes>(isa);
  std::uint64_t rng = 31 + Lanes;
  const std::size_t n = 3000;
  std::vector<float> fly(2 * Lanes * n), blocks(16 * Slabs * n), pair(4 * Lanes);
  std::vector<float> env_dops(8 * 2 * Lanes * n);
  for (std::size_t i = 0; i < n; ++i) {
    float* f = fly.data() + 2 * Lanes * i;
    for (int j = 0; j < Lanes; ++j) {
      const float u = grid(rng), v = grid(rng);
      f[j] = j < Slabs ? (u < v ? u : v) : -std::numeric_limits<float>::infinity();
      f[Lanes + j] = j < Slabs ? (u < v ? v : u) : std::numeric_limits<float>::infinity();
    }
    for (int e = 0; e < 8; ++e) {
      float* d = env_dops.data() + (8 * i + e) * 2 * Lanes;
      for (int j = 0; j < Lanes; ++j) {
        const float shift = j == static_cast<int>(next_uniform(rng) * Slabs) ? grid(rng) * 2 : 0;
        d[j] = j < Slabs ? f[j] + shift : -std::numeric_limits<float>::infinity();
        d[Lanes + j] = j < Slabs ? f[Lanes + j] + shift : std::numeric_limits<float>::infinity();
        if (j < Slabs) {
          blocks[16 * Slabs * i + 16 * j + e] = d[j];
          blocks[16 * Slabs * i + 16 * j + 8 + e] = d[Lanes + j];
        }
      }
    }
  }
  std::vector<std::uint32_t> expected(n), actual(n);
  ref.slab_overlap_wide8(fly.data(), blocks.data(), n, expected.data());
  vec.slab_overlap_wide8(fly.data(), blocks.data(), n, actual.data());
  std::size_t overlapping = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(actual[i], expected[i]) << to_string(isa) << " lanes " << Lanes << " block " << i;
    for (int e = 0; e < 8; ++e) {
      std::copy_n(env_dops.data() + (8 * i + e) * 2 * Lanes, 2 * Lanes, pair.data());
      std::copy_n(fly.data() + 2 * Lanes * i, 2 * Lanes, pair.data() + 2 * Lanes);
      std::uint8_t one = 0;
      ref.slab_overlap_pairs(pair.data(), 1, &one);
      ASSERT_EQ((expected[i] >> e) & 1u, one)
          << "lanes " << Lanes << " block " << i << " lane " << e;
      overlapping += one;
    }
  }
  EXPECT_GT(overlapping, n);  // both answers exercised
  EXPECT_LT(overlapping, 8 * n - n);
}

void check_prefilter(Isa isa) {
  const KernelTable<4> ref = kernel_table<4>(Isa::scalar);
  const KernelTable<4> vec = kernel_table<4>(isa);
  std::uint64_t rng = 23;
  const std::uint32_t slots = 5000;
  // 0-2 box lo, 3-5 box hi, 6-14 corners (x0 y0 z0 x1 ...), 15-17 normal, 18 d_lo, 19 d_hi.
  std::vector<float> arrays[20];
  for (auto& a : arrays) a.resize(slots + 16);
  for (std::uint32_t s = 0; s < slots; ++s) {
    for (int a = 0; a < 3; ++a) {
      const float u = grid(rng), v = grid(rng);
      arrays[a][s] = u < v ? u : v;
      arrays[3 + a][s] = u < v ? v : u;
      arrays[15 + a][s] = draw(rng, -1, 1);
    }
    for (int k = 6; k < 15; ++k) arrays[k][s] = grid(rng);
    arrays[18][s] = draw(rng, -1, 0.5f);
    arrays[19][s] = arrays[18][s] + draw(rng, 0, 0.5f);
  }
  auto at = [&](int i) { return arrays[i].data(); };
  const PrefilterSlots f{{at(0), at(1), at(2)},
                         {at(3), at(4), at(5)},
                         {at(6), at(9), at(12)},
                         {at(7), at(10), at(13)},
                         {at(8), at(11), at(14)},
                         {at(15), at(16), at(17)},
                         at(18),
                         at(19)};
  std::vector<PrefilterTriangle> tris;
  std::vector<std::uint32_t> first, count;
  for (int i = 0; i < 3000; ++i) {
    PrefilterTriangle t{};
    for (int a = 0; a < 3; ++a) {
      const float u = grid(rng), v = grid(rng);
      t.lo[a] = u < v ? u : v;
      t.hi[a] = u < v ? v : u;
      t.n[a] = draw(rng, -1, 1);
      t.x[a] = grid(rng);
      t.y[a] = grid(rng);
      t.z[a] = grid(rng);
    }
    t.lower = draw(rng, -1, 0.5f);
    t.upper = t.lower + draw(rng, 0, 1);
    t.margin = draw(rng, 0, 0.1f);
    tris.push_back(t);
    const auto c = 1 + static_cast<std::uint32_t>(next_uniform(rng) * 64);
    first.push_back(static_cast<std::uint32_t>(next_uniform(rng) * (slots - c)));
    count.push_back(c);
  }
  std::vector<std::uint64_t> expected(tris.size()), actual(tris.size());
  ref.prefilter_many(tris.data(), f, first.data(), count.data(), tris.size(), expected.data());
  vec.prefilter_many(tris.data(), f, first.data(), count.data(), tris.size(), actual.data());
  std::size_t survivors = 0, tested = 0;
  for (std::size_t i = 0; i < tris.size(); ++i) {
    ASSERT_EQ(actual[i], expected[i]) << to_string(isa) << " triangle " << i;
    survivors += static_cast<std::size_t>(__builtin_popcountll(expected[i]));
    tested += count[i];
  }
  EXPECT_GT(survivors, tested / 100);
  EXPECT_LT(survivors, tested - tested / 50);
}

// Triangle pairs on the grid (so touching along an edge-pair axis is frequent) through the
// edge-pair axes' test (simd/triangle_edge_axes.hpp): every ISA agrees with the scalar reference;
// a separation is real, the corners' exact projections on the float axis (double) apart by more
// than |a|_1 * edge_margin; an infinite or NaN margin never separates.
void check_edge_axes(Isa isa) {
  const EdgeAxesMany ref = edge_axes_table(Isa::scalar), vec = edge_axes_table(isa);
  std::uint64_t rng = 29;
  const std::uint32_t slots = 3000;
  std::vector<float> corners[9];  // x0 y0 z0 x1 ...
  for (auto& a : corners) a.resize(slots);
  for (std::uint32_t s = 0; s < slots; ++s) {
    for (auto& a : corners) a[s] = grid(rng);
  }
  const std::vector<float> unused(slots, 0.0f);
  const float* u = unused.data();
  const PrefilterSlots f{{u, u, u},
                         {u, u, u},
                         {corners[0].data(), corners[3].data(), corners[6].data()},
                         {corners[1].data(), corners[4].data(), corners[7].data()},
                         {corners[2].data(), corners[5].data(), corners[8].data()},
                         {u, u, u},
                         u,
                         u};
  std::vector<PrefilterTriangle> tris(slots);
  std::vector<std::uint32_t> slot(slots);
  for (std::uint32_t i = 0; i < slots; ++i) {
    PrefilterTriangle& t = tris[i];
    for (int k = 0; k < 3; ++k) {
      t.x[k] = grid(rng);
      t.y[k] = grid(rng);
      t.z[k] = grid(rng);
    }
    t.edge_margin = i % 3 == 0   ? 0.0f
                    : i % 7 == 1 ? std::numeric_limits<float>::infinity()
                    : i % 7 == 2 ? std::numeric_limits<float>::quiet_NaN()
                                 : draw(rng, 0, 0.02f);
    slot[i] = static_cast<std::uint32_t>(next_uniform(rng) * slots);
  }
  std::vector<std::uint8_t> expected(slots), actual(slots);
  ref(tris.data(), f, slot.data(), slots, expected.data());
  vec(tris.data(), f, slot.data(), slots, actual.data());
  int separated = 0;
  for (std::uint32_t i = 0; i < slots; ++i) {
    ASSERT_EQ(actual[i], expected[i]) << to_string(isa) << " pair " << i;
    if (!expected[i]) continue;
    ++separated;
    const PrefilterTriangle& t = tris[i];
    ASSERT_TRUE(std::isfinite(t.edge_margin)) << "pair " << i;
    const EdgeAxesCorners e = with_edges(t.x, t.y, t.z), g = slot_corners(f, slot[i]);
    bool apart = false;
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) {
        const float ax = e.ey[a] * g.ez[b] - e.ez[a] * g.ey[b];
        const float ay = e.ez[a] * g.ex[b] - e.ex[a] * g.ez[b];
        const float az = e.ex[a] * g.ey[b] - e.ey[a] * g.ex[b];
        double lo_e = INFINITY, hi_e = -INFINITY, lo_f = INFINITY, hi_f = -INFINITY;
        for (int k = 0; k < 3; ++k) {
          const double pe = double{ax} * e.x[k] + double{ay} * e.y[k] + double{az} * e.z[k];
          const double pf = double{ax} * g.x[k] + double{ay} * g.y[k] + double{az} * g.z[k];
          lo_e = std::min(lo_e, pe), hi_e = std::max(hi_e, pe);
          lo_f = std::min(lo_f, pf), hi_f = std::max(hi_f, pf);
        }
        const double m =
            (double{std::fabs(ax)} + std::fabs(ay) + std::fabs(az)) * double{t.edge_margin};
        apart = apart || hi_e + m < lo_f || hi_f + m < lo_e;
      }
    }
    ASSERT_TRUE(apart) << "pair " << i << " separated without a separating axis";
  }
  EXPECT_GT(separated, static_cast<int>(slots / 20));
  EXPECT_LT(separated, static_cast<int>(slots - slots / 20));
}

// The first `slabs` of the 32-DOP's 16 directions (the 26-DOP's 13, |n|_1 of 1, 2 and 3, then
// three with a component 2), padding lanes zero.
template <int Lanes>
SlabDirections<Lanes> directions(int slabs) {
  SlabDirections<Lanes> out{};
  for (int j = 0; j < slabs; ++j) {
    const Direction n = DopShape<32>::directions()[j];
    out.nx[j] = static_cast<float>(n.x);
    out.ny[j] = static_cast<float>(n.y);
    out.nz[j] = static_cast<float>(n.z);
    out.l1[j] = static_cast<float>(std::abs(n.x) + std::abs(n.y) + std::abs(n.z));
  }
  return out;
}

// Triangles against DOPs (padding lanes [-inf, inf]) on the grid, so touching is frequent; every
// ISA agrees with the scalar reference, and a rejection is a real separation: the corners' exact
// projections (double) lie beyond the DOP by more than l1 * margin along some slab.
template <int Lanes>
void check_triangle_dop(Isa isa) {
  constexpr int slabs = Lanes == 4 ? 3 : Lanes == 8 ? 7 : Lanes == 12 ? 9 : 16;  // 16: K = 32
  const SlabDirections<Lanes> d = directions<Lanes>(slabs);
  const KernelTable<Lanes> ref = kernel_table<Lanes>(Isa::scalar);
  const KernelTable<Lanes> vec = kernel_table<Lanes>(isa);
  std::uint64_t rng = 31 + Lanes;
  const std::size_t n = 3000;
  std::vector<float> dops(2 * Lanes * n);
  std::vector<PrefilterTriangle> tris(n);
  for (std::size_t i = 0; i < n; ++i) {
    float* dop = dops.data() + 2 * Lanes * i;
    for (int j = 0; j < Lanes; ++j) {
      float a = grid(rng), b = grid(rng);
      if (a > b) std::swap(a, b);
      dop[j] = j < slabs ? d.l1[j] * a : -std::numeric_limits<float>::infinity();
      dop[Lanes + j] = j < slabs ? d.l1[j] * b : std::numeric_limits<float>::infinity();
    }
    PrefilterTriangle& t = tris[i];
    for (int k = 0; k < 3; ++k) {
      t.x[k] = grid(rng);
      t.y[k] = grid(rng);
      t.z[k] = grid(rng);
    }
    t.slab_margin = i % 3 == 0 ? 0.0f : draw(rng, 0, 0.3f);
  }
  std::vector<std::uint8_t> expected(n), actual(n);
  ref.triangle_dop_many(d, dops.data(), tris.data(), n, expected.data());
  vec.triangle_dop_many(d, dops.data(), tris.data(), n, actual.data());
  int rejected = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(actual[i], expected[i]) << to_string(isa) << " triangle " << i;
    if (expected[i]) continue;
    ++rejected;
    const float* dop = dops.data() + 2 * Lanes * i;
    const PrefilterTriangle& t = tris[i];
    bool separated = false;
    for (int j = 0; j < slabs; ++j) {
      double lo = INFINITY, hi = -INFINITY;
      for (int k = 0; k < 3; ++k) {
        const double p =
            double{d.nx[j]} * t.x[k] + double{d.ny[j]} * t.y[k] + double{d.nz[j]} * t.z[k];
        lo = std::min(lo, p), hi = std::max(hi, p);
      }
      const double m = double{d.l1[j]} * t.slab_margin;
      separated = separated || lo - m > dop[Lanes + j] || hi + m < dop[j];
    }
    ASSERT_TRUE(separated) << "triangle " << i << " rejected without a separating slab";
  }
  EXPECT_GT(rejected, static_cast<int>(n / 20));
  EXPECT_LT(rejected, static_cast<int>(n - n / 20));
}

// A DOP on the grid over `slabs` slabs (padding lanes: [-inf, inf]), into dop[0, 2 Lanes).
template <int Lanes>
void grid_dop(std::uint64_t& rng, int slabs, float* dop) {
  for (int j = 0; j < Lanes; ++j) {
    float a = grid(rng), b = grid(rng);
    if (a > b) std::swap(a, b);
    dop[j] = j < slabs ? a : -std::numeric_limits<float>::infinity();
    dop[Lanes + j] = j < slabs ? b : std::numeric_limits<float>::infinity();
  }
}

// A frame of world directions and offsets on the grid, with a margin of (trial - 1) / 4 (none in
// trials 0 and 1).
template <int Lanes>
BoxDopFrame<Lanes> grid_box_frame(std::uint64_t& rng, int slabs, int trial) {
  BoxDopFrame<Lanes> f{};
  for (int j = 0; j < slabs; ++j) {
    f.wx[j] = grid(rng), f.wy[j] = grid(rng), f.wz[j] = grid(rng);
    const float o = grid(rng), m = trial == 0 ? 0.0f : 0.25f * static_cast<float>(trial - 1);
    f.off_lo[j] = o - m;
    f.off_hi[j] = o + m;
  }
  return f;
}

// Boxes against DOPs through a frame of world directions and offsets (simd/box_against_dop.hpp),
// all on the grid, so every product and sum is exact in float and touching is frequent: every ISA
// agrees with the scalar reference, and a rejection is a real separation, the box's exact span
// along some slab beyond the DOP's interval shifted by the offsets.
template <int Lanes>
void check_box_dop(Isa isa) {
  constexpr int slabs = Lanes == 4 ? 3 : Lanes == 8 ? 7 : Lanes == 12 ? 9 : 16;  // 16: K = 32
  const KernelTable<Lanes> ref = kernel_table<Lanes>(Isa::scalar);
  const KernelTable<Lanes> vec = kernel_table<Lanes>(isa);
  std::uint64_t rng = 41 + Lanes;
  const std::size_t n = 3000;
  std::vector<float> boxes(6 * n), dops(2 * Lanes * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) {
      float u = grid(rng), v = grid(rng);
      if (u > v) std::swap(u, v);
      boxes[6 * i + a] = u;
      boxes[6 * i + 3 + a] = v;
    }
    grid_dop<Lanes>(rng, slabs, dops.data() + 2 * Lanes * i);
  }
  int rejected = 0;
  for (int trial = 0; trial < 4; ++trial) {
    const BoxDopFrame<Lanes> f = grid_box_frame<Lanes>(rng, slabs, trial);
    std::vector<std::uint8_t> expected(n), actual(n);
    ref.box_dop_many(f, boxes.data(), dops.data(), n, expected.data());
    vec.box_dop_many(f, boxes.data(), dops.data(), n, actual.data());
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(actual[i], expected[i]) << to_string(isa) << " trial " << trial << " box " << i;
      if (expected[i]) continue;
      ++rejected;
      const float* lo = boxes.data() + 6 * i;
      const float* hi = lo + 3;
      const float* dop = dops.data() + 2 * Lanes * i;
      bool separated = false;
      for (int j = 0; j < slabs; ++j) {
        const double w[3] = {f.wx[j], f.wy[j], f.wz[j]};
        double span_lo = 0, span_hi = 0;
        for (int a = 0; a < 3; ++a) {
          span_lo += std::min(w[a] * lo[a], w[a] * hi[a]);
          span_hi += std::max(w[a] * lo[a], w[a] * hi[a]);
        }
        separated = separated || span_lo > double{dop[Lanes + j]} + f.off_hi[j] ||
                    span_hi < double{dop[j]} + f.off_lo[j];
      }
      ASSERT_TRUE(separated) << "box " << i << " rejected without a separating slab";
    }
  }
  EXPECT_GT(rejected, static_cast<int>(4 * n / 20));
  EXPECT_LT(rejected, static_cast<int>(4 * n - 4 * n / 20));
  // Never a rejection through an infinity or a NaN: infinite offsets (the frame's answer to
  // magnitudes beyond float's range), or a box spanning everything (0 * inf is NaN where w has a
  // zero component).
  constexpr float inf = std::numeric_limits<float>::infinity();
  BoxDopFrame<Lanes> open{};
  for (int j = 0; j < slabs; ++j) {
    open.wx[j] = grid(rng), open.wy[j] = 0, open.wz[j] = grid(rng);
    open.off_lo[j] = -inf;
    open.off_hi[j] = inf;
  }
  std::vector<float> everything(6 * n);
  for (std::size_t i = 0; i < 6 * n; ++i) everything[i] = i % 6 < 3 ? -inf : inf;
  BoxDopFrame<Lanes> finite = open;
  for (int j = 0; j < slabs; ++j) finite.off_lo[j] = finite.off_hi[j] = grid(rng);
  const auto all_pass = [&](const BoxDopFrame<Lanes>& f, const std::vector<float>& b) {
    std::vector<std::uint8_t> ref_out(n), vec_out(n);
    ref.box_dop_many(f, b.data(), dops.data(), n, ref_out.data());
    vec.box_dop_many(f, b.data(), dops.data(), n, vec_out.data());
    for (std::size_t i = 0; i < n; ++i) {
      if (!ref_out[i] || !vec_out[i]) return false;
    }
    return true;
  };
  EXPECT_TRUE(all_pass(open, boxes)) << to_string(isa) << ": infinite offsets";
  EXPECT_TRUE(all_pass(finite, everything)) << to_string(isa) << ": boxes spanning everything";
}

// World triangles against DOPs through the same frame (simd/box_against_dop.hpp), on the grid
// as above: every ISA agrees with the scalar reference, a rejection is a real separation (the
// corners' exact projections beyond the shifted interval along some slab), and infinite offsets
// never reject. Then full-mantissa values, where every product and sum rounds: every ISA must
// still agree bit for bit (the same operations in the same order, no contraction).
template <int Lanes>
void check_world_triangle_dop(Isa isa) {
  constexpr int slabs = Lanes == 4 ? 3 : Lanes == 8 ? 7 : Lanes == 12 ? 9 : 16;  // 16: K = 32
  const KernelTable<Lanes> ref = kernel_table<Lanes>(Isa::scalar);
  const KernelTable<Lanes> vec = kernel_table<Lanes>(isa);
  std::uint64_t rng = 53 + Lanes;
  const std::size_t n = 3000;
  std::vector<float> corners(9 * n), dops(2 * Lanes * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 9; ++c) corners[9 * i + c] = grid(rng);
    grid_dop<Lanes>(rng, slabs, dops.data() + 2 * Lanes * i);
  }
  int rejected = 0;
  for (int trial = 0; trial < 4; ++trial) {
    const BoxDopFrame<Lanes> f = grid_box_frame<Lanes>(rng, slabs, trial);
    std::vector<std::uint8_t> expected(n), actual(n);
    ref.world_triangle_dop_many(f, corners.data(), dops.data(), n, expected.data());
    vec.world_triangle_dop_many(f, corners.data(), dops.data(), n, actual.data());
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(actual[i], expected[i])
          << to_string(isa) << " trial " << trial << " triangle " << i;
      if (expected[i]) continue;
      ++rejected;
      const float* c = corners.data() + 9 * i;
      const float* dop = dops.data() + 2 * Lanes * i;
      bool separated = false;
      for (int j = 0; j < slabs; ++j) {
        double lo = INFINITY, hi = -INFINITY;
        for (int k = 0; k < 3; ++k) {
          const double p = double{f.wx[j]} * c[3 * k] + double{f.wy[j]} * c[3 * k + 1] +
                           double{f.wz[j]} * c[3 * k + 2];
          lo = std::min(lo, p), hi = std::max(hi, p);
        }
        separated = separated || lo > double{dop[Lanes + j]} + f.off_hi[j] ||
                    hi < double{dop[j]} + f.off_lo[j];
      }
      ASSERT_TRUE(separated) << "triangle " << i << " rejected without a separating slab";
    }
  }
  EXPECT_GT(rejected, static_cast<int>(4 * n / 20));
  EXPECT_LT(rejected, static_cast<int>(4 * n - 4 * n / 50));  // 16 slabs part about 95%
  BoxDopFrame<Lanes> open{};
  for (int j = 0; j < slabs; ++j) {
    open.wx[j] = grid(rng), open.wy[j] = grid(rng), open.wz[j] = grid(rng);
    open.off_lo[j] = -std::numeric_limits<float>::infinity();
    open.off_hi[j] = std::numeric_limits<float>::infinity();
  }
  std::vector<std::uint8_t> ref_out(n), vec_out(n);
  ref.world_triangle_dop_many(open, corners.data(), dops.data(), n, ref_out.data());
  vec.world_triangle_dop_many(open, corners.data(), dops.data(), n, vec_out.data());
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(ref_out[i] && vec_out[i]) << to_string(isa) << ": infinite offsets, triangle " << i;
  }
  // Full-mantissa corners and directions, each triangle's DOP touching it along one slab: its
  // bound there is the corners' extreme projection as the scalar reference rounds it, every other
  // slab open. The reference passes them all; a kernel that rounded in another order (or fused a
  // multiply-add) would be off by an ulp in about half the cases, and then part some.
  constexpr float inf = std::numeric_limits<float>::infinity();
  BoxDopFrame<Lanes> rounding{};
  for (int j = 0; j < slabs; ++j) {
    rounding.wx[j] = draw(rng, -1, 1), rounding.wy[j] = draw(rng, -1, 1);
    rounding.wz[j] = draw(rng, -1, 1);
  }
  for (std::size_t i = 0; i < 9 * n; ++i) corners[i] = draw(rng, -3, 3);
  for (std::size_t i = 0; i < n; ++i) {
    float* dop = dops.data() + 2 * Lanes * i;
    for (int j = 0; j < Lanes; ++j) dop[j] = -inf, dop[Lanes + j] = inf;
    const int j = static_cast<int>(i % slabs);
    const float* c = corners.data() + 9 * i;
    float lo = inf, hi = -inf;
    for (int k = 0; k < 3; ++k) {
      const float p = (rounding.wx[j] * c[3 * k] + rounding.wy[j] * c[3 * k + 1]) +
                      rounding.wz[j] * c[3 * k + 2];
      lo = std::min(lo, p), hi = std::max(hi, p);
    }
    if (i % 2 == 0) {
      dop[Lanes + j] = lo;  // the DOP ends where the triangle starts
    } else {
      dop[j] = hi;
    }
  }
  ref.world_triangle_dop_many(rounding, corners.data(), dops.data(), n, ref_out.data());
  vec.world_triangle_dop_many(rounding, corners.data(), dops.data(), n, vec_out.data());
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(ref_out[i]) << "the scalar reference parts touching triangle " << i;
    ASSERT_TRUE(vec_out[i]) << to_string(isa) << ": rounding, triangle " << i;
  }
}

// The affine re-alignment: random frames (indices anywhere in the node's 2 Lanes floats, weights
// of either sign, offsets, pads) and nodes, the last node at the end of its array so that a load
// past it would be caught by the sanitizers; padding lanes as the engine fills them.
template <int Lanes>
void check_tumble_affine(Isa isa) {
  const KernelTable<Lanes> ref = kernel_table<Lanes>(Isa::scalar);
  const KernelTable<Lanes> vec = kernel_table<Lanes>(isa);
  std::uint64_t rng = 77 + Lanes;
  for (int round = 0; round < 20; ++round) {
    AffineFrame<Lanes> f;
    const int real = round % 2 == 0 ? Lanes : Lanes - 3;  // lanes past `real`: padding
    for (int j = 0; j < Lanes; ++j) {
      for (int k = 0; k < 3; ++k) {
        const bool pad = j >= real;
        f.hi_at[k][j] = pad ? 0 : static_cast<std::int32_t>(next_uniform(rng) * 2 * Lanes);
        f.lo_at[k][j] = pad ? 0 : static_cast<std::int32_t>(next_uniform(rng) * 2 * Lanes);
        f.hi_w[k][j] = pad ? 0.0f : draw(rng, -2, 2);
        f.lo_w[k][j] = pad ? 0.0f : draw(rng, -2, 2);
      }
      const float inf = std::numeric_limits<float>::infinity();
      f.c[j] = j >= real ? 0.0f : draw(rng, -100, 100);
      f.hi_pad[j] = j >= real ? inf : draw(rng, 0, 1e-3f);
      f.lo_pad[j] = j >= real ? inf : draw(rng, 0, 1e-3f);
    }
    const std::size_t n = 17;
    std::vector<float> nodes(2 * Lanes * n);
    for (float& v : nodes) v = draw(rng, -50, 50);
    std::vector<float> expected(nodes.size()), actual(nodes.size());
    ref.tumble_affine_many(f, nodes.data(), n, expected.data());
    vec.tumble_affine_many(f, nodes.data(), n, actual.data());
    ASSERT_EQ(std::memcmp(expected.data(), actual.data(), expected.size() * sizeof(float)), 0)
        << to_string(isa) << " lanes " << Lanes << " round " << round;
    for (std::size_t i = 0; i < n; ++i) {
      for (int j = real; j < Lanes; ++j) {
        ASSERT_EQ(actual[2 * Lanes * i + j], -std::numeric_limits<float>::infinity());
        ASSERT_EQ(actual[2 * Lanes * i + Lanes + j], std::numeric_limits<float>::infinity());
      }
    }
  }
}

TEST(Kernels, EveryIsaMatchesTheScalarReference) {
  const std::vector<Isa> isas = supported_isas();
  ASSERT_EQ(isas.front(), Isa::scalar);
  for (Isa isa : isas) {
    SCOPED_TRACE(to_string(isa));
    check_slab_overlap<4>(isa);
    check_slab_overlap<8>(isa);
    check_slab_overlap<12>(isa);
    check_slab_overlap<16>(isa);
    check_tumble<4>(isa);
    check_tumble<8>(isa);
    check_tumble<12>(isa);
    check_tumble<16>(isa);
    check_wide<4, 3>(isa);
    check_wide<8, 7>(isa);
    check_wide<12, 9>(isa);
    check_wide<16, 13>(isa);
    check_prefilter(isa);
    check_edge_axes(isa);
    check_triangle_dop<4>(isa);
    check_triangle_dop<8>(isa);
    check_triangle_dop<12>(isa);
    check_triangle_dop<16>(isa);
    check_box_dop<4>(isa);
    check_box_dop<8>(isa);
    check_box_dop<12>(isa);
    check_box_dop<16>(isa);
    check_world_triangle_dop<4>(isa);
    check_world_triangle_dop<8>(isa);
    check_world_triangle_dop<12>(isa);
    check_world_triangle_dop<16>(isa);
    check_tumble_affine<4>(isa);
    check_tumble_affine<8>(isa);
    check_tumble_affine<12>(isa);
    check_tumble_affine<16>(isa);
  }
  // Say which ISAs ran, so a log shows what this machine could check.
  std::string ran;
  for (Isa isa : isas) ran += std::string(" ") + to_string(isa);
  RecordProperty("isas", ran);
  std::printf("kernels checked on:%s\n", ran.c_str());
}

TEST(Isa, NamesRoundTripAndUnknownIsRejected) {
  for (Isa isa : {Isa::scalar, Isa::sse4, Isa::avx2, Isa::avx512}) {
    EXPECT_EQ(parse_isa(to_string(isa)), isa);
  }
  EXPECT_FALSE(parse_isa("avx3").has_value());
  EXPECT_EQ(parse_isa("AVX2"), Isa::avx2);  // any case
  EXPECT_EQ(parse_isa("Scalar"), Isa::scalar);
}

}  // namespace
}  // namespace kdop::simd
