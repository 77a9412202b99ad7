#pragma once
// Line and token scanning shared by the text mesh formats (ASCII STL, OBJ, ASCII PLY, OFF).
// Lines end at '\n'; '\r' counts as blank, so CRLF files read like LF files. Numbers are parsed
// with std::from_chars: fast, locale-independent, and a token with trailing garbage ("1.5x")
// is rejected instead of being silently cut short.
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

#include "geometry/coordinate_range.hpp"
#include "io/io_error.hpp"

namespace kdop::text {

inline bool is_blank(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

// Walks text line by line; within the current line, hands out blank-separated tokens.
class LineScanner {
 public:
  // `start` is a byte offset into `text` where line `first_line` begins.
  explicit LineScanner(std::string_view text, std::size_t start = 0, std::uint64_t first_line = 1)
      : text_(text), next_(start), line_(first_line - 1) {
    // A UTF-8 byte order mark from some Windows editors is not content.
    if (start == 0 && text_.substr(0, 3) == "\xEF\xBB\xBF") next_ = 3;
  }

  // Moves to the next line; false at the end of the text.
  bool next_line() {
    if (next_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', next_);
    if (end == std::string_view::npos) end = text_.size();
    rest_ = text_.substr(next_, end - next_);
    next_ = end + 1;
    ++line_;
    return true;
  }

  // 1-based number of the current line.
  std::uint64_t line() const { return line_; }

  // Byte offset where the line after the current one starts (clamped to the text size).
  std::size_t next_offset() const { return next_ < text_.size() ? next_ : text_.size(); }

  // Bytes not yet handed out as lines.
  std::size_t remaining_bytes() const { return text_.size() - next_offset(); }

  // The next token of the current line, or an empty view at the end of the line.
  std::string_view token() {
    std::size_t i = 0;
    while (i < rest_.size() && is_blank(rest_[i])) ++i;
    std::size_t j = i;
    while (j < rest_.size() && !is_blank(rest_[j])) ++j;
    std::string_view tok = rest_.substr(i, j - i);
    rest_.remove_prefix(j);
    return tok;
  }

  // The unconsumed part of the current line without surrounding blanks.
  std::string_view rest() const {
    std::string_view r = rest_;
    while (!r.empty() && is_blank(r.front())) r.remove_prefix(1);
    while (!r.empty() && is_blank(r.back())) r.remove_suffix(1);
    return r;
  }

  // The unconsumed part of the current line as it is, but for a CRLF file's '\r'.
  std::string_view rest_as_is() const {
    std::string_view r = rest_;
    if (!r.empty() && r.back() == '\r') r.remove_suffix(1);
    return r;
  }
  // Drops a '#' comment from the rest of the current line.
  void drop_comment() {
    std::size_t hash = rest_.find('#');
    if (hash != std::string_view::npos) rest_ = rest_.substr(0, hash);
  }

  bool at_line_end() const { return rest().empty(); }

 private:
  std::string_view text_;
  std::size_t next_;       // start of the next line
  std::string_view rest_;  // unconsumed part of the current line
  std::uint64_t line_;     // number of the current line
};

// Strips one leading '+': from_chars rejects it, but files written by printf("%+f") have it.
inline std::string_view without_plus(std::string_view tok) {
  if (tok.size() > 1 && tok[0] == '+' && tok[1] != '-' && tok[1] != '+') tok.remove_prefix(1);
  return tok;
}

// A carriage return left in a line once its ending (LF, or CRLF) is taken off: the file breaks its
// lines with CR alone (old Mac), which would run them together as one. The readers refuse it
// with kBareCarriageReturn.
inline bool has_bare_carriage_return(std::string_view line) {
  return line.find('\r') != std::string_view::npos;
}
inline constexpr const char* kBareCarriageReturn =
    "carriage return inside the line (lines must end with LF or CRLF)";

// True if the whole token is a number (NaN and Inf included; callers decide about those).
inline bool parse_double(std::string_view tok, double& value) {
  tok = without_plus(tok);
  const char* last = tok.data() + tok.size();
  auto [end, ec] = std::from_chars(tok.data(), last, value);
  return ec == std::errc() && end == last && !tok.empty();
}

// Whether `tok` is a number whose magnitude a double cannot hold (from_chars' out of range: 1e999,
// 1e-999), for a clearer message than "expected a number".
inline bool beyond_double(std::string_view tok) {
  tok = without_plus(tok);
  const char* last = tok.data() + tok.size();
  double value = 0;
  auto [end, ec] = std::from_chars(tok.data(), last, value);
  return ec == std::errc::result_out_of_range && end == last;
}

inline bool parse_int(std::string_view tok, std::int64_t& value) {
  tok = without_plus(tok);
  const char* last = tok.data() + tok.size();
  auto [end, ec] = std::from_chars(tok.data(), last, value);
  return ec == std::errc() && end == last && !tok.empty();
}

inline bool parse_uint(std::string_view tok, std::uint64_t& value) {
  tok = without_plus(tok);
  const char* last = tok.data() + tok.size();
  auto [end, ec] = std::from_chars(tok.data(), last, value);
  return ec == std::errc() && end == last && !tok.empty();
}

// `s` for an error message, appended to `out` so the message stays one line: control bytes
// (and, unless `keep_non_ascii`, every byte past ASCII) as \xNN.
inline void append_escaped(std::string& out, std::string_view s, bool keep_non_ascii = false) {
  for (const char c : s) {
    const auto ch = static_cast<unsigned char>(c);
    if ((ch >= 0x20 && ch < 0x7F) || (keep_non_ascii && ch > 0x7F)) {
      out += c;
      continue;
    }
    constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[ch >> 4];
    out += kHex[ch & 15];
  }
}

// A whole message on one line: control bytes (a line break in a file name, say) as \xNN; UTF-8
// as it is.
inline std::string one_line(std::string_view message) {
  std::string out;
  append_escaped(out, message, true);
  return out;
}

// A token quoted for an error message: short, and printable so the message stays one line.
inline std::string quote(std::string_view tok) {
  constexpr std::size_t kMax = 40;
  std::string out = "'";
  append_escaped(out, tok.substr(0, kMax));
  if (tok.size() > kMax) out += "...";
  return out + "'";
}

// Parses one vertex coordinate; NaN, Inf and non-numbers are errors naming the line.
inline double parse_coordinate(std::string_view tok, const std::string& file, std::uint64_t line) {
  double value = 0;
  if (tok.empty()) throw IoError::at_line(file, line, "expected a coordinate, found end of line");
  if (!parse_double(tok, value)) {
    throw IoError::at_line(file, line,
                           beyond_double(tok)
                               ? "coordinate " + quote(tok) + " is outside double's range"
                               : "expected a coordinate, got " + quote(tok));
  }
  if (!std::isfinite(value)) {
    throw IoError::at_line(file, line, "non-finite coordinate " + quote(tok));
  }
  if (!coordinate_in_range(value)) {
    throw IoError::at_line(file, line, "coordinate " + quote(tok) + " " + kBeyondCoordinateRange);
  }
  return value;
}

}  // namespace kdop::text
