#include "io/json_document.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <unordered_set>
#include <vector>

#include "io/io_error.hpp"
#include "io/text_scanner.hpp"

namespace kdop::json {
namespace {

namespace fs = std::filesystem;

// Follows the parser's events to know the JSON path of the value being read, and rejects a
// key that appears twice in one object.
class PathTracker {
 public:
  explicit PathTracker(const std::string& file) : file_(file) {}

  bool on_event(Json::parse_event_t event, const Json& parsed) {
    using E = Json::parse_event_t;
    switch (event) {
      case E::object_start:
      case E::array_start:
        frames_.emplace_back().array = event == E::array_start;
        break;
      case E::key: {
        Frame& top = frames_.back();
        top.key = parsed.get<std::string>();
        if (!top.keys.insert(top.key).second) {
          throw IoError::in_file(file_, path() + ": duplicate key " + text::quote(top.key));
        }
        break;
      }
      case E::object_end:
      case E::array_end:
        frames_.pop_back();
        element_done();
        break;
      case E::value:
        element_done();
        break;
    }
    return true;
  }

  // The path of the value being read ("" at the top level).
  std::string path() const {
    std::string p;
    for (const Frame& f : frames_) {
      if (f.array) {
        p = path_index(p, f.index);
      } else if (!f.keys.empty()) {
        p = path_component(p, f.key);
      }
    }
    return p;
  }

 private:
  struct Frame {
    bool array = false;
    std::size_t index = 0;  // of the current element (arrays)
    std::string key;        // the current key (objects)
    std::unordered_set<std::string> keys;
  };

  void element_done() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }

  const std::string& file_;
  std::vector<Frame> frames_;
};

// The number nlohmann could not hold, from its message "... number overflow parsing '1e400'"
// ("" if the message has another shape).
std::string overflowing_token(std::string_view message) {
  constexpr std::string_view kParsing = "parsing '";
  const std::size_t start = message.find(kParsing);
  if (start == std::string_view::npos) return {};
  const std::size_t first = start + kParsing.size();
  const std::size_t end = message.find('\'', first);
  if (end == std::string_view::npos) return {};
  return std::string(message.substr(first, end - first));
}

// True if `c` after number `token` would have made the lexer read a longer number: a digit, an
// exponent if there is none yet, a fraction if there is neither.
bool continues_number(std::string_view token, char c) {
  const bool exponent = token.find_first_of("eE") != std::string_view::npos;
  const bool fraction = token.find('.') != std::string_view::npos;
  return (c >= '0' && c <= '9') || (!exponent && (c == 'e' || c == 'E')) ||
         (!exponent && !fraction && c == '.');
}

// Scanning JSON text byte by byte: skips(text, i) is true for the bytes of strings, quotes
// included (and moves i past an escaped character).
struct StringSkip {
  bool in_string = false;
  bool skips(std::string_view text, std::size_t& i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      return true;
    }
    in_string = c == '"';
    return in_string;
  }
};

// The byte offset of the first number token equal to `token`, outside strings (it starts after a
// structural character or white space, and what follows would not lengthen it). The parser reads
// from the start, so the first such token is the one it stopped at. npos if none.
std::size_t number_offset(std::string_view text, std::string_view token) {
  constexpr std::string_view kBefore = ",:[ \t\r\n";
  StringSkip strings;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (strings.skips(text, i)) continue;
    // Where a token may start (first: the comparison after it then stays within one token, so
    // the scan is linear).
    const bool starts = i == 0 || (i == 3 && text.starts_with("\xEF\xBB\xBF")) ||
                        kBefore.find(text[i - 1]) != std::string_view::npos;
    if (!starts || !text.substr(i).starts_with(token)) continue;
    const std::size_t end = i + token.size();
    if (end == text.size() || !continues_number(token, text[end])) return i;
  }
  return std::string_view::npos;
}

// Where the text first opens an array or object more than kMaxJsonDepth levels deep, outside
// strings; npos if nowhere. (Deep values would overflow the stack in the recursive copies and
// destructors of the parsed document; no kdop file needs more than a few levels.)
std::size_t too_deep_offset(std::string_view text) {
  std::size_t depth = 0;
  StringSkip strings;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (strings.skips(text, i)) continue;
    const char c = text[i];
    if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::string read_text_file(const std::string& path, std::uint64_t max_bytes,
                           const std::string& too_large) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    throw IoError::in_file(path, "cannot read (" + errno_text(EISDIR) + ")");
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError::in_file(path, "cannot open (" + errno_text(errno) + ")");
  std::string bytes;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > max_bytes) throw IoError::in_file(path, too_large);
  if (!ec) bytes.reserve(static_cast<std::size_t>(size));
  // Read in blocks rather than by the size alone: pipes and special files have no size.
  char block[1 << 16];
  while (in.read(block, sizeof block) || in.gcount() > 0) {
    bytes.append(block, static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > max_bytes) throw IoError::in_file(path, too_large);
  }
  if (in.bad()) throw IoError::in_file(path, "cannot read (" + errno_text(errno) + ")");
  return bytes;
}

std::string printable(std::string_view s) {
  std::string out;
  text::append_escaped(out, s);
  return out;
}

std::string shown(const Json& value) {
  const std::string text = printable(value.dump());
  return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

std::string path_component(const std::string& parent, const std::string& key) {
  const bool word = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
  if (!word) return parent + "[" + text::quote(key) + "]";
  return parent.empty() ? key : parent + "." + key;
}

std::string path_index(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

Json parse(std::string_view text, const std::string& file) {
  // Not JSON at all (a CSV given where JSON belongs, say): said plainly, not as a parse error.
  std::size_t first = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (first < text.size() && std::string_view(" \t\r\n").find(text[first]) != text.npos) {
    ++first;
  }
  const std::string_view start = text.substr(first);
  const bool json_start =
      start.empty() || std::string_view("{[\"-0123456789").find(start[0]) != text.npos ||
      start.starts_with("true") || start.starts_with("false") || start.starts_with("null");
  if (!json_start) {
    const std::string_view rest = start.substr(0, start.find('\n'));
    throw IoError::at_byte(
        file, first,
        "expected JSON (an object starting with '{'), got " + text::quote(rest.substr(0, 40)));
  }
  if (const std::size_t at = too_deep_offset(text); at != std::string_view::npos) {
    throw IoError::at_byte(
        file, at, "JSON nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
  }
  PathTracker tracker(file);
  try {
    return Json::parse(text, [&tracker](int, Json::parse_event_t event, Json& parsed) {
      return tracker.on_event(event, parsed);
    });
  } catch (const Json::parse_error& e) {
    // nlohmann counts bytes from 1 (the byte it stopped at); io messages give 0-based offsets.
    std::string what = e.what();
    const std::size_t at = what.find("parse error");
    if (at != std::string::npos) what = what.substr(at);
    throw IoError::at_byte(file, e.byte > 0 ? e.byte - 1 : 0, "JSON " + printable(what));
  } catch (const Json::out_of_range& e) {  // a number beyond double's range
    const std::string where = tracker.path();
    const std::string token = overflowing_token(e.what());
    // The number as written, shortened past 40 characters (it may be millions of digits).
    const std::string shown = token.size() <= 40 ? token : token.substr(0, 37) + "...";
    const std::string what =
        "expected a number within double's range (magnitude below 1.8e308), got " +
        printable(token.empty() ? std::string(e.what()) : shown);
    const std::string located = where.empty() ? what : where + ": " + what;
    const std::size_t at = token.empty() ? std::string_view::npos : number_offset(text, token);
    if (at == std::string_view::npos) throw IoError::in_file(file, located);
    throw IoError::at_byte(file, at, located);
  }
}

void Checks::fail(const std::string& path, const std::string& what) const {
  throw IoError::in_file(file, path.empty() ? what : path + ": " + what);
}

double Checks::number(const Json& value, const std::string& path) const {
  if (!value.is_number()) fail(path, std::string("expected a number, got ") + value.type_name());
  const double v = value.get<double>();
  if (!std::isfinite(v)) fail(path, "expected a finite number, got " + shown(value));
  return v;
}

const Json& Checks::required(const Json& entry, const std::string& path, const char* key) const {
  if (!entry.contains(key)) fail(path, std::string("missing key '") + key + "'");
  return entry.at(key);
}

void Checks::check_keys(const Json& entry, const std::string& path,
                        std::initializer_list<const char*> allowed) const {
  if (!entry.is_object()) fail(path, std::string("expected an object, got ") + entry.type_name());
  for (const auto& [key, value] : entry.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string expected;
    for (const char* k : allowed) expected += (expected.empty() ? "" : ", ") + std::string(k);
    fail(path, "unknown key " + text::quote(key) + " (expected " + expected + ")");
  }
}

std::string format_number(double v) {
  char buf[400];
  const double a = std::fabs(v);
  const bool plain = a == 0 || (a >= 1e-4 && a < 1e15);
  const auto result = plain ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                            : std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, result.ptr);
}

}  // namespace kdop::json
