#pragma once
// Writing CSV fields: numbers with std::to_chars (no locale, no iostream state), text quoted as
// RFC 4180 says. Shared by the batch results (io/result_file.hpp) and path reports
// (io/path_report.hpp). Reading one record's fields, quoted ones too (the pose files).
#include <charconv>
#include <cmath>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

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

// Follows the quotes of one record, line by line: RFC 4180 lets a quoted field hold line
// breaks, so a record continues on the next line while a quoted field is open. Linear in the
// record's bytes however many lines it spans.
class RecordQuotes {
 public:
  // Scans the record's next line; true if a quoted field is still open at its end.
  bool open_after(std::string_view line) {
    for (const char ch : line) step(ch);
    return inside_ && !quote_seen_;  // a '"' last on the line closes its field
  }

 private:
  void step(char ch) {
    if (inside_) {
      if (!quote_seen_) {
        quote_seen_ = ch == '"';
        return;
      }
      quote_seen_ = false;
      if (ch == '"') return;  // a doubled '"', inside the field
      inside_ = false;        // the field closed at the '"' before
    }
    if (ch == ',') {
      field_start_ = true;
      return;
    }
    inside_ = field_start_ && ch == '"';
    field_start_ = false;
  }

  bool inside_ = false, quote_seen_ = false, field_start_ = true;
};

// A record whose first line, `record`, ended inside a quoted field (`quotes` has scanned it):
// appends the lines `next_line` hands out (bool(std::string_view&), false at the end), each
// after a '\n', up to the one that closes it. `fail(message)` (which throws) for an end of input
// first, or past `max_bytes`. RecordQuotes needs only the new lines: a '\n' inside a quoted
// field changes nothing.
template <class NextLine, class Fail>
void join_record_lines(RecordQuotes& quotes, std::string& record, std::size_t max_bytes,
                       NextLine&& next_line, Fail&& fail) {
  std::string_view line;
  do {
    if (!next_line(line)) {
      fail("a quoted field opened on this line is not closed before the end of the file");
    }
    if (record.size() + 1 + line.size() > max_bytes) {
      fail("a quoted field opened on this line is still open after " + std::to_string(max_bytes) +
           " bytes");
    }
    record += '\n';
    record += line;
  } while (quotes.open_after(line));
}

// Splits one record (a line, or lines joined by '\n' where RecordQuotes found a quoted field
// open) into fields as RFC 4180 says: a field that starts with '"' is quoted, runs to the next
// '"' not doubled, and holds its text with each '""' read as '"'; it must be followed by ',' or
// the end of the record. A '"' elsewhere in a field, or a quoted field still open at the end, is
// an error: returns its message, or nullptr. `fields` views `line` or, for quoted fields that held
// a doubled quote, strings appended to `unquoted` (whose elements never move).
inline const char* split_line(std::string_view line, std::vector<std::string_view>& fields,
                              std::deque<std::string>& unquoted) {
  fields.clear();
  unquoted.clear();
  for (std::size_t at = 0;;) {
    if (at < line.size() && line[at] == '"') {
      std::size_t close = at + 1;
      bool doubled = false;
      for (;; close += 2) {
        close = line.find('"', close);
        if (close == std::string_view::npos) {
          return "a quoted field is not closed";
        }
        if (close + 1 >= line.size() || line[close + 1] != '"') break;
        doubled = true;
      }
      std::string_view text = line.substr(at + 1, close - at - 1);
      if (doubled) {
        std::string& s = unquoted.emplace_back();
        for (std::size_t i = 0; i < text.size(); ++i) {
          s += text[i];
          if (text[i] == '"') ++i;  // the second of a pair
        }
        text = s;
      }
      fields.push_back(text);
      at = close + 1;
      if (at == line.size()) return nullptr;
      if (line[at] != ',') return "expected ',' or the end of the line after a quoted field";
      ++at;
      continue;
    }
    const std::size_t comma = line.find(',', at);
    const std::string_view field =
        line.substr(at, comma == std::string_view::npos ? comma : comma - at);
    if (field.find('"') != std::string_view::npos) {
      return "a '\"' inside an unquoted field (quote the whole field and double its '\"')";
    }
    fields.push_back(field);
    if (comma == std::string_view::npos) return nullptr;
    at = comma + 1;
  }
}

inline void put_uint(std::string& out, std::uint64_t v) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

// The shortest digits that read back as the same double (0.1, not 0.10000000000000001);
// `missing` for NaN and Inf.
inline void put_double(std::string& out, double v, std::string_view missing = {}) {
  if (!std::isfinite(v)) {
    out += missing;
    return;
  }
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
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
