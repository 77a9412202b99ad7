#include "simd/kernel_table.hpp"

namespace kdop::simd {

// Defined in simd/isa/kernels_*.cpp, one per ISA.
KernelTables kernel_tables_scalar();
KernelTables kernel_tables_sse4();
KernelTables kernel_tables_avx2();
KernelTables kernel_tables_avx512();

namespace {

KernelTables kernel_tables(Isa isa) {
  return isa == Isa::sse4     ? kernel_tables_sse4()
         : isa == Isa::avx2   ? kernel_tables_avx2()
         : isa == Isa::avx512 ? kernel_tables_avx512()
                              : kernel_tables_scalar();
}

}  // namespace

BoxSeparationMany box_separation_table(Isa isa) {
  return kernel_tables(isa).box_separation_many;
}

EdgeAxesMany edge_axes_table(Isa isa) {
  return kernel_tables(isa).edge_axes_many;
}

template <int Lanes>
KernelTable<Lanes> kernel_table(Isa isa) {
  const KernelTables t = kernel_tables(isa);
  if constexpr (Lanes == 4) return t.lanes4;
  if constexpr (Lanes == 8) return t.lanes8;
  if constexpr (Lanes == 12) return t.lanes12;
  if constexpr (Lanes == 16) return t.lanes16;
}

template KernelTable<4> kernel_table<4>(Isa);
template KernelTable<8> kernel_table<8>(Isa);
template KernelTable<12> kernel_table<12>(Isa);
template KernelTable<16> kernel_table<16>(Isa);

}  // namespace kdop::simd
