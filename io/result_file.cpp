// Result writers. Rows are formatted into one buffer with std::to_chars (no locale, no
// iostream formatting state) and handed to the file or stream whenever it fills.
#include "io/result_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "io/atomic_file.hpp"
#include "io/csv_text.hpp"
#include "io/file_extension.hpp"
#include "io/io_error.hpp"

namespace kdop {
namespace {

constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

bool is_plain_json(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
  });
}

void put_json_string(std::string& out, std::string_view s) {
  // Ids are almost always plain ASCII: copy them; leave escapes and UTF-8 checks to nlohmann.
  if (is_plain_json(s)) {
    out += '"';
    out += s;
    out += '"';
    return;
  }
  out +=
      nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

ResultFormat result_format_from_path(const std::string& path) {
  const std::string extension = lowercase_extension(path);
  if (extension == ".csv") return ResultFormat::csv;
  if (extension == ".json") return ResultFormat::json;
  if (is_stream_without_extension(path)) return ResultFormat::csv;
  throw IoError::in_file(path, (extension.empty() ? std::string("no file extension")
                                                  : "unknown extension '" + extension + "'") +
                                   " (expected .csv or .json)");
}

// ---- ResultWriter ---------------------------------------------------------------------------

ResultWriter::ResultWriter(ResultFormat format, bool with_object_column, bool with_witness_columns,
                           bool with_distance_column)
    : format_(format),
      with_object_(with_object_column),
      with_witness_(with_witness_columns),
      with_distance_(with_distance_column) {}

ResultWriter::ResultWriter(const std::string& path, ResultFormat format, bool with_object_column,
                           bool with_witness_columns, bool with_distance_column)
    : ResultWriter(format, with_object_column, with_witness_columns, with_distance_column) {
  if (path.empty()) {
    stream_ = &std::cout;
    name_ = "<stdout>";
  } else {
    file_ = std::make_unique<AtomicFileWriter>(path);
    name_ = path;
  }
  begin();
}

ResultWriter::ResultWriter(std::ostream& out, const std::string& name, ResultFormat format,
                           bool with_object_column, bool with_witness_columns,
                           bool with_distance_column)
    : ResultWriter(format, with_object_column, with_witness_columns, with_distance_column) {
  stream_ = &out;
  name_ = name;
  begin();
}

ResultWriter::~ResultWriter() = default;
ResultWriter::ResultWriter(ResultWriter&&) noexcept = default;
ResultWriter& ResultWriter::operator=(ResultWriter&&) noexcept = default;

void ResultWriter::begin() {
  buf_.reserve(kFlushBytes + 4096);
  if (format_ == ResultFormat::json) {
    buf_ += '[';
    return;
  }
  buf_ += "pose_id,";
  if (with_object_) buf_ += "object,";
  buf_ += "collides,contacts,n_v,n_p,n_u,time_us";
  if (with_witness_) buf_ += ",env_triangle,object_triangle";
  if (with_distance_) buf_ += ",min_distance";
  buf_ += '\n';
}

void ResultWriter::write(const ResultRow& row) {
  if (committed_) throw std::logic_error("ResultWriter::write after commit");
  if (format_ == ResultFormat::csv) {
    put_csv(row);
  } else {
    put_json(row);
  }
  ++rows_;
  if (buf_.size() >= kFlushBytes) flush_buffer();
}

void ResultWriter::put_csv(const ResultRow& row) {
  std::string& out = buf_;
  csv::put_field(out, row.pose_id);
  out += ',';
  if (with_object_) {
    csv::put_field(out, row.object);
    out += ',';
  }
  out += row.collides ? "1," : "0,";
  for (std::uint64_t v : {row.contacts, row.n_v, row.n_p, row.n_u}) {
    csv::put_uint(out, v);
    out += ',';
  }
  csv::put_fixed3(out, row.time_us, "");
  if (with_witness_) {
    out += ',';
    if (row.has_witness) csv::put_uint(out, row.witness_env);
    out += ',';
    if (row.has_witness) csv::put_uint(out, row.witness_object);
  }
  if (with_distance_) {
    out += ',';
    csv::put_double(out, row.min_distance);
  }
  out += '\n';
}

void ResultWriter::put_json(const ResultRow& row) {
  std::string& out = buf_;
  out += rows_ == 0 ? "\n{\"pose_id\":" : ",\n{\"pose_id\":";
  put_json_string(out, row.pose_id);
  if (with_object_) {
    out += ",\"object\":";
    put_json_string(out, row.object);
  }
  out += row.collides ? ",\"collides\":true,\"contacts\":" : ",\"collides\":false,\"contacts\":";
  csv::put_uint(out, row.contacts);
  out += ",\"n_v\":";
  csv::put_uint(out, row.n_v);
  out += ",\"n_p\":";
  csv::put_uint(out, row.n_p);
  out += ",\"n_u\":";
  csv::put_uint(out, row.n_u);
  out += ",\"time_us\":";
  csv::put_fixed3(out, row.time_us, "null");
  if (with_witness_) {
    if (row.has_witness) {
      out += ",\"env_triangle\":";
      csv::put_uint(out, row.witness_env);
      out += ",\"object_triangle\":";
      csv::put_uint(out, row.witness_object);
    } else {
      out += ",\"env_triangle\":null,\"object_triangle\":null";
    }
  }
  if (with_distance_) {
    out += ",\"min_distance\":";
    csv::put_double(out, row.min_distance, "null");
  }
  out += '}';
}

void ResultWriter::flush_buffer() {
  if (file_) {
    file_->write(buf_);
  } else {
    errno = 0;
    stream_->write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    if (!*stream_) throw IoError::in_file(name_, "cannot write (" + errno_text(errno) + ")");
  }
  buf_.clear();
}

void ResultWriter::finish() {
  if (finished_) return;
  if (format_ == ResultFormat::json) buf_ += rows_ == 0 ? "]\n" : "\n]\n";
  flush_buffer();
  if (file_) {
    file_->finish();
  } else {
    errno = 0;
    stream_->flush();
    if (!*stream_) throw IoError::in_file(name_, "cannot write (" + errno_text(errno) + ")");
  }
  finished_ = true;
}

void ResultWriter::commit() {
  if (committed_) throw std::logic_error("ResultWriter::commit called twice");
  finish();
  if (file_) file_->commit();
  committed_ = true;
}

}  // namespace kdop
