#pragma once
// Pose files for `kdop batch --poses FILE`: read as a stream, chunk by chunk, so ten million
// poses never sit in memory at once (the reader holds a buffer of at most 1 MiB, and a record
// of several lines of at most 1 MiB).
//
// CSV (.csv, and standard input unless told otherwise):
//   - the first non-blank line is a header; columns in any order, names without surrounding
//     blanks: pose_id,tx,ty,tz,qw,qx,qy,qz (required; p' = R p + t, Hamilton quaternion,
//     normalized on reading) and object (required when the batch has 2 or more objects,
//     optional with one). Other columns are ignored, so files can carry notes or timestamps.
//   - fields may be quoted as RFC 4180 says (as Python's csv module and R's write.csv write
//     them): a field that starts with '"' holds the text up to the closing '"', each '""' in it
//     read as '"', so it can hold commas and line breaks (the record then runs on to the line
//     that closes it; LF or CRLF inside reads as '\n'). A '"' inside an unquoted field is an
//     error; errors name the record's first line.
//   - pose_id is copied verbatim (everything between the commas, except a trailing '\r'; a
//     quoted field's text); object must equal one of the batch's object names exactly; numbers
//     may have blanks around them and are parsed with std::from_chars (no locale).
//   - blank lines are skipped, CRLF is accepted, a UTF-8 byte order mark is ignored.
// NPY (.npy, NumPy format 1.0, 2.0 or 3.0): dtype '<f8', C order, shape (N, 7) holding rows
//   tx,ty,tz,qw,qx,qy,qz, or shape (N, 4, 4) holding 4x4 matrices row by row acting on column
//   vectors (as `kdop check --matrix`). pose_id is the 0-based row index; there is no object
//   column, so the batch must have one object. The data must match the shape exactly.
//
// Every problem is an IoError of one line: "<file>: line N: ..." (CSV), "<file>: byte N: ..."
// (NPY) or "<file>: ..."; standard input is named "<stdin>". Header-only CSV and N = 0 NPY files
// are valid and yield no records.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "geometry/pose.hpp"

namespace kdop {

struct PoseRecord {
  std::string pose_id;
  std::uint32_t object = 0;  // index into the reader's object names
  Pose pose;
};

enum class PoseFormat { csv, npy };

// Format from the extension (.csv or .npy, case-insensitive); "-" (standard input) is CSV (the
// reader's own constructor looks at the content for "-" and names without an extension).
// Throws IoError for anything else.
PoseFormat pose_format_from_path(const std::string& path);

class PoseReader {
 public:
  // Opens `path` ("-" for standard input), format from the extension; standard input and a name
  // without one (a pipe such as /dev/stdin) are NumPy when they start with NumPy's magic, else CSV.
  // `object_names` are the batch's objects in order (at least one; std::invalid_argument
  // otherwise). Reads and checks the header at once.
  PoseReader(const std::string& path, std::vector<std::string> object_names);
  PoseReader(const std::string& path, PoseFormat format, std::vector<std::string> object_names);
  // Reads a caller-owned stream, which must outlive the reader; `name` is used in messages.
  PoseReader(std::istream& in, const std::string& name, PoseFormat format,
             std::vector<std::string> object_names);
  ~PoseReader();
  PoseReader(PoseReader&&) noexcept;
  PoseReader& operator=(PoseReader&&) noexcept;

  // Replaces the contents of `out` with the next records, at most max_count (> 0); returns
  // false, with `out` empty, once the input is exhausted. Elements of `out` are reused, so a
  // caller looping with one vector allocates nothing per record. On IoError `out` is unspecified.
  bool next_chunk(std::vector<PoseRecord>& out, std::size_t max_count);

  // Records handed out so far.
  std::uint64_t records_read() const;

  // Whether the input names each record's object (a CSV `object` column; required with two or
  // more objects, optional with one).
  bool has_object_column() const;

  // For progress: the records the input holds where its header says (NPY), and the share of the
  // input's bytes read so far where its size is known (a file, or standard input redirected from
  // one); nullopt otherwise (a pipe).
  std::optional<std::uint64_t> record_count() const;
  std::optional<double> fraction_read() const;

  const std::string& name() const;
  const std::vector<std::string>& object_names() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kdop
