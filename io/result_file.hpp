#pragma once
// Result files for `kdop batch --out results.csv|results.json` (standard output without --out):
// one row per pose, in pose order, streamed through a 1 MiB buffer. The column names and their
// order are a public contract that scripts rely on:
//   pose_id,[object,]collides,contacts,n_v,n_p,n_u,time_us[,env_triangle,object_triangle]
//   [,min_distance]
// (min_distance with --clearance: the least triangle-pair distance at the pose, in the
// shortest digits that read back exactly)
// CSV:  a header line, then one line per pose; collides is 0/1, time_us has 3 decimals, the
//       witness columns are empty for a pose without a witness. A pose_id or object holding ',',
//       '"' or a line break is quoted as RFC 4180 says.
// JSON: an array of objects with the same keys in the same order, one object per line;
//       collides is true/false, the witness keys are null without a witness, strings are escaped
//       (invalid UTF-8 becomes U+FFFD). A non-finite time_us is written empty (CSV) or null.
#include <cstdint>
#include <cstdio>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

#include "io/atomic_file.hpp"

namespace kdop {

// One pose's answer; plain data, the strings only need to live until write() returns.
struct ResultRow {
  std::string_view pose_id;
  std::string_view object;  // written only with the object column (batches of 2+ objects)
  bool collides = false;
  std::uint64_t contacts = 0;
  std::uint64_t n_v = 0, n_p = 0, n_u = 0;  // cost-model counters
  double time_us = 0;
  bool has_witness = false;  // the reported triangle pair (first-contact mode)
  std::uint32_t witness_env = 0, witness_object = 0;
  double min_distance = 0;  // written only with the distance column (--clearance)
};

enum class ResultFormat { csv, json };

// Format from the extension (.csv or .json, case-insensitive); throws IoError for anything else.
ResultFormat result_format_from_path(const std::string& path);

class ResultWriter {
 public:
  // Writes to `path` atomically, or to standard output when `path` is empty.
  ResultWriter(const std::string& path, ResultFormat format, bool with_object_column,
               bool with_witness_columns, bool with_distance_column = false);
  // Writes to a caller-owned stream as it goes; `name` is used in messages.
  ResultWriter(std::ostream& out, const std::string& name, ResultFormat format,
               bool with_object_column, bool with_witness_columns,
               bool with_distance_column = false);
  ~ResultWriter();  // uncommitted: a file is removed, buffered rows are dropped
  ResultWriter(ResultWriter&&) noexcept;
  ResultWriter& operator=(ResultWriter&&) noexcept;

  void write(const ResultRow& row);
  // Finishes the document, flushes and syncs it, but does not move the file into place yet (so a
  // command with several outputs can see every write error before it renames any). Idempotent.
  void finish();
  // finish(), then moves the file into place. Call once, after the last row; after an IoError
  // the writer can only be destroyed.
  void commit();

  std::uint64_t rows_written() const { return rows_; }

 private:
  ResultWriter(ResultFormat format, bool with_object_column, bool with_witness_columns,
               bool with_distance_column);
  void begin();
  void put_csv(const ResultRow& row);
  void put_json(const ResultRow& row);
  void flush_buffer();

  std::unique_ptr<AtomicFileWriter> file_;  // when writing a file
  std::ostream* stream_ = nullptr;          // otherwise
  std::string name_;
  ResultFormat format_;
  bool with_object_;
  bool with_witness_;
  bool with_distance_;
  std::string buf_;
  std::uint64_t rows_ = 0;
  bool finished_ = false;  // the document ended and flushed
  bool committed_ = false;
};

}  // namespace kdop
