#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string_view>
#include <system_error>

#include "io/file_extension.hpp"
#include "io/io_error.hpp"

namespace kdop {
namespace {

// The descriptor N a path names as /dev/stdout (1), /dev/stderr (2), /dev/fd/N or
// /proc/self/fd/N, else -1.
int open_descriptor(const std::string& path) {
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!path.starts_with(prefix)) continue;
    int n = -1;
    const char* first = path.data() + prefix.size();
    const char* last = path.data() + path.size();
    const auto [end, ec] = std::from_chars(first, last, n);
    if (ec == std::errc() && end == last && first != last && n >= 0) return n;
  }
  return -1;
}

}  // namespace

std::string OutputTarget::temporary() const {
  // The pid keeps concurrent writers of the same path from sharing a temporary file.
  return file + ".tmp." + std::to_string(::getpid());
}

OutputTarget resolve_output(const std::string& path) {
  OutputTarget target;
  target.file = path;
  // A link's target, through every link on the way (a dangling link names a new file there). A
  // descriptor's name (/dev/stdout is a link to /proc/self/fd/1) stops the walk: its link text
  // names no path (pipe:[…]) or names a file the descriptor may append to.
  std::filesystem::path file = path;
  for (int hops = 0;; ++hops) {
    target.descriptor = open_descriptor(file.string());
    if (target.descriptor >= 0) {
      target.in_place = true;
      return target;
    }
    struct stat link {};
    if (::lstat(file.c_str(), &link) != 0) break;  // a new file (or a missing folder)
    if (!S_ISLNK(link.st_mode)) break;
    std::error_code ec;
    const std::filesystem::path next = std::filesystem::read_symlink(file, ec);
    if (ec || hops == 40) {
      throw IoError::in_file(path, "cannot follow the symbolic link (" +
                                       (ec ? ec.message() : std::string("too many levels")) + ")");
    }
    file = next.is_absolute() ? next : file.parent_path() / next;
  }
  target.file = file.string();
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

bool is_stream_without_extension(const std::string& path) {
  if (!lowercase_extension(path).empty()) return false;
  try {
    return resolve_output(path).in_place;
  } catch (const IoError&) {
    return false;  // a folder, a link loop: the writer reports it
  }
}

AtomicFileWriter::AtomicFileWriter(std::string path)
    : path_(std::move(path)), target_(resolve_output(path_)) {
  int fd = -1;
  if (target_.descriptor >= 0) {
    written_ = target_.file;
    fd = ::fcntl(target_.descriptor, F_DUPFD_CLOEXEC, 0);
  } else if (target_.in_place) {
    written_ = target_.file;
    fd = ::open(written_.c_str(), O_WRONLY | O_CLOEXEC);
  } else {
    written_ = target_.temporary();
    // Created private to this run and with the replaced file's bits from the start, so a file
    // that was private is never readable by others while it is written. O_EXCL: never write
    // through whatever already holds the name (a temporary left by a crash, a planted link).
    const mode_t mode = target_.existed ? (target_.permissions & 0777) : 0666;
    for (int attempt = 0; attempt < 2 && fd < 0; ++attempt) {
      fd = ::open(written_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
      if (fd < 0 && errno == EEXIST && attempt == 0) ::unlink(written_.c_str());
    }
    // The umask may have taken bits the replaced file had (and open ignores the set-id and
    // sticky bits); best effort, as some file systems (vfat, some network mounts) refuse modes.
    if (fd >= 0 && target_.existed) {
      [[maybe_unused]] const int ignored = ::fchmod(fd, target_.permissions);
    }
  }
  if (fd < 0) fail("cannot create " + written_, errno);
  file_ = ::fdopen(fd, "wb");
  if (file_ == nullptr) {
    const int error = errno;
    ::close(fd);
    if (!target_.in_place) ::unlink(written_.c_str());
    fail("cannot create " + written_, error);
  }
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

void AtomicFileWriter::finish() {
  if (file_ == nullptr) return;
  // fsync before rename: otherwise a crash can leave the new name pointing at an empty file.
  // In place (a device, a FIFO, a descriptor) nothing is synced or renamed.
  const bool synced =
      std::fflush(file_) == 0 && (target_.in_place || ::fsync(::fileno(file_)) == 0);
  const int sync_error = errno;
  const bool closed = std::fclose(file_) == 0;
  const int close_error = errno;
  file_ = nullptr;
  if (!synced) fail("cannot write " + written_, sync_error);
  if (!closed) fail("cannot write " + written_, close_error);
}

void AtomicFileWriter::commit() {
  finish();
  if (!target_.in_place && std::rename(written_.c_str(), target_.file.c_str()) != 0) {
    fail("cannot rename " + written_, errno);
  }
  committed_ = true;
}

void AtomicFileWriter::fail(const std::string& what, int error) const {
  // "<path>: cannot write <temporary>", but not "<path>: cannot write <path>" in place.
  const std::string text = written_ == path_ && what.ends_with(" " + written_)
                               ? what.substr(0, what.size() - written_.size() - 1)
                               : what;
  throw IoError::in_file(path_, error != 0 ? text + " (" + errno_text(error) + ")" : text);
}

void write_file_atomic(const std::string& path, std::string_view bytes) {
  AtomicFileWriter file(path);
  file.write(bytes);
  file.commit();
}

void write_outputs_atomic(const std::vector<PendingOutput>& outputs) {
  std::vector<std::unique_ptr<AtomicFileWriter>> files;
  for (const PendingOutput& o : outputs)
    files.push_back(std::make_unique<AtomicFileWriter>(o.path));
  for (std::size_t i = 0; i < outputs.size(); ++i) outputs[i].write(*files[i]);
  for (const auto& file : files) file->finish();  // every write error before any rename
  for (const auto& file : files) file->commit();
}

}  // namespace kdop
