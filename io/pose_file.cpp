// Pose file reader. Both formats stream through one fixed buffer: CSV line by line, NPY a block
// of whole rows at a time. Counts in an NPY header are checked against the bytes that follow
// before anything is read, so a corrupt shape fails at once instead of allocating or reading on.
#include "io/pose_file.hpp"
#include "geometry/coordinate_range.hpp"
#include "io/file_extension.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>

#include "io/csv_text.hpp"
#include "io/io_error.hpp"
#include "io/text_scanner.hpp"

namespace kdop {
namespace {

// The read buffer's largest size, and so also the longest CSV line accepted. CSV starts with a
// smaller buffer and doubles it only for a line that does not fit (short inputs, such as a pipe
// of a few poses, stay cheap to open).
constexpr std::size_t kBufferBytes = std::size_t{1} << 20;
constexpr std::size_t kFirstLineBufferBytes = std::size_t{1} << 16;

std::string_view trim(std::string_view s) {
  while (!s.empty() && text::is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && text::is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// Slot i of a chunk being filled in order: existing elements are reused, keeping the capacity
// of their pose_id strings.
PoseRecord& slot(std::vector<PoseRecord>& out, std::size_t i) {
  if (i == out.size()) out.emplace_back();
  return out[i];
}

// An istream read in large blocks, with the byte offset counted and failures turned into
// IoErrors.
class ByteSource {
 public:
  ByteSource(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  // Reads up to n bytes; fewer only at the end of the input.
  std::size_t read(char* dst, std::size_t n) {
    if (n == 0 || at_end_) return 0;
    errno = 0;
    in_.read(dst, static_cast<std::streamsize>(n));
    const auto got = static_cast<std::size_t>(in_.gcount());
    if (in_.bad()) throw IoError::in_file(name_, "cannot read (" + errno_text(errno) + ")");
    at_end_ = got < n;
    offset_ += got;
    return got;
  }

  // Bytes left in the input if the stream can tell (files can, pipes cannot).
  std::optional<std::uint64_t> remaining() {
    const std::streampos here = in_.tellg();
    if (here == std::streampos(-1)) {
      in_.clear();
      return std::nullopt;
    }
    in_.seekg(0, std::ios::end);
    const std::streampos end = in_.tellg();
    in_.clear();
    in_.seekg(here);
    if (!in_) throw IoError::in_file(name_, "cannot seek back after measuring the input");
    if (end == std::streampos(-1) || end < here) return std::nullopt;
    return static_cast<std::uint64_t>(end - here);
  }

  bool at_end() const { return at_end_; }
  std::uint64_t offset() const { return offset_; }
  const std::string& name() const { return name_; }

 private:
  std::istream& in_;
  std::string name_;
  std::uint64_t offset_ = 0;
  bool at_end_ = false;
};

// ---- CSV ------------------------------------------------------------------------------------

// Hands out lines from a ByteSource, refilling one fixed buffer.
class LineReader {
 public:
  explicit LineReader(ByteSource& source) : source_(source), buf_(kFirstLineBufferBytes) {}

  // The next line without its '\n' and one trailing '\r'; false at the end of the input. The
  // view is valid until the next call.
  bool next(std::string_view& line) {
    std::size_t newline = find_newline();
    while (newline == end_ && !source_.at_end()) {
      if (begin_ == 0 && end_ == buf_.size()) {  // the buffer holds part of one line
        if (buf_.size() == kBufferBytes) break;
        buf_.resize(std::min(2 * buf_.size(), kBufferBytes));
      }
      refill();
      newline = find_newline();
    }
    if (newline == end_) {
      if (begin_ == end_) return false;
      if (!source_.at_end()) {
        throw IoError::at_line(source_.name(), line_ + 1,
                               "line longer than " + std::to_string(kBufferBytes) + " bytes");
      }
    }
    line = std::string_view(buf_.data() + begin_, newline - begin_);
    begin_ = std::min(newline + 1, end_);
    ++line_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // A UTF-8 byte order mark from some Windows editors is not content.
    if (line_ == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
    return true;
  }

  // 1-based number of the line last returned.
  std::uint64_t line() const { return line_; }

 private:
  std::size_t find_newline() const {
    const void* hit = std::memchr(buf_.data() + begin_, '\n', end_ - begin_);
    return hit == nullptr ? end_
                          : static_cast<std::size_t>(static_cast<const char*>(hit) - buf_.data());
  }

  // Moves the unread tail to the front and fills the rest of the buffer.
  void refill() {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    end_ += source_.read(buf_.data() + end_, buf_.size() - end_);
  }

  ByteSource& source_;
  std::vector<char> buf_;
  std::size_t begin_ = 0;  // first unread byte
  std::size_t end_ = 0;    // end of the bytes read into buf_
  std::uint64_t line_ = 0;
};

enum Column : std::size_t { kPoseId, kTx, kTy, kTz, kQw, kQx, kQy, kQz, kObject, kColumnCount };
constexpr std::array<std::string_view, kColumnCount> kColumnNames = {
    "pose_id", "tx", "ty", "tz", "qw", "qx", "qy", "qz", "object"};
constexpr std::size_t kAbsent = std::numeric_limits<std::size_t>::max();

bool is_blank_line(std::string_view line) {
  return std::all_of(line.begin(), line.end(), text::is_blank);
}

class CsvPoses {
 public:
  CsvPoses(ByteSource& source, const std::vector<std::string>& objects)
      : lines_(source), name_(source.name()), objects_(objects) {
    read_header();
  }

  bool has_object_column() const { return column_[kObject] != kAbsent; }

  std::size_t read(std::vector<PoseRecord>& out, std::size_t max_count) {
    std::size_t n = 0;
    std::string_view line;
    while (n < max_count && next_record(line)) {
      if (is_blank_line(line)) continue;
      split(line);
      parse_row(slot(out, n++));
    }
    return n;
  }

 private:
  void read_header() {
    std::string_view line;
    do {
      if (!next_record(line)) {
        throw IoError::at_line(name_, lines_.line() + 1,
                               "expected a header line naming the columns, found end of file");
      }
    } while (is_blank_line(line));
    if (line.starts_with("\x93NUMPY")) {
      fail("this is a NumPy (.npy) file, read as CSV (name it .npy)");
    }
    split(line);
    column_.fill(kAbsent);
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      const std::string_view name = trim(fields_[i]);
      const auto* known = std::find(kColumnNames.begin(), kColumnNames.end(), name);
      if (known == kColumnNames.end()) continue;  // extra columns are the user's business
      std::size_t& at = column_[static_cast<std::size_t>(known - kColumnNames.begin())];
      if (at != kAbsent) fail("header: duplicate column " + text::quote(name));
      at = i;
    }
    for (std::size_t c = kPoseId; c <= kQz; ++c) {
      if (column_[c] == kAbsent) {
        // One field holding a semicolon or a tab: another separator, said as such.
        const bool other_separator =
            fields_.size() == 1 && line.find_first_of(";\t") != std::string_view::npos;
        fail(
            "header: missing column " + text::quote(kColumnNames[c]) +
            " (required: pose_id,tx,ty,tz,qw,qx,qy,qz" +
            (other_separator ? "; columns are separated by commas, not semicolons or tabs)" : ")"));
      }
    }
    if (objects_.size() >= 2 && column_[kObject] == kAbsent) {
      fail("header: missing column 'object' (required when the batch has " +
           std::to_string(objects_.size()) + " objects)");
    }
    field_count_ = fields_.size();
  }

  // The next record: a line, or where a quoted field holds line breaks (RFC 4180), the lines up
  // to the one that closes it, joined by '\n' (a CRLF file's too). The view is valid until the
  // next call. A record's errors name its first line.
  bool next_record(std::string_view& record) {
    if (!lines_.next(record)) return false;
    record_line_ = lines_.line();
    if (record.find('"') == std::string_view::npos) return true;
    csv::RecordQuotes quotes;
    if (!quotes.open_after(record)) return true;
    joined_.assign(record);
    csv::join_record_lines(
        quotes, joined_, kBufferBytes, [&](std::string_view& line) { return lines_.next(line); },
        [&](const std::string& what) { fail(what); });
    record = joined_;
    return true;
  }

  void split(std::string_view line) {
    // A NUL would be copied into pose_id and from there raw into CSV results.
    if (line.find('\0') != std::string_view::npos) fail("NUL byte in the line");
    if (text::has_bare_carriage_return(line)) fail(text::kBareCarriageReturn);
    if (const char* error = csv::split_line(line, fields_, unquoted_)) fail(error);
  }

  void parse_row(PoseRecord& record) {
    if (fields_.size() != field_count_) {
      fail("expected " + std::to_string(field_count_) + " fields as in the header, found " +
           std::to_string(fields_.size()));
    }
    double v[7];
    for (std::size_t c = kTx; c <= kQz; ++c) v[c - kTx] = number(static_cast<Column>(c));
    try {
      check_translation_range(v[0], v[1], v[2]);
      record.pose = pose_from_quaternion(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
    record.object = column_[kObject] == kAbsent ? 0 : object_index(fields_[column_[kObject]]);
    record.pose_id.assign(fields_[column_[kPoseId]]);
  }

  double number(Column c) const {
    const std::string_view tok = trim(fields_[column_[c]]);
    const std::string column = "column " + std::string(kColumnNames[c]) + ": ";
    if (tok.empty()) fail(column + "expected a number, found an empty field");
    double value = 0;
    if (!text::parse_double(tok, value)) {
      fail(column + (text::beyond_double(tok) ? text::quote(tok) + " is outside double's range"
                                              : "expected a number, got " + text::quote(tok)));
    }
    if (!std::isfinite(value)) fail(column + "non-finite value " + text::quote(tok));
    return value;
  }

  std::uint32_t object_index(std::string_view name) const {
    const auto it = std::find(objects_.begin(), objects_.end(), name);
    if (it != objects_.end()) return static_cast<std::uint32_t>(it - objects_.begin());
    std::string known;
    constexpr std::size_t kListed = 8;  // keeps the message short for big batches
    for (std::size_t i = 0; i < objects_.size() && i < kListed; ++i) {
      known += (i == 0 ? "" : ", ") + text::quote(objects_[i]);
    }
    if (objects_.size() > kListed) known += ", ...";
    fail("unknown object " + text::quote(name) + " (the batch's objects: " + known +
         "; --object NAME=FILE names one, else it is named after its file)");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw IoError::at_line(name_, record_line_, what);
  }

  LineReader lines_;
  std::uint64_t record_line_ = 0;  // the first line of the current record
  std::string joined_;             // a record of several lines
  const std::string& name_;
  const std::vector<std::string>& objects_;
  std::array<std::size_t, kColumnCount> column_{};  // field index of each column, or kAbsent
  std::size_t field_count_ = 0;
  std::vector<std::string_view> fields_;  // of the current line
  std::deque<std::string> unquoted_;      // its quoted fields that held a doubled '"'
};

// ---- NPY ------------------------------------------------------------------------------------

// Larger headers are not written by NumPy (it warns above 10000 bytes); the cap bounds the
// allocation a corrupt length can cause.
constexpr std::uint64_t kMaxNpyHeaderBytes = 65536;

struct NpyDict {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;
  std::uint64_t descr_at = 0, fortran_order_at = 0, shape_at = 0;  // byte offsets of the values
};

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// A strict reader of the header's Python dict literal, as NumPy writes it:
//   {'descr': '<f8', 'fortran_order': False, 'shape': (3, 7), }
// then spaces up to a final '\n'. Exactly the three keys, each once; no escapes in strings.
class NpyDictParser {
 public:
  NpyDictParser(std::string_view text, std::uint64_t offset, const std::string& name)
      : text_(text), offset_(offset), name_(name) {}

  NpyDict parse() {
    NpyDict dict;
    bool seen[3] = {false, false, false};
    skip_spaces();
    const std::size_t dict_at = pos_;
    expect('{', "'{' opening the header dict");
    skip_spaces();
    while (!consume('}')) {
      const std::size_t key_at = pos_;
      const std::string_view key = string();
      skip_spaces();
      expect(':', "':' after a key");
      skip_spaces();
      const std::uint64_t value_at = offset_ + pos_;
      const int k = key == "descr" ? 0 : key == "fortran_order" ? 1 : key == "shape" ? 2 : -1;
      if (k < 0) {
        fail_at(key_at, "unexpected key " + text::quote(key) +
                            " (expected descr, fortran_order and shape)");
      }
      if (seen[k]) fail_at(key_at, "duplicate key " + text::quote(key));
      seen[k] = true;
      if (k == 0) {
        if (pos_ < text_.size() && text_[pos_] == '[') {
          fail("unsupported dtype: a structured array (expected '<f8', little-endian float64)");
        }
        dict.descr = std::string(string());
        dict.descr_at = value_at;
      } else if (k == 1) {
        dict.fortran_order = boolean();
        dict.fortran_order_at = value_at;
      } else {
        dict.shape = tuple();
        dict.shape_at = value_at;
      }
      skip_spaces();
      if (!consume(',')) {
        expect('}', "',' or '}' after a value");
        break;
      }
      skip_spaces();
    }
    skip_spaces();
    if (pos_ + 1 != text_.size() || text_[pos_] != '\n') {
      fail("expected only spaces and a final newline after the header dict");
    }
    const char* keys[3] = {"descr", "fortran_order", "shape"};
    for (int k = 0; k < 3; ++k) {
      if (!seen[k]) fail_at(dict_at, std::string("header dict has no key '") + keys[k] + "'");
    }
    return dict;
  }

 private:
  void skip_spaces() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }

  bool consume(char ch) {
    if (pos_ < text_.size() && text_[pos_] == ch) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect(char ch, const char* what) {
    if (!consume(ch)) fail(std::string("expected ") + what);
  }

  std::string_view string() {
    const char quote = pos_ < text_.size() ? text_[pos_] : '\0';
    if (quote != '\'' && quote != '"') fail("expected a quoted string");
    const std::size_t start = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' || text_[pos_] == '\n') fail("unsupported character in a string");
      ++pos_;
    }
    if (pos_ == text_.size()) fail("unterminated string");
    return text_.substr(start, pos_++ - start);
  }

  bool boolean() {
    for (const bool value : {true, false}) {
      const std::string_view word = value ? "True" : "False";
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    }
    fail("expected True or False");
  }

  std::vector<std::uint64_t> tuple() {
    expect('(', "a tuple for shape");
    std::vector<std::uint64_t> values;
    skip_spaces();
    while (!consume(')')) {
      const char* first = text_.data() + pos_;
      const char* last = text_.data() + text_.size();
      std::uint64_t v = 0;
      const auto [end, ec] = std::from_chars(first, last, v);
      if (ec == std::errc::result_out_of_range) fail("shape entry too large");
      if (ec != std::errc() || end == first) fail("expected a non-negative integer in shape");
      pos_ += static_cast<std::size_t>(end - first);
      values.push_back(v);
      skip_spaces();
      if (!consume(',')) {
        expect(')', "',' or ')' in shape");
        break;
      }
      skip_spaces();
    }
    return values;
  }

  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }
  [[noreturn]] void fail_at(std::size_t pos, const std::string& what) const {
    throw IoError::at_byte(name_, offset_ + pos, what);
  }

  std::string_view text_;
  std::uint64_t offset_;  // file offset of text_[0]
  const std::string& name_;
  std::size_t pos_ = 0;
};

std::uint64_t load_le(const char* p, std::size_t bytes) {
  std::uint64_t v = 0;
  for (std::size_t i = bytes; i-- > 0;) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

class NpyPoses {
 public:
  NpyPoses(ByteSource& source, const std::vector<std::string>& objects) : source_(source) {
    if (objects.size() >= 2) {
      throw IoError::in_file(name(), "npy pose files carry no object column, but the batch has " +
                                         std::to_string(objects.size()) + " objects");
    }
    read_header();
  }

  std::size_t read(std::vector<PoseRecord>& out, std::size_t max_count) {
    std::size_t n = 0;
    while (n < max_count && next_row_ < rows_) {
      const std::size_t batch = static_cast<std::size_t>(
          std::min<std::uint64_t>({max_count - n, rows_ - next_row_, rows_per_read()}));
      const std::uint64_t at = fill(batch);
      for (std::size_t i = 0; i < batch; ++i) {
        parse_row(buf_.data() + i * row_bytes_, next_row_ + i, at + i * row_bytes_, slot(out, n++));
      }
      next_row_ += batch;
    }
    if (next_row_ == rows_) check_end();
    return n;
  }

  std::uint64_t rows() const { return rows_; }

 private:
  // Reads the next `batch` rows into buf_; returns the file offset of the first.
  std::uint64_t fill(std::size_t batch) {
    if (buf_.empty()) {
      buf_.resize(static_cast<std::size_t>(std::min(rows_, rows_per_read())) * row_bytes_);
    }
    const std::uint64_t at = source_.offset();
    const std::size_t want = batch * row_bytes_;
    const std::size_t got = source_.read(buf_.data(), want);
    if (got < want) {
      throw IoError::at_byte(name(), at + got,
                             "file truncated in row " +
                                 std::to_string(next_row_ + got / row_bytes_) + " (shape says " +
                                 std::to_string(rows_) + " rows of " + std::to_string(row_bytes_) +
                                 " bytes)");
    }
    return at;
  }

  void read_header() {
    char prefix[12];
    const std::size_t got = source_.read(prefix, 8);
    if (got == 0) throw IoError::in_file(name(), "empty file: expected a NumPy .npy header");
    if (got < 8 || std::memcmp(prefix, "\x93NUMPY", 6) != 0) {
      throw IoError::at_byte(name(), 0, "bad magic: expected \\x93NUMPY (a NumPy .npy file)");
    }
    const int major = static_cast<unsigned char>(prefix[6]);
    const int minor = static_cast<unsigned char>(prefix[7]);
    if (major < 1 || major > 3 || minor != 0) {
      throw IoError::at_byte(name(), 6,
                             "unsupported npy version " + std::to_string(major) + "." +
                                 std::to_string(minor) + " (expected 1.0, 2.0 or 3.0)");
    }
    const std::size_t length_bytes = major == 1 ? 2 : 4;
    if (source_.read(prefix + 8, length_bytes) < length_bytes) {
      throw IoError::at_byte(name(), 8, "file truncated: expected the header length");
    }
    const std::uint64_t length = load_le(prefix + 8, length_bytes);
    if (length > kMaxNpyHeaderBytes) {
      throw IoError::at_byte(name(), 8,
                             "header length " + std::to_string(length) + " exceeds " +
                                 std::to_string(kMaxNpyHeaderBytes) + " bytes");
    }
    const std::uint64_t start = 8 + length_bytes;
    std::string text(static_cast<std::size_t>(length), '\0');
    const std::size_t text_got = source_.read(text.data(), text.size());
    if (text_got < text.size()) {
      throw IoError::at_byte(name(), start + text_got,
                             "file truncated: the header length says " + std::to_string(length) +
                                 " bytes, the file ends after " + std::to_string(text_got));
    }
    check_dict(NpyDictParser(text, start, name()).parse());
    check_data_size(start + length);
  }

  void check_dict(const NpyDict& dict) {
    if (dict.descr != "<f8") {
      throw IoError::at_byte(name(), dict.descr_at,
                             "unsupported dtype " + text::quote(dict.descr) +
                                 " (expected '<f8', little-endian float64)");
    }
    if (dict.fortran_order) {
      throw IoError::at_byte(name(), dict.fortran_order_at,
                             "fortran_order True is not supported (expected C order)");
    }
    const auto& s = dict.shape;
    matrix_ = s.size() == 3 && s[1] == 4 && s[2] == 4;
    if (!matrix_ && !(s.size() == 2 && s[1] == 7)) {
      throw IoError::at_byte(name(), dict.shape_at,
                             "expected shape (N, 7) or (N, 4, 4), got " + shape_text(s));
    }
    rows_ = s[0];
    row_bytes_ = matrix_ ? 16 * 8 : 7 * 8;
    shape_ = shape_text(s);
  }

  // The data must be exactly rows * row size; where the input's size is known this is checked
  // now, elsewhere (pipes) while reading.
  void check_data_size(std::uint64_t data_offset) {
    if (rows_ > (std::numeric_limits<std::uint64_t>::max() - data_offset) / row_bytes_) {
      throw IoError::at_byte(name(), data_offset,
                             "shape " + shape_ + " needs more than 2^64 bytes of data");
    }
    data_end_ = data_offset + rows_ * row_bytes_;
    const std::optional<std::uint64_t> have = source_.remaining();
    if (!have) return;
    const std::uint64_t need = rows_ * row_bytes_;
    if (*have < need) {
      throw IoError::at_byte(name(), data_offset,
                             "file truncated: shape " + shape_ + " needs " + std::to_string(need) +
                                 " bytes of data but only " + std::to_string(*have) +
                                 " follow the header");
    }
    if (*have > need) {
      const std::uint64_t extra = *have - need;
      throw IoError::at_byte(name(), data_end_,
                             std::to_string(extra) +
                                 (extra == 1 ? " unexpected byte" : " unexpected bytes") +
                                 " after the last row");
    }
  }

  void check_end() {
    if (end_checked_) return;
    char extra = 0;
    if (source_.read(&extra, 1) != 0) {
      throw IoError::at_byte(name(), data_end_, "unexpected bytes after the last row");
    }
    end_checked_ = true;
  }

  void parse_row(const char* p, std::uint64_t row, std::uint64_t at, PoseRecord& record) const {
    std::array<double, 16> v{};
    const std::size_t n = row_bytes_ / 8;
    for (std::size_t k = 0; k < n; ++k) {
      v[k] = std::bit_cast<double>(load_le(p + 8 * k, 8));
      if (!std::isfinite(v[k])) fail_row(row, at, "non-finite value in " + value_name(k));
    }
    try {
      matrix_ ? check_translation_range(v[3], v[7], v[11])
              : check_translation_range(v[0], v[1], v[2]);
      record.pose = matrix_ ? pose_from_matrix(v)
                            : pose_from_quaternion(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    } catch (const std::invalid_argument& e) {
      fail_row(row, at, e.what());
    }
    record.object = 0;
    char digits[24];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, row);
    record.pose_id.assign(digits, end);
  }

  std::string value_name(std::size_t k) const {
    if (!matrix_) return std::string(kColumnNames[kTx + k]);
    return "m" + std::to_string(k / 4) + std::to_string(k % 4);
  }

  [[noreturn]] void fail_row(std::uint64_t row, std::uint64_t at, const std::string& what) const {
    throw IoError::at_byte(name(), at, "row " + std::to_string(row) + ": " + what);
  }

  std::uint64_t rows_per_read() const { return kBufferBytes / row_bytes_; }
  const std::string& name() const { return source_.name(); }

  ByteSource& source_;
  std::uint64_t rows_ = 0;
  std::uint64_t next_row_ = 0;
  std::size_t row_bytes_ = 0;
  bool matrix_ = false;
  std::string shape_;
  std::uint64_t data_end_ = 0;  // offset just past the last row
  bool end_checked_ = false;
  std::vector<char> buf_;
};

using Parser = std::variant<CsvPoses, NpyPoses>;

Parser open_parser(PoseFormat format, ByteSource& source, const std::vector<std::string>& objects) {
  if (format == PoseFormat::npy) return Parser(std::in_place_type<NpyPoses>, source, objects);
  return Parser(std::in_place_type<CsvPoses>, source, objects);
}

std::unique_ptr<std::istream> open_file(const std::string& path) {
  // A directory opens fine on Linux and then fails on the first read.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw IoError::in_file(path, "cannot read (" + errno_text(EISDIR) + ")");
  }
  errno = 0;
  auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*in) throw IoError::in_file(path, "cannot open (" + errno_text(errno) + ")");
  return in;
}

std::vector<std::string> checked_names(std::vector<std::string> names) {
  if (names.empty()) throw std::invalid_argument("PoseReader needs at least one object name");
  return names;
}

}  // namespace

struct PoseReader::Impl {
  Impl(std::unique_ptr<std::istream> owned, std::istream& in, const std::string& name,
       PoseFormat format, std::vector<std::string> names)
      : file(std::move(owned)),
        objects(checked_names(std::move(names))),
        source(in, name),
        size(source.remaining()),
        parser(open_parser(format, source, objects)) {}

  std::unique_ptr<std::istream> file;  // set when the reader opened the file itself
  std::vector<std::string> objects;
  ByteSource source;
  std::optional<std::uint64_t> size;  // the input's bytes, measured before the header is read
  Parser parser;
  std::uint64_t records = 0;
};

PoseFormat pose_format_from_path(const std::string& path) {
  if (path == "-") return PoseFormat::csv;
  const std::string extension = lowercase_extension(path);
  if (extension == ".csv") return PoseFormat::csv;
  if (extension == ".npy") return PoseFormat::npy;
  throw IoError::in_file(path, (extension.empty() ? std::string("no file extension")
                                                  : "unknown extension " + text::quote(extension)) +
                                   " (expected .csv or .npy)");
}

PoseReader::PoseReader(const std::string& path, std::vector<std::string> object_names) {
  const bool stdin_input = path == "-";
  if (!stdin_input && !lowercase_extension(path).empty()) {
    *this = PoseReader(path, pose_format_from_path(path), std::move(object_names));
    return;
  }
  // Standard input or a name without an extension (a pipe such as /dev/stdin or a shell's
  // <(...)): NumPy by its magic byte, else CSV. Peeked, not read twice: a pipe gives its bytes
  // once.
  std::unique_ptr<std::istream> file = stdin_input ? nullptr : open_file(path);
  std::istream& in = stdin_input ? std::cin : *file;
  const PoseFormat format =
      in.peek() == std::char_traits<char>::to_int_type('\x93') ? PoseFormat::npy : PoseFormat::csv;
  in.clear();
  impl_ = std::make_unique<Impl>(std::move(file), in, stdin_input ? "<stdin>" : path, format,
                                 std::move(object_names));
}

PoseReader::PoseReader(const std::string& path, PoseFormat format,
                       std::vector<std::string> object_names) {
  if (path == "-") {
    impl_ = std::make_unique<Impl>(nullptr, std::cin, "<stdin>", format, std::move(object_names));
    return;
  }
  std::unique_ptr<std::istream> file = open_file(path);
  std::istream& in = *file;
  impl_ = std::make_unique<Impl>(std::move(file), in, path, format, std::move(object_names));
}

PoseReader::PoseReader(std::istream& in, const std::string& name, PoseFormat format,
                       std::vector<std::string> object_names)
    : impl_(std::make_unique<Impl>(nullptr, in, name, format, std::move(object_names))) {}

PoseReader::~PoseReader() = default;
PoseReader::PoseReader(PoseReader&&) noexcept = default;
PoseReader& PoseReader::operator=(PoseReader&&) noexcept = default;

bool PoseReader::next_chunk(std::vector<PoseRecord>& out, std::size_t max_count) {
  if (max_count == 0) throw std::invalid_argument("PoseReader::next_chunk: max_count must be > 0");
  const std::size_t n =
      std::visit([&](auto& parser) { return parser.read(out, max_count); }, impl_->parser);
  out.resize(n);
  impl_->records += n;
  return n > 0;
}

std::uint64_t PoseReader::records_read() const {
  return impl_->records;
}

std::optional<std::uint64_t> PoseReader::record_count() const {
  if (const NpyPoses* npy = std::get_if<NpyPoses>(&impl_->parser)) return npy->rows();
  return std::nullopt;
}

bool PoseReader::has_object_column() const {
  const CsvPoses* csv = std::get_if<CsvPoses>(&impl_->parser);
  return csv != nullptr && csv->has_object_column();
}

std::optional<double> PoseReader::fraction_read() const {
  if (!impl_->size || *impl_->size == 0) return std::nullopt;
  return std::min(1.0,
                  static_cast<double>(impl_->source.offset()) / static_cast<double>(*impl_->size));
}

const std::string& PoseReader::name() const {
  return impl_->source.name();
}

const std::vector<std::string>& PoseReader::object_names() const {
  return impl_->objects;
}

}  // namespace kdop
