#include "io/atomic_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "io/io_error.hpp"

namespace kdop {

std::string OutputTarget::temporary() const {
  // The pid keeps concurrent writers of the same path from sharing a temporary file.
  return file + ".tmp." + std::to_string(::getpid());
}

OutputTarget resolve_output(const std::string& path) {
  OutputTarget target;
  target.file = path;
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) return target;  // a new file (or a missing folder)
  // A link's target, through every link on the way (a dangling link names a new file there).
  std::filesystem::path file = path;
  for (int hops = 0; S_ISLNK(link.st_mode); ++hops) {
    std::error_code ec;
    const std::filesystem::path next = std::filesystem::read_symlink(file, ec);
    if (ec || hops == 40) {
      throw IoError::in_file(path, "cannot follow the symbolic link (" +
                                       (ec ? ec.message() : std::string("too many levels")) + ")");
    }
    file = next.is_absolute() ? next : file.parent_path() / next;
    target.file = file.string();
    if (::lstat(target.file.c_str(), &link) != 0) return target;
  }
  struct stat st {};
  if (::stat(target.file.c_str(), &st) != 0) return target;
  if (S_ISDIR(st.st_mode)) throw IoError::in_file(path, "is a folder, expected a file");
  if (!S_ISREG(st.st_mode)) {
    target.in_place = true;
    return target;
  }
  target.existed = true;
  target.permissions = st.st_mode & 07777;
  return target;
}

AtomicFileWriter::AtomicFileWriter(std::string path)
    : path_(std::move(path)), target_(resolve_output(path_)) {
  written_ = target_.in_place ? target_.file : target_.temporary();
  file_ = std::fopen(written_.c_str(), "wb");
  if (file_ == nullptr) fail("cannot create " + written_, errno);
  // Callers hand over large blocks; a second buffer would only copy them again.
  std::setvbuf(file_, nullptr, _IONBF, 0);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (file_ != nullptr) std::fclose(file_);
  if (!committed_ && !target_.in_place) std::remove(written_.c_str());
}

void AtomicFileWriter::write(std::string_view bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    fail("cannot write " + written_, errno);
  }
}

void AtomicFileWriter::commit() {
  // fsync before rename: otherwise a crash can leave the new name pointing at an empty file.
  // A device or FIFO is neither synced nor renamed.
  const int fd = ::fileno(file_);
  bool done = std::fflush(file_) == 0 && (target_.in_place || ::fsync(fd) == 0);
  int error = errno;
  if (done && target_.existed && ::fchmod(fd, target_.permissions) != 0) {
    done = false;
    error = errno;
  }
  const bool closed = std::fclose(file_) == 0;
  const int close_error = errno;
  file_ = nullptr;
  if (!done) fail("cannot write " + written_, error);
  if (!closed) fail("cannot write " + written_, close_error);
  if (!target_.in_place && std::rename(written_.c_str(), target_.file.c_str()) != 0) {
    fail("cannot rename " + written_, errno);
  }
  committed_ = true;
}

void AtomicFileWriter::fail(const std::string& what, int error) const {
  throw IoError::in_file(path_,
                         what + " (" + (error != 0 ? std::strerror(error) : "unknown error") + ")");
}

void write_file_atomic(const std::string& path, std::string_view bytes) {
  AtomicFileWriter file(path);
  file.write(bytes);
  file.commit();
}

}  // namespace kdop
