// Pose files: CSV and NPY round trips, chunked streaming, and every malformed-input path.
#include "io/pose_file.hpp"
#include "tests/support/allocation_probe.hpp"
#include "tests/support/scratch_dir.hpp"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <vector>

#include "io/io_error.hpp"
#include "tests/support/allocation_probe.hpp"
#include "tests/support/reader_checks.hpp"

namespace kdop {
namespace {

using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

const std::vector<std::string> kOne = {"tool"};
const std::vector<std::string> kTwo = {"tool", "holder"};
const char* const kHeader = "pose_id,tx,ty,tz,qw,qx,qy,qz\n";

// A stream that cannot seek or tell its size, like a pipe on standard input.
class PipeBuf : public std::streambuf {
 public:
  explicit PipeBuf(std::string bytes) : bytes_(std::move(bytes)) {
    setg(bytes_.data(), bytes_.data(), bytes_.data() + bytes_.size());
  }

 private:
  std::string bytes_;
};

std::vector<PoseRecord> read_all(std::istream& in, PoseFormat format,
                                 const std::vector<std::string>& objects, std::size_t chunk,
                                 const std::string& name) {
  PoseReader reader(in, name, format, objects);
  std::vector<PoseRecord> all, part;
  while (reader.next_chunk(part, chunk)) {
    EXPECT_LE(part.size(), chunk);
    all.insert(all.end(), part.begin(), part.end());
  }
  EXPECT_TRUE(part.empty());
  EXPECT_EQ(reader.records_read(), all.size());
  EXPECT_FALSE(reader.next_chunk(part, chunk));  // stays at the end
  return all;
}

std::vector<PoseRecord> read_text(const std::string& bytes, PoseFormat format = PoseFormat::csv,
                                  const std::vector<std::string>& objects = kOne,
                                  std::size_t chunk = 1000) {
  std::istringstream in(bytes);
  return read_all(in, format, objects, chunk, "poses");
}

std::string csv_error(const std::string& bytes, const std::vector<std::string>& objects = kOne) {
  return test::io_error_of([&] { read_text(bytes, PoseFormat::csv, objects); });
}

bool same_pose(const Pose& a, const Pose& b) {
  return a.r == b.r && a.t == b.t;
}

std::string shortest(double v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

// ---- CSV ------------------------------------------------------------------------------------

TEST(PoseFormatFromPath, ExtensionsAndStdin) {
  EXPECT_EQ(pose_format_from_path("a/b.csv"), PoseFormat::csv);
  EXPECT_EQ(pose_format_from_path("B.CSV"), PoseFormat::csv);
  EXPECT_EQ(pose_format_from_path("poses.Npy"), PoseFormat::npy);
  EXPECT_EQ(pose_format_from_path("-"), PoseFormat::csv);
  EXPECT_EQ(test::io_error_of([] { pose_format_from_path("p.txt"); }),
            "p.txt: unknown extension '.txt' (expected .csv or .npy)");
  EXPECT_EQ(test::io_error_of([] { pose_format_from_path("dir.csv/poses"); }),
            "dir.csv/poses: no file extension (expected .csv or .npy)");
}

TEST(PoseCsv, ReadsColumnsInAnyOrderAndIgnoresExtraOnes) {
  const std::string text =
      "note, qz ,qy,qx,qw,tz,ty,tx,pose_id,object\n"
      "first,0,0,0,2,3,-2.5,1e-3, id with spaces ,holder\n"
      "x,0.5,0.5,0.5,0.5,+4,0,0,p2,tool\n";
  const std::vector<PoseRecord> r = read_text(text, PoseFormat::csv, kTwo);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].pose_id, " id with spaces ");
  EXPECT_EQ(r[0].object, 1u);
  EXPECT_TRUE(same_pose(r[0].pose, pose_from_quaternion(1e-3, -2.5, 3, 2, 0, 0, 0)));
  EXPECT_EQ(r[1].pose_id, "p2");
  EXPECT_EQ(r[1].object, 0u);
  EXPECT_TRUE(same_pose(r[1].pose, pose_from_quaternion(0, 0, 4, 0.5, 0.5, 0.5, 0.5)));
}

TEST(PoseCsv, ObjectColumnIsOptionalForOneObjectOnly) {
  EXPECT_EQ(read_text(std::string(kHeader) + "a,0,0,0,1,0,0,0\n").at(0).object, 0u);
  EXPECT_EQ(read_text("object,pose_id,tx,ty,tz,qw,qx,qy,qz\ntool,a,0,0,0,1,0,0,0\n").size(), 1u);
  EXPECT_EQ(csv_error("object,pose_id,tx,ty,tz,qw,qx,qy,qz\ntool,a,0,0,0,1,0,0,0\n\nTool,b,0,0,0,"
                      "1,0,0,0\n"),
            "poses: line 4: unknown object 'Tool' (the batch's objects: 'tool'; --object NAME=FILE "
            "names one, else it is named after its file)");
  EXPECT_EQ(csv_error(std::string(kHeader) + "a,0,0,0,1,0,0,0\n", kTwo),
            "poses: line 1: header: missing column 'object' (required when the batch has 2 "
            "objects)");
  EXPECT_EQ(
      csv_error(std::string("object,") + kHeader + "holder,a,0,0,0,1,0,0,0\narm,b,0,0,0,1,0,0,0\n",
                kTwo),
      "poses: line 3: unknown object 'arm' (the batch's objects: 'tool', 'holder'; --object "
      "NAME=FILE names one, else it is named after its file)");
  // Whether the column is there (the results echo it then).
  for (const bool named : {false, true}) {
    std::istringstream in(std::string(named ? "object," : "") + kHeader);
    EXPECT_EQ(PoseReader(in, "p.csv", PoseFormat::csv, kOne).has_object_column(), named);
  }
}

TEST(PoseCsv, HeaderErrors) {
  EXPECT_EQ(csv_error(""),
            "poses: line 1: expected a header line naming the columns, found end "
            "of file");
  EXPECT_EQ(csv_error("\n \r\n"),
            "poses: line 3: expected a header line naming the columns, found end of file");
  EXPECT_EQ(csv_error("pose_id,tx,ty,tz,qw,qx,qy\n"),
            "poses: line 1: header: missing column 'qz' (required: pose_id,tx,ty,tz,qw,qx,qy,qz)");
  EXPECT_EQ(csv_error("\npose_id,tx,ty,tz,qw,qx,qy,qz,tx\n"),
            "poses: line 2: header: duplicate column 'tx'");
  EXPECT_EQ(csv_error("object,pose_id,tx,ty,tz,qw,qx,qy,qz,object\n", kTwo),
            "poses: line 1: header: duplicate column 'object'");
  // A headerless file: its first row is taken for the header and named as such.
  EXPECT_EQ(csv_error("p0,0,0,0,1,0,0,0\n"),
            "poses: line 1: header: missing column 'pose_id' (required: "
            "pose_id,tx,ty,tz,qw,qx,qy,qz)");
  // Another separator is named as the cause.
  const std::string separated =
      "poses: line 1: header: missing column 'pose_id' (required: pose_id,tx,ty,tz,qw,qx,qy,qz; "
      "columns are separated by commas, not semicolons or tabs)";
  EXPECT_EQ(csv_error("pose_id;tx;ty;tz;qw;qx;qy;qz\n"), separated);
  EXPECT_EQ(csv_error("pose_id\ttx\tty\ttz\tqw\tqx\tqy\tqz\n"), separated);
}

// Quoted fields as Python's csv module and R's write.csv write them (RFC 4180): pose ids with
// commas, quotes and blanks come back verbatim, quoted header names and numbers are read.
TEST(PoseCsv, QuotedFields) {
  const std::vector<PoseRecord> r = read_text(
      "\"pose_id\",\"tx\",ty,tz,qw,qx,qy,qz,\"object\"\n"
      "\"run 1, pose 7\",\"1.5\",0,0,1,0,0,0,\"a\"\n"
      "\"say \"\"hi\"\"\",0,0,0,1,0,0,0,\"b\"\r\n"
      "\"\",0,0,0,1,0,0,0,a\n"
      "\" x \",0,0,\"-0\",1,0,0,0,a\n"
      "\"\"\"\"\"\",0,0,0,1,0,0,0,\"\"\"\"\n",
      PoseFormat::csv, {"a", "b", "\""});
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].pose_id, "run 1, pose 7");
  EXPECT_EQ(r[0].pose.t[0], 1.5);
  EXPECT_EQ(r[1].pose_id, "say \"hi\"");
  EXPECT_EQ(r[1].object, 1u);
  EXPECT_EQ(r[2].pose_id, "");
  EXPECT_EQ(r[3].pose_id, " x ");
  EXPECT_EQ(r[4].pose_id, "\"\"");
  EXPECT_EQ(r[4].object, 2u);
}

// RFC 4180: a quoted field may hold line breaks, as Python's csv module writes them. The record
// runs on to the line that closes the field; LF or CRLF inside it reads as '\n'.
TEST(PoseCsv, QuotedFieldsSpanLines) {
  const std::vector<PoseRecord> r = read_text(std::string(kHeader) +
                                              "\"first\nsecond\",1,0,0,1,0,0,0\n"
                                              "\"a\r\n\"\"b\"\"\r\n\",2,0,0,1,0,0,0\r\n"
                                              "\"\n\n\",3,0,0,1,0,0,0\n"
                                              "\"x,\"\"\n\"\"\",4,0,0,1,0,0,0\n"
                                              "plain,5,0,0,1,0,0,0\n");
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].pose_id, "first\nsecond");
  EXPECT_EQ(r[0].pose.t[0], 1);
  EXPECT_EQ(r[1].pose_id, "a\n\"b\"\n");
  EXPECT_EQ(r[2].pose_id, "\n\n");
  EXPECT_EQ(r[3].pose_id, "x,\"\n\"");
  EXPECT_EQ(r[4].pose_id, "plain");
  EXPECT_EQ(r[4].pose.t[0], 5);
  // Errors in a record of several lines name its first line.
  EXPECT_EQ(csv_error(std::string(kHeader) + "a,0,0,0,1,0,0,0\n\"b\nc\",x,0,0,1,0,0,0\n"),
            "poses: line 3: column tx: expected a number, got 'x'");
  EXPECT_EQ(csv_error(std::string(kHeader) + "a,0,0,0,1,0,0,0\n\"b\nc\n\nd,0,0,0,1,0,0,0\n"),
            "poses: line 3: a quoted field opened on this line is not closed before the end of the "
            "file");
  // A '"' closing a field last on a line ends the record there.
  EXPECT_EQ(read_text(std::string(kHeader) + "a,0,0,0,1,0,0,\"0\"\nb,0,0,0,1,0,0,0\n").size(), 2u);
  // An open field is bounded like a line, whatever the number of lines.
  std::string long_field = std::string(kHeader) + "\"";
  for (int i = 0; i < 600'000; ++i) long_field += "y\n";
  EXPECT_EQ(csv_error(long_field),
            "poses: line 2: a quoted field opened on this line is still open after 1048576 bytes");
}

TEST(PoseCsv, RowErrors) {
  const std::string h = kHeader;
  EXPECT_EQ(csv_error(h + "a,0,0,0,1,0,0,0\nb,0,0,0,1,0,0\n"),
            "poses: line 3: expected 8 fields as in the header, found 7");
  EXPECT_EQ(csv_error(h + "a,0,0,0,1,0,0,0,9\n"),
            "poses: line 2: expected 8 fields as in the header, found 9");
  EXPECT_EQ(csv_error(h + "a,0,zero,0,1,0,0,0\n"),
            "poses: line 2: column ty: expected a number, got 'zero'");
  EXPECT_EQ(csv_error(h + "a,0,0,0,1,0,0,0x1\n"),
            "poses: line 2: column qz: expected a number, got '0x1'");
  EXPECT_EQ(csv_error(h + "a,0,0, ,1,0,0,0\n"),
            "poses: line 2: column tz: expected a number, found an empty field");
  EXPECT_EQ(csv_error(h + "a,nan,0,0,1,0,0,0\n"),
            "poses: line 2: column tx: non-finite value 'nan'");
  EXPECT_EQ(csv_error(h + "a,0,0,0,1,-inf,0,0\n"),
            "poses: line 2: column qx: non-finite value '-inf'");
  EXPECT_EQ(csv_error(h + "a,0,2e30,0,1,0,0,0\n"),
            "poses: line 2: translation ty = 2e+30 is beyond +-1e30 (kdop's coordinate range)");
  EXPECT_EQ(csv_error(h + "a,0,0,0,1e309,0,0,0\n"),
            "poses: line 2: column qw: '1e309' is outside double's range");
  EXPECT_EQ(csv_error(h + "\n\na,1,2,3,0,0,0,-0\n"), "poses: line 4: quaternion is zero");
  EXPECT_EQ(csv_error(h + "a\"b,0,0,0,1,0,0,0\n"),
            "poses: line 2: a '\"' inside an unquoted field (quote the whole field and double its "
            "'\"')");
  EXPECT_EQ(csv_error(h + "\"a,0,0,0,1,0,0,0\n"),
            "poses: line 2: a quoted field opened on this line is not closed before the end of the "
            "file");
  EXPECT_EQ(csv_error(h + "\"a\"b,0,0,0,1,0,0,0\n"),
            "poses: line 2: expected ',' or the end of the line after a quoted field");
  EXPECT_EQ(csv_error(h + std::string("a\0b,0,0,0,1,0,0,0\n", 18)),
            "poses: line 2: NUL byte in the line");
  EXPECT_EQ(csv_error("pose_id,tx,ty,tz,qw,qx,qy,qz\ra,0,0,0,1,0,0,0\r"),
            "poses: line 1: carriage return inside the line (lines must end with LF or CRLF)");
  // Control bytes in a bad token are escaped so the message stays on one line.
  EXPECT_EQ(csv_error(h + "a,0,0,0,1,0,0,\x01\x7f\n"),
            "poses: line 2: column qz: expected a number, got '\\x01\\x7f'");
}

TEST(PoseCsv, CrlfBlankLinesByteOrderMarkAndNoFinalNewline) {
  const std::string text =
      "\xEF\xBB\xBFpose_id,tx,ty,tz,qw,qx,qy,qz\r\n"
      "\r\n"
      "a b,1,2,3,1,0,0,0\r\n"
      "  \t\r\n"
      "c, 4 ,5,6,0,0,0,1";
  const std::vector<PoseRecord> r = read_text(text);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].pose_id, "a b");
  EXPECT_EQ(r[1].pose_id, "c");
  EXPECT_TRUE(same_pose(r[1].pose, pose_from_quaternion(4, 5, 6, 0, 0, 0, 1)));
  // Line numbers count the blank lines.
  EXPECT_EQ(csv_error("pose_id,tx,ty,tz,qw,qx,qy,qz\r\n\r\n\r\nz,1,2,3,0,0,0,0\r\n"),
            "poses: line 4: quaternion is zero");
}

TEST(PoseCsv, HeaderOnlyFileHasNoRecords) {
  EXPECT_TRUE(read_text(kHeader).empty());
  EXPECT_TRUE(read_text("pose_id,tx,ty,tz,qw,qx,qy,qz").empty());
  EXPECT_TRUE(read_text(std::string(kHeader) + "\n\n").empty());
}

TEST(PoseCsv, LineLongerThanTheBufferIsAnError) {
  const std::string text = std::string(kHeader) + "a,0,0,0,1,0,0,0\n" +
                           std::string(std::size_t{1} << 20, 'x') + ",0,0,0,1,0,0,0\n";
  EXPECT_EQ(csv_error(text), "poses: line 3: line longer than 1048576 bytes");
}

// The buffer starts small and grows for long lines, up to the limit above.
TEST(PoseCsv, LinesLongerThanTheFirstBufferAreRead) {
  const std::string id(300'000, 'y');
  const auto r = read_text(std::string(kHeader) + "a,0,0,0,1,0,0,0\n" + id +
                           ",1,2,3,1,0,0,0\nb,0,0,0,1,0,0,0\n");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[1].pose_id, id);
  EXPECT_EQ(r[2].pose_id, "b");
}

std::string random_csv(std::size_t rows, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-10, 10);
  std::string text = "qw,qx,qy,qz,pose_id,object,tx,ty,tz\n";
  for (std::size_t i = 0; i < rows; ++i) {
    if (i % 17 == 0) text += "\r\n";
    for (int k = 0; k < 4; ++k) text += shortest(u(rng)) + ",";
    text += "id" + std::to_string(i) + (i % 3 ? ",tool," : ",holder,");
    text += shortest(u(rng)) + "," + shortest(u(rng)) + "," + shortest(u(rng)) + "\n";
  }
  return text;
}

TEST(PoseCsv, ChunkSizesDoNotChangeTheSequence) {
  const std::string text = random_csv(1000, 7);
  const std::vector<PoseRecord> whole = read_text(text, PoseFormat::csv, kTwo, 1u << 20);
  ASSERT_EQ(whole.size(), 1000u);
  for (std::size_t chunk : {1, 2, 7, 64, 999, 1000, 1001}) {
    const std::vector<PoseRecord> parts = read_text(text, PoseFormat::csv, kTwo, chunk);
    ASSERT_EQ(parts.size(), whole.size()) << chunk;
    for (std::size_t i = 0; i < whole.size(); ++i) {
      ASSERT_EQ(parts[i].pose_id, whole[i].pose_id) << chunk;
      ASSERT_EQ(parts[i].object, whole[i].object) << chunk;
      ASSERT_TRUE(same_pose(parts[i].pose, whole[i].pose)) << chunk << " " << i;
    }
  }
  EXPECT_EQ(whole[0].pose_id, "id0");
  EXPECT_EQ(whole[0].object, 1u);
  EXPECT_EQ(whole[998].pose_id, "id998");
  EXPECT_EQ(whole[998].object, 0u);
}

TEST(PoseReaderApi, RejectsMisuse) {
  std::istringstream in(kHeader);
  EXPECT_THROW(PoseReader(in, "p.csv", PoseFormat::csv, {}), std::invalid_argument);
  PoseReader reader(in, "p.csv", PoseFormat::csv, kOne);
  std::vector<PoseRecord> out;
  EXPECT_THROW(reader.next_chunk(out, 0), std::invalid_argument);
  EXPECT_EQ(reader.name(), "p.csv");
  EXPECT_EQ(reader.object_names(), kOne);
}

// ---- NPY ------------------------------------------------------------------------------------

std::string npy_dict(const std::string& shape, const std::string& descr = "'<f8'",
                     const std::string& fortran = "False") {
  return "{'descr': " + descr + ", 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
}

// Magic, version, length and the dict padded with spaces so the data starts at a multiple of
// 64, as NumPy writes it.
std::string npy_header(const std::string& dict, int major = 1) {
  const std::size_t prefix = major == 1 ? 10 : 12;
  std::string text = dict;
  while ((prefix + text.size() + 1) % 64 != 0) text += ' ';
  text += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (std::size_t i = 0; i < prefix - 8; ++i)
    out += static_cast<char>((text.size() >> 8 * i) & 0xFF);
  return out + text;
}

std::string f8(const std::vector<double>& values) {
  std::string out;
  for (double v : values) {
    const auto bits = std::bit_cast<std::uint64_t>(v);
    for (int i = 0; i < 8; ++i) out += static_cast<char>((bits >> 8 * i) & 0xFF);
  }
  return out;
}

const std::vector<double> kQuatRows = {1,  2,   3, 1, 0, 0, 0,  //
                                       -1, 0.5, 0, 0, 0, 0, 2};
const std::vector<double> kMatrixRows = {0, -1, 0, 1, 1, 0, 0, 2, 0, 0, 1, 3, 0, 0, 0, 1,  //
                                         1, 0,  0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

std::string npy_error(const std::string& bytes, const std::vector<std::string>& objects = kOne) {
  return test::io_error_of([&] { read_text(bytes, PoseFormat::npy, objects); });
}

std::string piped_npy_error(const std::string& bytes) {
  return test::io_error_of([&] {
    PipeBuf buf(bytes);
    std::istream in(&buf);
    read_all(in, PoseFormat::npy, kOne, 1000, "poses");
  });
}

TEST(PoseNpy, ReadsQuaternionRowsInEveryVersion) {
  for (int major : {1, 2, 3}) {
    const std::string bytes = npy_header(npy_dict("(2, 7)"), major) + f8(kQuatRows);
    for (const bool piped : {false, true}) {
      PipeBuf buf(bytes);
      std::istringstream seekable(bytes);
      std::istream pipe(&buf);
      const std::vector<PoseRecord> r = read_all(
          piped ? pipe : static_cast<std::istream&>(seekable), PoseFormat::npy, kOne, 1, "p.npy");
      ASSERT_EQ(r.size(), 2u) << major;
      EXPECT_EQ(r[0].pose_id, "0");
      EXPECT_EQ(r[1].pose_id, "1");
      EXPECT_EQ(r[1].object, 0u);
      EXPECT_TRUE(same_pose(r[0].pose, pose_from_quaternion(1, 2, 3, 1, 0, 0, 0)));
      EXPECT_TRUE(same_pose(r[1].pose, pose_from_quaternion(-1, 0.5, 0, 0, 0, 0, 2)));
    }
  }
}

TEST(PoseNpy, ReadsMatrices) {
  const std::vector<PoseRecord> r =
      read_text(npy_header(npy_dict("(2,4,4)")) + f8(kMatrixRows), PoseFormat::npy);
  ASSERT_EQ(r.size(), 2u);
  std::array<double, 16> m;
  std::copy(kMatrixRows.begin(), kMatrixRows.begin() + 16, m.begin());
  EXPECT_TRUE(same_pose(r[0].pose, pose_from_matrix(m)));
  EXPECT_TRUE(same_pose(r[1].pose, Pose{}));
}

TEST(PoseNpy, EmptyArraysAreValid) {
  EXPECT_TRUE(read_text(npy_header(npy_dict("(0, 7)")), PoseFormat::npy).empty());
  EXPECT_TRUE(read_text(npy_header(npy_dict("(0, 4, 4)")), PoseFormat::npy).empty());
}

TEST(PoseNpy, ChunkSizesDoNotChangeTheSequence) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> values(7 * 5000);
  for (double& v : values) v = u(rng);
  const std::string bytes = npy_header(npy_dict("(5000, 7)")) + f8(values);
  const std::vector<PoseRecord> whole = read_text(bytes, PoseFormat::npy, kOne, 1u << 20);
  ASSERT_EQ(whole.size(), 5000u);
  for (std::size_t chunk : {1, 3, 4096, 4999}) {
    const std::vector<PoseRecord> parts = read_text(bytes, PoseFormat::npy, kOne, chunk);
    ASSERT_EQ(parts.size(), whole.size());
    for (std::size_t i = 0; i < whole.size(); ++i) {
      ASSERT_EQ(parts[i].pose_id, std::to_string(i));
      ASSERT_TRUE(same_pose(parts[i].pose, whole[i].pose)) << chunk << " " << i;
    }
  }
  const double* row = &values[7 * 4321];
  EXPECT_TRUE(same_pose(whole[4321].pose, pose_from_quaternion(row[0], row[1], row[2], row[3],
                                                               row[4], row[5], row[6])));
}

// What the progress line shows: the NPY header's row count, and the share of a seekable input's
// bytes read (none for a pipe).
TEST(PoseReaderApi, ProgressFromTheRowCountAndTheBytesRead) {
  std::vector<double> values(7 * 3000, 0.0);
  for (std::size_t i = 0; i < 3000; ++i) values[7 * i + 3] = 1;
  const std::string npy = npy_header(npy_dict("(3000, 7)")) + f8(values);
  std::string csv = kHeader;
  for (int i = 0; i < 100000; ++i) csv += std::to_string(i) + ",1,2,3,1,0,0,0\n";
  for (const bool piped : {false, true}) {
    for (const bool is_npy : {true, false}) {
      const std::string& bytes = is_npy ? npy : csv;
      PipeBuf buf(bytes);
      std::istringstream seekable(bytes);
      std::istream pipe(&buf);
      PoseReader reader(piped ? pipe : static_cast<std::istream&>(seekable), "p",
                        is_npy ? PoseFormat::npy : PoseFormat::csv, kOne);
      EXPECT_EQ(reader.record_count(), is_npy ? std::optional<std::uint64_t>(3000) : std::nullopt);
      std::vector<PoseRecord> part;
      ASSERT_TRUE(reader.next_chunk(part, 10));
      if (piped) {
        EXPECT_EQ(reader.fraction_read(), std::nullopt);
      } else {
        // A first buffer of the input is read, not the whole of it.
        ASSERT_TRUE(reader.fraction_read().has_value());
        EXPECT_GT(*reader.fraction_read(), 0.0);
        EXPECT_LT(*reader.fraction_read(), 1.0);
      }
      while (reader.next_chunk(part, 1000)) {
      }
      if (!piped) {
        EXPECT_EQ(reader.fraction_read(), 1.0);
      }
    }
  }
}

TEST(PoseNpy, HeaderErrors) {
  const std::string body = f8(kQuatRows);
  EXPECT_EQ(npy_error(""), "poses: empty file: expected a NumPy .npy header");
  EXPECT_EQ(npy_error("PK\x03\x04zipfile"),
            "poses: byte 0: bad magic: expected \\x93NUMPY (a NumPy .npy file)");
  std::string v4 = npy_header(npy_dict("(2, 7)")) + body;
  v4[6] = 4;
  EXPECT_EQ(npy_error(v4), "poses: byte 6: unsupported npy version 4.0 (expected 1.0, 2.0 or 3.0)");
  EXPECT_EQ(npy_error(std::string("\x93NUMPY\x01\x00\x10", 9)),
            "poses: byte 8: file truncated: expected the header length");
  EXPECT_EQ(npy_error(std::string("\x93NUMPY\x02\x00\x00\x00\x00\x01", 12)),
            "poses: byte 8: header length 16777216 exceeds 65536 bytes");
  const std::string header = npy_header(npy_dict("(2, 7)"));
  EXPECT_EQ(npy_error(header.substr(0, 50)),
            "poses: byte 50: file truncated: the header length says 118 bytes, the file ends "
            "after 40");
  EXPECT_EQ(npy_error(npy_header(npy_dict("(2, 7)", "'<f4'")) + body),
            "poses: byte 20: unsupported dtype '<f4' (expected '<f8', little-endian float64)");
  EXPECT_EQ(npy_error(npy_header(npy_dict("(2, 7)", "'>f8'")) + body),
            "poses: byte 20: unsupported dtype '>f8' (expected '<f8', little-endian float64)");
  EXPECT_EQ(npy_error(npy_header(npy_dict("(2,)", "[('a', '<f8')]")) + body),
            "poses: byte 20: unsupported dtype: a structured array (expected '<f8', "
            "little-endian float64)");
  EXPECT_EQ(npy_error(npy_header(npy_dict("(2, 7)", "'<f8'", "True")) + body),
            "poses: byte 44: fortran_order True is not supported (expected C order)");
  EXPECT_THAT(npy_error(npy_header(npy_dict("(7, 2)")) + body),
              HasSubstr("expected shape (N, 7) or (N, 4, 4), got (7, 2)"));
  EXPECT_EQ(npy_error(npy_header(npy_dict("(14,)")) + body),
            "poses: byte 60: expected shape (N, 7) or (N, 4, 4), got (14,)");
  EXPECT_THAT(npy_error(npy_header(npy_dict("(1, 2, 7)")) + body), HasSubstr("got (1, 2, 7)"));
  EXPECT_THAT(npy_error(npy_header(npy_dict("(2, 4, 3)")) + body), HasSubstr("got (2, 4, 3)"));
  EXPECT_THAT(npy_error(npy_header(npy_dict("()")) + body), HasSubstr("got ()"));
  EXPECT_EQ(npy_error(npy_header(npy_dict("(2, 7)"), 1) + body, kTwo),
            "poses: npy pose files carry no object column, but the batch has 2 objects");
}

TEST(PoseNpy, HeaderDictIsReadStrictly) {
  const std::string body = f8(kQuatRows);
  auto error_for = [&](const std::string& dict) { return npy_error(npy_header(dict) + body); };
  EXPECT_EQ(error_for("{'descr': '<f8', 'shape': (2, 7)}"),
            "poses: byte 10: header dict has no key 'fortran_order'");
  EXPECT_EQ(error_for("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2, 7)}"),
            "poses: byte 27: duplicate key 'descr'");
  EXPECT_EQ(error_for(npy_dict("(2, 7)").substr(0, 58) + "'extra': 1}"),
            "poses: byte 68: unexpected key 'extra' (expected descr, fortran_order and shape)");
  EXPECT_EQ(error_for("{'descr': '<f8', 'fortran_order': false, 'shape': (2, 7)}"),
            "poses: byte 44: expected True or False");
  EXPECT_EQ(error_for("{'descr': '<f8', 'fortran_order': False, 'shape': (2, -7)}"),
            "poses: byte 64: expected a non-negative integer in shape");
  EXPECT_EQ(error_for("{'descr': '<f8', 'fortran_order': False, 'shape': [2, 7]}"),
            "poses: byte 60: expected a tuple for shape");
  EXPECT_EQ(error_for("{'descr': '<f8' 'fortran_order': False, 'shape': (2, 7)}"),
            "poses: byte 26: expected ',' or '}' after a value");
  EXPECT_EQ(error_for("{'descr': '<\\f8', 'fortran_order': False, 'shape': (2, 7)}"),
            "poses: byte 22: unsupported character in a string");
  EXPECT_EQ(error_for("descr"), "poses: byte 10: expected '{' opening the header dict");
  EXPECT_EQ(error_for(npy_dict("(2, 7)") + " x"),
            "poses: byte 70: expected only spaces and a final newline after the header dict");
  EXPECT_EQ(error_for(npy_dict("(99999999999999999999, 7)")),
            "poses: byte 61: shape entry too large");
  // No final newline: the header's last byte is a space.
  std::string no_newline = npy_header(npy_dict("(2, 7)")) + body;
  no_newline[127] = ' ';
  EXPECT_EQ(npy_error(no_newline),
            "poses: byte 128: expected only spaces and a final newline after the header dict");
  // Double quotes and no spaces are as valid as NumPy's own spelling.
  EXPECT_EQ(
      read_text(npy_header("{\"descr\":\"<f8\",\"fortran_order\":False,\"shape\":(2,7)}") + body,
                PoseFormat::npy)
          .size(),
      2u);
}

TEST(PoseNpy, DataSizeMustMatchTheShape) {
  const std::string header = npy_header(npy_dict("(2, 7)"));  // 128 bytes
  const std::string body = f8(kQuatRows);
  EXPECT_EQ(npy_error(header + body.substr(0, 100)),
            "poses: byte 128: file truncated: shape (2, 7) needs 112 bytes of data but only 100 "
            "follow the header");
  EXPECT_EQ(npy_error(header + body + "xyz"),
            "poses: byte 240: 3 unexpected bytes after the last row");
  // A pipe cannot tell its size: the same problems are found while reading.
  EXPECT_EQ(piped_npy_error(header + body.substr(0, 100)),
            "poses: byte 228: file truncated in row 1 (shape says 2 rows of 56 bytes)");
  EXPECT_EQ(piped_npy_error(header + body + "xyz"),
            "poses: byte 240: unexpected bytes after the last row");
  EXPECT_EQ(piped_npy_error(npy_header(npy_dict("(0, 7)")) + "x"),
            "poses: byte 128: unexpected bytes after the last row");
}

TEST(PoseNpy, HugeShapeFailsFromTheHeaderWithoutAllocating) {
  const std::string body = f8(kQuatRows);
  for (const char* shape : {"(18446744073709551615, 7)", "(329406144173384850, 7)",
                            "(144115188075855871, 4, 4)", "(1000000000000, 7)"}) {
    const std::string bytes = npy_header(npy_dict(shape)) + body;
    std::istringstream in(bytes);
    test::reset_allocation_probe();
    const std::string error =
        test::io_error_of([&] { PoseReader(in, "big.npy", PoseFormat::npy, kOne); });
    EXPECT_LT(test::largest_allocation(), std::size_t{64 * 1024}) << shape;
    EXPECT_THAT(error, StartsWith("big.npy: byte 128: ")) << shape;
    EXPECT_THAT(error, AnyOf(HasSubstr("needs more than 2^64 bytes of data"),
                             HasSubstr("file truncated: shape")))
        << shape;
  }
}

TEST(PoseNpy, RowErrorsNameTheRowAndItsOffset) {
  const std::string header = npy_header(npy_dict("(2, 7)"));
  std::vector<double> rows = kQuatRows;
  rows[7 + 2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(npy_error(header + f8(rows)), "poses: byte 184: row 1: non-finite value in tz");
  rows = kQuatRows;
  rows[4] = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(npy_error(header + f8(rows)), "poses: byte 128: row 0: non-finite value in qx");
  rows = kQuatRows;
  rows[7] = -1e31;
  EXPECT_THAT(npy_error(header + f8(rows)),
              HasSubstr("row 1: translation tx = -1e+31 is beyond +-1e30"));
  rows = kQuatRows;
  rows[7 + 6] = 0;
  EXPECT_EQ(npy_error(header + f8(rows)), "poses: byte 184: row 1: quaternion is zero");

  const std::string mheader = npy_header(npy_dict("(2, 4, 4)"));
  std::vector<double> m = kMatrixRows;
  m[16 + 0] = 1.01;  // scaled, not a rotation
  EXPECT_EQ(npy_error(mheader + f8(m)),
            "poses: byte 256: row 1: matrix rotation is not orthonormal (|R^T R - I| = 0.0201 > "
            "1e-6)");
  m[16 + 0] = 1 + 7e-7;  // just beyond the tolerance: the value says so (it printed 0.000001)
  EXPECT_THAT(npy_error(mheader + f8(m)), HasSubstr("(|R^T R - I| = 1.4e-06 > 1e-6)"));
  m = kMatrixRows;
  m[16 + 0] = -1;  // a reflection
  EXPECT_EQ(npy_error(mheader + f8(m)),
            "poses: byte 256: row 1: matrix rotation has det <= 0 (a reflection)");
  m = kMatrixRows;
  m[14] = 0.5;
  EXPECT_EQ(npy_error(mheader + f8(m)), "poses: byte 128: row 0: matrix last row must be 0 0 0 1");
  m = kMatrixRows;
  m[16 + 7] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(npy_error(mheader + f8(m)), "poses: byte 256: row 1: non-finite value in m13");
}

// ---- files and standard input ---------------------------------------------------------------

class PoseFiles : public test::ScratchDirTest {
 protected:
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
};

TEST_F(PoseFiles, OpensByExtension) {
  const std::string csv = write("p.CSV", std::string(kHeader) + "a,1,2,3,1,0,0,0\n");
  const std::string npy = write("p.npy", npy_header(npy_dict("(2, 7)")) + f8(kQuatRows));
  std::vector<PoseRecord> out;
  PoseReader csv_reader(csv, kOne);
  ASSERT_TRUE(csv_reader.next_chunk(out, 10));
  EXPECT_EQ(out.size(), 1u);
  EXPECT_EQ(csv_reader.name(), csv);
  PoseReader npy_reader(npy, kOne);
  ASSERT_TRUE(npy_reader.next_chunk(out, 10));
  EXPECT_EQ(out.size(), 2u);
  // An explicit format overrides the extension.
  const std::string odd = write("poses.dat", std::string(kHeader) + "a,1,2,3,1,0,0,0\n");
  PoseReader odd_reader(odd, PoseFormat::csv, kOne);
  EXPECT_TRUE(odd_reader.next_chunk(out, 10));
}

// A name without an extension (a pipe: /dev/stdin, a shell's <(...)) is NumPy when it starts with
// NumPy's magic, else CSV; a bad CSV there is named as CSV's errors are.
TEST_F(PoseFiles, NameWithoutExtensionIsReadByContent) {
  std::vector<PoseRecord> out;
  PoseReader csv_reader(write("csv_poses", std::string(kHeader) + "a,1,2,3,1,0,0,0\n"), kOne);
  ASSERT_TRUE(csv_reader.next_chunk(out, 10));
  EXPECT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].pose_id, "a");
  PoseReader npy_reader(write("npy_poses", npy_header(npy_dict("(2, 7)")) + f8(kQuatRows)), kOne);
  ASSERT_TRUE(npy_reader.next_chunk(out, 10));
  EXPECT_EQ(out.size(), 2u);
  const std::string bad = write("bad_poses", "hello\n");
  EXPECT_THAT(test::io_error_of([&] { PoseReader reader(bad, kOne); }),
              HasSubstr("bad_poses: line 1: header: missing column"));
}

TEST_F(PoseFiles, MissingOrUnreadableFilesAreNamed) {
  const std::string missing = (dir_ / "none.csv").string();
  EXPECT_EQ(test::io_error_of([&] { PoseReader(missing, kOne); }),
            missing + ": cannot open (No such file or directory)");
  std::filesystem::create_directories(dir_ / "d.csv");
  EXPECT_EQ(test::io_error_of([&] { PoseReader((dir_ / "d.csv").string(), kOne); }),
            (dir_ / "d.csv").string() + ": cannot read (Is a directory)");
}

// Points file descriptor 0 at a file for the lifetime of the object.
class StdinFrom {
 public:
  explicit StdinFrom(const std::string& path) : saved_(::dup(0)) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    ::dup2(fd, 0);
    ::close(fd);
    reset();
  }
  ~StdinFrom() {
    ::dup2(saved_, 0);
    ::close(saved_);
    reset();
  }

 private:
  // The FILE may cache the old descriptor's offset; a seek drops that (and fails harmlessly
  // on a pipe or terminal when the original is restored).
  static void reset() {
    std::fseek(stdin, 0, SEEK_SET);
    std::clearerr(stdin);
    std::cin.clear();
  }
  int saved_;
};

TEST_F(PoseFiles, DashReadsNumPyByItsMagic) {
  StdinFrom in(write("in2.npy", npy_header(npy_dict("(2, 7)")) + f8(kQuatRows)));
  PoseReader reader("-", kOne);
  std::vector<PoseRecord> out;
  ASSERT_TRUE(reader.next_chunk(out, 10));
  EXPECT_EQ(out.size(), 2u);
  EXPECT_EQ(reader.name(), "<stdin>");
}

TEST_F(PoseFiles, DashReadsStandardInput) {
  {
    StdinFrom in(write("in.csv", std::string(kHeader) + "a,1,2,3,1,0,0,0\nb,1,2,3,1,0,0,0\n"));
    PoseReader reader("-", kOne);
    std::vector<PoseRecord> out;
    ASSERT_TRUE(reader.next_chunk(out, 10));
    EXPECT_EQ(out.size(), 2u);
    EXPECT_EQ(out[1].pose_id, "b");
    EXPECT_FALSE(reader.next_chunk(out, 10));
  }
  {
    StdinFrom in(write("bad.csv", std::string(kHeader) + "a,1,2,3,1,0,0\n"));
    EXPECT_EQ(test::io_error_of([] {
                PoseReader reader("-", kOne);
                std::vector<PoseRecord> out;
                reader.next_chunk(out, 10);
              }),
              "<stdin>: line 2: expected 8 fields as in the header, found 7");
  }
  {
    StdinFrom in(write("in.npy", npy_header(npy_dict("(2, 7)")) + f8(kQuatRows) + "x"));
    EXPECT_EQ(test::io_error_of([] { PoseReader("-", PoseFormat::npy, kOne); }),
              "<stdin>: byte 240: 1 unexpected byte after the last row");
  }
}

// Ten million poses must stream; a million rows through small chunks shows it in ~1 s.
TEST_F(PoseFiles, MillionRowCsvStreamsInSmallChunks) {
  constexpr std::size_t kRows = 1000000;
  const std::string path = (dir_ / "million.csv").string();
  {
    std::string text = "pose_id,tx,ty,tz,qw,qx,qy,qz\n";
    text.reserve(kRows * 40);
    for (std::size_t i = 0; i < kRows; ++i) {
      text += 'p';
      text += std::to_string(i);
      text += ',';
      text += std::to_string(i % 1000);
      text += ",0.5,-2,1,0,0,";
      text += std::to_string(i % 7);
      text += '\n';
    }
    std::ofstream(path, std::ios::binary) << text;
  }
  PoseReader reader(path, kOne);
  std::vector<PoseRecord> chunk;
  std::uint64_t count = 0;
  double tx_sum = 0;
  while (reader.next_chunk(chunk, 4093)) {
    ASSERT_LE(chunk.size(), 4093u);
    ASSERT_EQ(chunk.front().pose_id.substr(1), std::to_string(count));
    count += chunk.size();
    for (const PoseRecord& r : chunk) tx_sum += r.pose.t[0];
  }
  EXPECT_EQ(count, kRows);
  EXPECT_EQ(reader.records_read(), kRows);
  EXPECT_EQ(tx_sum, 1000.0 * (999.0 * 1000 / 2));
}

}  // namespace
}  // namespace kdop
