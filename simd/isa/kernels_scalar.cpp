// The array-level SIMD kernels for the scalar ISA. Compile flags: none: the baseline x86-64 build,
// the reference (this file only, in CMakeLists.txt).
#include "simd/kernel_loops.hpp"

namespace kdop::simd {

KernelTables kernel_tables_scalar() {
  return make_kernel_tables<ScalarArch>();
}

}  // namespace kdop::simd
