#pragma once
// A JSON document read with key paths for error messages, shared by the scene and trajectory
// readers. nlohmann-json alone keeps only the last of two equal keys in an object, silently, and
// reports a number beyond double's range without saying where; parse() follows the parser's
// events to reject duplicate keys and to name the key path ("objects[2].pose[3]") of such a
// number, and path_component/path_index let the readers name values the same way.
// The DOM is ordered, so objects keep file order and messages follow it.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kdop::json {

using Json = nlohmann::ordered_json;

// The whole file at `path`; IoError if it cannot be read or holds more than `max_bytes`
// (then with the message `too_large`).
std::string read_text_file(const std::string& path, std::uint64_t max_bytes,
                           const std::string& too_large);

// Bytes outside printable ASCII as \xNN, so a message stays one readable line.
std::string printable(std::string_view s);

// A value as it reads in JSON, for a message: one line, shortened past 60 characters.
std::string shown(const Json& value);

// Arrays and objects nested deeper than this are refused (with the byte where it happens).
inline constexpr std::size_t kMaxJsonDepth = 256;

// A key as a JSON path component: plain after a '.' when it is a simple word, else ['quoted'].
std::string path_component(const std::string& parent, const std::string& key);

// An array element as a JSON path component: parent[index].
std::string path_index(const std::string& parent, std::size_t index);

// The shortest text that reads back as v ("0.1", not "0.10000000000000001"), in plain digits
// for everyday magnitudes ("100000", not "1e+05"): numbers in messages.
std::string format_number(double v);

// Parses `text` (named `file` in messages); IoError on a syntax error (with its byte offset), a
// duplicate key (with its key path), a number beyond double's range (with both) or nesting past
// kMaxJsonDepth (with its byte offset).
Json parse(std::string_view text, const std::string& file);

// The checks a reader makes of the values of one file. Each failure throws IoError in `file` with
// the message "path: what" (just "what" at the top level, where the path is "").
struct Checks {
  const std::string& file;

  [[noreturn]] void fail(const std::string& path, const std::string& what) const;

  // value as a finite number.
  double number(const Json& value, const std::string& path) const;

  // entry[key], which must be there.
  const Json& required(const Json& entry, const std::string& path, const char* key) const;

  // entry must be an object holding only the allowed keys.
  void check_keys(const Json& entry, const std::string& path,
                  std::initializer_list<const char*> allowed) const;
};

}  // namespace kdop::json
