// libFuzzer target: the STL mesh reader, binary and ASCII (the reader tells them apart).
#include "fuzz/mesh_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kdop::fuzz::fuzz_mesh(data, size, kdop::MeshFormat::stl);
  return 0;
}
