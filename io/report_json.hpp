#pragma once
// JSON pieces shared by the report writers (io/path_report.cpp, io/nc_report.cpp): numbers that
// may be non-finite, and arrays written one element per line so long reports stay readable and
// diff well.
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

namespace kdop::report_json {

using Json = nlohmann::ordered_json;

// Non-finite numbers have no JSON spelling: null, like a value that was not computed.
inline Json number(double v) {
  return std::isfinite(v) ? Json(v) : Json(nullptr);
}

inline Json name_or_null(const std::string& s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

// `  "key": [` then one element per line, then `  ],` (or `[],` when empty).
inline void put_array(std::string& out, const char* key, const Json& items) {
  out += "  \"";
  out += key;
  out += "\": [";
  bool first = true;
  for (const Json& item : items) {
    out += first ? "\n    " : ",\n    ";
    out += item.dump(-1, ' ', false, Json::error_handler_t::replace);
    first = false;
  }
  out += first ? "],\n" : "\n  ],\n";
}

}  // namespace kdop::report_json
