#pragma once
// Output files that nobody sees half-written. Bytes for a regular file (or a new name) go to
// "<file>.tmp.<pid>" in the same folder, created with the replaced file's permission bits (0666
// less the umask for a new one), renamed over the file by commit(). What a path names decides
// where the bytes go:
//   - a symbolic link: its target is replaced, and the link stays (as the shell's `>` does);
//   - a device or FIFO (/dev/null, a named pipe): written in place, since renaming over it would
//     put a regular file where it was; a FIFO waits for its reader, as the shell's `>` does;
//   - an open descriptor by name (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N): written
//     through that descriptor, so a pipe gets the bytes and `>>` appends;
//   - a folder: an IoError before anything is written.
// In place, nothing is atomic: an error or an interrupt can leave part of the output there.
// Errors are IoErrors naming the path the caller gave.
#include <sys/types.h>

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kdop {

struct OutputTarget {
  std::string file;        // the file written: a symbolic link's target, else the path itself
  bool in_place = false;   // a device, a FIFO or an open descriptor: written directly
  int descriptor = -1;     // the open descriptor the path names (/dev/stdout: 1), else -1
  bool existed = false;    // a regular file was there: its permission bits are kept
  mode_t permissions = 0;  // of the file that was there
  std::string temporary() const;  // "<file>.tmp.<pid>"; unused in place
};

// Where `path`'s bytes would go; throws IoError when it names a folder.
OutputTarget resolve_output(const std::string& path);

// True when `path` has no extension and names a device, a FIFO or an open descriptor
// (/dev/stdout): written in place, with no name to pick a format by, so the writer's default
// format applies (CSV results, JSON reports, SVG plots).
bool is_stream_without_extension(const std::string& path);

class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();  // uncommitted (an error, an exception): the temporary is removed
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(std::string_view bytes);
  // Flushes, syncs to disk and closes (in place: flushes): every write error shows here, and the
  // temporary is still removed if commit() never comes. Idempotent.
  void finish();
  // finish(), then renames; after it the writer holds nothing.
  void commit();

  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const std::string& what, int error) const;

  std::string path_;  // as the caller named it, for messages
  OutputTarget target_;
  std::string written_;  // the temporary, or the target itself in place
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

// All of `bytes` to `path` through an AtomicFileWriter: never a partial file.
void write_file_atomic(const std::string& path, std::string_view bytes);

// One of a command's outputs: `write` puts its bytes into the writer (and does not commit).
struct PendingOutput {
  std::string path;
  std::function<void(AtomicFileWriter&)> write;
};

// A command's outputs together: every temporary is created, written and synced before any is
// renamed, so an output that cannot be created or written (a folder gone, a full disk, /dev/full)
// leaves none of them, and replaces no earlier file. (Only a rename failing part-way could.)
void write_outputs_atomic(const std::vector<PendingOutput>& outputs);

}  // namespace kdop
