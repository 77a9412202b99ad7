// Atomic output files: nothing half-written, and what a path names (a link, a FIFO, a folder,
// a file with its permission bits) is respected.
#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <string>

#include "io/io_error.hpp"
#include "tests/support/scratch_dir.hpp"

namespace kdop {
namespace {

using ::testing::HasSubstr;

class WriteFileAtomic : public test::ScratchDirTest {
 protected:
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir_),
                                                  std::filesystem::directory_iterator()));
  }
};

TEST_F(WriteFileAtomic, WritesAndReplacesLeavingNoTemporary) {
  const std::string path = (dir_ / "out.bin").string();
  const std::string bytes("binary\0data", 11);
  write_file_atomic(path, bytes);
  EXPECT_EQ(slurp(path), bytes);
  write_file_atomic(path, "second");
  EXPECT_EQ(slurp(path), "second");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(WriteFileAtomic, FailureThrowsAndLeavesNothingBehind) {
  const std::string missing = (dir_ / "no_such_dir" / "out.stl").string();
  try {
    write_file_atomic(missing, "x");
    ADD_FAILURE() << "no IoError";
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr(missing + ": cannot create"));
    EXPECT_THAT(e.what(), HasSubstr("No such file or directory"));
  }
  // A folder in the way is an error too, and leaves nothing.
  std::filesystem::create_directories(dir_ / "taken" / "child");
  EXPECT_THROW(write_file_atomic((dir_ / "taken").string(), "x"), IoError);
  EXPECT_EQ(entries(), 1u);
}

TEST_F(WriteFileAtomic, OutputsTogetherAreAllOrNone) {
  // The second output cannot be created, or fails when written: the first, an existing file,
  // keeps its old bytes, and no temporary stays.
  const std::string report = (dir_ / "report.json").string();
  write_file_atomic(report, "old");
  auto put = [](const char* bytes) { return [=](AtomicFileWriter& f) { f.write(bytes); }; };
  const std::string missing = (dir_ / "no_such_dir" / "plot.svg").string();
  EXPECT_THROW(write_outputs_atomic({{report, put("new")}, {missing, put("plot")}}), IoError);
  EXPECT_EQ(slurp(report), "old");
  EXPECT_EQ(entries(), 1u);
  if (::access("/dev/full", W_OK) == 0) {
    EXPECT_THROW(write_outputs_atomic({{report, put("new")}, {"/dev/full", put("plot")}}), IoError);
    EXPECT_EQ(slurp(report), "old");
    EXPECT_EQ(entries(), 1u);
  }
  // Both can be written: both are.
  const std::string plot = (dir_ / "plot.svg").string();
  write_outputs_atomic({{report, put("new")}, {plot, put("plot")}});
  EXPECT_EQ(slurp(report), "new");
  EXPECT_EQ(slurp(plot), "plot");
  EXPECT_EQ(entries(), 2u);
}

TEST_F(WriteFileAtomic, ReplacesALinksTargetAndKeepsTheLink) {
  // A relative link to a link in a sub-folder, the last one dangling: the file appears at the end
  // of the chain, and both links stay links.
  std::filesystem::create_directories(dir_ / "sub");
  std::filesystem::create_symlink("../target.csv", dir_ / "sub" / "inner.csv");
  std::filesystem::create_symlink("sub/inner.csv", dir_ / "outer.csv");
  const std::string outer = (dir_ / "outer.csv").string();
  write_file_atomic(outer, "first");
  write_file_atomic(outer, "second");
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ / "outer.csv"));
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ / "sub" / "inner.csv"));
  EXPECT_EQ(slurp(dir_ / "target.csv"), "second");
  EXPECT_EQ(entries(), 3u);  // outer.csv, sub, target.csv: no temporary
}

TEST_F(WriteFileAtomic, AFifoIsWrittenInPlaceNotReplaced) {
  const std::string fifo = (dir_ / "pipe").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A reader opened first (non-blocking), so the writer's open does not wait for one.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  const OutputTarget target = resolve_output(fifo);
  EXPECT_TRUE(target.in_place);
  write_file_atomic(fifo, "through the pipe");
  char buffer[64] = {};
  const ssize_t n = ::read(reader, buffer, sizeof buffer);
  ::close(reader);
  EXPECT_EQ(std::string(buffer, static_cast<std::size_t>(std::max<ssize_t>(n, 0))),
            "through the pipe");
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(WriteFileAtomic, KeepsTheReplacedFilesPermissionBits) {
  const std::filesystem::path path = dir_ / "private.csv";
  write_file_atomic(path.string(), "old");
  // 0604: no umask gives it, so only the writer's own mode can.
  using std::filesystem::perms;
  const perms bits = perms::owner_read | perms::owner_write | perms::others_read;
  std::filesystem::permissions(path, bits);
  write_file_atomic(path.string(), "new");
  EXPECT_EQ(slurp(path), "new");
  EXPECT_EQ(std::filesystem::status(path).permissions(), bits);
}

// /dev/stdout, /dev/fd/1 and /proc/self/fd/1 name the descriptor, not a file: with standard
// output appending to a file, the bytes are appended there, not written over it by a rename.
TEST_F(WriteFileAtomic, AnOpenDescriptorByNameIsWrittenThroughIt) {
  const std::string log = (dir_ / "log.txt").string();
  write_file_atomic(log, "header\n");
  std::string expected = "header\n", errors;
  for (const char* name : {"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}) {
    EXPECT_EQ(resolve_output(name).descriptor, 1) << name;
    std::fflush(stdout);
    const int saved = ::dup(STDOUT_FILENO);
    const int appending = ::open(log.c_str(), O_WRONLY | O_APPEND);
    ASSERT_GE(saved, 0);
    ASSERT_GE(appending, 0);
    ::dup2(appending, STDOUT_FILENO);
    ::close(appending);
    try {
      write_file_atomic(name, std::string(name) + "\n");
    } catch (const IoError& e) {
      errors += e.what();
    }
    std::fflush(stdout);
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    expected += std::string(name) + "\n";
  }
  EXPECT_EQ(errors, "");
  EXPECT_EQ(slurp(log), expected);
  EXPECT_TRUE(std::filesystem::is_regular_file(log));
  EXPECT_EQ(entries(), 1u);
  EXPECT_EQ(resolve_output("/dev/stderr").descriptor, 2);
  EXPECT_EQ(resolve_output((dir_ / "fd" / "1").string()).descriptor, -1);
}

TEST_F(WriteFileAtomic, AFolderIsRefusedBeforeAnythingIsWritten) {
  std::filesystem::create_directories(dir_ / "taken.csv");
  try {
    AtomicFileWriter writer((dir_ / "taken.csv").string());
    ADD_FAILURE() << "no IoError";
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("taken.csv: is a folder, expected a file"));
  }
  EXPECT_EQ(entries(), 1u);
}

TEST_F(WriteFileAtomic, AnUncommittedWriterLeavesTheOldFile) {
  const std::string path = (dir_ / "kept.csv").string();
  write_file_atomic(path, "old");
  {
    AtomicFileWriter writer(path);
    writer.write("half of a new one");
  }
  EXPECT_EQ(slurp(path), "old");
  EXPECT_EQ(entries(), 1u);
}

}  // namespace
}  // namespace kdop
