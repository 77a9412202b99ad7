// The array-level SIMD kernels for the avx2 ISA. Compile flags: -mavx2 (no -mfma) (this file only,
// in CMakeLists.txt).
#include "simd/kernel_loops.hpp"

namespace kdop::simd {

KernelTables kernel_tables_avx2() {
  return make_kernel_tables<xsimd::avx2>();
}

}  // namespace kdop::simd
