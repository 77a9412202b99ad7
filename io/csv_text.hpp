#pragma once
// Writing CSV fields: numbers with std::to_chars (no locale, no iostream state), text quoted as
// RFC 4180 says. Shared by the batch results (io/result_file.hpp) and path reports
// (io/path_report.hpp).
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace kdop::csv {

// `s` as one field: quoted (with '"' doubled) when it holds ',', '"' or a line break.
inline void put_field(std::string& out, std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += s;
    return;
  }
  out += '"';
  for (char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  out += '"';
}

inline void put_uint(std::string& out, std::uint64_t v) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

// 17 significant digits (round-trip exact); `missing` for NaN and Inf.
inline void put_double(std::string& out, double v, std::string_view missing = {}) {
  if (!std::isfinite(v)) {
    out += missing;
    return;
  }
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 17);
  out.append(buf, end);
}

// 3 decimals (times in microseconds); `missing` for NaN and Inf.
inline void put_fixed3(std::string& out, double v, std::string_view missing = {}) {
  if (!std::isfinite(v)) {
    out += missing;
    return;
  }
  char buf[400];  // DBL_MAX in fixed notation needs 309 digits before the point
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
  out.append(buf, end);
}

}  // namespace kdop::csv
