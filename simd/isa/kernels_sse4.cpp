// The array-level SIMD kernels for the sse4 ISA. Compile flags: -msse4.2 (this file only,
// in CMakeLists.txt).
#include "simd/kernel_loops.hpp"

namespace kdop::simd {

KernelTables kernel_tables_sse4() {
  return make_kernel_tables<xsimd::sse4_2>();
}

}  // namespace kdop::simd
