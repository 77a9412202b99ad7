#include "simd/isa.hpp"

#include <cctype>
#include <cstdlib>
#include <stdexcept>

namespace kdop::simd {

const char* to_string(Isa isa) {
  switch (isa) {
    case Isa::scalar:
      return "scalar";
    case Isa::sse4:
      return "sse4";
    case Isa::avx2:
      return "avx2";
    case Isa::avx512:
      return "avx512";
  }
  return "?";
}

std::optional<Isa> parse_isa(const std::string& name) {
  // Any case: KDOP_ISA=AVX2 is as clear as avx2.
  std::string lower = name;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (Isa isa : {Isa::scalar, Isa::sse4, Isa::avx2, Isa::avx512}) {
    if (lower == to_string(isa)) return isa;
  }
  return std::nullopt;
}

std::vector<Isa> supported_isas() {
  std::vector<Isa> isas{Isa::scalar};
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("sse4.2")) isas.push_back(Isa::sse4);
  if (__builtin_cpu_supports("avx2")) isas.push_back(Isa::avx2);
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl")) {
    isas.push_back(Isa::avx512);
  }
#endif
  return isas;
}

Isa select_isa() {
  const std::vector<Isa> supported = supported_isas();
  const char* forced = std::getenv("KDOP_ISA");
  if (forced == nullptr || *forced == '\0') return supported.back();
  const std::optional<Isa> isa = parse_isa(forced);
  if (!isa) {
    throw std::invalid_argument(std::string("KDOP_ISA=") + forced +
                                ": expected scalar, sse4, avx2 or avx512");
  }
  for (Isa s : supported) {
    if (s == *isa) return s;
  }
  throw std::invalid_argument(std::string("KDOP_ISA=") + forced + ": this CPU does not support it");
}

Isa resolve_isa(const std::optional<Isa>& wanted) {
  if (!wanted) return select_isa();
  for (Isa s : supported_isas()) {
    if (s == *wanted) return s;
  }
  throw std::invalid_argument(std::string("this CPU does not support the ") + to_string(*wanted) +
                              " ISA");
}

}  // namespace kdop::simd
