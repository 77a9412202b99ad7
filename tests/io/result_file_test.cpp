// Result files: exact CSV and JSON text, JSON that Python parses, and atomic replacement.
#include "io/result_file.hpp"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "io/io_error.hpp"
#include "tests/support/reader_checks.hpp"
#include "tests/support/scratch_dir.hpp"

namespace kdop {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

ResultRow colliding() {
  return {.pose_id = "p0",
          .object = "tool",
          .collides = true,
          .contacts = 3,
          .n_v = 10,
          .n_p = 20,
          .n_u = 5,
          .time_us = 1.5,
          .has_witness = true,
          .witness_env = 7,
          .witness_object = 4294967295u};
}

ResultRow free_pose() {
  return {
      .pose_id = "p,1", .object = "holder \"x\"", .n_v = 1, .n_p = 2, .n_u = 3, .time_us = 0.0004};
}

std::string written(ResultFormat format, bool object, bool witness,
                    std::initializer_list<ResultRow> rows) {
  std::ostringstream out;
  ResultWriter writer(out, "mem", format, object, witness);
  for (const ResultRow& row : rows) writer.write(row);
  EXPECT_EQ(out.str(), "");  // buffered until commit (or 1 MiB)
  writer.commit();
  EXPECT_EQ(writer.rows_written(), rows.size());
  return out.str();
}

TEST(ResultFormatFromPath, Extensions) {
  EXPECT_EQ(result_format_from_path("out/r.csv"), ResultFormat::csv);
  EXPECT_EQ(result_format_from_path("R.JSON"), ResultFormat::json);
  EXPECT_EQ(test::io_error_of([] { result_format_from_path("r.txt"); }),
            "r.txt: unknown extension '.txt' (expected .csv or .json)");
  EXPECT_EQ(test::io_error_of([] { result_format_from_path("results"); }),
            "results: no file extension (expected .csv or .json)");
}

TEST(ResultCsv, ExactText) {
  EXPECT_EQ(written(ResultFormat::csv, true, true, {colliding(), free_pose()}),
            "pose_id,object,collides,contacts,n_v,n_p,n_u,time_us,env_triangle,object_triangle\n"
            "p0,tool,1,3,10,20,5,1.500,7,4294967295\n"
            "\"p,1\",\"holder \"\"x\"\"\",0,0,1,2,3,0.000,,\n");
  EXPECT_EQ(written(ResultFormat::csv, false, false, {colliding(), free_pose()}),
            "pose_id,collides,contacts,n_v,n_p,n_u,time_us\n"
            "p0,1,3,10,20,5,1.500\n"
            "\"p,1\",0,0,1,2,3,0.000\n");
  EXPECT_EQ(written(ResultFormat::csv, false, true, {}),
            "pose_id,collides,contacts,n_v,n_p,n_u,time_us,env_triangle,object_triangle\n");
}

TEST(ResultCsv, TimesHaveThreeDecimalsAndNonFiniteIsEmpty) {
  ResultRow r = free_pose();
  r.pose_id = "t";
  std::string text;
  for (double t : {0.0005, 12345.6789, 1e-9, std::numeric_limits<double>::quiet_NaN(),
                   std::numeric_limits<double>::infinity(), std::numeric_limits<double>::max()}) {
    r.time_us = t;
    text = written(ResultFormat::csv, false, false, {r});
    const std::string line = text.substr(text.find('\n') + 1);
    const std::string time = line.substr(line.rfind(',') + 1);
    if (!std::isfinite(t)) {
      EXPECT_EQ(time, "\n");
    } else if (t == std::numeric_limits<double>::max()) {
      EXPECT_EQ(time.size(), 309u + 5u);  // 309 digits, ".000", '\n'
    } else {
      EXPECT_EQ(time, t == 0.0005 ? "0.001\n" : t == 1e-9 ? "0.000\n" : "12345.679\n");
    }
  }
}

TEST(ResultJson, ExactText) {
  EXPECT_EQ(written(ResultFormat::json, true, true, {colliding(), free_pose()}),
            "[\n"
            "{\"pose_id\":\"p0\",\"object\":\"tool\",\"collides\":true,\"contacts\":3,\"n_v\":10,"
            "\"n_p\":20,\"n_u\":5,\"time_us\":1.500,\"env_triangle\":7,"
            "\"object_triangle\":4294967295},\n"
            "{\"pose_id\":\"p,1\",\"object\":\"holder \\\"x\\\"\",\"collides\":false,"
            "\"contacts\":0,\"n_v\":1,\"n_p\":2,\"n_u\":3,\"time_us\":0.000,\"env_triangle\":null,"
            "\"object_triangle\":null}\n"
            "]\n");
  EXPECT_EQ(written(ResultFormat::json, false, false, {colliding()}),
            "[\n{\"pose_id\":\"p0\",\"collides\":true,\"contacts\":3,\"n_v\":10,\"n_p\":20,"
            "\"n_u\":5,\"time_us\":1.500}\n]\n");
  EXPECT_EQ(written(ResultFormat::json, true, true, {}), "[]\n");
  ResultRow r = colliding();
  r.time_us = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(written(ResultFormat::json, false, false, {r}), HasSubstr("\"time_us\":null}"));
}

// Quote, backslash, newline, a control byte, UTF-8 and a byte that is not UTF-8.
const std::string kNastyId = std::string("a\"b\\c\nd\x01") + "\xc3\xa9" + "\xff";

TEST(ResultJson, EscapesStringsAndReplacesInvalidUtf8) {
  ResultRow r = colliding();
  r.pose_id = kNastyId;
  EXPECT_THAT(written(ResultFormat::json, false, false, {r}),
              HasSubstr("{\"pose_id\":\"a\\\"b\\\\c\\nd\\u0001\xc3\xa9\xef\xbf\xbd\","));
}

TEST(ResultWriterApi, MisuseAndStreamFailure) {
  std::ostringstream out;
  ResultWriter writer(out, "mem", ResultFormat::csv, false, false);
  writer.commit();
  EXPECT_THROW(writer.write(colliding()), std::logic_error);
  EXPECT_THROW(writer.commit(), std::logic_error);

  std::ostream broken(nullptr);  // every write fails
  ResultWriter bad(broken, "<stdout>", ResultFormat::csv, false, false);
  bad.write(colliding());
  EXPECT_THAT(test::io_error_of([&] { bad.commit(); }), HasSubstr("<stdout>: cannot write"));
}

class ResultFiles : public test::ScratchDirTest {
 protected:
  std::ptrdiff_t entries() const {
    return std::distance(std::filesystem::directory_iterator(dir_),
                         std::filesystem::directory_iterator());
  }
};

TEST_F(ResultFiles, NoFileUntilCommitThenExactlyOne) {
  const std::string path = (dir_ / "r.csv").string();
  std::filesystem::path tmp;
  {
    ResultWriter writer(path, ResultFormat::csv, true, true);
    ResultRow r = colliding();
    for (int i = 0; i < 60000; ++i) writer.write(r);  // > 1 MiB: some is flushed already
    EXPECT_FALSE(std::filesystem::exists(path));
    ASSERT_EQ(entries(), 1);
    tmp = std::filesystem::directory_iterator(dir_)->path();
    EXPECT_EQ(tmp.string(), path + ".tmp." + std::to_string(::getpid()));
    EXPECT_GT(std::filesystem::file_size(tmp), 0u);
    writer.commit();
  }
  EXPECT_FALSE(std::filesystem::exists(tmp));
  EXPECT_EQ(entries(), 1);
  const std::string text = slurp(path);
  const std::string line = "p0,tool,1,3,10,20,5,1.500,7,4294967295\n";
  EXPECT_EQ(text.size(), 82 + 60000 * line.size());
  EXPECT_EQ(text.substr(text.size() - line.size()), line);
  // A second run replaces the file.
  {
    ResultWriter writer(path, ResultFormat::json, false, false);
    writer.commit();
  }
  EXPECT_EQ(slurp(path), "[]\n");
}

TEST_F(ResultFiles, DestroyedWithoutCommitLeavesNothing) {
  const std::string path = (dir_ / "r.json").string();
  {
    ResultWriter writer(path, ResultFormat::json, false, false);
    for (int i = 0; i < 60000; ++i) writer.write(colliding());
  }
  EXPECT_EQ(entries(), 0);
  // An existing file survives a failed rewrite untouched.
  std::ofstream(path) << "old";
  {
    ResultWriter writer(path, ResultFormat::json, false, false);
    writer.write(colliding());
  }
  EXPECT_EQ(slurp(path), "old");
  EXPECT_EQ(entries(), 1);
}

TEST_F(ResultFiles, UnwritableDestinationsThrowIoError) {
  const std::string missing = (dir_ / "no_such_dir" / "r.csv").string();
  EXPECT_EQ(test::io_error_of([&] { ResultWriter(missing, ResultFormat::csv, false, false); }),
            missing + ": cannot create " + missing + ".tmp." + std::to_string(::getpid()) +
                " (No such file or directory)");
  // A folder in the way is refused at once; one that appears while the rows are written makes
  // the final rename fail, and the temporary goes.
  const std::string taken = (dir_ / "taken.csv").string();
  std::filesystem::create_directories(dir_ / "taken.csv");
  EXPECT_EQ(test::io_error_of([&] { ResultWriter(taken, ResultFormat::csv, false, false); }),
            taken + ": is a folder, expected a file");
  std::filesystem::remove(dir_ / "taken.csv");
  EXPECT_THAT(test::io_error_of([&] {
                ResultWriter writer(taken, ResultFormat::csv, false, false);
                writer.write(colliding());
                std::filesystem::create_directories(dir_ / "taken.csv" / "child");
                writer.commit();
              }),
              HasSubstr(taken + ": cannot rename " + taken + ".tmp."));
  EXPECT_EQ(entries(), 1);
}

// A full disk, simulated with a file size limit (SIGXFSZ ignored so write() fails instead).
TEST_F(ResultFiles, FullDiskThrowsIoErrorAndLeavesNothing) {
  const std::string path = (dir_ / "r.csv").string();
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  rlimit small = old;
  small.rlim_cur = 64 * 1024;
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::string error = test::io_error_of([&] {
    ResultWriter writer(path, ResultFormat::csv, true, true);
    for (int i = 0; i < 100000; ++i) writer.write(colliding());
    writer.commit();
  });
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_THAT(error, AllOf(HasSubstr(path + ": cannot write " + path + ".tmp."),
                           HasSubstr("(File too large)")));
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_EQ(entries(), 0);
}

// Points file descriptor 1 at a file for the lifetime of the object.
class StdoutTo {
 public:
  explicit StdoutTo(const std::string& path) {
    std::cout.flush();
    std::fflush(stdout);
    saved_ = ::dup(1);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::close(fd);
  }
  ~StdoutTo() {
    std::cout.flush();
    std::fflush(stdout);
    ::dup2(saved_, 1);
    ::close(saved_);
  }

 private:
  int saved_ = -1;
};

TEST_F(ResultFiles, EmptyPathWritesStandardOutput) {
  const std::string captured = (dir_ / "stdout.txt").string();
  {
    StdoutTo redirect(captured);
    ResultWriter writer("", ResultFormat::csv, false, false);
    writer.write(colliding());
    writer.commit();
  }
  EXPECT_EQ(slurp(captured),
            "pose_id,collides,contacts,n_v,n_p,n_u,time_us\np0,1,3,10,20,5,1.500\n");
}

TEST_F(ResultFiles, JsonParsesWithPython) {
  if (std::system("python3 -c pass >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
  const std::string path = (dir_ / "r.json").string();
  {
    ResultWriter writer(path, ResultFormat::json, true, true);
    ResultRow r = colliding();
    r.pose_id = kNastyId;
    writer.write(r);
    for (int i = 1; i < 1000; ++i) writer.write(i % 2 ? free_pose() : colliding());
    writer.commit();
  }
  const std::string script = (dir_ / "check.py").string();
  std::ofstream(script) << R"(import json, sys
rows = json.load(open(sys.argv[1], encoding="utf-8"))
assert isinstance(rows, list) and len(rows) == 1000, len(rows)
keys = ["pose_id", "object", "collides", "contacts", "n_v", "n_p", "n_u", "time_us",
        "env_triangle", "object_triangle"]
assert all(list(r.keys()) == keys for r in rows)
assert rows[0]["pose_id"] == 'a"b\\c\nd\x01\u00e9\ufffd', repr(rows[0]["pose_id"])
assert rows[0]["object_triangle"] == 4294967295 and rows[0]["collides"] is True
assert rows[1]["object"] == 'holder "x"' and rows[1]["env_triangle"] is None
assert rows[1]["time_us"] == 0.0 and rows[2]["time_us"] == 1.5
)";
  const std::string command = "python3 " + script + " " + path + " 2>" + (dir_ / "err").string();
  EXPECT_EQ(std::system(command.c_str()), 0) << slurp(dir_ / "err");
}

}  // namespace
}  // namespace kdop
