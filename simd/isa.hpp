#pragma once
// The instruction sets kdop's kernels are compiled for, and which one a batch runs on.
//
// Kernels are templates on an architecture tag (simd/arch.hpp) and the engine instantiates its
// query once per ISA, each in a translation unit compiled with that ISA's flags
// (engine/isa/*.cpp). One binary runs on any x86-64: the choice is made at run time, once per
// batch, from the CPU's capabilities, or forced with the environment variable
// KDOP_ISA=scalar|sse4|avx2|avx512.
#include <optional>
#include <string>
#include <vector>

namespace kdop::simd {

enum class Isa {
  scalar,  // plain C++, the reference every other ISA must agree with bit for bit
  sse4,    // SSE4.2, 4 float lanes
  avx2,    // AVX2, 8 float lanes
  avx512,  // AVX-512 F/CD/DQ/BW, 16 float lanes
};

const char* to_string(Isa isa);
std::optional<Isa> parse_isa(const std::string& name);

// ISAs this CPU can run, from scalar up.
std::vector<Isa> supported_isas();

// The best supported ISA, unless KDOP_ISA names another one. Throws std::invalid_argument if
// KDOP_ISA is not a known name, or names an ISA this CPU cannot run.
Isa select_isa();

// `wanted` if this CPU supports it (else std::invalid_argument), or select_isa() if none.
Isa resolve_isa(const std::optional<Isa>& wanted);

}  // namespace kdop::simd
