// libFuzzer target: the PLY mesh reader (ASCII, binary little and big endian).
#include "fuzz/mesh_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kdop::fuzz::fuzz_mesh(data, size, kdop::MeshFormat::ply);
  return 0;
}
