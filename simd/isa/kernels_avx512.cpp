// The array-level SIMD kernels for the avx512 ISA. Compile flags: -mavx512f -mavx512cd -mavx512dq
// -mavx512bw -mavx512vl (this file only, in CMakeLists.txt).
#include "simd/kernel_loops.hpp"

namespace kdop::simd {

KernelTables kernel_tables_avx512() {
  return make_kernel_tables<xsimd::avx512bw>();
}

}  // namespace kdop::simd
